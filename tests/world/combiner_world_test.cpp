// Weighted blending, the truncated running sum and prioritised dithering judged in whole worlds: one body
// between two seek points, 100 m apart, for 20 s. Each verdict changes when the combiner is swapped for
// another.
#include <gtest/gtest.h>

#include "world/world.h"

namespace steerd {
namespace {

BehaviourSpec seekPoint(float x, int priority, float probability) {
  BehaviourSpec b;
  b.kind = BehaviourKind::kSeek;
  b.atPoint = true;
  b.point = {x, 100};
  b.priority = priority;
  b.probability = probability;
  return b;
}

// Where the body is (x) after 20 s, starting at (100, 100), pulled towards (50, 100) by its first
// behaviour and (150, 100) by its second.
float xAfterTwentySeconds(CombinerKind combiner, float firstProbability = 1.0f, float maxForce = 8.0f) {
  StaticGeometry g;
  g.bounds = {0, 0, 200, 200};
  Archetype a;
  a.name = "torn";
  a.limits = {0.5f, 1.0f, 4.0f, maxForce, 2.0f * steer::kPi};
  a.combiner = combiner;
  a.behaviours = {seekPoint(50, 0, firstProbability), seekPoint(150, 1, 1.0f)};
  World w(std::move(g), {a}, WorldConfig{});
  const AgentId id = w.spawn(0, {100, 100});
  for (int t = 0; t < 30 * 20; ++t) w.step();
  return w.agents().px[w.slotOf(id)];
}

TEST(CombinerWorld, WeightedBlendingHoldsTheBodyBetweenEqualPulls) {
  // Equal and opposite: the blend cancels and the body stays near the middle; priority takes the
  // first behaviour alone and goes to its point.
  EXPECT_NEAR(xAfterTwentySeconds(CombinerKind::kWeightedBlend), 100.0f, 5.0f);
  EXPECT_NEAR(xAfterTwentySeconds(CombinerKind::kPriority), 50.0f, 5.0f);
}

TEST(CombinerWorld, TheRunningSumSpendsItsForceBudgetInPriorityOrder) {
  // Each seek asks for up to 4 N. With a budget of 8 both fit and cancel, as a blend; with a
  // budget of 2 the first spends it all and the second gets nothing, as priority.
  EXPECT_NEAR(xAfterTwentySeconds(CombinerKind::kWeightedTruncatedRunningSum, 1.0f, 8.0f), 100.0f, 5.0f);
  EXPECT_NEAR(xAfterTwentySeconds(CombinerKind::kWeightedTruncatedRunningSum, 1.0f, 2.0f), 50.0f, 5.0f);
  EXPECT_NEAR(xAfterTwentySeconds(CombinerKind::kWeightedBlend, 1.0f, 2.0f), 100.0f, 5.0f);
}

TEST(CombinerWorld, PrioritisedDitheringFollowsTheFirstBehavioursProbability) {
  // The first behaviour runs on that share of ticks, the second on the rest: the body drifts to
  // the side of the likelier one, and with probability 1 dithering is plain priority.
  const float mostlyFirst = xAfterTwentySeconds(CombinerKind::kPrioritisedDithering, 0.8f);
  const float mostlySecond = xAfterTwentySeconds(CombinerKind::kPrioritisedDithering, 0.2f);
  EXPECT_LT(mostlyFirst, 90.0f);
  EXPECT_GT(mostlySecond, 110.0f);
  EXPECT_NEAR(xAfterTwentySeconds(CombinerKind::kPrioritisedDithering, 1.0f), 50.0f, 5.0f);
  EXPECT_NEAR(xAfterTwentySeconds(CombinerKind::kPrioritisedDithering, 0.0f), 150.0f, 5.0f);
}

}  // namespace
}  // namespace steerd
