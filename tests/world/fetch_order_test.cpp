// Targets beyond "the nearest": a group's leader and centroid, and fetch orders (a trail boss's
// brain sends the free rider nearest to a stray after it; the rider's FETCH_STRAY herds the agent
// it was ordered to fetch; the order ends when that agent is home). Orders are written serially,
// so any thread count gives the same world.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>

#include "world/brain_think.h"
#include "world/world.h"

namespace steerd {
namespace {

using steer::Vec2;

constexpr ArchetypeIndex kCow = 0, kStray = 1, kRider = 2, kBoss = 3;

BehaviourSpec spec(BehaviourKind kind) {
  BehaviourSpec s;
  s.kind = kind;
  return s;
}

// cow (herd), stray (flees riders within 15 m), rider (FETCH_STRAY of the stray it was ordered to
// fetch; with `riderBrain`, a brain: "ride" -> "fetch" on has_order, back on has_order false),
// boss (gives one order per think: strays beyond `metres` of the cows' centroid, to riders, at
// most `atOnce` of its orders in force).
std::vector<Archetype> ranch(float metres, bool riderBrain = false, std::uint32_t atOnce = 3) {
  Archetype cow;
  cow.name = "cow";
  cow.limits = {0.8f, 1.0f, 2.0f, 6.0f, 2.0f * steer::kPi};
  cow.flock.radius = 10.0f;
  cow.behaviours = {spec(BehaviourKind::kSeparation), spec(BehaviourKind::kCohesion)};
  Archetype stray = cow;
  stray.name = "stray";
  stray.limits.maxSpeed = 2.5f;
  BehaviourSpec flee = spec(BehaviourKind::kEvadeNearest);
  flee.targetArchetype = kRider;
  flee.range = 15.0f;
  flee.weight = 3.0f;
  stray.behaviours = {flee, spec(BehaviourKind::kSeparation)};
  Archetype rider;
  rider.name = "rider";
  rider.limits = {1.0f, 1.0f, 5.0f, 14.0f, 4.0f * steer::kPi / 3.0f};
  BehaviourSpec fetch = spec(BehaviourKind::kFetchStray);
  fetch.target = TargetKind::kFetchOrder;
  fetch.targetArchetype = kStray;
  fetch.standOff = 20.0f;
  rider.behaviours = {spec(BehaviourKind::kSeparation), fetch};
  if (riderBrain) {
    auto b = std::make_shared<brain::Brain>();
    b->thinkEvery = 3;
    b->states.resize(2);
    b->states[0].name = "ride";
    b->states[1].name = "fetch";
    b->conditions.push_back({brain::Test::kHasOrder, -1, 1.0f, {}});
    b->conditions.push_back({brain::Test::kHasOrder, -1, 0.0f, {}});
    b->states[0].transitions.push_back({1, 0});
    b->states[1].transitions.push_back({0, 1});
    rider.stateBehaviours = {{spec(BehaviourKind::kSeparation)}, rider.behaviours};
    rider.brain = b;
  }
  Archetype boss;
  boss.name = "boss";
  boss.limits = {1.0f, 1.0f, 0.0f, 1.0f, 0.0f};  // stands still
  auto b = std::make_shared<brain::Brain>();
  b->thinkEvery = 5;
  b->states.resize(1);
  b->states[0].name = "watch";
  b->states[0].orders.push_back({kStray, kCow, metres, kRider, atOnce});
  boss.brain = b;
  return {cow, stray, rider, boss};
}

StaticGeometry open(float side = 300.0f) {
  StaticGeometry g;
  g.bounds = {0, 0, side, side};
  return g;
}

void spawnHerd(World& w, Vec2 centre) {
  for (int k = 0; k < 12; ++k) w.spawn(kCow, centre + Vec2{3.0f * (k % 4) - 4.5f, 3.0f * (k / 4) - 3.0f});
}

const Groups& groupsOf(const World& w) {
  static const Groups kNone;
  const StepContext ctx = w.lastStepContext();
  return ctx.groups != nullptr ? *ctx.groups : kNone;
}

// The id of the agent `holder` was ordered to fetch (as of the last step), or -1.
std::int64_t fetchedBy(const World& w, AgentId holder) {
  const Groups::Fetch* f = groupsOf(w).fetchOf(holder);
  if (f == nullptr) return -1;
  return w.sortedPrevious().id[static_cast<std::size_t>(f->straySlot)];
}

double distanceToCows(const World& w, AgentId id) {
  const auto& a = w.agents();
  double cx = 0, cy = 0;
  int n = 0;
  for (std::size_t s = 0; s < a.size(); ++s) {
    if (a.archetype[s] == kCow) cx += a.px[s], cy += a.py[s], ++n;
  }
  return std::hypot(a.px[w.slotOf(id)] - cx / n, a.py[w.slotOf(id)] - cy / n);
}

// The boss's first think orders the farthest stray to the rider nearest to it; its next, the
// other stray to the remaining free rider; a stray within `metres` is never ordered fetched.
TEST(FetchOrders, TheFarthestStrayGoesToTheNearestFreeRider) {
  World w(open(), ranch(20.0f), {});
  spawnHerd(w, {150, 150});
  const AgentId east = w.spawn(kStray, {190, 150});  // 40 m out
  const AgentId west = w.spawn(kStray, {100, 150});  // 50 m out: the farthest
  const AgentId near = w.spawn(kStray, {160, 160});  // 14 m: not a stray by the order's 20 m
  const AgentId riderWest = w.spawn(kRider, {90, 100});
  const AgentId riderEast = w.spawn(kRider, {200, 100});
  const AgentId riderFar = w.spawn(kRider, {290, 290});
  const AgentId boss = w.spawn(kBoss, {150, 120});
  // The boss thinks when (tick + id) % 5 == 0.
  const std::uint64_t first = (5 - boss % 5) % 5;
  for (std::uint64_t t = 0; t < first; ++t) w.step();
  EXPECT_EQ(fetchedBy(w, riderWest), -1);
  w.step();  // the first think
  EXPECT_EQ(fetchedBy(w, riderWest), static_cast<std::int64_t>(west));
  EXPECT_EQ(fetchedBy(w, riderEast), -1);
  for (int t = 0; t < 5; ++t) w.step();  // the second
  EXPECT_EQ(fetchedBy(w, riderWest), static_cast<std::int64_t>(west));
  EXPECT_EQ(fetchedBy(w, riderEast), static_cast<std::int64_t>(east));
  EXPECT_EQ(fetchedBy(w, riderFar), -1);
  for (int t = 0; t < 5; ++t) w.step();  // nothing left to give
  EXPECT_EQ(groupsOf(w).fetches.size(), 2u);
  for (const auto& f : groupsOf(w).fetches) EXPECT_NE(w.sortedPrevious().id[f.straySlot], near);
  // The riders herd their strays home, and each order ends once its stray is within 10 m of the
  // centroid (measured at the start of the tick; the distance here is after the tick's move).
  double westHome = -1, eastHome = -1;
  for (int t = 0; t < 90 * 30 && (westHome < 0 || eastHome < 0); ++t) {
    const double w0 = distanceToCows(w, west), e0 = distanceToCows(w, east);
    w.step();
    if (westHome < 0 && fetchedBy(w, riderWest) != static_cast<std::int64_t>(west)) westHome = w0;
    if (eastHome < 0 && fetchedBy(w, riderEast) != static_cast<std::int64_t>(east)) eastHome = e0;
  }
  std::printf("orders ended with the strays %.2f m and %.2f m from home\n", westHome, eastHome);
  EXPECT_GE(westHome, 0.0);
  EXPECT_LE(westHome, 10.0);
  EXPECT_GE(eastHome, 0.0);
  EXPECT_LE(eastHome, 10.0);
}

// at_once 1: one rider out at a time; the next stray is ordered fetched only once the first order
// has ended.
TEST(FetchOrders, AtOnceHoldsBackTheNextOrder) {
  World w(open(), ranch(20.0f, false, 1), {});
  spawnHerd(w, {150, 150});
  const AgentId east = w.spawn(kStray, {190, 150});
  const AgentId west = w.spawn(kStray, {100, 150});
  const AgentId riderWest = w.spawn(kRider, {90, 100});
  const AgentId riderEast = w.spawn(kRider, {200, 100});
  w.spawn(kBoss, {150, 120});
  for (int t = 0; t < 30; ++t) w.step();
  EXPECT_EQ(fetchedBy(w, riderWest), static_cast<std::int64_t>(west));
  EXPECT_EQ(fetchedBy(w, riderEast), -1);  // held back
  int t = 0;
  for (; t < 90 * 30 && fetchedBy(w, riderWest) >= 0; ++t) w.step();
  for (int k = 0; k < 5; ++k) w.step();  // the boss's next think
  EXPECT_LT(t, 90 * 30);
  // The east stray is fetched now (by whichever rider is nearer to it).
  ASSERT_EQ(groupsOf(w).fetches.size(), 1u);
  const auto& f = groupsOf(w).fetches.front();
  EXPECT_EQ(w.sortedPrevious().id[static_cast<std::size_t>(f.straySlot)], east);
}

// give_up_after: a stray that cannot be brought home (it cannot move) keeps a rider for good with
// no limit; with one, the order ends after that long, the rider is passed over for that stray, and
// the next order for it goes to the other rider; once the pass-over has run out, back to the first.
TEST(FetchOrders, AnOrderNotDoneInTimeGoesToAnotherRider) {
  auto withGiveUp = [](float seconds) {
    std::vector<Archetype> a = ranch(20.0f, false, 1);
    a[kStray].limits.maxSpeed = 0.0f;  // it stays 50 m out whatever the rider does
    auto b = std::make_shared<brain::Brain>(*a[kBoss].brain);
    b->states[0].orders[0].giveUpAfter = seconds;
    a[kBoss].brain = b;
    return a;
  };
  auto start = [](World& w) {
    spawnHerd(w, {150, 150});
    w.spawn(kStray, {100, 150});
  };
  {
    World w(open(), withGiveUp(0.0f), {});
    start(w);
    const AgentId near = w.spawn(kRider, {90, 100});
    w.spawn(kRider, {200, 100});
    w.spawn(kBoss, {150, 120});
    for (int t = 0; t < 20 * 30; ++t) w.step();
    EXPECT_GE(fetchedBy(w, near), 0) << "no limit: the order stands";
  }
  World w(open(), withGiveUp(2.0f), {});  // 60 ticks
  start(w);
  const AgentId stray = 12;
  const AgentId near = w.spawn(kRider, {90, 100});
  const AgentId far = w.spawn(kRider, {200, 100});
  w.spawn(kBoss, {150, 120});
  int t = 0;
  for (; t < 30 && fetchedBy(w, near) < 0; ++t) w.step();
  ASSERT_EQ(fetchedBy(w, near), static_cast<std::int64_t>(stray));
  const int given = t;
  for (; t < given + 200 && fetchedBy(w, near) >= 0; ++t) w.step();
  EXPECT_EQ(t - given, 60) << "ends after 2 s";
  for (int k = 0; k < 5; ++k) w.step();  // the boss's next think
  EXPECT_EQ(fetchedBy(w, near), -1) << "passed over";
  EXPECT_EQ(fetchedBy(w, far), static_cast<std::int64_t>(stray));
  for (int k = 0; k < 60; ++k) w.step();  // the far rider gives up too; the pass-over is over
  EXPECT_EQ(fetchedBy(w, far), -1);
  EXPECT_EQ(fetchedBy(w, near), static_cast<std::int64_t>(stray));
}

// With no order, FETCH_STRAY with target FETCH_ORDER gives no force: the rider stands, even with
// a stray 60 m out that FETCH_STRAY's farthest-stray target would go after.
TEST(FetchOrders, NoOrderNoForce) {
  World w(open(), ranch(1000.0f), {});  // the boss never finds a stray that far out
  spawnHerd(w, {150, 150});
  w.spawn(kStray, {210, 150});
  const AgentId rider = w.spawn(kRider, {150, 100});
  w.spawn(kBoss, {150, 140});
  for (int t = 0; t < 60; ++t) w.step();
  const auto& s = w.agents();
  EXPECT_EQ(s.px[w.slotOf(rider)], 150.0f);
  EXPECT_EQ(s.py[w.slotOf(rider)], 100.0f);
}

// has_order switches the rider's brain to "fetch" while it holds one, and back once the order
// ends; an order ends when its stray despawns, and a rider that despawns frees its stray for the
// next rider.
TEST(FetchOrders, HasOrderFollowsTheOrderAndOrdersEndWhenAgentsGo) {
  World w(open(), ranch(20.0f, true), {});
  spawnHerd(w, {150, 150});
  const AgentId stray = w.spawn(kStray, {100, 150});
  const AgentId rider = w.spawn(kRider, {95, 100});
  const AgentId second = w.spawn(kRider, {250, 100});
  w.spawn(kBoss, {150, 120});
  for (int t = 0; t < 12; ++t) w.step();
  EXPECT_EQ(fetchedBy(w, rider), static_cast<std::int64_t>(stray));
  EXPECT_EQ(w.brainStateOf(rider), 1);  // fetch
  EXPECT_EQ(w.brainStateOf(second), 0);
  // The sent rider leaves: the stray goes to the other one at the boss's next think.
  w.despawn(rider);
  for (int t = 0; t < 12; ++t) w.step();
  EXPECT_EQ(fetchedBy(w, second), static_cast<std::int64_t>(stray));
  EXPECT_EQ(w.brainStateOf(second), 1);
  // The stray leaves: the order ends, and the rider rides again.
  w.despawn(stray);
  for (int t = 0; t < 12; ++t) w.step();
  EXPECT_EQ(fetchedBy(w, second), -1);
  EXPECT_EQ(w.brainStateOf(second), 0);
}

// Orders are cross-agent writes, applied serially in id order: with many bosses, riders and
// strays, 1, 2 and 4 threads (think chunks of 16 slots) give the same world, orders included.
TEST(FetchOrders, SameOrdersForAnyThreadCount) {
  auto run = [](unsigned threads, std::size_t* orders) {
    WorldConfig c;
    c.threads = threads;
    c.chunkSize = 16;
    World w(open(400.0f), ranch(15.0f, true), c);
    steer::Rng rng(5);
    spawnHerd(w, {200, 200});
    for (int k = 0; k < 300; ++k) {
      const ArchetypeIndex a = k % 10 == 0 ? kBoss : (k % 3 == 0 ? kRider : (k % 3 == 1 ? kStray : kCow));
      w.spawn(a, {20 + 360 * rng.uniform(), 20 + 360 * rng.uniform()}, {rng.clamped(), rng.clamped()});
    }
    std::size_t most = 0;
    for (int t = 0; t < 200; ++t) {
      w.step();
      most = std::max(most, groupsOf(w).fetches.size());
    }
    *orders = most;
    return w.stateHash();
  };
  std::size_t orders1 = 0, orders2 = 0, orders4 = 0;
  const auto h = run(1, &orders1);
  EXPECT_EQ(h, run(2, &orders2));
  EXPECT_EQ(h, run(4, &orders4));
  EXPECT_GT(orders1, 20u);  // orders were given (and are in the hash)
  EXPECT_EQ(orders1, orders2);
  EXPECT_EQ(orders1, orders4);
}

// GROUP_LEADER: the lowest id of the archetype at any range (beyond `range`, and farther than
// another of its archetype); when it despawns the next one leads.
TEST(GroupTargets, TheLeaderIsTheLowestIdAtAnyRange) {
  Archetype leader;
  leader.name = "leader";
  leader.limits = {0.5f, 1.0f, 0.0f, 1.0f, 0.0f};
  Archetype follower;
  follower.name = "follower";
  follower.limits = {0.5f, 1.0f, 3.0f, 6.0f, 2.0f * steer::kPi};
  BehaviourSpec pursue = spec(BehaviourKind::kPursueNearest);
  pursue.target = TargetKind::kGroupLeader;
  pursue.targetArchetype = 0;
  pursue.range = 5.0f;
  follower.behaviours = {pursue};
  World w(open(), {leader, follower}, {});
  const AgentId first = w.spawn(0, {250, 250});   // 140 m away
  const AgentId second = w.spawn(0, {120, 110});  // 22 m away
  const AgentId f = w.spawn(1, {100, 100});
  w.step();
  EXPECT_EQ(w.agents().memory(w.slotOf(f)).targetId, static_cast<std::int32_t>(first));
  EXPECT_EQ(w.agents().memory(w.slotOf(f)).goalX, 250.0f);
  w.despawn(first);
  w.step();
  EXPECT_EQ(w.agents().memory(w.slotOf(f)).targetId, static_cast<std::int32_t>(second));
  w.despawn(second);
  w.step();
  EXPECT_EQ(w.agents().memory(w.slotOf(f)).targetId, -1);  // nobody leads: no force
}

// GROUP_CENTROID: the group's centroid, moving at its mean velocity, at any range; measured even
// though nothing else asks for groups.
TEST(GroupTargets, TheCentroidIsAPointMovingWithTheGroup) {
  Archetype herd;
  herd.name = "herd";
  herd.limits = {0.5f, 1.0f, 2.0f, 1.0f, 0.0f};  // drifts at its spawn velocity
  Archetype dog;
  dog.name = "dog";
  dog.limits = {0.5f, 1.0f, 3.0f, 6.0f, 2.0f * steer::kPi};
  BehaviourSpec pursue = spec(BehaviourKind::kPursueNearest);
  pursue.target = TargetKind::kGroupCentroid;
  pursue.targetArchetype = 0;
  pursue.range = 1.0f;
  dog.behaviours = {pursue};
  World w(open(), {herd, dog}, {});
  w.spawn(0, {200, 200}, {1, 0});
  w.spawn(0, {210, 220}, {1, 0});
  w.spawn(0, {220, 200}, {1, 0});
  const AgentId d = w.spawn(1, {50, 50});
  w.step();
  const StepContext ctx = w.lastStepContext();
  ASSERT_NE(ctx.groups, nullptr);
  EXPECT_FLOAT_EQ(ctx.groups->centroid[0].x, 210.0f);
  EXPECT_NEAR(ctx.groups->centroid[0].y, 206.6667f, 1e-3f);
  EXPECT_FLOAT_EQ(ctx.groups->velocity[0].x, 1.0f);
  const AgentMemory& m = w.agents().memory(w.slotOf(d));
  EXPECT_EQ(m.goalX, ctx.groups->centroid[0].x);  // pursue's goal is its target's position
  EXPECT_EQ(m.goalY, ctx.groups->centroid[0].y);
  EXPECT_EQ(m.targetId, -1);  // no agent is the target
  // And the dog heads for it.
  for (int t = 0; t < 30; ++t) w.step();
  const auto& a = w.agents();
  EXPECT_GT(a.vx[w.slotOf(d)], 1.0f);
  EXPECT_GT(a.vy[w.slotOf(d)], 1.0f);
}

}  // namespace
}  // namespace steerd
