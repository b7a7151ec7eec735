#include "steering/velocity_matching.h"

#include <gtest/gtest.h>

#include <cmath>

namespace steer {
namespace {

Body matcher(float maxForce) {
  Body b;
  b.velocity = {1, 0};
  b.limits.mass = 2.0f;
  b.limits.maxForce = maxForce;
  return b;
}

TEST(VelocityMatch, ForceIsMassTimesGapOverTimeToTarget) {
  // gap (2,1) - (1,0) = (1,1); acceleration (1,1) / 0.5 = (2,2); force * mass 2 = (4,4).
  // |(4,4)| = 5.66 < maxForce 10: not clamped.
  const SteeringOutput s = velocityMatch(matcher(10.0f), Vec2{2, 1}, {0.5f});
  EXPECT_NEAR(s.linear.x, 4.0f, 1e-5f);
  EXPECT_NEAR(s.linear.y, 4.0f, 1e-5f);
  EXPECT_EQ(s.angular, 0.0f);
}

TEST(VelocityMatch, ClampedToMaxForceThatIsMaxAccelerationTimesMass) {
  // maxForce 3 (maxAcceleration 1.5): (4,4) is cut to 3 along (1,1): (2.1213, 2.1213).
  const SteeringOutput s = velocityMatch(matcher(3.0f), Vec2{2, 1}, {0.5f});
  EXPECT_NEAR(s.linear.x, 3.0f * std::sqrt(0.5f), 1e-5f);
  EXPECT_NEAR(s.linear.y, 3.0f * std::sqrt(0.5f), 1e-5f);
}

TEST(VelocityMatch, KinematicTargetUsesItsVelocity) {
  const Kinematic target{{100, 100}, {2, 1}, {1, 0}, 0.5f};
  EXPECT_EQ(velocityMatch(matcher(10.0f), target, {0.5f}), velocityMatch(matcher(10.0f), Vec2{2, 1}, {0.5f}));
}

TEST(VelocityMatch, MatchedVelocityGivesNoForce) {
  EXPECT_EQ(velocityMatch(matcher(10.0f), Vec2{1, 0}), SteeringOutput{});
}

TEST(VelocityMatch, DegenerateInputsGiveFiniteOutput) {
  // timeToTarget 0 or tiny: full maxForce towards the target velocity, no inf.
  for (const float ttt : {0.0f, 1e-38f, -1.0f}) {
    const SteeringOutput s = velocityMatch(matcher(3.0f), Vec2{1, 5}, {ttt});
    EXPECT_NEAR(s.linear.x, 0.0f, 1e-5f);
    EXPECT_NEAR(s.linear.y, 3.0f, 1e-5f);
  }
  EXPECT_EQ(velocityMatch(matcher(3.0f), Vec2{1, 0}, {0.0f}), SteeringOutput{});
  EXPECT_EQ(velocityMatch(matcher(0.0f), Vec2{5, 5}), SteeringOutput{});
  Body massless = matcher(3.0f);
  massless.limits.mass = 0.0f;
  EXPECT_EQ(velocityMatch(massless, Vec2{5, 5}), SteeringOutput{});
}

TEST(VelocityMatch, ZeroVelocityAndZeroMaxSpeedGiveFiniteOutput) {
  // At rest matching rest: zero.
  Body b = matcher(3.0f);
  b.velocity = {};
  const SteeringOutput rest = velocityMatch(b, Vec2{});
  EXPECT_TRUE(std::isfinite(rest.linear.x) && std::isfinite(rest.linear.y) && std::isfinite(rest.angular));
  EXPECT_EQ(rest, SteeringOutput{});
  // Velocity matching does not read maxSpeed: maxSpeed 0 gives the pinned (4, 4).
  Body still = matcher(10.0f);
  still.limits.maxSpeed = 0.0f;
  const SteeringOutput s = velocityMatch(still, Vec2{2, 1}, {0.5f});
  EXPECT_NEAR(s.linear.x, 4.0f, 1e-5f);
  EXPECT_NEAR(s.linear.y, 4.0f, 1e-5f);
  // A coincident target body at rest.
  const Kinematic target{{0, 0}, {}, {}, 0.5f};
  EXPECT_TRUE(isFinite(velocityMatch(b, target).linear));
  EXPECT_EQ(velocityMatch(b, target), SteeringOutput{});
}

}  // namespace
}  // namespace steer
