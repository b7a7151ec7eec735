// The control API (server/control/control.h): each command's effect, each bad field's error (and
// nothing half-applied), the events, and determinism of a command log across thread counts.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "control/control.h"
#include "scenario/scenario_file.h"

namespace steerd::control {
namespace {

const char* kScenario = R"(
name: "control-test"
bounds { min { x: 0 y: 0 } max { x: 100 y: 100 } }
obstacles { center { x: 50 y: 50 } radius: 5 }
walls { from { x: 70 y: 10 } to { x: 70 y: 30 } two_sided: true }
waypoints { name: "home" position { x: 20 y: 20 } }
waypoints { name: "far" position { x: 80 y: 80 } }
paths { name: "line" waypoints: ["home", "far"] looped: false }
archetypes {
  name: "walker"
  limits { radius: 0.5 mass: 1 max_speed: 4 max_force: 20 max_turn_rate_deg: 360 }
  behaviours { kind: OBSTACLE_AVOIDANCE weight: 4 priority: 0 }
  behaviours { kind: SEPARATION weight: 2 priority: 0 }
  behaviours { kind: WANDER weight: 1 priority: 1 }
}
archetypes {
  name: "guard"
  limits { radius: 0.5 mass: 1 max_speed: 6 max_force: 30 max_turn_rate_deg: 360 }
  catch_distance: 1.5
  behaviours { kind: OBSTACLE_AVOIDANCE weight: 4 priority: 0 }
  behaviours { kind: WANDER weight: 1 priority: 1 }
}
archetypes {
  name: "rider"
  limits { radius: 0.5 mass: 1 max_speed: 8 max_force: 30 max_turn_rate_deg: 360 }
  behaviours { kind: OBSTACLE_AVOIDANCE weight: 4 priority: 0 }
  behaviours { kind: FETCH_STRAY target: FETCH_ORDER target_archetype: "walker" stand_off: 6 priority: 1 }
}
archetypes {
  name: "boss"
  limits { radius: 0.5 mass: 1 max_speed: 2 max_force: 10 max_turn_rate_deg: 360 }
  behaviours { kind: WANDER }
}
# The boss's orders are what lets a rider act on one (FETCH_ORDER); it sends none here (1 km).
brains {
  archetype: "boss"
  initial_state: "idle"
  states { name: "idle" orders { stray: "walker" metres: 1000 to: "rider" } }
}
brains {
  archetype: "guard"
  initial_state: "patrol"
  think_every_ticks: 1
  senses { name: "eyes" archetype: "walker" range: 10 }
  stats { name: "alert" initial: 0 min: 0 max: 10 }
  states { name: "patrol" transitions { to: "chase" when { any { of { sees: "eyes" } of { signal: "alarm" } } } } }
  states {
    name: "chase"
    behaviours { kind: PURSUE_NEAREST target_archetype: "walker" range: 30 priority: 1 }
    transitions { to: "patrol" when { not { seen_within { sense: "eyes" seconds: 1 } } } }
  }
}
)";

std::unique_ptr<World> makeWorld(unsigned threads = 1) {
  ScenarioLoad load = loadScenarioText(kScenario, "control-test.txtpb", {1, threads, 0}, true);
  EXPECT_TRUE(load.errors.empty()) << (load.errors.empty() ? "" : load.errors[0]);
  return std::move(load.world);
}

// A world, its controller and one subscriber that records everything it hears.
struct Rig {
  std::unique_ptr<World> world = makeWorld();
  Controller ctl{*world};
  std::vector<CommandResult> results;
  std::vector<Event> events;
  SubscriberId me = ctl.addSubscriber({.onEvent = [this](const Event& e) { events.push_back(e); },
                                       .onResult = [this](const CommandResult& r) { results.push_back(r); }});

  CommandResult run(const Command& c) { return ctl.apply(me, c); }
  AgentId spawn(const std::string& archetype, float x, float y) {
    const CommandResult r = run(spawnAt(archetype, x, y));
    EXPECT_EQ(r.status(), STATUS_OK) << r.error();
    return r.agent();
  }
  void tick(int n = 1) {
    for (int i = 0; i < n; ++i) {
      ctl.applyPending();
      world->step();
      ctl.afterTick();
    }
  }
  std::vector<Event> eventsOf(EventKind kind) const {
    std::vector<Event> out;
    for (const Event& e : events) {
      if (e.kind() == kind) out.push_back(e);
    }
    return out;
  }
  steer::Vec2 positionOf(AgentId id) const {
    const std::uint32_t s = world->slotOf(id);
    return {world->agents().px[s], world->agents().py[s]};
  }
};

// prefix + i, appended (GCC 12 warns falsely, -Wrestrict, on "t" + std::to_string(i)).
std::string named(const char* prefix, int i) {
  std::string s = prefix;
  s += std::to_string(i);
  return s;
}

void expectError(const CommandResult& r, const std::string& field) {
  EXPECT_EQ(r.status(), STATUS_ERROR);
  EXPECT_EQ(r.error().rfind(field + ": ", 0), 0u) << "error should start with the field: " << r.error();
}

TEST(Controller, SpawnsWithHeadingVelocityStateAndTags) {
  Rig rig;
  ASSERT_EQ(rig.ctl.subscribe(rig.me, {}), "");
  Command c = spawnAt("guard", 10, 10);
  c.mutable_spawn()->mutable_heading()->set_y(2);
  c.mutable_spawn()->mutable_velocity()->set_x(1);
  c.mutable_spawn()->set_brain_state("chase");
  c.mutable_spawn()->add_tags("east-gate");
  const CommandResult r = rig.run(c);
  ASSERT_EQ(r.status(), STATUS_OK) << r.error();
  const auto info = rig.ctl.query(r.agent());
  ASSERT_TRUE(info);
  EXPECT_EQ(info->archetype(), "guard");
  EXPECT_FLOAT_EQ(info->position().x(), 10);
  EXPECT_FLOAT_EQ(info->heading().y(), 1);
  EXPECT_FLOAT_EQ(info->velocity().x(), 1);
  EXPECT_EQ(info->brain_state(), "chase");
  ASSERT_EQ(info->tags_size(), 1);
  EXPECT_EQ(info->tags(0), "east-gate");
  ASSERT_EQ(info->stats_size(), 1);
  EXPECT_EQ(info->stats(0).name(), "alert");
  const auto spawned = rig.eventsOf(EVENT_SPAWNED);
  ASSERT_EQ(spawned.size(), 1u);
  EXPECT_EQ(spawned[0].agent(), r.agent());
  EXPECT_EQ(spawned[0].archetype(), "guard");
}

TEST(Controller, BadSpawnsNameTheFieldAndAddNothing) {
  Rig rig;
  const std::size_t before = rig.world->agentCount();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  expectError(rig.run(spawnAt("wolf", 10, 10)), "spawn.archetype");
  expectError(rig.run(spawnAt("player", 10, 10)), "spawn.archetype");
  expectError(rig.run(spawnAt("walker", nan, 10)), "spawn.position");
  expectError(rig.run(spawnAt("walker", 10, inf)), "spawn.position");
  expectError(rig.run(spawnAt("walker", 150, 10)), "spawn.position");
  expectError(rig.run(spawnAt("walker", 51, 51)), "spawn.position");     // in the obstacle
  expectError(rig.run(spawnAt("walker", 70.2f, 20)), "spawn.position");  // on the wall
  Command c = spawnAt("walker", 10, 10);
  c.mutable_spawn()->mutable_velocity()->set_x(100);
  expectError(rig.run(c), "spawn.velocity");
  c = spawnAt("walker", 10, 10);
  c.mutable_spawn()->mutable_heading();  // (0, 0)
  expectError(rig.run(c), "spawn.heading");
  c = spawnAt("walker", 10, 10);
  c.mutable_spawn()->set_path("nowhere");
  expectError(rig.run(c), "spawn.path");
  c = spawnAt("walker", 10, 10);
  c.mutable_spawn()->set_brain_state("chase");
  expectError(rig.run(c), "spawn.brain_state");  // walkers have no brain
  c = spawnAt("guard", 10, 10);
  c.mutable_spawn()->set_brain_state("sleep");
  expectError(rig.run(c), "spawn.brain_state");
  c = spawnAt("walker", 10, 10);
  for (int i = 0; i < 40; ++i) c.mutable_spawn()->add_tags(named("t", i));
  expectError(rig.run(c), "spawn.tags[32]");
  // The refused spawn registered none of its names: a spawn with 32 new ones still fits.
  EXPECT_TRUE(rig.world->markNames(World::MarkKind::kTag).empty());
  c = spawnAt("walker", 10, 10);
  for (int i = 0; i < 32; ++i) c.mutable_spawn()->add_tags(named("u", i));
  EXPECT_EQ(rig.run(c).status(), STATUS_OK);
  EXPECT_EQ(rig.world->markNames(World::MarkKind::kTag).size(), 32u);
  rig.world->despawn(rig.world->agents().id[rig.world->agents().size() - 1]);
  c.Clear();
  expectError(rig.run(c), "command");
  EXPECT_EQ(rig.world->agentCount(), before);
  EXPECT_EQ(rig.ctl.rejected(), 14u);
}

TEST(Controller, RefusesSpawnsPastTheAgentCap) {
  auto world = makeWorld();
  Controller ctl(*world, {.maxAgents = 2});
  EXPECT_EQ(ctl.apply(0, spawnAt("walker", 10, 10)).status(), STATUS_OK);
  EXPECT_EQ(ctl.apply(0, spawnAt("walker", 12, 10)).status(), STATUS_OK);
  expectError(ctl.apply(0, spawnAt("walker", 14, 10)), "spawn");
  EXPECT_EQ(world->agentCount(), 2u);
}

TEST(Controller, CommandsOnUnknownDeadOrPlayerAgentsAreErrors) {
  Rig rig;
  const AgentId a = rig.spawn("walker", 10, 10);
  const AgentId player =
      rig.world->spawnExternal(static_cast<ArchetypeIndex>(rig.world->archetypeIndex("player")), {30, 30});
  ASSERT_EQ(rig.run(despawnAgent(a)).status(), STATUS_OK);
  expectError(rig.run(despawnAgent(a)), "despawn.agent");
  expectError(rig.run(despawnAgent(999)), "despawn.agent");
  expectError(rig.run(despawnAgent(player)), "despawn.agent");
  expectError(rig.run(moveTo(a, 20, 20)), "move_to.agent");
  expectError(rig.run(moveTo(player, 20, 20)), "move_to.agent");
  expectError(rig.run(stopAgent(a)), "stop.agent");
  expectError(rig.run(releaseAgent(a)), "release.agent");
  expectError(rig.run(queryAgent(a)), "query.agent");
  expectError(rig.run(setBrainState(a, "chase")), "set_state.agent");
  expectError(rig.run(raiseSignal(a, "x")), "signal.agent");
  EXPECT_TRUE(rig.world->isAlive(player));
}

TEST(Controller, BadGoalsNameTheFieldAndChangeNothing) {
  Rig rig;
  const AgentId a = rig.spawn("walker", 10, 10);
  const AgentId g = rig.spawn("guard", 30, 10);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  expectError(rig.run(moveTo(a, nan, 5)), "move_to.position");
  expectError(rig.run(moveTo(a, -5, 5)), "move_to.position");
  expectError(rig.run(moveTo(a, 50, 52)), "move_to.position");
  expectError(rig.run(moveTo(a, 20, 20, -1)), "move_to.radius");
  expectError(rig.run(moveTo(a, 20, 20, nan)), "move_to.radius");
  Command c;
  c.mutable_move_to()->set_agent(a);
  expectError(rig.run(c), "move_to.position");  // missing
  c.Clear();
  c.mutable_move_to_waypoint()->set_agent(a);
  c.mutable_move_to_waypoint()->set_waypoint("nowhere");
  expectError(rig.run(c), "move_to_waypoint.waypoint");
  c.Clear();
  c.mutable_follow_path()->set_agent(a);
  c.mutable_follow_path()->set_path("nowhere");
  expectError(rig.run(c), "follow_path.path");
  expectError(rig.run(followAgent(a, 999)), "follow.target");
  expectError(rig.run(followAgent(a, a)), "follow.target");
  expectError(rig.run(guardAgent(a, g, -2)), "guard.radius");
  expectError(rig.run(setBrainState(g, "sleep")), "set_state.state");
  expectError(rig.run(setBrainState(a, "chase")), "set_state.agent");
  expectError(rig.run(setStat(g, "courage", 1)), "set_stat.stat");
  expectError(rig.run(setStat(g, "alert", nan)), "set_stat.value");
  expectError(rig.run(raiseSignal(a, "")), "signal.name");
  EXPECT_EQ(rig.world->directiveOf(a).kind, DirectiveKind::kNone);
  EXPECT_EQ(rig.ctl.query(g)->brain_state(), "patrol");
}

TEST(Controller, MoveToArrivesReportsItOnceAndStays) {
  Rig rig;
  ASSERT_EQ(rig.ctl.subscribe(rig.me, {}), "");
  const AgentId a = rig.spawn("walker", 10, 10);
  ASSERT_EQ(rig.run(moveTo(a, 30, 12)).status(), STATUS_OK);
  EXPECT_EQ(rig.ctl.query(a)->goal(), GOAL_MOVE_TO);
  rig.tick(30 * 15);
  const auto arrived = rig.eventsOf(EVENT_ARRIVED);
  ASSERT_EQ(arrived.size(), 1u) << "once, however long it stays";
  EXPECT_EQ(arrived[0].agent(), a);
  EXPECT_LT(steer::distance(rig.positionOf(a), {30, 12}), 1.0f) << "it stays (no release on arrival)";
  EXPECT_EQ(rig.ctl.query(a)->goal(), GOAL_MOVE_TO);
  ASSERT_EQ(rig.run(releaseAgent(a)).status(), STATUS_OK);
  EXPECT_EQ(rig.ctl.query(a)->goal(), GOAL_NONE);
}

TEST(Controller, ReleaseOnArrivalHandsTheAgentBackToItsBehaviours) {
  Rig rig;
  ASSERT_EQ(rig.ctl.subscribe(rig.me, {}), "");
  const AgentId a = rig.spawn("walker", 10, 10);
  Command c;
  c.mutable_move_to_waypoint()->set_agent(a);
  c.mutable_move_to_waypoint()->set_waypoint("home");
  c.mutable_move_to_waypoint()->set_release_on_arrival(true);
  ASSERT_EQ(rig.run(c).status(), STATUS_OK);
  rig.tick(30 * 15);
  EXPECT_EQ(rig.eventsOf(EVENT_ARRIVED).size(), 1u);
  EXPECT_EQ(rig.ctl.query(a)->goal(), GOAL_NONE);
}

TEST(Controller, FollowPathArrivesAtTheEndOfAnOpenPath) {
  Rig rig;
  ASSERT_EQ(rig.ctl.subscribe(rig.me, {}), "");
  const AgentId a = rig.spawn("walker", 18, 22);
  Command c;
  c.mutable_follow_path()->set_agent(a);
  c.mutable_follow_path()->set_path("line");
  ASSERT_EQ(rig.run(c).status(), STATUS_OK);
  rig.tick(30 * 40);
  ASSERT_EQ(rig.eventsOf(EVENT_ARRIVED).size(), 1u);
  EXPECT_LT(steer::distance(rig.positionOf(a), {80, 80}), 3.0f);
}

TEST(Controller, FollowKeepsBehindItsLeaderAndEndsWhenTheLeaderGoes) {
  Rig rig;
  ASSERT_EQ(rig.ctl.subscribe(rig.me, {}), "");
  const AgentId leader = rig.spawn("walker", 20, 70);
  const AgentId follower = rig.spawn("walker", 10, 60);
  ASSERT_EQ(rig.run(moveTo(leader, 40, 80)).status(), STATUS_OK);
  ASSERT_EQ(rig.run(followAgent(follower, leader)).status(), STATUS_OK);
  rig.tick(30 * 12);
  EXPECT_LT(steer::distance(rig.positionOf(follower), rig.positionOf(leader)), 4.0f);
  ASSERT_EQ(rig.run(despawnAgent(leader)).status(), STATUS_OK);
  rig.tick();
  const auto lost = rig.eventsOf(EVENT_TARGET_LOST);
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].agent(), follower);
  EXPECT_EQ(lost[0].other(), leader);
  EXPECT_EQ(rig.ctl.query(follower)->goal(), GOAL_NONE);
}

TEST(Controller, GuardStaysWithinItsLeash) {
  Rig rig;
  const AgentId ward = rig.spawn("walker", 20, 80);
  const AgentId dog = rig.spawn("walker", 10, 60);
  ASSERT_EQ(rig.run(moveTo(ward, 35, 85)).status(), STATUS_OK);
  ASSERT_EQ(rig.run(guardAgent(dog, ward, 6)).status(), STATUS_OK);
  rig.tick(30 * 10);
  float worst = 0;
  for (int i = 0; i < 30 * 10; ++i) {
    rig.tick();
    worst = std::max(worst, steer::distance(rig.positionOf(dog), rig.positionOf(ward)));
  }
  EXPECT_LT(worst, 9.0f) << "back within the 6 m leash, give or take a stride";
}

TEST(Controller, StopHoldsAnAgentWhereItWas) {
  Rig rig;
  const AgentId a = rig.spawn("walker", 10, 10);
  rig.tick(30);
  const steer::Vec2 at = rig.positionOf(a);
  ASSERT_EQ(rig.run(stopAgent(a)).status(), STATUS_OK);
  rig.tick(30 * 5);
  EXPECT_LT(steer::distance(rig.positionOf(a), at), 1.0f);
  EXPECT_EQ(rig.ctl.query(a)->goal(), GOAL_STOP);
}

TEST(Controller, SetStateAndStatAndSignalsShowInQueriesAndEvents) {
  Rig rig;
  ASSERT_EQ(rig.ctl.subscribe(rig.me, {}), "");
  const AgentId g = rig.spawn("guard", 80, 20);
  ASSERT_EQ(rig.run(setBrainState(g, "chase")).status(), STATUS_OK);
  ASSERT_EQ(rig.run(setStat(g, "alert", 99)).status(), STATUS_OK);
  ASSERT_EQ(rig.run(raiseSignal(g, "alarm")).status(), STATUS_OK);
  auto info = rig.ctl.query(g);
  EXPECT_EQ(info->brain_state(), "chase");
  EXPECT_FLOAT_EQ(info->stats(0).value(), 10) << "clamped to the stat's max";
  ASSERT_EQ(info->signals_size(), 1);
  EXPECT_EQ(info->signals(0), "alarm");
  ASSERT_EQ(rig.run(raiseSignal(g, "alarm", false)).status(), STATUS_OK);
  EXPECT_EQ(rig.ctl.query(g)->signals_size(), 0);
  rig.tick();  // nobody in sight: the brain goes back to patrol within its one-second memory
  rig.tick(40);
  const auto changes = rig.eventsOf(EVENT_STATE_CHANGED);
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[0].from(), "patrol");  // the command's
  EXPECT_EQ(changes[0].to(), "chase");
  EXPECT_EQ(changes[1].to(), "patrol");  // the brain's
}

TEST(Controller, ASignalRaisedByTheGameIsWhatTheBrainReads) {
  Rig rig;
  const AgentId g = rig.spawn("guard", 80, 80);
  rig.tick(10);
  EXPECT_EQ(rig.ctl.query(g)->brain_state(), "patrol");
  ASSERT_EQ(rig.run(raiseSignal(g, "alarm")).status(), STATUS_OK);
  rig.tick();  // it thinks every tick (and, seeing nobody, goes back to patrol at the next)
  EXPECT_EQ(rig.ctl.query(g)->brain_state(), "chase") << "signal: \"alarm\" holds";
}

TEST(Controller, AnOrderSendsARiderToBringAStrayHome) {
  Rig rig;
  // A herd of walkers held still round (20, 80), one stray held at (70, 80).
  std::vector<AgentId> herd;
  for (int i = 0; i < 5; ++i) herd.push_back(rig.spawn("walker", 18.0f + i, 80));
  for (AgentId w : herd) ASSERT_EQ(rig.run(stopAgent(w)).status(), STATUS_OK);
  const AgentId stray = rig.spawn("walker", 70, 80);
  const AgentId rider = rig.spawn("rider", 80, 90);
  const AgentId guard = rig.spawn("guard", 30, 30);
  expectError(rig.run(orderFetch(guard, stray)), "order.agent");  // guards never fetch
  expectError(rig.run(orderFetch(rider, rider)), "order.stray");
  expectError(rig.run(orderFetch(rider, 9999)), "order.stray");
  expectError(rig.run(orderFetch(rider, stray, "dragons")), "order.group");
  ASSERT_EQ(rig.run(orderFetch(rider, stray)).status(), STATUS_OK);
  EXPECT_EQ(rig.ctl.query(rider)->fetching(), stray);
  const float before = steer::distance(rig.positionOf(stray), {20, 80});
  rig.tick(30 * 40);
  const float after = steer::distance(rig.positionOf(stray), {20, 80});
  std::printf("stray %.1f m from the herd, %.1f m after 40 s of the order\n", before, after);
  EXPECT_LT(after, before - 20.0f) << "the rider drove it home";
}

TEST(Controller, SightingsAndCatchesAreEvents) {
  Rig rig;
  ASSERT_EQ(rig.ctl.subscribe(rig.me, {}), "");
  const AgentId g = rig.spawn("guard", 20, 80);
  rig.tick(5);
  EXPECT_TRUE(rig.eventsOf(EVENT_SIGHTED).empty());
  const AgentId w = rig.spawn("walker", 26, 80);
  ASSERT_EQ(rig.run(stopAgent(w)).status(), STATUS_OK);
  rig.tick(30 * 5);
  const auto sighted = rig.eventsOf(EVENT_SIGHTED);
  ASSERT_FALSE(sighted.empty());
  EXPECT_EQ(sighted[0].agent(), g);
  EXPECT_EQ(sighted[0].sense(), "eyes");
  const auto caught = rig.eventsOf(EVENT_CAUGHT);
  ASSERT_EQ(caught.size(), 1u) << "once per target";
  EXPECT_EQ(caught[0].agent(), g);
  EXPECT_EQ(caught[0].other(), w);
  ASSERT_EQ(rig.run(despawnAgent(w)).status(), STATUS_OK);
  rig.tick(30 * 3);
  EXPECT_FALSE(rig.eventsOf(EVENT_LOST_SIGHT).empty());
}

TEST(Controller, SubscriptionsFilterByKindAndArchetype) {
  Rig rig;
  Subscribe only;
  only.add_kinds(EVENT_SPAWNED);
  only.add_archetypes("guard");
  EXPECT_EQ(rig.ctl.subscribe(rig.me, only), "");
  rig.spawn("walker", 10, 10);
  const AgentId g = rig.spawn("guard", 30, 10);
  rig.run(despawnAgent(g));
  ASSERT_EQ(rig.events.size(), 1u);
  EXPECT_EQ(rig.events[0].agent(), g);
  Subscribe bad;
  bad.add_archetypes("dragon");
  EXPECT_NE(rig.ctl.subscribe(rig.me, bad), "");
  Command c;
  c.mutable_subscribe()->add_kinds(static_cast<EventKind>(77));
  expectError(rig.run(c), "subscribe.kinds[0]");
}

TEST(Controller, ARemovedSubscribersPlaceIsReusedAndItsQueuedResultsGoNowhere) {
  auto world = makeWorld();
  Controller ctl(*world);
  int firstResults = 0, secondResults = 0;
  const SubscriberId first = ctl.addSubscriber({.onResult = [&](const CommandResult&) { ++firstResults; }});
  ctl.submit(first, spawnAt("walker", 10, 10));
  ctl.removeSubscriber(first);
  const SubscriberId second = ctl.addSubscriber({.onResult = [&](const CommandResult&) { ++secondResults; }});
  EXPECT_EQ(second, first) << "the place is reused";
  ctl.applyPending();
  EXPECT_EQ(world->agentCount(), 1u) << "the removed subscriber's command is still applied";
  EXPECT_EQ(firstResults + secondResults, 0) << "its result goes to nobody, not to the newcomer";
  for (int i = 0; i < 1000; ++i) ctl.removeSubscriber(ctl.addSubscriber({}));
  EXPECT_EQ(ctl.addSubscriber({}), second + 1) << "a thousand comings and goings take one place";
}

TEST(Controller, QueuedCommandsApplyAtTheNextBoundaryInSubmissionOrder) {
  Rig rig;
  rig.ctl.submit(rig.me, spawnAt("walker", 10, 10));
  rig.ctl.submit(rig.me, despawnAgent(0));  // the agent the first one makes
  rig.ctl.submit(rig.me, queryAgent(0));
  EXPECT_TRUE(rig.results.empty()) << "nothing before the boundary";
  rig.tick();
  ASSERT_EQ(rig.results.size(), 3u);
  EXPECT_EQ(rig.results[0].status(), STATUS_OK);
  EXPECT_EQ(rig.results[0].agent(), 0u);
  EXPECT_EQ(rig.results[1].status(), STATUS_OK);
  EXPECT_EQ(rig.results[2].status(), STATUS_ERROR) << "queried after its despawn";
  EXPECT_EQ(rig.results[0].tick(), 0u);
}

// A command log applied at fixed ticks gives the same state hash for 1, 2 and 4 threads, and a
// different one from the world without it.
std::uint64_t runLog(unsigned threads, bool withCommands) {
  auto world = makeWorld(threads);
  Controller ctl(*world);
  const SubscriberId me = ctl.addSubscriber({});
  for (int i = 0; i < 60; ++i)
    ctl.apply(me, spawnAt(i % 3 == 0 ? "guard" : "walker", 5.0f + (i % 10) * 9.0f, 5.0f + (i / 10) * 9.0f));
  for (int t = 0; t < 300; ++t) {
    if (withCommands && t % 10 == 0) {
      const AgentId a = static_cast<AgentId>((t / 10) % 60);
      ctl.submit(me, moveTo(a, 10.0f + static_cast<float>(t % 80), 90.0f - static_cast<float>(t % 70), 2,
                            t % 20 == 0));
      ctl.submit(me, followAgent(static_cast<AgentId>((a + 7) % 60), a));
      ctl.submit(me, guardAgent(static_cast<AgentId>((a + 13) % 60), a, 4));
      ctl.submit(me, stopAgent(static_cast<AgentId>((a + 29) % 60)));
      ctl.submit(me, raiseSignal(a, named("s", t % 3)));
      if (t % 50 == 0) ctl.submit(me, spawnAt("walker", 40, 90));
      if (t % 70 == 0) ctl.submit(me, despawnAgent(static_cast<AgentId>((a + 41) % 60)));
    }
    ctl.applyPending();
    world->step();
    ctl.afterTick();
  }
  return world->stateHash();
}

TEST(Controller, SameCommandLogSameHashForOneTwoFourThreads) {
  const std::uint64_t one = runLog(1, true);
  EXPECT_EQ(runLog(2, true), one);
  EXPECT_EQ(runLog(4, true), one);
  EXPECT_NE(runLog(1, false), one) << "the commands change the world";
}

}  // namespace
}  // namespace steerd::control
