// Brains inside the world: perception (field of view, line of sight past obstacles and walls),
// staggered thinking, stats, behaviour sets switched by state, and determinism.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "world/brain_think.h"
#include "world/world.h"

namespace steerd {
namespace {

using steer::Vec2;

// Archetype 0 "watcher": idle (no behaviours) -> alert (seeks... flees the intruder) when its eyes
// (20 m, 90 degree field of view) see an intruder; back to idle 1 s after losing sight.
// Archetype 1 "intruder": no behaviours.
std::vector<Archetype> watchers(std::uint32_t thinkEvery = 6) {
  auto b = std::make_shared<brain::Brain>();
  b->thinkEvery = thinkEvery;
  b->senses.push_back({"eyes", 1, 20.0f, std::cos(45.0f * steer::kPi / 180.0f)});
  b->stats.push_back({"fear", 0.0f, 0.0f, 100.0f});
  b->states.resize(2);
  b->states[0].name = "idle";
  b->states[0].statRates[0] = -5.0f;
  b->states[1].name = "alert";
  b->states[1].statRates[0] = 10.0f;
  b->conditions.push_back({brain::Test::kSees, 0, 0.0f, {}});
  b->conditions.push_back({brain::Test::kSeenWithin, 0, 1.0f, {}});
  b->conditions.push_back({brain::Test::kNot, -1, 0.0f, {1}});
  b->states[0].transitions.push_back({1, 0});
  b->states[1].transitions.push_back({0, 2});

  Archetype watcher;
  watcher.name = "watcher";
  watcher.limits = {0.5f, 1.0f, 3.0f, 6.0f, 2.0f * steer::kPi};
  BehaviourSpec evade;
  evade.kind = BehaviourKind::kEvadeNearest;
  evade.targetArchetype = 1;
  evade.range = 50.0f;
  watcher.stateBehaviours = {{}, {evade}};
  watcher.brain = b;
  Archetype intruder;
  intruder.name = "intruder";
  intruder.limits = {0.5f, 1.0f, 3.0f, 6.0f, 2.0f * steer::kPi};
  return {watcher, intruder};
}

StaticGeometry field() {
  StaticGeometry g;
  g.bounds = {0, 0, 200, 200};
  g.obstacles.push_back({{60, 100}, 3.0f});
  g.walls.push_back(steer::makeWall({60, 140}, {60, 160}));
  return g;
}

TEST(BrainWorld, SightIsBlockedByObstaclesAndWalls) {
  StaticGeometry g = field();
  World w(g, {}, {});                                              // indexes the geometry
  EXPECT_TRUE(sightBlocked(w.geometry(), {50, 100}, {70, 100}));   // through the rock
  EXPECT_FALSE(sightBlocked(w.geometry(), {50, 110}, {70, 110}));  // past it
  EXPECT_TRUE(sightBlocked(w.geometry(), {50, 150}, {70, 150}));   // through the wall
  EXPECT_FALSE(sightBlocked(w.geometry(), {50, 170}, {70, 170}));
}

TEST(BrainWorld, WatchersNoticeOnlyWhatTheyCanSee) {
  World w(field(), watchers(), {});
  // All watchers face +x (velocity along +x, speed 0.01 so they barely move while idle).
  const AgentId behindRock = w.spawn(0, {50, 100}, {0.01f, 0});
  const AgentId inTheOpen = w.spawn(0, {50, 60}, {0.01f, 0});
  const AgentId lookingAway = w.spawn(0, {80, 20}, {0.01f, 0});  // the intruder is behind it
  const AgentId tooFar = w.spawn(0, {20, 180}, {0.01f, 0});
  w.spawn(1, {66, 100});                  // hidden from behindRock by the rock
  w.spawn(1, {62, 60});                   // in front of inTheOpen, 12 m
  w.spawn(1, {70, 20});                   // 10 m behind lookingAway
  w.spawn(1, {80, 180});                  // 60 m from tooFar
  for (int i = 0; i < 12; ++i) w.step();  // two think intervals
  EXPECT_EQ(w.brainStateOf(behindRock), 0);
  EXPECT_EQ(w.brainStateOf(inTheOpen), 1);
  EXPECT_EQ(w.brainStateOf(lookingAway), 0);
  EXPECT_EQ(w.brainStateOf(tooFar), 0);
  // Alert switches the behaviour set on: the watcher that saw the intruder moves away from it.
  const float x0 = w.agents().px[w.slotOf(inTheOpen)];
  for (int i = 0; i < 30; ++i) w.step();
  EXPECT_LT(w.agents().px[w.slotOf(inTheOpen)], x0 - 0.5f);
  // Fear rose at 10 per second while alert (and never below 0 while idle).
  EXPECT_GT(w.brainMemoryOf(inTheOpen).stats[0], 5.0f);
  EXPECT_EQ(w.brainMemoryOf(behindRock).stats[0], 0.0f);
}

TEST(BrainWorld, ThinkingIsStaggeredAcrossAgents) {
  World w(field(), watchers(6), {});
  std::vector<AgentId> ids;
  for (int k = 0; k < 6; ++k) ids.push_back(w.spawn(0, {20.0f + 10.0f * k, 60}, {0.01f, 0}));
  w.step();  // tick 0 -> 1 with nobody in sight
  for (int k = 0; k < 6; ++k) w.spawn(1, {25.0f + 10.0f * k, 60});
  // Over the next six ticks each watcher notices on its own tick: one more each tick.
  std::vector<int> alertAfter;
  for (int i = 0; i < 6; ++i) {
    w.step();
    int alert = 0;
    for (AgentId id : ids) alert += w.brainStateOf(id) == 1 ? 1 : 0;
    alertAfter.push_back(alert);
  }
  EXPECT_EQ(alertAfter, (std::vector<int>{1, 2, 3, 4, 5, 6}));
}

TEST(BrainWorld, SameSeedSameWorldForAnyThreadCount) {
  auto run = [](unsigned threads) {
    WorldConfig c;
    c.threads = threads;
    c.chunkSize = 64;
    World w(field(), watchers(3), c);
    steer::Rng rng(9);
    for (int k = 0; k < 400; ++k) {
      w.spawn(k % 5 == 0 ? 1 : 0, {10 + 180 * rng.uniform(), 10 + 180 * rng.uniform()},
              {rng.clamped(), rng.clamped()});
    }
    for (int t = 0; t < 200; ++t) w.step();
    return w.stateHash();
  };
  const auto h = run(1);
  EXPECT_EQ(h, run(2));
  EXPECT_EQ(h, run(4));
}

}  // namespace
}  // namespace steerd

namespace steerd {
namespace {

// Fetch stray in an open field: a herd of 12 at the centre, one stray 40 m out that flees riders
// within 15 m and otherwise stands, one rider. The rider rides round to the far side and drives
// the stray home.
TEST(BrainWorld, ARiderFetchesAStrayHome) {
  Archetype cow;
  cow.name = "cow";
  cow.limits = {0.8f, 1.0f, 2.0f, 6.0f, 2.0f * steer::kPi};
  BehaviourSpec cohesion;
  cohesion.kind = BehaviourKind::kCohesion;
  BehaviourSpec separation;
  separation.kind = BehaviourKind::kSeparation;
  cow.flock.radius = 10.0f;
  cow.behaviours = {separation, cohesion};
  Archetype stray = cow;
  stray.name = "stray";
  stray.limits.maxSpeed = 2.5f;
  BehaviourSpec flee;
  flee.kind = BehaviourKind::kEvadeNearest;
  flee.targetArchetype = 2;
  flee.range = 15.0f;
  flee.weight = 3.0f;
  stray.behaviours = {flee, separation};
  Archetype rider;
  rider.name = "rider";
  rider.limits = {1.0f, 1.0f, 5.0f, 14.0f, 4.0f * steer::kPi / 3.0f};
  BehaviourSpec fetch;
  fetch.kind = BehaviourKind::kFetchStray;
  fetch.targetArchetype = 1;
  fetch.secondArchetype = 0;
  fetch.range = 8.0f;
  fetch.standOff = 20.0f;
  rider.behaviours = {separation, fetch};
  StaticGeometry g;
  g.bounds = {0, 0, 300, 300};
  World w(g, {cow, stray, rider}, {});
  for (int k = 0; k < 12; ++k) w.spawn(0, {145.0f + 3.0f * (k % 4), 145.0f + 3.0f * (k / 4)});
  const AgentId s = w.spawn(1, {190, 150});
  w.spawn(2, {150, 120});  // starts on the herd's side of the stray
  auto distanceHome = [&] {
    const auto& a = w.agents();
    double cx = 0, cy = 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
      if (a.archetype[k] == 0) cx += a.px[k] / 12.0, cy += a.py[k] / 12.0;
    }
    return std::hypot(a.px[w.slotOf(s)] - cx, a.py[w.slotOf(s)] - cy);
  };
  const double start = distanceHome();
  double closest = start;
  for (int t = 0; t < 60 * 30; ++t) {
    w.step();
    closest = std::min(closest, distanceHome());
  }
  std::printf("stray from %.1f m to %.1f m (closest %.1f m)\n", start, distanceHome(), closest);
  EXPECT_GT(start, 35.0);
  EXPECT_LT(closest, 12.0);
}

}  // namespace
}  // namespace steerd

namespace steerd {
namespace {

// A patrol that leaves its route (a detour state without path following) and comes back starts
// again on the leg of the route nearest to where it is, not at the waypoint it was heading for
// when it left.
TEST(BrainWorld, BackOnThePathAtTheNearestWaypoint) {
  StaticGeometry g;
  g.bounds = {0, 0, 200, 200};
  g.paths.push_back({{{50, 50}, {150, 50}, {150, 150}, {50, 150}}, true});
  auto b = std::make_shared<brain::Brain>();
  b->thinkEvery = 3;
  b->states.resize(2);
  b->states[0].name = "patrol";
  b->states[1].name = "detour";
  b->conditions.push_back({brain::Test::kInStateFor, -1, 1.0f, {}});
  b->conditions.push_back({brain::Test::kInStateFor, -1, 30.0f, {}});  // there by then
  b->states[0].transitions.push_back({1, 0});
  b->states[1].transitions.push_back({0, 1});
  Archetype guard;
  guard.name = "guard";
  guard.limits = {0.5f, 1.0f, 4.0f, 10.0f, 2.0f * steer::kPi};
  BehaviourSpec follow;
  follow.kind = BehaviourKind::kFollowPath;
  follow.pathIndex = 0;
  BehaviourSpec detour;
  detour.kind = BehaviourKind::kArriveAt;
  detour.point = {80, 140};  // 10 m from the leg (150, 150) -> (50, 150)
  guard.stateBehaviours = {{follow}, {detour}};
  guard.brain = b;
  World w(g, {guard}, {});
  const AgentId id = w.spawn(0, {52, 50});
  int t = 0;
  for (; t < 300 && w.brainStateOf(id) == 0; ++t) w.step();
  ASSERT_EQ(w.brainStateOf(id), 1);
  EXPECT_EQ(w.agents().memory(w.slotOf(id)).pathIndex, 1);  // heading for (150, 50) when it left
  for (; t < 1500 && w.brainStateOf(id) == 1; ++t) w.step();
  ASSERT_EQ(w.brainStateOf(id), 0);
  EXPECT_EQ(w.agents().memory(w.slotOf(id)).pathIndex, 3);  // that leg's end, (50, 150)
  EXPECT_EQ(w.agents().memory(w.slotOf(id)).goalY, 150.0f);
}

}  // namespace
}  // namespace steerd
