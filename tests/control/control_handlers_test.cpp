// The command handlers behind Controller::apply (server/control/handlers/), a family at a time:
// the exact error texts (field and why), nothing changed by a command refused at its last field,
// the defaults a goal fills in, and the dispatcher's stamping and counting. controller_test.cpp
// covers what the commands do over ticks.
#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "control/control.h"
#include "scenario/scenario_file.h"

namespace steerd::control {
namespace {

const char* kScenario = R"(
name: "control-handlers-test"
bounds { min { x: 0 y: 0 } max { x: 100 y: 100 } }
obstacles { center { x: 50 y: 50 } radius: 5 }
waypoints { name: "home" position { x: 20 y: 20 } }
waypoints { name: "far" position { x: 80 y: 80 } }
paths { name: "line" waypoints: ["home", "far"] looped: false }
archetypes {
  name: "walker"
  limits { radius: 0.5 mass: 1 max_speed: 4 max_force: 20 max_turn_rate_deg: 360 }
  behaviours { kind: WANDER weight: 1 priority: 1 }
}
archetypes {
  name: "guard"
  limits { radius: 0.5 mass: 1 max_speed: 6 max_force: 30 max_turn_rate_deg: 360 }
  behaviours { kind: WANDER weight: 1 priority: 1 }
}
archetypes {
  name: "rider"
  limits { radius: 0.5 mass: 1 max_speed: 8 max_force: 30 max_turn_rate_deg: 360 }
  behaviours { kind: FETCH_STRAY target: FETCH_ORDER target_archetype: "walker" stand_off: 6 priority: 1 }
}
archetypes {
  name: "boss"
  limits { radius: 0.5 mass: 1 max_speed: 2 max_force: 10 max_turn_rate_deg: 360 }
  behaviours { kind: WANDER }
}
brains {
  archetype: "boss"
  initial_state: "idle"
  states { name: "idle" orders { stray: "walker" metres: 1000 to: "rider" } }
}
brains {
  archetype: "guard"
  initial_state: "patrol"
  stats { name: "alert" initial: 0 min: 0 max: 10 }
  states { name: "patrol" }
  states { name: "chase" }
}
)";

// A world, its controller and one subscriber that hears every event.
struct Rig {
  std::unique_ptr<World> world;
  std::unique_ptr<Controller> ctl;
  std::vector<Event> events;
  SubscriberId me = 0;

  Rig() {
    ScenarioLoad load = loadScenarioText(kScenario, "control-handlers-test.txtpb", {1, 1, 0}, true);
    EXPECT_TRUE(load.errors.empty()) << (load.errors.empty() ? "" : load.errors[0]);
    world = std::move(load.world);
    ctl = std::make_unique<Controller>(*world);
    me = ctl->addSubscriber({.onEvent = [this](const Event& e) { events.push_back(e); }});
    EXPECT_EQ(ctl->subscribe(me, {}), "");
  }
  CommandResult run(const Command& c) { return ctl->apply(me, c); }
  AgentId spawn(const std::string& archetype, float x, float y) {
    const CommandResult r = run(spawnAt(archetype, x, y));
    EXPECT_EQ(r.status(), STATUS_OK) << r.error();
    return r.agent();
  }
  std::string error(const Command& c) {
    const CommandResult r = run(c);
    EXPECT_EQ(r.status(), STATUS_ERROR);
    EXPECT_FALSE(r.has_info());
    return r.error();
  }
};

const float kNan = std::numeric_limits<float>::quiet_NaN();

TEST(ControlDispatcher, StampsSequenceAndTickAndCountsBothWays) {
  Rig rig;
  rig.world->step();
  rig.world->step();
  Command c = spawnAt("walker", 10, 10);
  c.set_sequence(41);
  const CommandResult ok = rig.run(c);
  EXPECT_EQ(ok.status(), STATUS_OK);
  EXPECT_EQ(ok.sequence(), 41u);
  EXPECT_EQ(ok.tick(), rig.world->tick());
  EXPECT_EQ(ok.tick(), 2u);
  Command none;
  none.set_sequence(42);
  const CommandResult bad = rig.run(none);
  EXPECT_EQ(bad.status(), STATUS_ERROR);
  EXPECT_EQ(bad.error(), "command: no command in it (an unknown kind from a newer client?)");
  EXPECT_EQ(bad.sequence(), 42u);
  EXPECT_EQ(bad.tick(), 2u);
  EXPECT_EQ(rig.ctl->applied(), 1u);
  EXPECT_EQ(rig.ctl->rejected(), 1u);
}

TEST(ControlDispatcher, AKindFromANewerClientIsAnErrorResult) {
  Rig rig;
  // Field 99 of Command: a kind this server's control.proto does not have.
  const std::string bytes = std::string("\x08\x05", 2) + std::string("\x9a\x06\x02\x08\x01", 5);
  Command c;
  ASSERT_TRUE(c.ParseFromString(bytes));
  ASSERT_EQ(c.kind_case(), Command::KIND_NOT_SET);
  const CommandResult r = rig.run(c);
  EXPECT_EQ(r.status(), STATUS_ERROR);
  EXPECT_EQ(r.sequence(), 5u);
  EXPECT_EQ(r.error(), "command: no command in it (an unknown kind from a newer client?)");
}

TEST(ControlAgentHandlers, ErrorsNameTheFieldAndWhy) {
  Rig rig;
  EXPECT_EQ(rig.error(spawnAt("wolf", 10, 10)), "spawn.archetype: no archetype \"wolf\"");
  EXPECT_EQ(rig.error(spawnAt("player", 10, 10)),
            "spawn.archetype: player bodies come with player connections");
  EXPECT_EQ(rig.error(spawnAt("walker", kNan, 10)), "spawn.position: not a finite point");
  EXPECT_EQ(rig.error(spawnAt("walker", 150, 10)),
            "spawn.position: (150, 10) is outside the world bounds (0, 0) - (100, 100)");
  EXPECT_EQ(rig.error(spawnAt("walker", 51, 51)), "spawn.position: inside an obstacle");
  Command c = spawnAt("walker", 10, 10);
  c.mutable_spawn()->clear_position();
  EXPECT_EQ(rig.error(c), "spawn.position: missing");
  c = spawnAt("walker", 10, 10);
  c.mutable_spawn()->mutable_velocity()->set_x(100);
  EXPECT_EQ(rig.error(c), "spawn.velocity: faster than walker's max speed 4");
  c = spawnAt("walker", 10, 10);
  c.mutable_spawn()->mutable_heading()->set_x(kNan);
  EXPECT_EQ(rig.error(c), "spawn.heading: must be a finite, non-zero direction");
  c = spawnAt("walker", 10, 10);
  c.mutable_spawn()->set_brain_state("chase");
  EXPECT_EQ(rig.error(c), "spawn.brain_state: walker has no brain");
  c = spawnAt("guard", 10, 10);
  c.mutable_spawn()->set_brain_state("sleep");
  EXPECT_EQ(rig.error(c), "spawn.brain_state: no state \"sleep\" in guard's brain");
  EXPECT_EQ(rig.error(despawnAgent(999)), "despawn.agent: no live agent 999");
  const AgentId player =
      rig.world->spawnExternal(static_cast<ArchetypeIndex>(rig.world->archetypeIndex("player")), {30, 30});
  EXPECT_EQ(rig.error(despawnAgent(player)), "despawn.agent: agent " + std::to_string(player) +
                                                 " is a connected player's body (moved by its client)");
  EXPECT_EQ(rig.world->agentCount(), 1u) << "the player, and nothing the errors would have added";
}

TEST(ControlAgentHandlers, SpawnAndDespawnNameTheAgentAndTellSubscribers) {
  Rig rig;
  const CommandResult spawned = rig.run(spawnAt("walker", 10, 10, {"gate"}));
  ASSERT_EQ(spawned.status(), STATUS_OK);
  EXPECT_TRUE(rig.world->isAlive(spawned.agent()));
  ASSERT_EQ(rig.ctl->query(spawned.agent())->tags_size(), 1);
  const CommandResult gone = rig.run(despawnAgent(spawned.agent()));
  EXPECT_EQ(gone.agent(), spawned.agent());
  ASSERT_EQ(rig.events.size(), 2u);
  EXPECT_EQ(rig.events[0].kind(), EVENT_SPAWNED);
  EXPECT_EQ(rig.events[1].kind(), EVENT_DESPAWNED);
  EXPECT_EQ(rig.events[1].archetype(), "walker");
}

TEST(ControlGoalHandlers, ErrorsNameTheFieldAndWhy) {
  Rig rig;
  const AgentId a = rig.spawn("walker", 10, 10);
  EXPECT_EQ(rig.error(moveTo(999, 20, 20)), "move_to.agent: no live agent 999");
  EXPECT_EQ(rig.error(moveTo(a, 50, 52)), "move_to.position: inside an obstacle");
  EXPECT_EQ(rig.error(moveTo(a, 20, 20, -1)), "move_to.radius: -1 must be finite and >= 0");
  EXPECT_EQ(rig.error(moveToWaypoint(a, "nowhere")), "move_to_waypoint.waypoint: no waypoint \"nowhere\"");
  EXPECT_EQ(rig.error(moveToWaypoint(a, "home", kNan)),
            "move_to_waypoint.radius: nan must be finite and >= 0");
  EXPECT_EQ(rig.error(followPath(a, "nowhere")), "follow_path.path: no path \"nowhere\"");
  EXPECT_EQ(rig.error(followAgent(a, 999)), "follow.target: no live agent 999");
  EXPECT_EQ(rig.error(followAgent(a, a)), "follow.target: an agent cannot follow itself");
  EXPECT_EQ(rig.error(guardAgent(a, a)), "guard.target: an agent cannot guard itself");
  EXPECT_EQ(rig.error(stopAgent(999)), "stop.agent: no live agent 999");
  EXPECT_EQ(rig.error(releaseAgent(999)), "release.agent: no live agent 999");
}

TEST(ControlGoalHandlers, ARefusalAtTheLastFieldKeepsTheGoalItHad) {
  Rig rig;
  const AgentId a = rig.spawn("walker", 10, 10);
  const AgentId b = rig.spawn("walker", 30, 10);
  ASSERT_EQ(rig.run(moveTo(a, 20, 20)).status(), STATUS_OK);
  Command follow = followAgent(a, b);
  follow.mutable_follow()->mutable_offset()->set_x(kNan);
  EXPECT_EQ(rig.error(follow), "follow.offset: not finite");
  EXPECT_EQ(rig.error(guardAgent(a, b, kNan)), "guard.radius: nan must be finite and >= 0");
  EXPECT_EQ(rig.world->directiveOf(a).kind, DirectiveKind::kMoveTo);
  EXPECT_FLOAT_EQ(rig.world->directiveOf(a).point.x, 20);
}

TEST(ControlGoalHandlers, GoalsFillInTheirDefaults) {
  Rig rig;
  const AgentId a = rig.spawn("walker", 10, 10);
  const AgentId b = rig.spawn("walker", 30, 10);
  EXPECT_EQ(rig.run(moveToWaypoint(a, "home", 0, true)).agent(), a);
  const Directive& d = rig.world->directiveOf(a);
  EXPECT_EQ(d.kind, DirectiveKind::kMoveTo);
  EXPECT_FLOAT_EQ(d.point.x, 20);
  EXPECT_FLOAT_EQ(d.radius, 1) << "0: 1 m";
  EXPECT_TRUE(d.releaseOnArrival);
  EXPECT_EQ(rig.run(followPath(a, "line")).agent(), a);
  EXPECT_EQ(rig.world->directiveOf(a).kind, DirectiveKind::kPath);
  EXPECT_FLOAT_EQ(rig.world->directiveOf(a).point.x, 80) << "the path's end";
  EXPECT_EQ(rig.ctl->query(a)->goal(), GOAL_PATH);
  EXPECT_EQ(rig.run(followAgent(a, b)).agent(), a);
  EXPECT_FLOAT_EQ(rig.world->directiveOf(a).offset.x, -2) << "2 m behind";
  EXPECT_EQ(rig.run(guardAgent(a, b)).agent(), a);
  EXPECT_FLOAT_EQ(rig.world->directiveOf(a).radius, 5) << "0: 5 m";
  EXPECT_EQ(rig.ctl->query(a)->goal_target(), b);
  EXPECT_EQ(rig.run(stopAgent(a)).agent(), a);
  EXPECT_EQ(rig.ctl->query(a)->goal(), GOAL_STOP);
  EXPECT_EQ(rig.run(releaseAgent(a)).agent(), a);
  EXPECT_EQ(rig.ctl->query(a)->goal(), GOAL_NONE);
}

TEST(ControlBrainHandlers, ErrorsNameTheFieldAndWhy) {
  Rig rig;
  const AgentId w = rig.spawn("walker", 10, 10);
  const AgentId g = rig.spawn("guard", 30, 10);
  EXPECT_EQ(rig.error(setBrainState(w, "chase")), "set_state.agent: walker has no brain");
  EXPECT_EQ(rig.error(setBrainState(g, "sleep")), "set_state.state: no state \"sleep\" in guard's brain");
  EXPECT_EQ(rig.error(setStat(w, "alert", 1)), "set_stat.agent: walker has no brain");
  EXPECT_EQ(rig.error(setStat(g, "courage", 1)), "set_stat.stat: no stat \"courage\" in guard's brain");
  EXPECT_EQ(rig.error(setStat(g, "alert", kNan)), "set_stat.value: not finite");
  EXPECT_EQ(rig.error(raiseSignal(999, "x")), "signal.agent: no live agent 999");
  EXPECT_EQ(rig.error(raiseSignal(g, "")), "signal.name: empty");
  for (int i = 0; i < 32; ++i) {
    std::string name = "s";  // (appended: GCC 12 warns falsely, -Wrestrict, on "s" + std::to_string(i))
    name += std::to_string(i);
    ASSERT_EQ(rig.run(raiseSignal(g, name)).status(), STATUS_OK);
  }
  EXPECT_EQ(rig.error(raiseSignal(g, "one-too-many")), "signal.name: a world holds at most 32 signal names");
  EXPECT_EQ(rig.run(raiseSignal(g, "never-raised", false)).status(), STATUS_OK) << "lowering: nothing to do";
  EXPECT_EQ(rig.ctl->query(g)->brain_state(), "patrol");
}

TEST(ControlBrainHandlers, SetStateTellsSubscribersOnlyOfAChange) {
  Rig rig;
  const AgentId g = rig.spawn("guard", 30, 10);
  rig.events.clear();
  EXPECT_EQ(rig.run(setBrainState(g, "patrol")).agent(), g);
  EXPECT_TRUE(rig.events.empty()) << "already there";
  EXPECT_EQ(rig.run(setBrainState(g, "chase")).agent(), g);
  ASSERT_EQ(rig.events.size(), 1u);
  EXPECT_EQ(rig.events[0].kind(), EVENT_STATE_CHANGED);
  EXPECT_EQ(rig.events[0].from(), "patrol");
  EXPECT_EQ(rig.events[0].to(), "chase");
  rig.world->step();
  rig.ctl->afterTick();
  EXPECT_EQ(rig.events.size(), 1u) << "afterTick does not report the command's change again";
}

TEST(ControlBrainHandlers, OrderErrorsNameTheFieldAndChangeNothing) {
  Rig rig;
  const AgentId stray = rig.spawn("walker", 70, 80);
  const AgentId rider = rig.spawn("rider", 80, 90);
  const AgentId guard = rig.spawn("guard", 30, 30);
  EXPECT_EQ(rig.error(orderFetch(guard, stray)),
            "order.agent: guard's behaviours never act on an order to fetch a walker "
            "(FETCH_STRAY with target: FETCH_ORDER)");
  EXPECT_EQ(rig.error(orderFetch(rider, rider)), "order.stray: an agent cannot fetch itself");
  EXPECT_EQ(rig.error(orderFetch(rider, 9999)), "order.stray: no live agent 9999");
  EXPECT_EQ(rig.error(orderFetch(rider, stray, "dragons")), "order.group: no archetype \"dragons\"");
  Command c = orderFetch(rider, stray);
  c.mutable_order()->set_done_within(-1);
  EXPECT_EQ(rig.error(c), "order.done_within: -1 must be finite and >= 0");
  c = orderFetch(rider, stray);
  c.mutable_order()->set_give_up_after_s(kNan);
  EXPECT_EQ(rig.error(c), "order.give_up_after_s: nan must be finite and >= 0");
  EXPECT_FALSE(rig.ctl->query(rider)->has_fetching());
  EXPECT_EQ(rig.run(orderFetch(rider, stray)).agent(), rider);
  EXPECT_EQ(rig.ctl->query(rider)->fetching(), stray);
}

TEST(ControlQueryHandlers, QueryAndSubscribe) {
  Rig rig;
  const AgentId a = rig.spawn("walker", 10, 10);
  const CommandResult q = rig.run(queryAgent(a));
  EXPECT_EQ(q.agent(), a);
  EXPECT_EQ(q.info().archetype(), "walker");
  EXPECT_EQ(rig.error(queryAgent(999)), "query.agent: no live agent 999");
  const CommandResult s = rig.run(subscribeTo({EVENT_SPAWNED}, {"guard"}));
  EXPECT_EQ(s.status(), STATUS_OK);
  EXPECT_EQ(s.agent(), 0u);
  EXPECT_EQ(rig.error(subscribeTo({}, {"dragon"})), "subscribe.archetypes[0]: no archetype \"dragon\"");
  EXPECT_EQ(rig.error(subscribeTo({static_cast<EventKind>(77)})), "subscribe.kinds[0]: no event kind 77");
  EXPECT_EQ(rig.ctl->apply(0, subscribeTo()).error(), "subscribe: no such subscriber");
  rig.events.clear();
  rig.spawn("walker", 12, 10);
  EXPECT_TRUE(rig.events.empty()) << "the refused subscribes left the guard-only one in place";
  rig.spawn("guard", 14, 10);
  EXPECT_EQ(rig.events.size(), 1u);
}

}  // namespace
}  // namespace steerd::control
