#include "steering/kinematic.h"

#include <gtest/gtest.h>

#include <cmath>

#include "steering/locomotion.h"

namespace steer {
namespace {

Body bodyAt(Vec2 p, float maxSpeed = 2.0f) {
  Body b;
  b.position = p;
  b.limits.maxSpeed = maxSpeed;
  b.limits.maxRotation = 1.5f;
  return b;
}

TEST(KinematicSeek, VelocityIsFullSpeedTowardsTheTarget) {
  const SteeringOutput out = kinematicSeek(bodyAt({1, 1}), {4, 5});
  EXPECT_NEAR(out.linear.x, 1.2f, 1e-6f);  // (3,4)/5 * 2
  EXPECT_NEAR(out.linear.y, 1.6f, 1e-6f);
  EXPECT_EQ(out.angular, 0.0f);
}

TEST(KinematicSeek, OnTheTargetGivesZeroNotNaN) {
  const SteeringOutput out = kinematicSeek(bodyAt({1, 1}), {1, 1});
  EXPECT_EQ(out.linear, Vec2{});
}

TEST(KinematicFlee, VelocityIsFullSpeedAwayFromTheThreat) {
  const SteeringOutput out = kinematicFlee(bodyAt({1, 1}), {4, 5});
  EXPECT_NEAR(out.linear.x, -1.2f, 1e-6f);
  EXPECT_NEAR(out.linear.y, -1.6f, 1e-6f);
}

TEST(KinematicFlee, OnTheThreatKeepsGoingTheWayItFaces) {
  Body b = bodyAt({1, 1});
  b.heading = {0, -1};
  const SteeringOutput out = kinematicFlee(b, {1, 1});
  EXPECT_NEAR(out.linear.x, 0.0f, 1e-6f);
  EXPECT_NEAR(out.linear.y, -2.0f, 1e-6f);
}

TEST(KinematicArrive, FarAwayIsClampedToMaxSpeed) {
  const SteeringOutput out = kinematicArrive(bodyAt({}), {10, 0});  // 10 / 0.25 = 40 -> 2
  EXPECT_NEAR(out.linear.x, 2.0f, 1e-6f);
  EXPECT_NEAR(out.linear.y, 0.0f, 1e-6f);
}

TEST(KinematicArrive, CloseInCoversTheDistanceInTimeToTarget) {
  // d = 0.4 > satisfaction radius 0.25: v = 0.4 / 0.25 = 1.6 (< maxSpeed 2).
  const SteeringOutput out = kinematicArrive(bodyAt({}), {0, 0.4f}, {.satisfactionRadius = 0.25f});
  EXPECT_NEAR(out.linear.y, 1.6f, 1e-6f);
  EXPECT_NEAR(out.linear.x, 0.0f, 1e-6f);
}

TEST(KinematicArrive, DefaultTimeToTargetIsAQuarterSecond) {
  EXPECT_FLOAT_EQ(KinematicArriveParams{}.timeToTarget, 0.25f);
}

TEST(KinematicArrive, InsideSatisfactionRadiusStops) {
  const SteeringOutput out = kinematicArrive(bodyAt({}), {0.3f, 0}, {.satisfactionRadius = 0.5f});
  EXPECT_EQ(out.linear, Vec2{});
}

TEST(KinematicArrive, DegenerateInputsGiveFiniteOutput) {
  // On the target with a zero satisfaction radius, a zero time to target, zero max speed.
  EXPECT_EQ(kinematicArrive(bodyAt({2, 2}), {2, 2}, {.satisfactionRadius = 0.0f}).linear, Vec2{});
  const SteeringOutput fast =
      kinematicArrive(bodyAt({}), {1, 0}, {.satisfactionRadius = 0.0f, .timeToTarget = 0.0f});
  EXPECT_NEAR(fast.linear.x, 2.0f, 1e-6f);
  const SteeringOutput still = kinematicArrive(bodyAt({}, 0.0f), {5, 0});
  EXPECT_EQ(still.linear, Vec2{});
}

TEST(KinematicArrive, BodyComesToRestInsideTheRadius) {
  Body b = bodyAt({});
  const Vec2 target{5, -3};
  for (int i = 0; i < 200; ++i) {
    b = integrateKinematic(b, kinematicArrive(b, target), 0.05f, KinematicFacing::kFromVelocity);
  }
  EXPECT_LE(distance(b.position, target), 0.5f);
  EXPECT_EQ(b.velocity, Vec2{});
}

TEST(KinematicWander, MovesAtMaxSpeedAlongHeadingAndTurnsWithinMaxRotation) {
  Body b = bodyAt({});
  b.heading = {0, 1};
  b.orientation = kPi / 2;
  Rng rng(42);
  float sum = 0.0f;
  for (int i = 0; i < 2000; ++i) {
    const SteeringOutput out = kinematicWander(b, rng);
    ASSERT_NEAR(out.linear.x, 0.0f, 1e-6f);
    ASSERT_NEAR(out.linear.y, 2.0f, 1e-6f);
    ASSERT_GT(out.angular, -1.5f);
    ASSERT_LT(out.angular, 1.5f);
    sum += out.angular;
  }
  EXPECT_NEAR(sum / 2000.0f, 0.0f, 0.05f);  // rand - rand is centred on zero
}

TEST(KinematicWander, RotationIsFirstDrawMinusSecondDraw) {
  Rng rng(7);
  Rng copy(7);
  const float first = copy.uniform();
  const float second = copy.uniform();
  const SteeringOutput out = kinematicWander(bodyAt({}), rng);
  EXPECT_FLOAT_EQ(out.angular, (first - second) * 1.5f);
}

TEST(KinematicWander, ZeroHeadingFallsBackToOrientation) {
  Body b = bodyAt({});
  b.heading = {};
  b.orientation = kPi;
  Rng rng(1);
  const SteeringOutput out = kinematicWander(b, rng);
  EXPECT_NEAR(out.linear.x, -2.0f, 1e-5f);
  EXPECT_TRUE(isFinite(out.linear));
}

TEST(KinematicSeek, ZeroMaxSpeedGivesZero) {
  const SteeringOutput out = kinematicSeek(bodyAt({}, 0.0f), {5, 5});
  EXPECT_TRUE(std::isfinite(out.linear.x) && std::isfinite(out.linear.y) && std::isfinite(out.angular));
  EXPECT_EQ(out.linear, Vec2{});
  EXPECT_EQ(kinematicSeek(bodyAt({1, 1}, 0.0f), {1, 1}).linear, Vec2{});
}

TEST(KinematicFlee, DegenerateInputsGiveFiniteOutput) {
  EXPECT_EQ(kinematicFlee(bodyAt({}, 0.0f), {5, 5}).linear, Vec2{});
  // On the threat with no heading to fall back on: zero, not NaN.
  Body b = bodyAt({1, 1});
  b.heading = {};
  const SteeringOutput out = kinematicFlee(b, {1, 1});
  EXPECT_TRUE(std::isfinite(out.linear.x) && std::isfinite(out.linear.y) && std::isfinite(out.angular));
  EXPECT_EQ(out.linear, Vec2{});
}

TEST(KinematicArrive, ZeroMaxSpeedWithZeroTimeToTargetIsZero) {
  const SteeringOutput out =
      kinematicArrive(bodyAt({}, 0.0f), {5, 0}, {.satisfactionRadius = 0.0f, .timeToTarget = 0.0f});
  EXPECT_TRUE(std::isfinite(out.linear.x) && std::isfinite(out.linear.y));
  EXPECT_EQ(out.linear, Vec2{});
  // Negative time to target counts as "as fast as allowed".
  EXPECT_NEAR(kinematicArrive(bodyAt({}), {5, 0}, {.timeToTarget = -1.0f}).linear.x, 2.0f, 1e-6f);
}

TEST(KinematicWander, ZeroMaxSpeedAndZeroMaxRotationGiveZero) {
  Body b = bodyAt({}, 0.0f);
  b.limits.maxRotation = 0.0f;
  Rng rng(5);
  const SteeringOutput out = kinematicWander(b, rng);
  EXPECT_TRUE(std::isfinite(out.linear.x) && std::isfinite(out.linear.y) && std::isfinite(out.angular));
  EXPECT_EQ(out.linear, Vec2{});
  EXPECT_EQ(out.angular, 0.0f);
}

}  // namespace
}  // namespace steer
