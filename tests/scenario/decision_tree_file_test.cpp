// Decision trees in scenario files: a good tree compiles and drives a running world; every class
// of broken tree is refused with an error naming the field path and the value.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "scenario/scenario_file.h"
#include "scenario_text.h"
#include "world/brain_think.h"

namespace steerd {
namespace {

using namespace steerd::testing;

// A walker arrives at a spot 5 m short of a post 30 m away; its tree says "close" once the post
// is within 10 m, else "far_off" (and "rest", the parent of "far_off", enters it).
const std::string kWorld = R"(
name: "tree"
bounds { min { x: 0 y: 0 } max { x: 100 y: 100 } }
waypoints { name: "spot" position { x: 65 y: 50 } }
archetypes {
  name: "walker"
  limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 6 max_turn_rate_deg: 360 }
  behaviours { kind: ARRIVE_AT waypoint: "spot" }
}
archetypes {
  name: "post"
  limits { radius: 0.5 mass: 1 max_speed: 0 max_force: 1 }
}
spawns { archetype: "walker" count: 1 min { x: 39 y: 49 } max { x: 41 y: 51 } }
spawns { archetype: "post" count: 1 min { x: 69.9 y: 49.9 } max { x: 70.1 y: 50.1 } }
)";

const std::string kBrain = R"(
brains {
  archetype: "walker"
  initial_state: "far_off"
  think_every_ticks: 2
  senses { name: "eyes" archetype: "post" range: 50 }
  states { name: "rest" initial_child: "far_off" }
  states { name: "far_off" parent: "rest" }
  states { name: "close" }
  decide {
    when { near { archetype: "post" metres: 10 } }
    yes { state: "close" }
    no { when { sees: "eyes" } yes { state: "rest" } no { state: "far_off" } }
  }
}
)";

std::string broken(const std::string& from, const std::string& to) {
  return kWorld + replacedIn(kBrain, from, to);
}

int stateNamed(const brain::Brain& b, const std::string& name) {
  for (std::size_t i = 0; i < b.states.size(); ++i) {
    if (b.states[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

TEST(DecisionTreeFile, AGoodTreeCompilesRootFirst) {
  const ScenarioLoad r = load(kWorld + kBrain);
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  ASSERT_NE(r.world, nullptr);
  const brain::Brain& b = *r.world->archetypes()[0].brain;
  ASSERT_EQ(b.tree.size(), 5u);  // two branches, three leaves
  EXPECT_GE(b.tree[0].condition, 0);
  EXPECT_EQ(b.conditions[static_cast<std::size_t>(b.tree[0].condition)].test, brain::Test::kNear);
  const brain::DecisionNode& yes = b.tree[static_cast<std::size_t>(b.tree[0].yes)];
  EXPECT_EQ(yes.condition, -1);
  EXPECT_EQ(yes.state, stateNamed(b, "close"));
  const brain::DecisionNode& no = b.tree[static_cast<std::size_t>(b.tree[0].no)];
  EXPECT_EQ(b.conditions[static_cast<std::size_t>(no.condition)].test, brain::Test::kSees);
  EXPECT_EQ(b.tree[static_cast<std::size_t>(no.yes)].state, stateNamed(b, "rest"));
  EXPECT_EQ(b.tree[static_cast<std::size_t>(no.no)].state, stateNamed(b, "far_off"));
  for (const auto& s : b.states) EXPECT_TRUE(s.transitions.empty());
}

TEST(DecisionTreeFile, TreeConditionsOnGroupsAreCollectedForTheTick) {
  const ScenarioLoad r =
      load(broken("when { sees: \"eyes\" }", "when { group_strays { archetype: \"post\" metres: 20 } }"));
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  std::vector<StrayPair> pairs;
  strayPairsOf(*r.world->archetypes()[0].brain, pairs);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].member, 1);
  EXPECT_EQ(pairs[0].group, 1);
}

// The walker starts 30 m out: "rest" (it sees the post) lands in "far_off"; once within 10 m it
// is "close" and stays, its state entered once (the tree naming the current state keeps it).
TEST(DecisionTreeFile, AWalkerSwitchesStateWhenItsTreeSaysSo) {
  const ScenarioLoad r = load(kWorld + kBrain);
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  World& w = *r.world;
  const brain::Brain& b = *w.archetypes()[0].brain;
  const int farOff = stateNamed(b, "far_off"), close = stateNamed(b, "close");
  AgentId walker = 0;
  for (std::size_t s = 0; s < w.agentCount(); ++s) {
    if (w.agents().archetype[s] == 0) walker = w.agents().id[s];
  }
  EXPECT_EQ(w.brainStateOf(walker), farOff);
  int switchedAt = -1;
  std::uint64_t entered = 0;
  for (int t = 0; t < 20 * 30; ++t) {
    w.step();
    const std::uint32_t s = w.slotOf(walker);
    const float toPost = std::hypot(w.agents().px[s] - 70.0f, w.agents().py[s] - 50.0f);
    if (switchedAt < 0) {
      if (w.brainStateOf(walker) == close) {
        switchedAt = t;
        entered = w.brainMemoryOf(walker).enteredTick;
        // Thinks come every 2 ticks: the switch lands within 2 ticks' walk (3 m/s * 2/30 s).
        EXPECT_LE(toPost, 10.0f) << "tick " << t;
        EXPECT_GT(toPost, 10.0f - 0.5f) << "tick " << t;
      } else {
        EXPECT_EQ(w.brainStateOf(walker), farOff) << "tick " << t;
        EXPECT_GT(toPost, 10.0f - 0.5f) << "tick " << t;  // (thought a step ago)
      }
    } else {
      EXPECT_EQ(w.brainStateOf(walker), close) << "tick " << t;
      EXPECT_EQ(w.brainMemoryOf(walker).enteredTick, entered) << "re-entered at tick " << t;
    }
  }
  EXPECT_GT(switchedAt, 30);  // it had to walk there
}

TEST(DecisionTreeFile, ALeafWithoutAStateIsRefused) {
  expectError(broken("yes { state: \"close\" }", "yes { }"),
              "brains[0] (\"walker\").decide.yes.state: missing (a leaf names a state");
  expectError(
      kWorld + R"(brains { archetype: "walker" initial_state: "close" states { name: "close" } decide { } })",
      "decide.state: missing");
}

TEST(DecisionTreeFile, ANodeWithBothAConditionAndAStateIsRefused) {
  expectError(broken("yes { state: \"rest\" }", "yes { state: \"rest\" when { sees: \"eyes\" } }"),
              "decide.no.yes.state: \"rest\" on a branch");
  expectError(broken("no { when { sees", "no { state: \"close\" when { sees"),
              "decide.no.state: \"close\" on a branch");
}

TEST(DecisionTreeFile, ABranchNeedsYesAndNo) {
  expectError(broken("yes { state: \"close\" }", ""), "decide.yes: missing (a branch needs yes and no)");
  expectError(broken("no { state: \"far_off\" }", ""), "decide.no.no: missing (a branch needs yes and no)");
  expectError(broken("when { near { archetype: \"post\" metres: 10 } }", ""),
              "decide.when: missing (a branch with yes and no needs a condition)");
}

TEST(DecisionTreeFile, UnknownStatesInLeavesAreNamed) {
  expectError(broken("no { state: \"far_off\" }", "no { state: \"x\" }"),
              "brains[0] (\"walker\").decide.no.no.state: no state named \"x\"");
  expectError(broken("yes { state: \"close\" }", "yes { state: \"near\" }"),
              "decide.yes.state: no state named \"near\"");
}

TEST(DecisionTreeFile, ConditionsInTheTreeAreChecked) {
  expectError(broken("sees: \"eyes\"", "sees: \"ears\""), "decide.no.when.sees: no sense named \"ears\"");
  expectError(broken("archetype: \"post\" metres: 10", "archetype: \"pole\" metres: 10"),
              "decide.when.near.archetype: no archetype named \"pole\"");
  expectError(broken("when { sees: \"eyes\" }", "when { }"), "decide.no.when: empty condition");
}

// 17 decisions on the way to the deepest leaf: one too many.
TEST(DecisionTreeFile, TreesDeeperThanSixteenAreRefused) {
  auto nested = [](int branches) {
    std::string tree = "state: \"close\"";
    for (int i = 0; i < branches; ++i) {
      tree = "when { sees: \"eyes\" } yes { " + tree + " } no { state: \"far_off\" }";
    }
    return kWorld + R"(brains { archetype: "walker" initial_state: "close"
      senses { name: "eyes" archetype: "post" range: 50 }
      states { name: "close" } states { name: "far_off" } decide { )" +
           tree + " } }";
  };
  const ScenarioLoad sixteen = load(nested(16));
  EXPECT_TRUE(sixteen.errors.empty()) << sixteen.errors[0];
  expectError(nested(17),
              "decide.yes.yes.yes.yes.yes.yes.yes.yes.yes.yes.yes.yes.yes.yes.yes.yes.yes: a "
              "decision tree deeper than 16 decisions");
}

TEST(DecisionTreeFile, TransitionsBesideATreeAreRefused) {
  expectError(broken("states { name: \"close\" }",
                     "states { name: \"close\" transitions { to: \"rest\" when { sees: \"eyes\" } } }"),
              "brains[0] (\"walker\").states[2] (\"close\").transitions: a brain with `decide` chooses by "
              "its tree; transitions are not used");
}

}  // namespace
}  // namespace steerd
