#include "steering/locomotion.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace steer {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

Body movingBody(Vec2 velocity, float maxSpeed = 10.0f, float maxForce = 100.0f, float mass = 1.0f) {
  Body b;
  b.velocity = velocity;
  b.heading = normalizedOr(velocity, Vec2{1, 0});
  b.orientation = toAngle(b.heading);
  b.limits.maxSpeed = maxSpeed;
  b.limits.maxForce = maxForce;
  b.limits.mass = mass;
  b.limits.maxTurnRate = 1000.0f;  // effectively unlimited unless a test says otherwise
  return b;
}

void expectFiniteBody(const Body& b) {
  EXPECT_TRUE(isFinite(b.position));
  EXPECT_TRUE(isFinite(b.velocity));
  EXPECT_TRUE(isFinite(b.heading));
  EXPECT_TRUE(isFinite(b.orientation));
  EXPECT_TRUE(isFinite(b.rotation));
}

TEST(IntegrateDynamic, ForceIsTruncatedToMaxForceBeforeDividingByMass) {
  // maxForce 2, mass 2: a push of 10 becomes 2, so a = 1, not 5.
  const Body b = movingBody({}, 100.0f, 2.0f, 2.0f);
  const Body n = integrateDynamic(b, {10, 0}, 1.0f);
  EXPECT_FLOAT_EQ(n.velocity.x, 1.0f);
  EXPECT_FLOAT_EQ(n.velocity.y, 0.0f);
}

TEST(IntegrateDynamic, AccelerationIsForceOverMass) {
  const Body b = movingBody({}, 100.0f, 100.0f, 4.0f);
  const Body n = integrateDynamic(b, {0, 8}, 0.5f);
  EXPECT_FLOAT_EQ(n.velocity.y, 1.0f);  // a = 2, dt = 0.5
}

// Slip in seed 000: its update truncates a*dt (not v) to maxSpeed, so v = 3 + 4 = 7 here.
TEST(IntegrateDynamic, TruncatesVelocityNotTheAccelerationStep) {
  const Body b = movingBody({3, 0}, 4.0f, 10.0f);
  const Body n = integrateDynamic(b, {4, 0}, 1.0f);
  EXPECT_FLOAT_EQ(n.velocity.x, 4.0f);
  EXPECT_FLOAT_EQ(n.velocity.y, 0.0f);
}

// Slip in seed 000: its truncate never shortens, so a constant force would accelerate forever.
TEST(IntegrateDynamic, ConstantForceNeverExceedsMaxSpeed) {
  Body b = movingBody({}, 3.0f, 5.0f);
  for (int i = 0; i < 200; ++i) {
    b = integrateDynamic(b, {5, 5}, 0.1f);
    ASSERT_LE(length(b.velocity), 3.0f + 1e-5f);
  }
  EXPECT_NEAR(length(b.velocity), 3.0f, 1e-5f);
}

TEST(IntegrateDynamic, PositionMovesByTheNewVelocity) {
  Body b = movingBody({1, 0});
  b.position = {2, 3};
  const Body n = integrateDynamic(b, {2, 0}, 0.5f);  // v = 1 + 2*0.5 = 2; p += 2*0.5
  EXPECT_FLOAT_EQ(n.velocity.x, 2.0f);
  EXPECT_FLOAT_EQ(n.position.x, 3.0f);
  EXPECT_FLOAT_EQ(n.position.y, 3.0f);
}

TEST(IntegrateDynamic, HeadingAndOrientationFollowVelocity) {
  const Body b = movingBody({});
  const Body n = integrateDynamic(b, {0, 2}, 1.0f);
  EXPECT_NEAR(n.heading.x, 0.0f, 1e-6f);
  EXPECT_NEAR(n.heading.y, 1.0f, 1e-6f);
  EXPECT_NEAR(n.orientation, kPi / 2, 1e-6f);
}

TEST(IntegrateDynamic, HeadingUnchangedWhenStopped) {
  Body b = movingBody({});
  b.heading = normalized(Vec2{-1, 1});
  b.orientation = toAngle(b.heading);
  const Body n = integrateDynamic(b, {}, 0.1f);
  EXPECT_EQ(n.heading, b.heading);
  EXPECT_EQ(n.velocity, Vec2{});
  EXPECT_FLOAT_EQ(n.orientation, 3 * kPi / 4);
}

TEST(IntegrateDynamic, TurnRateLimitsHowFarTheVelocityDirectionTurnsPerStep) {
  Body b = movingBody({1, 0});
  b.limits.maxTurnRate = kPi / 2;                     // 0.1 s -> at most pi/20 rad
  const Body n = integrateDynamic(b, {-1, 1}, 0.1f);  // wanted v = (0.9, 0.1)
  // (0.9, 0.1) is only 6.3 degrees away: allowed as is.
  EXPECT_NEAR(n.velocity.x, 0.9f, 1e-6f);
  EXPECT_NEAR(n.velocity.y, 0.1f, 1e-6f);

  const Body m = integrateDynamic(b, {-10, 10}, 0.1f);  // wanted (0, 1): 90 degrees
  EXPECT_NEAR(toAngle(m.velocity), kPi / 20, 1e-5f);
  EXPECT_NEAR(length(m.velocity), 1.0f, 1e-5f);  // speed kept, only the direction is clamped
  EXPECT_NEAR(m.orientation, kPi / 20, 1e-5f);
}

TEST(IntegrateDynamic, TurnRateLimitTurnsRightToo) {
  Body b = movingBody({1, 0});
  b.limits.maxTurnRate = kPi / 2;
  const Body n = integrateDynamic(b, {-10, -10}, 0.1f);
  EXPECT_NEAR(toAngle(n.velocity), -kPi / 20, 1e-5f);
}

TEST(IntegrateDynamic, ExactReversalSwingsLeftInsteadOfFlippingOnTheSpot) {
  Body b = movingBody({1, 0});
  b.limits.maxTurnRate = kPi / 2;
  const Body n = integrateDynamic(b, {-30, 0}, 0.1f);  // wanted (-2, 0)
  EXPECT_NEAR(toAngle(n.velocity), kPi / 20, 1e-5f);
  EXPECT_NEAR(length(n.velocity), 2.0f, 1e-5f);
}

TEST(IntegrateDynamic, NoTurnLimitFromRest) {
  Body b = movingBody({});
  b.limits.maxTurnRate = 0.1f;
  const Body n = integrateDynamic(b, {0, -5}, 0.1f);
  EXPECT_NEAR(n.velocity.x, 0.0f, 1e-6f);
  EXPECT_NEAR(n.velocity.y, -0.5f, 1e-6f);
}

TEST(IntegrateDynamic, BelowThePivotSpeedTheBodyTurnsOnTheSpot) {
  // maxSpeed 10: pivot speed kPivotFraction * 10 = 0.5 m/s.
  Body creeping = movingBody({0.4f, 0});
  creeping.limits.maxTurnRate = kPi / 2;                       // 0.1 s -> at most pi/20 rad
  const Body n = integrateDynamic(creeping, {-10, 10}, 0.1f);  // wanted (-0.6, 1)
  EXPECT_NEAR(n.velocity.x, -0.6f, 1e-6f);
  EXPECT_NEAR(n.velocity.y, 1.0f, 1e-6f);

  Body walking = movingBody({0.6f, 0});  // just above it: the limit holds
  walking.limits.maxTurnRate = kPi / 2;
  const Body m = integrateDynamic(walking, {-10, 10}, 0.1f);
  EXPECT_NEAR(toAngle(m.velocity), kPi / 20, 1e-5f);
  EXPECT_NEAR(kPivotFraction * 10.0f, 0.5f, 1e-6f);
}

TEST(IntegrateDynamic, ZeroMassIsGuardedTheForceIsIgnored) {
  for (float mass : {0.0f, -1.0f, kNaN, kInf}) {
    Body b = movingBody({1, 0}, 10.0f, 10.0f, mass);
    const Body n = integrateDynamic(b, {5, 5}, 0.1f);
    expectFiniteBody(n);
    EXPECT_FLOAT_EQ(n.velocity.x, 1.0f);  // coasts
    EXPECT_FLOAT_EQ(n.velocity.y, 0.0f);
    EXPECT_FLOAT_EQ(n.position.x, 0.1f);
  }
}

TEST(IntegrateDynamic, NonFiniteForceIsTreatedAsZero) {
  for (Vec2 f : {Vec2{kNaN, 0}, Vec2{0, kNaN}, Vec2{kInf, 1}, Vec2{-kInf, kInf}}) {
    Body b = movingBody({1, 0});
    const Body n = integrateDynamic(b, f, 0.1f);
    expectFiniteBody(n);
    EXPECT_FLOAT_EQ(n.velocity.x, 1.0f);
    EXPECT_FLOAT_EQ(n.velocity.y, 0.0f);
  }
}

TEST(IntegrateDynamic, BodyNeverBecomesNaNOverManyStepsOfBadInput) {
  Body b = movingBody({1, 1}, 5.0f, 5.0f);
  const Vec2 forces[] = {{kNaN, kNaN}, {1e30f, -1e30f}, {}, {kInf, 0}, {-3, 2}};
  for (int i = 0; i < 500; ++i) {
    b = integrateDynamic(b, forces[i % 5], 0.05f);
  }
  expectFiniteBody(b);
  EXPECT_LE(length(b.velocity), 5.0f + 1e-4f);
}

TEST(IntegrateDynamic, BadDtLeavesTheBodyUnchanged) {
  const Body b = movingBody({1, 2});
  for (float dt : {0.0f, -0.1f, kNaN, kInf}) {
    const Body n = integrateDynamic(b, {3, 3}, dt);
    EXPECT_EQ(n.position, b.position);
    EXPECT_EQ(n.velocity, b.velocity);
  }
}

TEST(IntegrateDynamic, ZeroMaxSpeedKeepsTheBodyStill) {
  Body b = movingBody({}, 0.0f);
  b.position = {4, 4};
  const Body n = integrateDynamic(b, {10, 0}, 0.1f);
  EXPECT_EQ(n.velocity, Vec2{});
  EXPECT_EQ(n.position, b.position);
  EXPECT_EQ(n.heading, b.heading);
}

TEST(IntegrateKinematic, VelocityAndRotationAreSetDirectlyAndClamped) {
  Body b;
  b.limits.maxSpeed = 2.0f;
  b.limits.maxRotation = 1.0f;
  b.velocity = {100, 100};  // ignored: kinematic output replaces it
  const Body n = integrateKinematic(b, {{3, 4}, 5.0f}, 0.5f);
  EXPECT_NEAR(n.velocity.x, 1.2f, 1e-6f);
  EXPECT_NEAR(n.velocity.y, 1.6f, 1e-6f);
  EXPECT_FLOAT_EQ(n.rotation, 1.0f);
  EXPECT_NEAR(n.position.x, 0.6f, 1e-6f);
  EXPECT_NEAR(n.position.y, 0.8f, 1e-6f);
  EXPECT_NEAR(n.orientation, 0.5f, 1e-6f);
  EXPECT_NEAR(n.heading.x, std::cos(0.5f), 1e-6f);
  EXPECT_NEAR(n.heading.y, std::sin(0.5f), 1e-6f);
}

TEST(IntegrateKinematic, OrientationWrapsIntoMinusPiPi) {
  Body b;
  b.orientation = kPi - 0.1f;
  b.limits.maxRotation = 10.0f;
  const Body n = integrateKinematic(b, {{}, 2.0f}, 0.1f);
  EXPECT_NEAR(n.orientation, -kPi + 0.1f, 1e-5f);
}

// Project convention: orientation = atan2(v.y, v.x), CCW from +x (Millington's atan2(-v.x, v.z) in
// his own axes).
TEST(IntegrateKinematic, FaceVelocityUsesAtan2OfVyVx) {
  Body b;
  b.limits.maxSpeed = 5.0f;
  const Body n = integrateKinematic(b, {{0, 3}, 0.7f}, 0.1f, KinematicFacing::kFromVelocity);
  EXPECT_NEAR(n.orientation, kPi / 2, 1e-6f);
  EXPECT_NEAR(n.heading.y, 1.0f, 1e-6f);
  EXPECT_FLOAT_EQ(orientationFromVelocity({-1, 0}, 0.3f), kPi);
  EXPECT_FLOAT_EQ(orientationFromVelocity({}, 0.3f), 0.3f);
}

TEST(IntegrateKinematic, NonFiniteRequestIsTreatedAsZero) {
  Body b;
  b.position = {1, 1};
  const Body n = integrateKinematic(b, {{kNaN, 1}, kInf}, 0.1f);
  expectFiniteBody(n);
  EXPECT_EQ(n.velocity, Vec2{});
  EXPECT_EQ(n.position, b.position);
  EXPECT_FLOAT_EQ(n.rotation, 0.0f);
}

TEST(IntegrateKinematicAccel, FullFormUsesHalfADtSquared) {
  Body b;
  b.velocity = {1, 0};
  b.rotation = 0.5f;
  b.limits.maxSpeed = 10.0f;
  b.limits.maxRotation = 10.0f;
  const Body n = integrateKinematicAccel(b, {{2, 4}, 1.0f}, 0.5f);
  EXPECT_NEAR(n.position.x, 0.5f + 0.25f, 1e-6f);  // v*dt + a*dt^2/2 = 0.5 + 2*0.125
  EXPECT_NEAR(n.position.y, 0.5f, 1e-6f);          // 4*0.125
  EXPECT_NEAR(n.orientation, 0.25f, 1e-6f);
  EXPECT_NEAR(n.velocity.x, 2.0f, 1e-6f);
  EXPECT_NEAR(n.velocity.y, 2.0f, 1e-6f);
  EXPECT_NEAR(n.rotation, 1.0f, 1e-6f);
}

TEST(IntegrateKinematicAccel, ClampsSpeedAndRotation) {
  Body b;
  b.limits.maxSpeed = 1.0f;
  b.limits.maxRotation = 0.5f;
  const Body n = integrateKinematicAccel(b, {{100, 0}, 100.0f}, 1.0f);
  EXPECT_NEAR(length(n.velocity), 1.0f, 1e-6f);
  EXPECT_FLOAT_EQ(n.rotation, 0.5f);
}

TEST(HeadingSmoother, AveragesTheLastKHeadings) {
  HeadingSmoother<2> s;
  s.update({1, 0});
  const Vec2 h = s.update({0, 1});
  EXPECT_NEAR(h.x, std::sqrt(0.5f), 1e-6f);
  EXPECT_NEAR(h.y, std::sqrt(0.5f), 1e-6f);
  // The oldest heading falls out of the ring.
  const Vec2 g = s.update({0, 1});
  EXPECT_NEAR(g.x, 0.0f, 1e-6f);
  EXPECT_NEAR(g.y, 1.0f, 1e-6f);
  EXPECT_EQ(s.size(), 2u);
}

TEST(HeadingSmoother, RemovesJudderBetweenAlternatingHeadings) {
  // Velocity heading flipping +-30 degrees every tick: the smoothed heading stays near 0.
  HeadingSmoother<> s;
  Vec2 h;
  for (int i = 0; i < 20; ++i) h = s.update(fromAngle(i % 2 == 0 ? 0.5236f : -0.5236f));
  EXPECT_NEAR(toAngle(h), 0.0f, 1e-5f);
  EXPECT_EQ(s.size(), HeadingSmoother<>::capacity());
}

TEST(HeadingSmoother, IgnoresZeroAndNonFiniteHeadingsAndStaysUnit) {
  HeadingSmoother<4> s;
  const Vec2 first = s.update({});
  EXPECT_EQ(first, (Vec2{1, 0}));
  EXPECT_EQ(s.size(), 0u);
  s.update({0, 2});
  const Vec2 h = s.update({kNaN, 0});
  EXPECT_EQ(s.size(), 1u);
  EXPECT_NEAR(h.y, 1.0f, 1e-6f);
}

TEST(HeadingSmoother, OppositeHeadingsThatCancelFallBack) {
  HeadingSmoother<2> s;
  s.update({1, 0});
  const Vec2 h = s.update({-1, 0});
  EXPECT_TRUE(isFinite(h));
  EXPECT_NEAR(length(h), 1.0f, 1e-6f);
}

TEST(IntegrateDynamic, ZeroMaxForceCoastsAndZeroTurnRateNeverTurns) {
  // maxForce 0: the force is truncated to nothing, the body coasts at its velocity.
  const Body coasting = integrateDynamic(movingBody({1, 0}, 10.0f, 0.0f), {0, 50}, 0.1f);
  expectFiniteBody(coasting);
  EXPECT_EQ(coasting.velocity, (Vec2{1, 0}));
  EXPECT_FLOAT_EQ(coasting.position.x, 0.1f);
  // maxTurnRate 0: the direction of travel never changes, only the speed.
  Body b = movingBody({1, 0});
  b.limits.maxTurnRate = 0.0f;
  const Body n = integrateDynamic(b, {0, 10}, 0.1f);  // wanted (1, 1)
  expectFiniteBody(n);
  EXPECT_NEAR(n.velocity.y, 0.0f, 1e-6f);
  EXPECT_NEAR(n.velocity.x, std::sqrt(2.0f), 1e-5f);
}

TEST(IntegrateDynamic, AtRestWithZeroForceAndZeroMaxSpeedStaysPut) {
  Body b = movingBody({}, 0.0f, 0.0f);
  b.position = {2, -1};
  const Body n = integrateDynamic(b, {}, 0.05f);
  expectFiniteBody(n);
  EXPECT_EQ(n.position, b.position);
  EXPECT_EQ(n.velocity, Vec2{});
  EXPECT_EQ(n.heading, b.heading);
}

TEST(IntegrateKinematic, ZeroMaxSpeedAndMaxRotationKeepTheBodyStill) {
  Body b;
  b.position = {1, 2};
  b.orientation = 0.4f;
  b.heading = fromAngle(0.4f);
  b.limits.maxSpeed = 0.0f;
  b.limits.maxRotation = 0.0f;
  for (KinematicFacing facing : {KinematicFacing::kFromRotation, KinematicFacing::kFromVelocity}) {
    const Body n = integrateKinematic(b, {{3, 4}, 2.0f}, 0.1f, facing);
    expectFiniteBody(n);
    EXPECT_EQ(n.velocity, Vec2{});
    EXPECT_EQ(n.position, b.position);
    EXPECT_EQ(n.rotation, 0.0f);
    EXPECT_FLOAT_EQ(n.orientation, 0.4f);  // no velocity to face along, no rotation allowed
  }
  // Negative limits count as zero.
  b.limits.maxSpeed = -1.0f;
  b.limits.maxRotation = -1.0f;
  const Body neg = integrateKinematic(b, {{3, 4}, 2.0f}, 0.1f);
  EXPECT_EQ(neg.velocity, Vec2{});
  EXPECT_EQ(neg.rotation, 0.0f);
}

TEST(IntegrateKinematic, ZeroRequestAndBadDt) {
  Body b;
  b.position = {1, 1};
  b.orientation = 1.0f;
  b.heading = fromAngle(1.0f);
  const Body n = integrateKinematic(b, {}, 0.1f, KinematicFacing::kFromVelocity);
  expectFiniteBody(n);
  EXPECT_EQ(n.position, b.position);
  EXPECT_FLOAT_EQ(n.orientation, 1.0f);  // standing still keeps the orientation
  for (float dt : {0.0f, -0.1f, kNaN, kInf}) {
    const Body m = integrateKinematic(b, {{1, 0}, 1.0f}, dt);
    EXPECT_EQ(m.position, b.position);
    EXPECT_EQ(m.velocity, b.velocity);
  }
}

TEST(IntegrateKinematicAccel, DegenerateInputsStayFinite) {
  Body b;
  b.position = {1, 1};
  b.velocity = {1, 0};
  b.limits.maxSpeed = 2.0f;
  b.limits.maxRotation = 1.0f;
  // Non-finite request: treated as zero, the body coasts.
  const Body n = integrateKinematicAccel(b, {{kNaN, kInf}, kNaN}, 0.5f);
  expectFiniteBody(n);
  EXPECT_EQ(n.velocity, (Vec2{1, 0}));
  EXPECT_FLOAT_EQ(n.position.x, 1.5f);
  // Bad dt: unchanged.
  for (float dt : {0.0f, -0.1f, kNaN, kInf}) {
    const Body m = integrateKinematicAccel(b, {{1, 0}, 1.0f}, dt);
    EXPECT_EQ(m.position, b.position);
    EXPECT_EQ(m.velocity, b.velocity);
  }
  // Zero max speed and rotation: the velocity and rotation are clamped to zero.
  Body still = b;
  still.velocity = {};
  still.limits.maxSpeed = 0.0f;
  still.limits.maxRotation = 0.0f;
  const Body s = integrateKinematicAccel(still, {{4, 0}, 3.0f}, 0.5f);
  expectFiniteBody(s);
  EXPECT_EQ(s.velocity, Vec2{});
  EXPECT_EQ(s.rotation, 0.0f);
}

TEST(HeadingSmoother, AveragesOnlyTheLastSamplesAskedFor) {
  // Room for 8, 3 asked for: the mean of the newest three, oldest first.
  HeadingSmoother<8> s;
  for (int i = 0; i < 6; ++i) s.update({1, 0}, 3, {1, 0});
  s.update({0, 1}, 3, {1, 0});
  const Vec2 h = s.update({0, 1}, 3, {1, 0});  // last three: (1,0), (0,1), (0,1)
  EXPECT_NEAR(h.x, 1.0f / std::sqrt(5.0f), 1e-6f);
  EXPECT_NEAR(h.y, 2.0f / std::sqrt(5.0f), 1e-6f);
  // More asked for than recorded: all of them.
  HeadingSmoother<8> t;
  EXPECT_EQ(t.update({0, 3}, 8, {1, 0}), (Vec2{0, 1}));
  // Nothing recorded and nothing to record: the fallback.
  HeadingSmoother<8> u;
  EXPECT_EQ(u.update({}, 4, {0, -1}), (Vec2{0, -1}));
}

}  // namespace
}  // namespace steer
