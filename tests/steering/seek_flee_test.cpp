#include "steering/seek.h"

#include <gtest/gtest.h>

#include <cmath>

namespace steer {
namespace {

Body bodyAt(Vec2 p, Vec2 v = {}, float maxSpeed = 4.0f) {
  Body b;
  b.position = p;
  b.velocity = v;
  b.heading = normalizedOr(v, Vec2{1, 0});
  b.limits.maxSpeed = maxSpeed;
  return b;
}

TEST(Seek, ForceIsDesiredVelocityMinusVelocity) {
  // desired = normalize((3,4)) * 4 = (2.4, 3.2); F = desired - (1, 0).
  const SteeringOutput out = seek(bodyAt({}, {1, 0}), {3, 4});
  EXPECT_NEAR(out.linear.x, 1.4f, 1e-6f);
  EXPECT_NEAR(out.linear.y, 3.2f, 1e-6f);
  EXPECT_EQ(out.angular, 0.0f);
}

TEST(Seek, AlreadyAtFullSpeedTowardsTargetNeedsNoForce) {
  const SteeringOutput out = seek(bodyAt({}, {4, 0}), {10, 0});
  EXPECT_NEAR(out.linear.x, 0.0f, 1e-6f);
  EXPECT_NEAR(out.linear.y, 0.0f, 1e-6f);
}

TEST(Seek, TargetBehindTurnsTheBodyRound) {
  const SteeringOutput out = seek(bodyAt({}, {2, 0}), {-5, 0});
  EXPECT_NEAR(out.linear.x, -6.0f, 1e-6f);  // -4 - 2
  EXPECT_NEAR(out.linear.y, 0.0f, 1e-6f);
}

TEST(Seek, OnTheTargetBrakesInsteadOfNaN) {
  const SteeringOutput out = seek(bodyAt({2, 2}, {1, -1}), {2, 2});
  EXPECT_TRUE(isFinite(out.linear));
  EXPECT_FLOAT_EQ(out.linear.x, -1.0f);
  EXPECT_FLOAT_EQ(out.linear.y, 1.0f);
}

TEST(Seek, ZeroVelocityAndZeroMaxSpeedGiveFiniteOutput) {
  EXPECT_EQ(seek(bodyAt({}, {}, 0.0f), {5, 5}).linear, Vec2{});
  EXPECT_EQ(seek(bodyAt({}), {}).linear, Vec2{});
}

TEST(Flee, ForceIsAwayDesiredVelocityMinusVelocity) {
  const SteeringOutput out = flee(bodyAt({}, {1, 0}), {3, 4});
  EXPECT_NEAR(out.linear.x, -3.4f, 1e-6f);  // -2.4 - 1
  EXPECT_NEAR(out.linear.y, -3.2f, 1e-6f);
}

TEST(Flee, IsTheMirrorOfSeekForABodyAtRest) {
  const Body b = bodyAt({1, 2});
  const SteeringOutput s = seek(b, {-3, 7});
  const SteeringOutput f = flee(b, {-3, 7});
  EXPECT_NEAR(s.linear.x, -f.linear.x, 1e-6f);
  EXPECT_NEAR(s.linear.y, -f.linear.y, 1e-6f);
}

TEST(Flee, OutsidePanicDistanceGivesNoOutput) {
  const FleeParams params{.panicDistance = 5.0f};
  EXPECT_EQ(flee(bodyAt({}, {1, 1}), {6, 0}, params), SteeringOutput{});
  EXPECT_EQ(flee(bodyAt({}, {1, 1}), {3, 4.01f}, params), SteeringOutput{});
}

TEST(Flee, InsidePanicDistanceFlees) {
  const FleeParams params{.panicDistance = 5.0f};
  const SteeringOutput out = flee(bodyAt({}), {3, 3.9f}, params);
  EXPECT_LT(out.linear.x, 0.0f);
  EXPECT_LT(out.linear.y, 0.0f);
  EXPECT_NEAR(length(out.linear), 4.0f, 1e-5f);
}

TEST(Flee, ZeroPanicDistanceMeansAlwaysFlee) {
  const SteeringOutput out = flee(bodyAt({}), {1000, 0});
  EXPECT_NEAR(out.linear.x, -4.0f, 1e-6f);
}

TEST(Flee, OnTheThreatKeepsGoingTheWayItFaces) {
  Body b = bodyAt({2, 2});
  b.heading = {0, 1};
  const SteeringOutput out = flee(b, {2, 2});
  EXPECT_TRUE(isFinite(out.linear));
  EXPECT_NEAR(out.linear.x, 0.0f, 1e-6f);
  EXPECT_NEAR(out.linear.y, 4.0f, 1e-6f);
}

TEST(Flee, ZeroMaxSpeedBrakes) {
  const SteeringOutput out = flee(bodyAt({}, {1, 0}, 0.0f), {1, 1});
  EXPECT_EQ(out.linear, (Vec2{-1, 0}));
}

TEST(Seek, CoincidentWithZeroVelocityAndZeroMaxSpeedIsZero) {
  // Every degenerate input at once: on the target, at rest, no speed allowed.
  const SteeringOutput out = seek(bodyAt({3, -2}, {}, 0.0f), {3, -2});
  EXPECT_TRUE(std::isfinite(out.linear.x) && std::isfinite(out.linear.y) && std::isfinite(out.angular));
  EXPECT_EQ(out, SteeringOutput{});
  // Target behind with zero max speed: only brakes.
  EXPECT_EQ(seek(bodyAt({}, {2, 0}, 0.0f), {-5, 0}).linear, (Vec2{-2, 0}));
}

TEST(Flee, DegenerateInputsGiveFiniteOutput) {
  // On the threat with no heading to fall back on (zero heading, zero velocity): no way "away".
  Body b = bodyAt({1, 1});
  b.heading = {};
  const SteeringOutput noHeading = flee(b, {1, 1});
  EXPECT_TRUE(std::isfinite(noHeading.linear.x) && std::isfinite(noHeading.linear.y));
  EXPECT_EQ(noHeading.linear, Vec2{});
  // On the threat with zero max speed and a velocity: brakes.
  EXPECT_EQ(flee(bodyAt({1, 1}, {0, 2}, 0.0f), {1, 1}).linear, (Vec2{0, -2}));
  // On the threat inside a panic distance: still flees along the heading (distance 0 < panic).
  const SteeringOutput panic = flee(bodyAt({1, 1}), {1, 1}, {.panicDistance = 2.0f});
  EXPECT_NEAR(panic.linear.x, 4.0f, 1e-6f);
  EXPECT_NEAR(panic.linear.y, 0.0f, 1e-6f);
  // Threat behind a moving body: full reversal, -4 - 2.
  EXPECT_NEAR(flee(bodyAt({}, {2, 0}), {5, 0}).linear.x, -6.0f, 1e-6f);
}

}  // namespace
}  // namespace steer
