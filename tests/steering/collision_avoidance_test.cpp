#include "steering/collision_avoidance.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>

namespace steer {
namespace {

// Body at the origin moving +x at 1; maxForce 3, mass 2 (maxAcceleration 1.5: the returned force
// is 1.5 * 2 = 3); radius 0.5, so with another body of radius 0.5 a "collision" is a separation
// under 1.
Body mover() {
  Body b;
  b.velocity = {1, 0};
  b.limits.radius = 0.5f;
  b.limits.mass = 2.0f;
  b.limits.maxForce = 3.0f;
  return b;
}

// Long enough that the t = 5 s cases below count.
constexpr CollisionAvoidanceParams kHorizon{10.0f};

Kinematic other(Vec2 p, Vec2 v, float radius = 0.5f) { return {p, v, normalizedOr(v, {1, 0}), radius}; }

void expectFinite(SteeringOutput s) {
  EXPECT_TRUE(isFinite(s.linear)) << s.linear.x << ", " << s.linear.y;
  EXPECT_TRUE(isFinite(s.angular));
}

TEST(ClosestApproach, HeadOnAndOffsetTimesAndSeparations) {
  // relPos (10, 0), relVel (-2, 0): t = -(10 * -2) / 4 = 5; |(10,0) + (-2,0) * 5| = 0.
  ClosestApproach ca = closestApproach({10, 0}, {-2, 0});
  EXPECT_FLOAT_EQ(ca.time, 5.0f);
  EXPECT_FLOAT_EQ(ca.separation, 0.0f);
  // relPos (10, 0.6): same t, separation 0.6.
  ca = closestApproach({10, 0.6f}, {-2, 0});
  EXPECT_FLOAT_EQ(ca.time, 5.0f);
  EXPECT_NEAR(ca.separation, 0.6f, 1e-5f);
  // Crossing paths: relPos (3, 4), relVel (0, -2): t = 8 / 4 = 2, closest at (3, 0): 3.
  ca = closestApproach({3, 4}, {0, -2});
  EXPECT_FLOAT_EQ(ca.time, 2.0f);
  EXPECT_FLOAT_EQ(ca.separation, 3.0f);
  // Moving apart: t < 0.
  EXPECT_LT(closestApproach({10, 0}, {2, 0}).time, 0.0f);
}

TEST(ClosestApproach, NoRelativeMotionKeepsTheCurrentDistance) {
  const ClosestApproach ca = closestApproach({3, 4}, {0, 0});
  EXPECT_EQ(ca.time, 0.0f);
  EXPECT_FLOAT_EQ(ca.separation, 5.0f);
  const ClosestApproach coincident = closestApproach({0, 0}, {1, 0});
  EXPECT_EQ(coincident.time, 0.0f);
  EXPECT_EQ(coincident.separation, 0.0f);
}

// Two bodies approaching head-on, each at 1 m/s, 10 m apart: t = 5 s, separation 0. Passing
// through the centre gives no sideways direction, so steer away from the current relative
// position (+x): force (-3, 0).
TEST(CollisionAvoidance, HeadOnBrakesAwayFromTheCurrentPosition) {
  const std::array<Kinematic, 1> others{other({10, 0}, {-1, 0})};
  const SteeringOutput s = collisionAvoidance(mover(), others, kHorizon);
  EXPECT_NEAR(s.linear.x, -3.0f, 1e-5f);
  EXPECT_NEAR(s.linear.y, 0.0f, 1e-5f);
  EXPECT_EQ(s.angular, 0.0f);
}

TEST(CollisionAvoidance, NearMissSteersAwayFromTheFutureRelativePosition) {
  // Offset 0.6: at t = 5 the other is at relative (0, 0.6), separation 0.6 < 1: push (0, -3).
  const std::array<Kinematic, 1> others{other({10, 0.6f}, {-1, 0})};
  const SteeringOutput s = collisionAvoidance(mover(), others, kHorizon);
  EXPECT_NEAR(s.linear.x, 0.0f, 1e-5f);
  EXPECT_NEAR(s.linear.y, -3.0f, 1e-5f);
}

TEST(CollisionAvoidance, IgnoresMissesLateThreatsAndBodiesMovingApart) {
  const std::array<Kinematic, 3> others{
      other({10, 1.2f}, {-1, 0}),  // separation 1.2 > 1
      other({10, 0}, {2, 0}),      // faster, moving away: t < 0
      other({-5, 0}, {0, 0}),      // behind, we move away from it
  };
  EXPECT_EQ(collisionAvoidance(mover(), others, kHorizon), SteeringOutput{});
  const std::array<Kinematic, 1> late{other({10, 0}, {-1, 0})};
  EXPECT_EQ(collisionAvoidance(mover(), late, {4.0f}), SteeringOutput{});  // t = 5 > horizon 4
}

TEST(CollisionAvoidance, AvoidsTheSoonestThreatOnly) {
  // Standing obstacle-body at (4, 0.3): relVel (-1, 0), t = 4, future (0, 0.3): push (0, -3).
  // The head-on one at t = 5 would push (-3, 0): it must lose.
  const std::array<Kinematic, 2> others{other({10, 0}, {-1, 0}), other({4, 0.3f}, {0, 0})};
  const SteeringOutput s = collisionAvoidance(mover(), others, kHorizon);
  EXPECT_NEAR(s.linear.x, 0.0f, 1e-5f);
  EXPECT_NEAR(s.linear.y, -3.0f, 1e-5f);
}

TEST(CollisionAvoidance, AlreadyOverlappingSteersAwayFromTheCurrentPosition) {
  // relPos (0.6, 0.3), |relPos| = 0.67 < 1 and still closing (t = 0.3): away from (0.6, 0.3).
  const std::array<Kinematic, 1> others{other({0.6f, 0.3f}, {-1, 0})};
  const SteeringOutput s = collisionAvoidance(mover(), others, kHorizon);
  const Vec2 expected = -normalized(Vec2{0.6f, 0.3f}) * 3.0f;
  EXPECT_NEAR(s.linear.x, expected.x, 1e-5f);
  EXPECT_NEAR(s.linear.y, expected.y, 1e-5f);
}

TEST(CollisionAvoidance, DegenerateInputsGiveNoOrFiniteOutput) {
  Body b = mover();
  EXPECT_EQ(collisionAvoidance(b, {}), SteeringOutput{});
  // Same velocity (no relative motion), coincident bodies (t == 0), zero radii.
  const std::array<Kinematic, 3> others{other({2, 0}, {1, 0}), other({0, 0}, {-1, 0}),
                                        other({0, 0}, {1, 0}, 0.0f)};
  EXPECT_EQ(collisionAvoidance(b, others, kHorizon), SteeringOutput{});
  b.velocity = {};
  b.limits.maxForce = 0.0f;
  b.limits.radius = 0.0f;
  const std::array<Kinematic, 1> onCourse{other({3, 0}, {-1, 0}, 0.0f)};
  expectFinite(collisionAvoidance(b, onCourse, kHorizon));
  EXPECT_EQ(collisionAvoidance(b, onCourse, {0.0f}), SteeringOutput{});
}

TEST(CollisionAvoidance, ZeroMaxSpeedAndZeroVelocitiesGiveNoOrFiniteOutput) {
  // The force comes from maxForce, not maxSpeed: a body with maxSpeed 0 still avoids (-3, 0).
  Body b = mover();
  b.limits.maxSpeed = 0.0f;
  const std::array<Kinematic, 1> headOn{other({10, 0}, {-1, 0})};
  const SteeringOutput s = collisionAvoidance(b, headOn, kHorizon);
  EXPECT_TRUE(std::isfinite(s.linear.x) && std::isfinite(s.linear.y) && std::isfinite(s.angular));
  EXPECT_NEAR(s.linear.x, -3.0f, 1e-5f);
  EXPECT_NEAR(s.linear.y, 0.0f, 1e-5f);
  // Both at rest (overlapping or not, coincident or not): no relative motion, nothing to predict.
  b.velocity = {};
  const std::array<Kinematic, 3> still{other({0.5f, 0}, {}), other({0, 0}, {}), other({3, 0}, {})};
  EXPECT_EQ(collisionAvoidance(b, still, kHorizon), SteeringOutput{});
  // Zero heading as well: the fallback direction is never needed for a closing threat.
  b.heading = {};
  const SteeringOutput noHeading = collisionAvoidance(b, headOn, kHorizon);
  expectFinite(noHeading);
  EXPECT_NEAR(noHeading.linear.x, -3.0f, 1e-5f);
}

}  // namespace
}  // namespace steer

namespace steer {
namespace {

// Keeping to a side (CollisionAvoidanceParams::keepTo): a body coming straight at the mover is
// dodged sideways to the chosen side; Millington's force would brake straight back (-x).
TEST(CollisionAvoidanceKeepTo, AnOncomingBodyIsDodgedToTheSideKeptTo) {
  Body b;
  b.velocity = {1, 0};
  b.heading = {1, 0};
  b.limits.radius = 0.5f;
  b.limits.maxForce = 3.0f;
  const std::array<Kinematic, 1> headOn{Kinematic{{4, 0}, {-1, 0}, {-1, 0}, 0.5f}};
  const SteeringOutput either = collisionAvoidance(b, headOn, {10.0f});
  EXPECT_NEAR(either.linear.x, -3.0f, 1e-5f);
  EXPECT_NEAR(either.linear.y, 0.0f, 1e-5f);
  const SteeringOutput right = collisionAvoidance(b, headOn, {10.0f, KeepTo::kRight});
  EXPECT_NEAR(right.linear.x, 0.0f, 1e-5f);
  EXPECT_NEAR(right.linear.y, -3.0f, 1e-5f);  // heading +x: right is -y
  const SteeringOutput left = collisionAvoidance(b, headOn, {10.0f, KeepTo::kLeft});
  EXPECT_NEAR(left.linear.y, 3.0f, 1e-5f);
  // A body that will pass a little to the right: Millington dodges left (away from it); keeping
  // right, the mover goes right anyway, so the two pass left side to left side.
  const std::array<Kinematic, 1> slightlyRight{Kinematic{{4, -0.3f}, {-1, 0}, {-1, 0}, 0.5f}};
  EXPECT_GT(collisionAvoidance(b, slightlyRight, {10.0f}).linear.y, 0.0f);
  const SteeringOutput kept = collisionAvoidance(b, slightlyRight, {10.0f, KeepTo::kRight});
  EXPECT_LT(kept.linear.y, 0.0f);
  EXPECT_NEAR(length(kept.linear), 3.0f, 1e-4f);
}

TEST(CollisionAvoidanceKeepTo, ABodyGoingTheSameWayIsAvoidedAsBefore) {
  Body b;
  b.velocity = {2, 0};
  b.heading = {1, 0};
  b.limits.radius = 0.5f;
  b.limits.maxForce = 3.0f;
  // Slower, ahead and a little to the right: caught up with, not oncoming.
  const std::array<Kinematic, 1> ahead{Kinematic{{3, -0.2f}, {0.5f, 0}, {1, 0}, 0.5f}};
  const SteeringOutput plain = collisionAvoidance(b, ahead, {10.0f});
  const SteeringOutput kept = collisionAvoidance(b, ahead, {10.0f, KeepTo::kRight});
  EXPECT_EQ(plain, kept);
  EXPECT_GT(plain.linear.y, 0.0f);
}

}  // namespace
}  // namespace steer
