// The debug stream on made-up time (tests/net/sim_net.h: the server's protocol with no socket, a
// datagram delivered the moment it is sent): off unless the server allows it, then DebugInfo about
// the selected agent at a bounded rate, exactly counted, a clear answer for an unknown id, and the
// brain's transitions as they happen.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "../nav/box_wall_mesh.h"
#include "nav/navmesh.h"
#include "nav/navmesh_build.h"
#include "net/debug_info.h"
#include "sim_net.h"

namespace steerd::net {
namespace {

void select(SimClient& c, std::uint32_t agent, bool stop = false) {
  wire::Packet p;
  p.mutable_debug_select()->set_agent_id(agent);
  p.mutable_debug_select()->set_stop(stop);
  c.send(p);
}

// A DebugSelect with no selected agent, only the one under the pointer.
void hoverOnly(SimClient& c, std::uint32_t agent) {
  wire::Packet p;
  p.mutable_debug_select()->set_stop(true);
  p.mutable_debug_select()->set_hover_agent(agent);
  c.send(p);
}

// Every DebugInfo pending on the client's socket, in arrival order.
std::vector<wire::DebugInfo> drainInfos(SimClient& c) {
  std::vector<wire::DebugInfo> out;
  wire::Decoded d;
  while (c.receive(d)) {
    if (d.drop == wire::DropReason::kNone && d.packet.has_debug_info()) out.push_back(d.packet.debug_info());
  }
  return out;
}

ServerSetup withDebug(ServerSetup setup = {}) {
  setup.net.allowDebug = true;
  return setup;
}

// A watcher (archetype 0, spawned by the harness at (100, 100) facing +x): "idle" until its eyes
// (20 m, 90 degrees) see a player, then "alert/wary", back to idle 1 s after losing sight.
ServerSetup watcherScene() {
  auto b = std::make_shared<brain::Brain>();
  b->thinkEvery = 1;
  b->senses.push_back({"eyes", 1, 20.0f, std::cos(45.0f * steer::kPi / 180.0f)});
  b->states.resize(3);
  b->states[0].name = "idle";
  b->states[1].name = "alert";
  b->states[1].initialChild = 2;
  b->states[2].name = "wary";
  b->states[2].parent = 1;
  b->conditions.push_back({brain::Test::kSees, 0, 0.0f, {}});
  b->conditions.push_back({brain::Test::kSeenWithin, 0, 1.0f, {}});
  b->conditions.push_back({brain::Test::kNot, -1, 0.0f, {1}});
  b->states[0].transitions.push_back({1, 0});
  b->states[1].transitions.push_back({0, 2});
  Archetype watcher;
  watcher.name = "watcher";
  watcher.limits = {0.5f, 1.0f, 3.0f, 6.0f, 2.0f * steer::kPi};
  BehaviourSpec face;
  face.kind = BehaviourKind::kArriveAt;
  face.point = {100, 100};
  watcher.stateBehaviours = {{face}, {}, {face}};
  watcher.brain = b;
  ServerSetup setup;
  setup.archetypes = {watcher};
  return withDebug(setup);
}

TEST(DebugStream, WithoutAllowDebugADebugSelectIsDroppedAndCounted) {
  SimServer s;
  SimClient c(s);
  const auto a = c.connect();
  ASSERT_TRUE(a && a->has_accept());
  EXPECT_FALSE(a->accept().debug_allowed());
  select(c, s.deer);
  ASSERT_TRUE(s.stepUntil([&] { return s.drops(wire::DropReason::kDebugNotAllowed) == 1; }));
  for (int i = 0; i < 30; ++i) s.step();
  EXPECT_TRUE(drainInfos(c).empty());
  EXPECT_EQ(s.metrics.debugInfos.load(), 0u);
}

TEST(DebugStream, WithoutAllowDebugAHoverIsDroppedAndCountedToo) {
  SimServer s;
  SimClient c(s);
  ASSERT_TRUE(c.connect().has_value());
  hoverOnly(c, s.deer);
  ASSERT_TRUE(s.stepUntil([&] { return s.drops(wire::DropReason::kDebugNotAllowed) == 1; }));
  for (int i = 0; i < 30; ++i) s.step();
  EXPECT_TRUE(drainInfos(c).empty());
  EXPECT_EQ(s.metrics.debugInfos.load(), 0u);
}

TEST(DebugStream, ASelectedAgentIsDescribedWithItsBehavioursAndForces) {
  SimServer s(withDebug());
  SimClient c(s);
  const auto a = c.connect();
  ASSERT_TRUE(a && a->has_accept());
  EXPECT_TRUE(a->accept().debug_allowed());
  c.input(1, 110, 100);  // 10 m east of the deer: it evades
  ASSERT_TRUE(s.stepUntil([&] { return s.metrics.inputsApplied.load() >= 1; }));
  select(c, s.deer);
  std::optional<wire::DebugInfo> info;
  ASSERT_TRUE(s.stepUntil([&] {
    for (auto& i : drainInfos(c)) {
      if (i.forces_known() && i.tick() > s.world->tick() - 10) info = i;
    }
    return info.has_value();
  }));
  EXPECT_TRUE(info->found());
  EXPECT_EQ(info->agent_id(), s.deer);
  EXPECT_EQ(info->archetype(), "deer");
  EXPECT_FALSE(info->external());
  EXPECT_EQ(info->brain_state(), "");
  EXPECT_EQ(info->combiner(), "weighted_truncated_running_sum");
  ASSERT_EQ(info->behaviours_size(), 1);
  const wire::DebugBehaviour& evade = info->behaviours(0);
  EXPECT_EQ(evade.kind(), "evade_nearest");
  EXPECT_EQ(evade.detail(), "player");
  EXPECT_TRUE(evade.evaluated());
  EXPECT_LT(evade.force_x(), 0.0f);  // away from the player, west
  EXPECT_EQ(info->target_id(), static_cast<std::int32_t>(a->accept().player_entity()));
  EXPECT_FLOAT_EQ(info->max_speed(), 5.0f);
  EXPECT_GT(info->detection_box_length(), 0.0f);
  // The feelers are drawn on the heading this DebugInfo reports, whichever tick it was built on
  // (the deer may reverse on the spot on that very tick; debug_info_test.cpp pins that case).
  ASSERT_EQ(info->feeler_x_size(), 3);
  const float feeler = Archetype{}.wallFeelerLength;                  // the harness's deer keeps the default
  EXPECT_NEAR(info->feeler_x(0), feeler * info->heading_x(), 1e-4f);  // straight ahead, full length
  EXPECT_NEAR(info->feeler_y(0), feeler * info->heading_y(), 1e-4f);
}

TEST(DebugStream, ANavigatingAgentsCorridorComesWithIt) {
  // The deer's place (100, 100) with a box wall between it and its goal (150, 100).
  const std::shared_ptr<nav::NavMesh> mesh = nav::testing::boxWallMesh();
  ServerSetup setup = withDebug();
  setup.geometry.navMesh = mesh;
  BehaviourSpec go;
  go.kind = BehaviourKind::kNavigate;
  go.navGoal = NavGoal::kPoint;
  go.point = {150, 100};
  setup.archetypes[0].behaviours = {go};
  SimServer s(setup);
  SimClient c(s);
  ASSERT_TRUE(c.connect().has_value());
  select(c, s.deer);
  std::optional<wire::DebugInfo> info;
  ASSERT_TRUE(s.stepUntil([&] {
    for (auto& i : drainInfos(c)) {
      if (i.navigating() && i.corridor_x_size() >= 2 && !i.nav_waiting()) info = i;
    }
    return info.has_value();
  }));
  ASSERT_NE(s.world->navigation(), nullptr);
  EXPECT_TRUE(info->found());
  EXPECT_TRUE(info->nav_has_goal());
  EXPECT_FLOAT_EQ(info->nav_goal_x(), 150.0f);
  EXPECT_FLOAT_EQ(info->nav_goal_y(), 100.0f);
  ASSERT_EQ(info->corridor_x_size(), info->corridor_y_size());
  EXPECT_LE(info->corridor_x_size(), static_cast<int>(kMaxCorridorPoints));
  EXPECT_LT(info->corridor_corner(), static_cast<std::uint32_t>(info->corridor_x_size()));
  // Round the box's end (y 60 or 140, give or take the agent radius), and on to the goal.
  bool roundTheEnd = false;
  for (int k = 0; k < info->corridor_y_size(); ++k) {
    roundTheEnd = roundTheEnd || std::abs(info->corridor_y(k) - 100.0f) > 39.0f;
  }
  EXPECT_TRUE(roundTheEnd);
  EXPECT_NEAR(info->corridor_x(info->corridor_x_size() - 1), 150.0f, 0.5f);
  EXPECT_NEAR(info->corridor_y(info->corridor_y_size() - 1), 100.0f, 0.5f);
  EXPECT_EQ(info->path_id(), -1);
  EXPECT_EQ(info->context_slot(), -1);
  EXPECT_TRUE(info->context_interest().empty());
}

TEST(DebugStream, AnUnknownIdGetsAClearNotFoundAnswer) {
  SimServer s(withDebug());
  SimClient c(s);
  ASSERT_TRUE(c.connect().has_value());
  select(c, 987654);
  std::optional<wire::DebugInfo> info;
  ASSERT_TRUE(s.stepUntil([&] {
    for (auto& i : drainInfos(c)) info = i;
    return info.has_value();
  }));
  EXPECT_EQ(info->agent_id(), 987654u);
  EXPECT_FALSE(info->found());
  EXPECT_EQ(info->archetype(), "");
  EXPECT_EQ(info->behaviours_size(), 0);
}

TEST(DebugStream, AtMostFiveASecondHoweverOftenTheClientAsks) {
  SimServer s(withDebug());
  SimClient c(s);
  ASSERT_TRUE(c.connect().has_value());
  select(c, s.deer);
  ASSERT_TRUE(s.stepUntil([&] { return !drainInfos(c).empty(); }));
  // Two seconds of ticks (30 Hz), with a DebugSelect every tick, alternating between two agents.
  std::size_t infos = 0;
  for (int t = 0; t < 60; ++t) {
    select(c, t % 2 == 0 ? s.deer : 987654);
    s.step();
    infos += drainInfos(c).size();
  }
  EXPECT_EQ(infos, 10u);  // 60 ticks, one every 6
}

// Steps until no DebugInfo has come for `quiet` ticks in a row; false if that takes more than
// `within` ticks.
bool goesQuiet(SimServer& s, SimClient& c, int quiet, int within) {
  int silent = 0;
  for (int i = 0; i < within; ++i) {
    s.step();
    silent = drainInfos(c).empty() ? silent + 1 : 0;
    if (silent >= quiet) return true;
  }
  return false;
}

TEST(DebugStream, StopEndsTheStreamAndSilenceEndsItToo) {
  SimServer s(withDebug());
  SimClient c(s);
  ASSERT_TRUE(c.connect().has_value());
  select(c, s.deer);
  ASSERT_TRUE(s.stepUntil([&] { return !drainInfos(c).empty(); }));
  // Streaming at 5 a second, a tick of 30 without one is not chance; stop ends it well before the
  // 3 s of silence would (90 ticks).
  select(c, s.deer, true);
  EXPECT_TRUE(goesQuiet(s, c, 30, 60));
  // Selected and then never asked again: the stream ends after 3 s of ticks by itself.
  select(c, s.deer);
  ASSERT_TRUE(s.stepUntil([&] { return !drainInfos(c).empty(); }));
  EXPECT_FALSE(goesQuiet(s, c, 30, 80));  // still streaming 2.7 s on
  EXPECT_TRUE(goesQuiet(s, c, 30, 60));   // and then it ends
}

TEST(DebugStream, BrainStateAndTransitionsAsTheyHappen) {
  SimServer s(watcherScene());
  SimClient c(s);
  ASSERT_TRUE(c.connect().has_value());
  c.input(1, 100, 125);  // 25 m north: out of range and out of its field of view
  ASSERT_TRUE(s.stepUntil([&] { return s.metrics.inputsApplied.load() >= 1; }));
  // It may have seen the new player where it appeared: wait for idle, then watch.
  ASSERT_TRUE(s.stepUntil([&] { return s.world->brainStateOf(s.deer) == 0; }));
  select(c, s.deer);
  std::optional<wire::DebugInfo> info;
  ASSERT_TRUE(s.stepUntil([&] {
    for (auto& i : drainInfos(c)) info = i;
    return info.has_value();
  }));
  EXPECT_EQ(info->brain_state(), "idle");
  EXPECT_EQ(info->transitions_size(), 0);
  // Another player appears 10 m in front of it (a player's first input may put its body on any
  // free spot; later ones only as far as its speed allows over the time, not 25 m at once).
  SimClient intruder(s);
  ASSERT_TRUE(intruder.connect().has_value());
  intruder.input(1, 110, 100);
  ASSERT_TRUE(s.stepUntil([&] {
    select(c, s.deer);
    for (auto& i : drainInfos(c)) info = i;
    return info->brain_state() == "alert/wary";
  }));
  ASSERT_EQ(info->transitions_size(), 1);
  EXPECT_EQ(info->transitions(0).from(), "idle");
  EXPECT_EQ(info->transitions(0).to(), "alert/wary");
  EXPECT_EQ(info->transitions(0).tick(), info->state_entered_tick());
  EXPECT_EQ(info->behaviours_size(), 1);
}

TEST(DebugStream, AHoverAloneGetsTheHoveredAgentsBrainState) {
  SimServer s(watcherScene());
  SimClient c(s);
  const auto a = c.connect();
  ASSERT_TRUE(a && a->has_accept());
  c.input(1, 100, 125);  // out of its sight: it settles in "idle"
  ASSERT_TRUE(s.stepUntil([&] { return s.metrics.inputsApplied.load() >= 1; }));
  ASSERT_TRUE(s.stepUntil([&] { return s.world->brainStateOf(s.deer) == 0; }));
  hoverOnly(c, s.deer);
  std::optional<wire::DebugInfo> info;
  ASSERT_TRUE(s.stepUntil([&] {
    for (auto& i : drainInfos(c)) info = i;
    return info.has_value();
  }));
  EXPECT_TRUE(info->hover_only());
  EXPECT_FALSE(info->found());
  EXPECT_EQ(info->behaviours_size(), 0);  // nothing re-evaluated, nothing about a selection
  ASSERT_TRUE(info->has_hover());
  EXPECT_EQ(info->hover().agent_id(), s.deer);
  EXPECT_TRUE(info->hover().found());
  EXPECT_EQ(info->hover().brain_state(), "idle");
  // Another player in front of it: the label follows the brain, state path and all.
  SimClient intruder(s);
  ASSERT_TRUE(intruder.connect().has_value());
  intruder.input(1, 110, 100);
  ASSERT_TRUE(s.stepUntil([&] {
    hoverOnly(c, s.deer);
    for (auto& i : drainInfos(c)) info = i;
    return info->hover().brain_state() == "alert/wary";
  }));
  // The player's body has no brain; an unknown id is not found.
  const std::uint32_t body = a->accept().player_entity();
  ASSERT_TRUE(s.stepUntil([&] {
    hoverOnly(c, body);
    for (auto& i : drainInfos(c)) info = i;
    return info->hover().agent_id() == body;
  }));
  EXPECT_TRUE(info->hover().found());
  EXPECT_EQ(info->hover().brain_state(), "");
  ASSERT_TRUE(s.stepUntil([&] {
    hoverOnly(c, 987654);
    for (auto& i : drainInfos(c)) info = i;
    return info->hover().agent_id() == 987654u;
  }));
  EXPECT_FALSE(info->hover().found());
}

TEST(DebugStream, AHoverRidesAlongWithTheSelectionAtTheSamePace) {
  SimServer s(watcherScene());
  SimClient c(s);
  const auto a = c.connect();
  ASSERT_TRUE(a && a->has_accept());
  const std::uint32_t body = a->accept().player_entity();
  const auto both = [&] {
    wire::Packet p;
    p.mutable_debug_select()->set_agent_id(body);
    p.mutable_debug_select()->set_hover_agent(s.deer);
    c.send(p);
  };
  both();
  std::optional<wire::DebugInfo> info;
  ASSERT_TRUE(s.stepUntil([&] {
    for (auto& i : drainInfos(c)) info = i;
    return info.has_value();
  }));
  EXPECT_FALSE(info->hover_only());
  EXPECT_EQ(info->agent_id(), body);
  EXPECT_TRUE(info->found());
  EXPECT_TRUE(info->external());
  ASSERT_TRUE(info->has_hover());
  EXPECT_EQ(info->hover().agent_id(), s.deer);
  EXPECT_FALSE(info->hover().brain_state().empty());
  // Two seconds with a DebugSelect every tick, hover alone or with the selection: 5 a second.
  std::size_t infos = 0;
  for (int t = 0; t < 60; ++t) {
    if (t % 2 == 0) {
      hoverOnly(c, s.deer);
    } else {
      both();
    }
    s.step();
    infos += drainInfos(c).size();
  }
  EXPECT_EQ(infos, 10u);  // 60 ticks, one every 6
  // A plain stop (no hover) ends it all.
  select(c, 0, true);
  for (int i = 0; i < 10; ++i) {
    s.step();
  }
  drainInfos(c);
  for (int i = 0; i < 30; ++i) s.step();
  EXPECT_TRUE(drainInfos(c).empty());
}

TEST(DebugStream, StateNamesCarryTheirAncestors) {
  brain::Brain b;
  b.states.resize(3);
  b.states[0].name = "combat";
  b.states[1].name = "flee";
  b.states[1].parent = 0;
  b.states[2].name = "cower";
  b.states[2].parent = 1;
  EXPECT_EQ(brainStateName(b, 0), "combat");
  EXPECT_EQ(brainStateName(b, 2), "combat/flee/cower");
  EXPECT_EQ(brainStateName(b, 7), "#7");
}

}  // namespace
}  // namespace steerd::net
