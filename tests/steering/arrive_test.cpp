#include "steering/arrive.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>

#include "steering/locomotion.h"

namespace steer {
namespace {

Body bodyAt(Vec2 p, Vec2 v = {}, float maxSpeed = 4.0f) {
  Body b;
  b.position = p;
  b.velocity = v;
  b.heading = normalizedOr(v, Vec2{1, 0});
  b.limits.maxSpeed = maxSpeed;
  b.limits.maxForce = 10.0f;
  return b;
}

// STEERING.md section 3, the arrive table: maxSpeed 4, distances 10 .. 0. With v = 0 the force is
// the desired velocity, so |desired| = |F + v| = |F|.
constexpr std::array<float, 11> kDistances = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
constexpr std::array<float, 11> kSpeedDecel2 = {4, 4, 4, 3.5f, 3, 2.5f, 2, 1.5f, 1, 0.5f, 0};
constexpr std::array<float, 11> kSpeedDecel1 = {4, 4, 4, 4, 4, 4, 4, 3, 2, 1, 0};

TEST(ArriveBuckland, PinsTheReferenceTableForDeceleration2) {
  for (std::size_t i = 0; i < kDistances.size(); ++i) {
    const Body b = bodyAt({});
    const SteeringOutput out = arrive(b, {kDistances[i], 0}, {.deceleration = kDecelerationNormal});
    EXPECT_FLOAT_EQ(length(out.linear + b.velocity), kSpeedDecel2[i]) << "distance " << kDistances[i];
  }
}

TEST(ArriveBuckland, PinsTheReferenceTableForDeceleration1) {
  for (std::size_t i = 0; i < kDistances.size(); ++i) {
    const Body b = bodyAt({});
    const SteeringOutput out = arrive(b, {0, -kDistances[i]}, {.deceleration = kDecelerationFast});
    EXPECT_FLOAT_EQ(length(out.linear + b.velocity), kSpeedDecel1[i]) << "distance " << kDistances[i];
  }
}

TEST(ArriveBuckland, DecelerationConstantsAreBucklandsEnum) {
  EXPECT_EQ(kDecelerationSlow, 3.0f);
  EXPECT_EQ(kDecelerationNormal, 2.0f);
  EXPECT_EQ(kDecelerationFast, 1.0f);
  EXPECT_EQ(ArriveParams{}.deceleration, kDecelerationNormal);
  // Slow: at distance 6 the desired speed is 6 / 3 = 2.
  EXPECT_FLOAT_EQ(length(arrive(bodyAt({}), {6, 0}, {.deceleration = kDecelerationSlow}).linear), 2.0f);
}

TEST(ArriveBuckland, DesiredVelocityPointsAtTheTargetAndSubtractsVelocity) {
  // d = 5 along (3,4)/5, speed = min(5/2, 4) = 2.5: desired = (1.5, 2); F = desired - (1, 1).
  const SteeringOutput out = arrive(bodyAt({1, 1}, {1, 1}), {4, 5});
  EXPECT_NEAR(out.linear.x, 0.5f, 1e-6f);
  EXPECT_NEAR(out.linear.y, 1.0f, 1e-6f);
}

TEST(ArriveBuckland, OnTheTargetBrakesInsteadOfCoasting) {
  const SteeringOutput out = arrive(bodyAt({3, 3}, {2, -1}), {3, 3});
  EXPECT_EQ(out.linear, (Vec2{-2, 1}));
}

TEST(ArriveBuckland, DegenerateInputsGiveFiniteOutput) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Zero deceleration: no slowing, full speed.
  EXPECT_FLOAT_EQ(length(arrive(bodyAt({}), {1, 0}, {.deceleration = 0.0f}).linear), 4.0f);
  EXPECT_FLOAT_EQ(length(arrive(bodyAt({}), {1, 0}, {.deceleration = nan}).linear), 4.0f);
  // Zero max speed: brake only.
  EXPECT_EQ(arrive(bodyAt({}, {1, 0}, 0.0f), {5, 0}).linear, (Vec2{-1, 0}));
  // Target behind a moving body.
  const SteeringOutput behind = arrive(bodyAt({}, {3, 0}), {-10, 0});
  EXPECT_FLOAT_EQ(behind.linear.x, -7.0f);
}

TEST(ArriveBuckland, BodySettlesOnTheTarget) {
  Body b = bodyAt({});
  const Vec2 target{8, 6};
  for (int i = 0; i < 600; ++i) b = integrateDynamic(b, arrive(b, target).linear, 0.05f);
  EXPECT_LT(distance(b.position, target), 0.05f);
  EXPECT_LT(length(b.velocity), 0.05f);
}

TEST(ArriveMillington, OutsideSlowRadiusAimsForMaxSpeedClampedToMaxAcceleration) {
  Body b = bodyAt({});
  b.limits.mass = 2.0f;
  b.limits.maxForce = 10.0f;  // maxAcceleration 5
  // desired (4, 0); accel = 4 / 0.1 = 40 -> clamped to 5 -> force 10.
  const SteeringOutput out = arriveMillington(b, {10, 0}, {.targetRadius = 0.1f, .slowRadius = 2.0f});
  EXPECT_NEAR(out.linear.x, 10.0f, 1e-5f);
  EXPECT_NEAR(out.linear.y, 0.0f, 1e-6f);
}

TEST(ArriveMillington, InsideSlowRadiusSpeedScalesWithDistanceOverTimeToTarget) {
  Body b = bodyAt({}, {1.9f, 0});
  b.limits.mass = 2.0f;
  // d = 1, slowRadius 2: speed 4 * 1/2 = 2. accel = (2 - 1.9) / 0.1 = 1. Force = mass * 1 = 2.
  const SteeringOutput out = arriveMillington(b, {1, 0}, {.targetRadius = 0.1f, .slowRadius = 2.0f});
  EXPECT_NEAR(out.linear.x, 2.0f, 1e-4f);
  EXPECT_NEAR(out.linear.y, 0.0f, 1e-6f);
}

TEST(ArriveMillington, DefaultTimeToTargetIsATenthOfASecond) {
  EXPECT_FLOAT_EQ(MillingtonArriveParams{}.timeToTarget, 0.1f);
}

TEST(ArriveMillington, InsideTargetRadiusBrakesToAStop) {
  const Body b = bodyAt({}, {0.5f, 0});
  const SteeringOutput out = arriveMillington(b, {0.05f, 0}, {.targetRadius = 0.1f});
  EXPECT_NEAR(out.linear.x, -5.0f, 1e-5f);  // (0 - 0.5) / 0.1
  EXPECT_NEAR(out.linear.y, 0.0f, 1e-6f);
}

TEST(ArriveMillington, Seed004VariantIsTargetRadiusZero) {
  // speed = maxSpeed * d / slowRadius all the way in: d = 0.05 -> 4 * 0.05 / 2 = 0.1.
  const SteeringOutput out = arriveMillington(
      bodyAt({}), {0.05f, 0}, {.targetRadius = 0.0f, .slowRadius = 2.0f, .timeToTarget = 1.0f});
  EXPECT_NEAR(out.linear.x, 0.1f, 1e-6f);
}

TEST(ArriveMillington, DegenerateInputsGiveFiniteOutput) {
  Body b = bodyAt({2, 2}, {1, 0});
  // On the target.
  EXPECT_TRUE(isFinite(arriveMillington(b, {2, 2}).linear));
  // Zero radii and zero time to target.
  const SteeringOutput z =
      arriveMillington(b, {3, 2}, {.targetRadius = 0, .slowRadius = 0, .timeToTarget = 0});
  EXPECT_TRUE(isFinite(z.linear));
  EXPECT_LE(length(z.linear), b.limits.maxForce + 1e-4f);
  // Zero mass cannot be pushed.
  b.limits.mass = 0.0f;
  EXPECT_EQ(arriveMillington(b, {10, 2}).linear, Vec2{});
  // Zero max speed: brake.
  Body still = bodyAt({}, {1, 0}, 0.0f);
  EXPECT_LT(arriveMillington(still, {5, 0}).linear.x, 0.0f);
}

TEST(ArriveMillington, BodySettlesOnTheTarget) {
  Body b = bodyAt({});
  const Vec2 target{-6, 3};
  for (int i = 0; i < 600; ++i) b = integrateDynamic(b, arriveMillington(b, target).linear, 0.05f);
  EXPECT_LT(distance(b.position, target), 0.15f);
  EXPECT_LT(length(b.velocity), 0.05f);
}

TEST(ArriveBuckland, CoincidentZeroVelocityAndZeroMaxSpeedGiveZero) {
  // The table's last column (distance 0, v = 0) for both decelerations, and with maxSpeed 0.
  for (const float decel : {kDecelerationNormal, kDecelerationFast}) {
    const SteeringOutput out = arrive(bodyAt({2, 2}), {2, 2}, {.deceleration = decel});
    EXPECT_TRUE(std::isfinite(out.linear.x) && std::isfinite(out.linear.y) && std::isfinite(out.angular));
    EXPECT_EQ(out, SteeringOutput{});
  }
  EXPECT_EQ(arrive(bodyAt({2, 2}, {}, 0.0f), {2, 2}), SteeringOutput{});
  EXPECT_EQ(arrive(bodyAt({}, {}, 0.0f), {5, 0}), SteeringOutput{});
  // Negative max speed counts as 0; a negative deceleration as "no slowing down".
  EXPECT_EQ(arrive(bodyAt({}, {1, 0}, -3.0f), {5, 0}).linear, (Vec2{-1, 0}));
  EXPECT_FLOAT_EQ(length(arrive(bodyAt({}), {1, 0}, {.deceleration = -2.0f}).linear), 4.0f);
}

TEST(ArriveMillington, CoincidentZeroVelocityAndZeroMaxSpeedGiveZero) {
  const SteeringOutput on = arriveMillington(bodyAt({2, 2}), {2, 2});
  EXPECT_TRUE(std::isfinite(on.linear.x) && std::isfinite(on.linear.y) && std::isfinite(on.angular));
  EXPECT_EQ(on, SteeringOutput{});
  // Seed 004's form (targetRadius 0) exactly on the target: no 0/0.
  EXPECT_EQ(arriveMillington(bodyAt({2, 2}), {2, 2}, {.targetRadius = 0.0f}), SteeringOutput{});
  EXPECT_EQ(arriveMillington(bodyAt({}, {}, 0.0f), {5, 0}), SteeringOutput{});
  // Target behind a moving body, zero max speed: brake at the clamp, (0 - 1) / 0.1 * mass 1 = -10.
  const SteeringOutput behind = arriveMillington(bodyAt({}, {1, 0}, 0.0f), {-5, 0});
  EXPECT_NEAR(behind.linear.x, -10.0f, 1e-4f);
  EXPECT_NEAR(behind.linear.y, 0.0f, 1e-6f);
  // Negative timeToTarget is treated as the smallest positive one: clamped, finite.
  const SteeringOutput neg = arriveMillington(bodyAt({}, {1, 0}), {5, 0}, {.timeToTarget = -1.0f});
  EXPECT_TRUE(isFinite(neg.linear));
  EXPECT_LE(length(neg.linear), 10.0f + 1e-4f);
}

}  // namespace
}  // namespace steer
