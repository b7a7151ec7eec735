// The debug stream's brain states (DebugInfo.states, the viewer's states overlay): the agents with
// a brain inside the asked circle, nearest first, each with its state's index into a table of
// names; none without a brain or outside; a limit marks the list truncated; a watch with only an
// area keeps sending and ends when the client stops repeating it.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "../scenario/scenario_text.h"
#include "net/debug_info.h"
#include "net/debug_watch.h"

namespace steerd {
namespace {

using namespace steerd::testing;

constexpr const char* kWorld = R"(
name: "states"
bounds { min { x: 0 y: 0 } max { x: 100 y: 100 } }
archetypes { name: "guard" limits { radius: 0.5 mass: 1 max_speed: 0 max_force: 0 } }
archetypes { name: "cat" limits { radius: 0.5 mass: 1 max_speed: 0 max_force: 0 } }
archetypes { name: "rock" limits { radius: 0.5 mass: 1 max_speed: 0 max_force: 0 } }
brains { archetype: "guard" initial_state: "watch" states { name: "watch" } }
brains { archetype: "cat" initial_state: "nap" states { name: "nap" } }
spawns { archetype: "guard" count: 1 min { x: 50 y: 50 } max { x: 50 y: 50 } }
spawns { archetype: "guard" count: 1 min { x: 58 y: 50 } max { x: 58 y: 50 } }
spawns { archetype: "cat" count: 1 min { x: 50 y: 53 } max { x: 50 y: 53 } }
spawns { archetype: "rock" count: 1 min { x: 51 y: 50 } max { x: 51 y: 50 } }
spawns { archetype: "cat" count: 1 min { x: 90 y: 90 } max { x: 90 y: 90 } }
)";

AgentId idAt(const World& w, float x, float y) {
  for (std::uint32_t s = 0; s < w.agents().size(); ++s) {
    if (w.agents().px[s] == x && w.agents().py[s] == y) return w.agents().id[s];
  }
  ADD_FAILURE() << "no agent at " << x << ", " << y;
  return 0;
}

TEST(DebugStates, AgentsWithABrainInsideTheCircleNearestFirst) {
  ScenarioLoad r = load(kWorld);
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  World& w = *r.world;
  w.step();
  // Circle of 10 m round (50, 50): the guard there (0 m), the cat (3 m), the guard at 58 (8 m); the
  // rock (1 m) has no brain; the cat at (90, 90) is outside.
  const wire::DebugStates s = net::debugStatesOf(w, 50, 50, 10);
  ASSERT_EQ(s.agent_id_size(), 3);
  ASSERT_EQ(s.state_size(), 3);
  EXPECT_FALSE(s.truncated());
  EXPECT_EQ(s.agent_id(0), idAt(w, 50, 50));
  EXPECT_EQ(s.agent_id(1), idAt(w, 50, 53));
  EXPECT_EQ(s.agent_id(2), idAt(w, 58, 50));
  ASSERT_EQ(s.names_size(), 2);  // each name once
  EXPECT_EQ(s.names(static_cast<int>(s.state(0))), "watch");
  EXPECT_EQ(s.names(static_cast<int>(s.state(1))), "nap");
  EXPECT_EQ(s.state(2), s.state(0));
  // A smaller circle leaves the far guard out; the limit keeps the nearest and says so.
  EXPECT_EQ(net::debugStatesOf(w, 50, 50, 5).agent_id_size(), 2);
  const wire::DebugStates one = net::debugStatesOf(w, 50, 50, 10, 1);
  ASSERT_EQ(one.agent_id_size(), 1);
  EXPECT_EQ(one.agent_id(0), idAt(w, 50, 50));
  EXPECT_TRUE(one.truncated());
  // Nobody there: an empty list.
  EXPECT_EQ(net::debugStatesOf(w, 10, 10, 3).agent_id_size(), 0);
}

TEST(DebugStates, TrimmingDropsTheFarthestQuarter) {
  wire::DebugStates s;
  s.add_names()->assign(1, 'a');  // (not from a literal: GCC 12 warns falsely, -Wrestrict)
  for (std::uint32_t i = 0; i < 8; ++i) {
    s.add_agent_id(i);
    s.add_state(0);
  }
  net::trimStates(s);
  ASSERT_EQ(s.agent_id_size(), 6);
  EXPECT_EQ(s.state_size(), 6);
  EXPECT_EQ(s.agent_id(5), 5u);
  EXPECT_TRUE(s.truncated());
  // Names no agent left uses go, and the rest are renumbered.
  wire::DebugStates two;
  two.add_names()->assign(1, 'x');
  two.add_names()->assign(1, 'y');
  for (std::uint32_t i = 0; i < 4; ++i) {
    two.add_agent_id(i);
    two.add_state(i < 3 ? 1 : 0);  // the farthest one is the only 'x'
  }
  net::trimStates(two);
  ASSERT_EQ(two.names_size(), 1);
  EXPECT_EQ(two.names(0), "y");
  EXPECT_EQ(two.state(0), 0u);
  EXPECT_EQ(two.state(2), 0u);
  for (int i = 0; i < 6; ++i) net::trimStates(s);
  EXPECT_EQ(s.agent_id_size(), 0);  // at least one a time: it ends
  EXPECT_EQ(s.names_size(), 0);
  net::trimStates(s);  // and an empty list stays empty
  EXPECT_EQ(s.agent_id_size(), 0);
}

TEST(DebugStates, AnAreaAloneKeepsTheStreamUntilItIsNoLongerAskedFor) {
  ScenarioLoad r = load(kWorld);
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  World& w = *r.world;
  net::DebugWatch watch(30.0);
  watch.statesArea(net::DebugWatch::Area{50, 50, 10}, w.tick());
  w.step();
  std::optional<wire::DebugInfo> info = watch.afterTick(w);
  ASSERT_TRUE(info.has_value());
  EXPECT_TRUE(info->hover_only());  // no agent selected
  EXPECT_FALSE(info->has_hover());
  EXPECT_EQ(info->states().agent_id_size(), 3);
  // Paced at 5 a second: the next ticks send nothing until it is due.
  int sent = 1;
  for (int t = 0; t < 30; ++t) {
    w.step();
    if (watch.afterTick(w)) ++sent;
  }
  EXPECT_EQ(sent, 5 + 1);
  // Not asked again for 3 s: the watch ends by itself.
  for (int t = 0; t < 100; ++t) {
    w.step();
    watch.afterTick(w);
  }
  EXPECT_FALSE(watch.statesArea().has_value());
  EXPECT_FALSE(watch.afterTick(w).has_value());
  // With a selected agent, the states go in the same DebugInfo.
  watch.select(idAt(w, 58, 50), w.tick());
  watch.statesArea(net::DebugWatch::Area{50, 50, 2}, w.tick());
  w.step();
  info = watch.afterTick(w);
  ASSERT_TRUE(info.has_value());
  EXPECT_FALSE(info->hover_only());
  EXPECT_EQ(info->agent_id(), idAt(w, 58, 50));
  EXPECT_EQ(info->states().agent_id_size(), 1);
}

}  // namespace
}  // namespace steerd
