// Targets and fetch orders in scenario files: `target` on a behaviour, `orders` on a brain state
// and the `has_order` condition compile into the world; every class of mistake is refused with
// the field path and the value.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scenario/scenario_file.h"
#include "scenario_text.h"

namespace steerd {
namespace {

using namespace steerd::testing;

// A herd, strays, riders sent by a boss's orders, and a scout that follows the boss (the leader of
// its archetype) and a dog that circles the herd's centroid.
const std::string kGood = R"(
name: "orders"
bounds { min { x: 0 y: 0 } max { x: 200 y: 200 } }
archetypes {
  name: "cow"
  limits { radius: 0.8 mass: 1 max_speed: 2 max_force: 6 max_turn_rate_deg: 360 }
  behaviours { kind: COHESION }
}
archetypes {
  name: "stray"
  limits { radius: 0.8 mass: 1 max_speed: 2.5 max_force: 6 max_turn_rate_deg: 360 }
  behaviours { kind: WANDER }
}
archetypes {
  name: "rider"
  limits { radius: 1 mass: 1 max_speed: 5 max_force: 14 max_turn_rate_deg: 240 }
  behaviours { kind: SEPARATION }
}
archetypes {
  name: "boss"
  limits { radius: 1 mass: 1 max_speed: 3 max_force: 10 max_turn_rate_deg: 180 }
  behaviours { kind: OFFSET_PURSUIT_NEAREST target: GROUP_CENTROID target_archetype: "cow" offset { x: -10 } }
}
archetypes {
  name: "scout"
  limits { radius: 1 mass: 1 max_speed: 3 max_force: 10 max_turn_rate_deg: 180 }
  behaviours { kind: PURSUE_NEAREST target: GROUP_LEADER target_archetype: "boss" }
}
brains {
  archetype: "boss"
  initial_state: "watch"
  states {
    name: "watch"
    orders { stray: "stray" group: "cow" metres: 20 to: "rider" at_once: 2 give_up_after_s: 45 }
  }
}
brains {
  archetype: "rider"
  initial_state: "ride"
  states { name: "ride" transitions { to: "fetch" when { has_order: true } } }
  states {
    name: "fetch"
    behaviours { kind: FETCH_STRAY target: FETCH_ORDER target_archetype: "stray" stand_off: 15 }
    transitions { to: "ride" when { has_order: false } }
  }
}
spawns { archetype: "cow" count: 10 min { x: 90 y: 90 } max { x: 110 y: 110 } }
spawns { archetype: "stray" count: 2 min { x: 150 y: 150 } max { x: 160 y: 160 } }
spawns { archetype: "rider" count: 2 min { x: 60 y: 60 } max { x: 70 y: 70 } }
spawns { archetype: "boss" count: 1 min { x: 80 y: 100 } max { x: 82 y: 102 } }
spawns { archetype: "scout" count: 1 min { x: 10 y: 10 } max { x: 12 y: 12 } }
)";

std::string replaced(const std::string& from, const std::string& to) { return replacedIn(kGood, from, to); }

const Archetype& named(const World& w, const std::string& name) {
  for (const auto& a : w.archetypes()) {
    if (a.name == name) return a;
  }
  throw std::runtime_error("no archetype " + name);
}

TEST(FetchOrderFile, TargetsOrdersAndHasOrderCompile) {
  const ScenarioLoad r = load(kGood);
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  ASSERT_NE(r.world, nullptr);
  const World& w = *r.world;
  EXPECT_EQ(named(w, "boss").behaviours[0].target, TargetKind::kGroupCentroid);
  EXPECT_EQ(named(w, "scout").behaviours[0].target, TargetKind::kGroupLeader);
  EXPECT_EQ(named(w, "cow").behaviours[0].target, TargetKind::kNearest);
  const Archetype& rider = named(w, "rider");
  ASSERT_EQ(rider.stateBehaviours.size(), 2u);
  EXPECT_EQ(rider.stateBehaviours[1][0].target, TargetKind::kFetchOrder);
  EXPECT_EQ(rider.stateBehaviours[1][0].targetArchetype, 1);
  const brain::Brain& boss = *named(w, "boss").brain;
  ASSERT_EQ(boss.states[0].orders.size(), 1u);
  const brain::FetchOrder& o = boss.states[0].orders[0];
  EXPECT_EQ(o.stray, 1);
  EXPECT_EQ(o.group, 0);
  EXPECT_EQ(o.metres, 20.0f);
  EXPECT_EQ(o.to, 2);
  EXPECT_EQ(o.atOnce, 2u);
  EXPECT_EQ(o.giveUpAfter, 45.0f);
  const brain::Brain& riderBrain = *rider.brain;
  ASSERT_EQ(riderBrain.conditions.size(), 2u);
  EXPECT_EQ(riderBrain.conditions[0].test, brain::Test::kHasOrder);
  EXPECT_EQ(riderBrain.conditions[0].value, 1.0f);
  EXPECT_EQ(riderBrain.conditions[1].value, 0.0f);
}

// The strays start 70 m from the herd: the boss sends both riders (at_once: 2), who switch to
// "fetch"; with at_once left out, one at a time.
TEST(FetchOrderFile, TheBossSendsTheRiders) {
  const ScenarioLoad r = load(kGood);
  ASSERT_NE(r.world, nullptr);
  World& w = *r.world;
  for (int t = 0; t < 30; ++t) w.step();
  const int rider = w.archetypeIndex("rider");
  const int fetch = 1;
  int fetching = 0;
  for (std::size_t s = 0; s < w.agentCount(); ++s) {
    if (w.agents().archetype[s] == rider && w.brainStateOf(w.agents().id[s]) == fetch) ++fetching;
  }
  EXPECT_EQ(fetching, 2);

  const ScenarioLoad one = load(replaced(" at_once: 2", ""));
  ASSERT_NE(one.world, nullptr);
  EXPECT_EQ(one.world->archetypes()[3].brain->states[0].orders[0].atOnce, 1u);
  for (int t = 0; t < 30; ++t) one.world->step();
  fetching = 0;
  for (std::size_t s = 0; s < one.world->agentCount(); ++s) {
    if (one.world->agents().archetype[s] == rider &&
        one.world->brainStateOf(one.world->agents().id[s]) == fetch)
      ++fetching;
  }
  EXPECT_EQ(fetching, 1);
}

TEST(FetchOrderFile, OrdersNameArchetypesAPositiveDistanceAndAGiveUpTime) {
  expectError(replaced(R"(stray: "stray" group)", R"(stray: "strya" group)"),
              R"(brains[0] ("boss").states[0] ("watch").orders[0].stray: no archetype named "strya")");
  expectError(replaced(R"(group: "cow" metres)", R"(group: "cwo" metres)"),
              R"(brains[0] ("boss").states[0] ("watch").orders[0].group: no archetype named "cwo")");
  expectError(replaced(R"(to: "rider" at)", R"(to: "ridr" at)"),
              R"(brains[0] ("boss").states[0] ("watch").orders[0].to: no archetype named "ridr")");
  expectError(replaced("metres: 20", "metres: 0"), "orders[0].metres: must be a finite number > 0, not 0");
  expectError(replaced("metres: 20", "metres: -3"), "orders[0].metres: must be a finite number > 0, not -3");
  expectError(replaced("metres: 20", "metres: nan"),
              "orders[0].metres: must be a finite number > 0, not nan");
  expectError(replaced("give_up_after_s: 45", "give_up_after_s: -1"),
              "orders[0].give_up_after_s: must be a finite number >= 0, not -1");
  expectError(replaced("give_up_after_s: 45", "give_up_after_s: inf"),
              "orders[0].give_up_after_s: must be a finite number >= 0, not inf");
  const std::string order =
      R"(orders { stray: "stray" group: "cow" metres: 20 to: "rider" at_once: 2 give_up_after_s: 45 })";
  expectError(replaced(order, order + order + order + order + order),
              R"(brains[0] ("boss").states[0] ("watch").orders: at most 4, not 5)");
}

TEST(FetchOrderFile, ATargetOnAKindWithoutOneIsRefused) {
  expectError(replaced("behaviours { kind: WANDER }", "behaviours { kind: WANDER target: GROUP_LEADER }"),
              R"(archetypes[1] ("stray").behaviours[0].target: GROUP_LEADER on WANDER, which has no target)");
  expectError(replaced("behaviours { kind: COHESION }", "behaviours { kind: COHESION target: FETCH_ORDER }"),
              R"(archetypes[0] ("cow").behaviours[0].target: FETCH_ORDER on COHESION, which has no target)");
  // FETCH_STRAY herds the farthest stray or the ordered one, not a leader or a centroid.
  expectError(replaced("kind: FETCH_STRAY target: FETCH_ORDER", "kind: FETCH_STRAY target: GROUP_CENTROID"),
              "states[1] (\"fetch\").behaviours[0].target: FETCH_STRAY herds the farthest stray (NEAREST) or "
              "the ordered one (FETCH_ORDER), not GROUP_CENTROID");
  // A misspelt target is a syntax error from the parser.
  expectError(replaced("target: GROUP_LEADER", "target: GROUP_LEDAER"), "t.txtpb:");
  // The targeted kinds still need a target archetype.
  expectError(replaced(R"(target: GROUP_LEADER target_archetype: "boss")",
                       R"(target: GROUP_LEADER target_archetype: "bos")"),
              R"(archetypes[4] ("scout").behaviours[0].target_archetype: no archetype named "bos")");
  // At any range: range may be left out, but not be negative.
  expectError(replaced(R"(target_archetype: "boss" })", R"(target_archetype: "boss" range: -1 })"),
              R"(archetypes[4] ("scout").behaviours[0].range: must be a finite number >= 0, not -1)");
}

TEST(FetchOrderFile, FetchOrderNeedsSomeoneToGiveTheOrder) {
  // Nobody orders a scout to fetch anything.
  expectError(
      replaced("kind: PURSUE_NEAREST target: GROUP_LEADER", "kind: PURSUE_NEAREST target: FETCH_ORDER"),
      R"(archetypes[4] ("scout").behaviours[0].target: FETCH_ORDER, but no brain state's orders send a "scout" to fetch a "boss")");
  // Riders are sent after strays, not cows.
  expectError(
      replaced(R"(target: FETCH_ORDER target_archetype: "stray")",
               R"(target: FETCH_ORDER target_archetype: "cow")"),
      R"(.behaviours[0].target: FETCH_ORDER, but no brain state's orders send a "rider" to fetch a "cow")");
  // The orders go elsewhere.
  expectError(replaced(R"(to: "rider" at)", R"(to: "scout" at)"), R"(send a "rider" to fetch a "stray")");
}

// has_order on an archetype that no order sends could never change (a misspelt `to`, say): the
// rider's transitions are refused, both ways, and so is a decision tree's test.
TEST(FetchOrderFile, HasOrderNeedsSomeoneToGiveTheOrder) {
  const std::string noOrders = replaced(R"(to: "rider" at)", R"(to: "scout" at)");
  expectError(noOrders,
              R"(brains[1] ("rider").states[0] ("ride").transitions[0].when.has_order: can never change: )"
              R"(no brain state's orders send a "rider")");
  expectError(noOrders, R"(brains[1] ("rider").states[1] ("fetch").transitions[0].when.has_order)");
  const std::string tree = replacedIn(
      replacedIn(noOrders, R"(states { name: "ride" transitions { to: "fetch" when { has_order: true } } })",
                 R"(decide { when { not { has_order: true } } yes { state: "ride" } no { state: "fetch" } }
  states { name: "ride" })"),
      R"(transitions { to: "ride" when { has_order: false } })", "");
  expectError(tree, R"(brains[1] ("rider").decide.when.not.has_order: can never change)");
}

}  // namespace
}  // namespace steerd
