#include "steering/align.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace steer {
namespace {

// maxRotation pi rad/s, maxAngularAcceleration 4 pi rad/s^2; params: targetRadius 0.02,
// slowRadius 0.5, timeToTarget 0.1.
Body turner(float orientation, float rotation) {
  Body b;
  b.orientation = orientation;
  b.heading = fromAngle(orientation);
  b.rotation = rotation;
  b.limits.maxRotation = kPi;
  b.limits.maxAngularAcceleration = 4.0f * kPi;
  return b;
}
constexpr AlignParams kParams{0.02f, 0.5f, 0.1f};

TEST(Align, InsideSlowRadiusTargetRateScalesWithTheAngle) {
  // 0.25 rad to go: targetRotation = pi * 0.25 / 0.5 = pi / 2; from rotation 1:
  // (pi/2 - 1) / 0.1 = 5.708 < 4 pi.
  const SteeringOutput s = align(turner(0.0f, 1.0f), 0.25f, kParams);
  EXPECT_NEAR(s.angular, (kPi / 2.0f - 1.0f) / 0.1f, 1e-4f);
  EXPECT_EQ(s.linear, Vec2{});
  // Mirror image.
  EXPECT_NEAR(align(turner(0.0f, -1.0f), -0.25f, kParams).angular, -(kPi / 2.0f - 1.0f) / 0.1f, 1e-4f);
}

TEST(Align, OutsideSlowRadiusAimsForMaxRotationAndClampsTheAcceleration) {
  // 1 rad to go: targetRotation = pi; from rest (pi - 0) / 0.1 = 31.4 > 4 pi: clamped to 12.566.
  EXPECT_NEAR(align(turner(0.0f, 0.0f), 1.0f, kParams).angular, 4.0f * kPi, 1e-4f);
  // Already turning at 3 rad/s: (pi - 3) / 0.1 = 1.416, under the clamp.
  EXPECT_NEAR(align(turner(0.0f, 3.0f), 1.0f, kParams).angular, (kPi - 3.0f) / 0.1f, 1e-3f);
}

TEST(Align, InsideTargetRadiusGivesNoOutput) {
  EXPECT_EQ(align(turner(0.0f, 2.0f), 0.01f, kParams), SteeringOutput{});
  EXPECT_EQ(align(turner(1.0f, 0.0f), 1.0f, kParams), SteeringOutput{});
}

TEST(Align, TakesTheShortWayRoundAcrossPi) {
  // From 3.0 to -3.0 is +0.2832 (left, through pi), not -6. Rate pi * 0.2832 / 0.5 = 1.7794;
  // from rotation 1.5: (1.7794 - 1.5) / 0.1 = 2.794.
  const float toGo = 2.0f * kPi - 6.0f;
  const SteeringOutput s = align(turner(3.0f, 1.5f), -3.0f, kParams);
  EXPECT_NEAR(s.angular, (kPi * toGo / 0.5f - 1.5f) / 0.1f, 1e-3f);
  // Orientation not wrapped by the caller: 2 pi + 0 is the same as 0.
  EXPECT_NEAR(align(turner(2.0f * kPi, 1.0f), 0.25f, kParams).angular, (kPi / 2.0f - 1.0f) / 0.1f, 1e-3f);
}

TEST(Face, AlignsToTheDirectionOfTheTarget) {
  // From (1, 1) the target (1, 3) is at pi/2; orientation pi/2 - 0.25 leaves 0.25 to go.
  Body b = turner(kPi / 2.0f - 0.25f, 1.0f);
  b.position = {1, 1};
  EXPECT_NEAR(face(b, {1, 3}, kParams).angular, (kPi / 2.0f - 1.0f) / 0.1f, 1e-3f);
  EXPECT_EQ(face(b, {1, 1}, kParams), SteeringOutput{});  // coincident: no direction
}

TEST(LookWhereYouAreGoing, AlignsToTheVelocity) {
  Body b = turner(kPi / 2.0f - 0.25f, 1.0f);
  b.velocity = {0, 2};
  EXPECT_NEAR(lookWhereYouAreGoing(b, kParams).angular, (kPi / 2.0f - 1.0f) / 0.1f, 1e-3f);
  b.velocity = {};
  EXPECT_EQ(lookWhereYouAreGoing(b, kParams), SteeringOutput{});
}

TEST(Align, DegenerateInputsGiveFiniteOutput) {
  // timeToTarget 0: as fast as allowed, no division by zero.
  EXPECT_NEAR(align(turner(0.0f, 0.0f), 0.25f, {0.02f, 0.5f, 0.0f}).angular, 4.0f * kPi, 1e-4f);
  // slowRadius 0 and targetRadius 0: no 0/0 for an exact match, full rate otherwise.
  EXPECT_EQ(align(turner(0.5f, 0.0f), 0.5f, {0.0f, 0.0f, 0.1f}), SteeringOutput{});
  EXPECT_NEAR(align(turner(0.0f, 0.0f), 0.1f, {0.0f, 0.0f, 0.1f}).angular, 4.0f * kPi, 1e-4f);
  // No angular acceleration or rotation allowed.
  Body still = turner(0.0f, 0.0f);
  still.limits.maxAngularAcceleration = 0.0f;
  still.limits.maxRotation = 0.0f;
  EXPECT_EQ(align(still, 1.0f, kParams).angular, 0.0f);
  // Tiny timeToTarget cannot overflow.
  EXPECT_NEAR(align(turner(0.0f, 0.0f), 1.0f, {0.02f, 0.5f, 1e-38f}).angular, 4.0f * kPi, 1e-4f);
  // Non-finite target: wrapAngle maps it to 0, so no output rather than NaN.
  const SteeringOutput nan = align(turner(0.0f, 0.0f), std::numeric_limits<float>::quiet_NaN(), kParams);
  EXPECT_TRUE(isFinite(nan.angular));
}

TEST(Face, DegenerateInputsGiveFiniteOutput) {
  // Coincident target with a body at rest and every limit zero: no direction, zero.
  Body b = turner(0.0f, 0.0f);
  b.limits.maxSpeed = 0.0f;
  b.limits.maxRotation = 0.0f;
  b.limits.maxAngularAcceleration = 0.0f;
  EXPECT_EQ(face(b, {0, 0}, kParams), SteeringOutput{});
  // Not coincident but no turning allowed: finite zero.
  const SteeringOutput locked = face(b, {0, 5}, kParams);
  EXPECT_TRUE(std::isfinite(locked.linear.x) && std::isfinite(locked.linear.y) &&
              std::isfinite(locked.angular));
  EXPECT_EQ(locked.angular, 0.0f);
  // Target straight behind (exactly pi): short way undefined, turns left at the clamp.
  EXPECT_NEAR(face(turner(0.0f, 0.0f), {-5, 0}, kParams).angular, 4.0f * kPi, 1e-4f);
  // timeToTarget 0: as fast as allowed, never a division by zero.
  EXPECT_NEAR(face(turner(0.0f, 0.0f), {0, 5}, {0.02f, 0.5f, 0.0f}).angular, 4.0f * kPi, 1e-4f);
}

TEST(LookWhereYouAreGoing, DegenerateInputsGiveFiniteOutput) {
  // Zero velocity with zero limits: no direction, zero.
  Body b = turner(0.3f, 0.0f);
  b.limits.maxSpeed = 0.0f;
  b.limits.maxRotation = 0.0f;
  b.limits.maxAngularAcceleration = 0.0f;
  EXPECT_EQ(lookWhereYouAreGoing(b, kParams), SteeringOutput{});
  // Moving with zero maxSpeed (before locomotion truncates) but no turning allowed: finite zero.
  b.velocity = {0, 1};
  const SteeringOutput locked = lookWhereYouAreGoing(b, kParams);
  EXPECT_TRUE(std::isfinite(locked.angular));
  EXPECT_EQ(locked.angular, 0.0f);
  // Zero maxSpeed does not matter for the turn itself: pi/2 - 0.25 facing, velocity +y -> the pinned
  // rate of LookWhereYouAreGoing.AlignsToTheVelocity.
  Body turning = turner(kPi / 2.0f - 0.25f, 1.0f);
  turning.limits.maxSpeed = 0.0f;
  turning.velocity = {0, 2};
  EXPECT_NEAR(lookWhereYouAreGoing(turning, kParams).angular, (kPi / 2.0f - 1.0f) / 0.1f, 1e-3f);
}

}  // namespace
}  // namespace steer
