// Decision trees, the other way a brain chooses its state: walked from the root at every think
// against a scripted perception.
#include <gtest/gtest.h>

#include "brain/brain.h"

namespace steerd::brain {
namespace {

struct FakeQueries {
  float nearestDistance = 100.0f;  // to archetype 0
  bool seeing = false;
  float inState = 0.0f;
  int asked = 0;  // conditions evaluated

  bool near(std::int32_t, float metres) {
    ++asked;
    return nearestDistance <= metres;
  }
  bool sees(std::int32_t) {
    ++asked;
    return seeing;
  }
  float secondsSinceSeen(std::int32_t) const { return 1e9f; }
  float secondsInState() const { return inState; }
  float stat(std::int32_t) const { return 0.0f; }
  float roll() const { return 0.5f; }
  float thinkSeconds() const { return 0.2f; }
  bool groupStrays(std::int32_t, std::int32_t, float) const { return false; }
  bool closestToStray(std::int32_t, std::int32_t, float) const { return false; }
  bool pathFinished() const { return false; }
  bool hasOrder() const { return false; }
  bool doorOpen(std::int32_t) const { return true; }
  bool nearMarked(std::int32_t a, float metres, std::int32_t, std::int32_t) { return near(a, metres); }
  bool signal(std::int32_t) const { return false; }
};

std::int32_t condition(Brain& b, ConditionNode n) {
  b.conditions.push_back(std::move(n));
  return static_cast<std::int32_t>(b.conditions.size() - 1);
}

std::int32_t node(Brain& b, DecisionNode n) {
  b.tree.push_back(n);
  return static_cast<std::int32_t>(b.tree.size() - 1);
}

// States: calm (initial child graze) > {graze, watch}; panic; hide.
// Tree: near 6 m ? panic : (sees ? hide : calm).
Brain treeBrain() {
  Brain b;
  b.states.resize(5);
  b.states[0].name = "calm";
  b.states[0].initialChild = 1;
  b.states[1].name = "graze";
  b.states[1].parent = 0;
  b.states[2].name = "watch";
  b.states[2].parent = 0;
  b.states[3].name = "panic";
  b.states[4].name = "hide";
  const auto close = condition(b, {brain::Test::kNear, 0, 6.0f, {}});
  const auto seen = condition(b, {brain::Test::kSees, 0, 0.0f, {}});
  const auto root = node(b, {close, -1, -1, -1});
  b.tree[static_cast<std::size_t>(root)].yes = node(b, {-1, -1, -1, 3});
  const auto inner = node(b, {seen, -1, -1, -1});
  b.tree[static_cast<std::size_t>(root)].no = inner;
  b.tree[static_cast<std::size_t>(inner)].yes = node(b, {-1, -1, -1, 4});
  b.tree[static_cast<std::size_t>(inner)].no = node(b, {-1, -1, -1, 0});
  return b;
}

TEST(DecisionTree, ABranchPicksYesOrNo) {
  const Brain b = treeBrain();
  FakeQueries q;
  q.nearestDistance = 3.0f;
  EXPECT_EQ(decide(b, q), 3);  // near: panic
  q.nearestDistance = 20.0f;
  EXPECT_EQ(decide(b, q), 0);  // not near, not seen: calm
}

TEST(DecisionTree, NestedBranchesAreAskedOnlyOnTheWayTaken) {
  const Brain b = treeBrain();
  FakeQueries q;
  q.seeing = true;
  EXPECT_EQ(decide(b, q), 4);  // not near, seen: hide
  EXPECT_EQ(q.asked, 2);
  q.asked = 0;
  q.nearestDistance = 3.0f;
  EXPECT_EQ(decide(b, q), 3);  // near wins before sight is asked
  EXPECT_EQ(q.asked, 1);
}

TEST(DecisionTree, TheTreeChoosesEvenWhereTransitionsWouldFire) {
  Brain b = treeBrain();
  b.states[4].transitions.push_back({3, condition(b, {brain::Test::kInStateFor, -1, 0.0f, {}})});
  FakeQueries q;
  q.seeing = true;
  EXPECT_EQ(nextState(b, 4, q), 4);  // the tree says hide; the transition to panic is not used
}

TEST(DecisionTree, ALeafEqualToTheCurrentStateKeepsIt) {
  const Brain b = treeBrain();
  FakeQueries q;
  q.nearestDistance = 3.0f;
  EXPECT_EQ(nextState(b, 3, q), 3);
  q.nearestDistance = 20.0f;
  q.seeing = true;
  EXPECT_EQ(nextState(b, 4, q), 4);
  EXPECT_EQ(nextState(b, 3, q), 4);  // panic -> hide
}

TEST(DecisionTree, ALeafThatIsAParentEntersItsInitialChildFromOutsideIt) {
  const Brain b = treeBrain();
  FakeQueries q;
  EXPECT_EQ(nextState(b, 3, q), 1);  // calm: graze
  EXPECT_EQ(nextState(b, 1, q), 1);  // already grazing: stays
  // Already inside calm, in another child of it: still calm, so it stays (no re-entry, which
  // would undo every move between calm's children).
  EXPECT_EQ(nextState(b, 2, q), 2);
}

TEST(DecisionTree, ATreeThatNeverReachesALeafStaysInsteadOfHanging) {
  Brain b;
  b.states.resize(2);
  const auto always = condition(b, {brain::Test::kInStateFor, -1, 0.0f, {}});
  node(b, {always, 0, 0, -1});  // a cycle the compiler never makes
  FakeQueries q;
  EXPECT_EQ(decide(b, q), -1);
  EXPECT_EQ(nextState(b, 1, q), 1);
}

}  // namespace
}  // namespace steerd::brain
