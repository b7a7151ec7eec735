// The pure decision logic: conditions and the hierarchical state machine, against a scripted
// perception.
#include "brain/brain.h"

#include <gtest/gtest.h>

#include <limits>

namespace steerd::brain {
namespace {

struct FakeQueries {
  float nearestDistance = 100.0f;  // to archetype 0
  bool seeing = false;
  float sinceSeen = std::numeric_limits<float>::infinity();
  float inState = 0.0f;
  std::array<float, kMaxStats> stats{};
  float nextRoll = 0.5f;
  float think = 0.2f;
  float stray = 0.0f;
  bool finished = false;

  bool near(std::int32_t, float metres) const { return nearestDistance <= metres; }
  bool sees(std::int32_t) const { return seeing; }
  float secondsSinceSeen(std::int32_t) const { return sinceSeen; }
  float secondsInState() const { return inState; }
  float stat(std::int32_t i) const { return stats[static_cast<std::size_t>(i)]; }
  float roll() const { return nextRoll; }
  float thinkSeconds() const { return think; }
  bool groupStrays(std::int32_t, std::int32_t, float metres) const { return stray > metres; }
  bool closestToStray(std::int32_t, std::int32_t, float metres) const { return closest && stray > metres; }
  bool closest = false;
  bool pathFinished() const { return finished; }
  bool order = false;
  bool hasOrder() const { return order; }
  std::uint32_t doorsOpen = 0;  // a bit a door
  bool doorOpen(std::int32_t i) const { return ((doorsOpen >> i) & 1u) != 0; }
  // near/far with a state or signal: the nearest agent of archetype 0 is in `theirState` with
  // the signals `theirSignals`; signal(): mine.
  std::int32_t theirState = 0;
  std::uint32_t theirSignals = 0, mySignals = 0;
  bool nearMarked(std::int32_t, float metres, std::int32_t state, std::int32_t signal) const {
    return nearestDistance <= metres && (state < 0 || state == theirState) &&
           (signal < 0 || (theirSignals & (1u << signal)) != 0);
  }
  bool signal(std::int32_t i) const { return (mySignals & (1u << i)) != 0; }
};

std::int32_t add(Brain& b, ConditionNode n) {
  b.conditions.push_back(std::move(n));
  return static_cast<std::int32_t>(b.conditions.size() - 1);
}

TEST(BrainConditions, LeavesAskThePerception) {
  Brain b;
  FakeQueries q;
  const auto nearIt = add(b, {brain::Test::kNear, 0, 5.0f, {}});
  const auto farIt = add(b, {brain::Test::kFar, 0, 5.0f, {}});
  q.nearestDistance = 4.0f;
  EXPECT_TRUE(evaluate(b, nearIt, q));
  EXPECT_FALSE(evaluate(b, farIt, q));
  q.nearestDistance = 6.0f;
  EXPECT_FALSE(evaluate(b, nearIt, q));
  EXPECT_TRUE(evaluate(b, farIt, q));

  const auto seen = add(b, {brain::Test::kSeenWithin, 0, 3.0f, {}});
  EXPECT_FALSE(evaluate(b, seen, q));  // never seen
  q.sinceSeen = 2.9f;
  EXPECT_TRUE(evaluate(b, seen, q));
  q.sinceSeen = 3.1f;
  EXPECT_FALSE(evaluate(b, seen, q));

  const auto hungry = add(b, {brain::Test::kStatOver, 1, 70.0f, {}});
  const auto fed = add(b, {brain::Test::kStatUnder, 1, 20.0f, {}});
  q.stats[1] = 70.0f;
  EXPECT_FALSE(evaluate(b, hungry, q));  // strictly over
  q.stats[1] = 70.5f;
  EXPECT_TRUE(evaluate(b, hungry, q));
  EXPECT_FALSE(evaluate(b, fed, q));

  const auto timer = add(b, {brain::Test::kInStateFor, -1, 2.0f, {}});
  q.inState = 1.99f;
  EXPECT_FALSE(evaluate(b, timer, q));
  q.inState = 2.0f;
  EXPECT_TRUE(evaluate(b, timer, q));

  const auto strays = add(b, {brain::Test::kGroupStrays, 0, 25.0f, {}});
  const auto mine = add(b, {brain::Test::kClosestToStray, 0, 25.0f, {}});
  q.stray = 30.0f;
  EXPECT_TRUE(evaluate(b, strays, q));
  EXPECT_FALSE(evaluate(b, mine, q));  // a stray, but another rider is nearer
  q.closest = true;
  EXPECT_TRUE(evaluate(b, mine, q));
  const auto done = add(b, {brain::Test::kPathFinished, -1, 0.0f, {}});
  EXPECT_FALSE(evaluate(b, done, q));
}

// has_order: true holds while the agent holds a fetch order; has_order: false while it holds none.
TEST(BrainConditions, HasOrderAsksWhetherTheAgentHoldsAFetchOrder) {
  Brain b;
  FakeQueries q;
  const auto holds = add(b, {brain::Test::kHasOrder, -1, 1.0f, {}});
  const auto holdsNone = add(b, {brain::Test::kHasOrder, -1, 0.0f, {}});
  EXPECT_FALSE(evaluate(b, holds, q));
  EXPECT_TRUE(evaluate(b, holdsNone, q));
  q.order = true;
  EXPECT_TRUE(evaluate(b, holds, q));
  EXPECT_FALSE(evaluate(b, holdsNone, q));
}

TEST(BrainConditions, DoorOpenAndShutReadTheDoorNow) {
  Brain b;
  FakeQueries q;
  const auto gateOpen = add(b, {brain::Test::kDoorOpen, 2, 1.0f, {}});
  const auto gateShut = add(b, {brain::Test::kDoorOpen, 2, 0.0f, {}});
  EXPECT_FALSE(evaluate(b, gateOpen, q));
  EXPECT_TRUE(evaluate(b, gateShut, q));
  q.doorsOpen = 1u << 2;
  EXPECT_TRUE(evaluate(b, gateOpen, q));
  EXPECT_FALSE(evaluate(b, gateShut, q));
  q.doorsOpen = 1u << 1;  // another door
  EXPECT_FALSE(evaluate(b, gateOpen, q));
}

// A state's fetch orders are data on the state; givesOrders says whether any state has some.
TEST(BrainStateMachine, GivesOrdersWhenAnyStateHasOrders) {
  Brain b;
  b.states.resize(2);
  EXPECT_FALSE(b.givesOrders());
  b.states[1].orders.push_back({1, 0, 30.0f, 2});
  EXPECT_TRUE(b.givesOrders());
}

TEST(BrainConditions, ChanceIsPerSecondOverTheThinkInterval) {
  Brain b;
  FakeQueries q;
  q.think = 0.2f;
  // 50 % per second over 0.2 s: 1 - 0.5^0.2 = 0.1294.
  const auto chance = add(b, {brain::Test::kChance, -1, 0.5f, {}});
  q.nextRoll = 0.129f;
  EXPECT_TRUE(evaluate(b, chance, q));
  q.nextRoll = 0.130f;
  EXPECT_FALSE(evaluate(b, chance, q));
  const auto never = add(b, {brain::Test::kChance, -1, 0.0f, {}});
  q.nextRoll = 0.0f;
  EXPECT_FALSE(evaluate(b, never, q));
}

TEST(BrainConditions, AllAnyNot) {
  Brain b;
  FakeQueries q;
  const auto yes = add(b, {brain::Test::kInStateFor, -1, 0.0f, {}});
  const auto no = add(b, {brain::Test::kSees, 0, 0.0f, {}});
  EXPECT_TRUE(evaluate(b, add(b, {brain::Test::kAll, -1, 0, {yes, yes}}), q));
  EXPECT_FALSE(evaluate(b, add(b, {brain::Test::kAll, -1, 0, {yes, no}}), q));
  EXPECT_TRUE(evaluate(b, add(b, {brain::Test::kAny, -1, 0, {no, yes}}), q));
  EXPECT_FALSE(evaluate(b, add(b, {brain::Test::kAny, -1, 0, {no, no}}), q));
  EXPECT_TRUE(evaluate(b, add(b, {brain::Test::kNot, -1, 0, {no}}), q));
}

// calm (initial child graze) > {graze, hide}; panic. calm -> panic when near; graze -> hide when
// seen; hide -> graze after 4 s in state; panic -> hide when far.
Brain herdBrain() {
  Brain b;
  b.states.resize(4);
  b.states[0].name = "calm";
  b.states[0].initialChild = 1;
  b.states[1].name = "graze";
  b.states[1].parent = 0;
  b.states[2].name = "hide";
  b.states[2].parent = 0;
  b.states[3].name = "panic";
  b.states[0].transitions.push_back({3, add(b, {brain::Test::kNear, 0, 6.0f, {}})});
  b.states[1].transitions.push_back({2, add(b, {brain::Test::kSees, 0, 0.0f, {}})});
  b.states[2].transitions.push_back({1, add(b, {brain::Test::kInStateFor, -1, 4.0f, {}})});
  b.states[3].transitions.push_back({0, add(b, {brain::Test::kFar, 0, 12.0f, {}})});
  return b;
}

TEST(BrainStateMachine, EnteringACompositeStateEntersItsInitialLeaf) {
  const Brain b = herdBrain();
  EXPECT_EQ(b.enterLeaf(0), 1);
  EXPECT_EQ(b.enterLeaf(2), 2);
}

TEST(BrainStateMachine, OuterTransitionsComeFirst) {
  const Brain b = herdBrain();
  FakeQueries q;
  EXPECT_EQ(nextState(b, 1, q), 1);  // nothing fires: stay
  q.seeing = true;
  EXPECT_EQ(nextState(b, 1, q), 2);  // graze -> hide
  q.nearestDistance = 3.0f;
  EXPECT_EQ(nextState(b, 1, q), 3);  // the parent's panic wins over graze's own transition
  EXPECT_EQ(nextState(b, 2, q), 3);  // ...from every child
  q.nearestDistance = 20.0f;
  EXPECT_EQ(nextState(b, 3, q), 1);  // panic -> calm lands in graze
  q.seeing = false;
  q.inState = 5.0f;
  EXPECT_EQ(nextState(b, 2, q), 1);  // hide -> graze on the timer
}

TEST(BrainConditions, NearAndFarCanAskForAStateOrASignalAndSignalReadsMine) {
  Brain b;
  ConditionNode n;
  n.test = brain::Test::kNear;
  n.index = 0;
  n.value = 10.0f;
  n.index2 = 2;  // in state 2
  const std::int32_t nearChasing = add(b, n);
  n.test = brain::Test::kFar;
  const std::int32_t farFromChasing = add(b, n);
  n.test = brain::Test::kNear;
  n.index2 = -1;
  n.signal = 1;
  const std::int32_t nearAlarmed = add(b, n);
  ConditionNode mine;
  mine.test = brain::Test::kSignal;
  mine.index = 3;
  const std::int32_t raised = add(b, mine);
  FakeQueries q;
  q.nearestDistance = 5.0f;
  q.theirState = 1;
  EXPECT_FALSE(evaluate(b, nearChasing, q)) << "near, but not chasing";
  EXPECT_TRUE(evaluate(b, farFromChasing, q));
  q.theirState = 2;
  EXPECT_TRUE(evaluate(b, nearChasing, q));
  EXPECT_FALSE(evaluate(b, farFromChasing, q));
  q.nearestDistance = 50.0f;
  EXPECT_FALSE(evaluate(b, nearChasing, q)) << "chasing, but far";
  q.nearestDistance = 5.0f;
  EXPECT_FALSE(evaluate(b, nearAlarmed, q));
  q.theirSignals = 0b10;
  EXPECT_TRUE(evaluate(b, nearAlarmed, q));
  EXPECT_FALSE(evaluate(b, raised, q));
  q.mySignals = 0b1000;
  EXPECT_TRUE(evaluate(b, raised, q));
}

TEST(BrainConditions, WithinStateClimbsParents) {
  Brain b;
  b.states.resize(3);
  b.states[1].parent = 0;
  b.states[2].parent = 1;
  EXPECT_TRUE(withinState(b, 2, 0));
  EXPECT_TRUE(withinState(b, 2, 2));
  EXPECT_FALSE(withinState(b, 0, 2));
  EXPECT_FALSE(withinState(b, 9, 0)) << "no such state";
}

}  // namespace
}  // namespace steerd::brain
