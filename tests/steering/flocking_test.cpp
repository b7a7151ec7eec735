#include "steering/flocking.h"

#include <gtest/gtest.h>

#include <array>
#include <span>

namespace steer {
namespace {

constexpr float kTol = 1e-5f;

Body bodyAt(Vec2 p, Vec2 v = {}, float maxSpeed = 1.0f) {
  Body b;
  b.position = p;
  b.velocity = v;
  b.heading = {1, 0};
  b.limits.maxSpeed = maxSpeed;
  return b;
}

Kinematic neighbour(Vec2 p, Vec2 heading = {1, 0}, Vec2 v = {}) {
  Kinematic k;
  k.position = p;
  k.heading = heading;
  k.velocity = v;
  return k;
}

void expectVec(Vec2 actual, Vec2 expected, float tol = kTol) {
  EXPECT_NEAR(actual.x, expected.x, tol);
  EXPECT_NEAR(actual.y, expected.y, tol);
}

void expectFinite(const SteeringOutput& s) {
  EXPECT_TRUE(isFinite(s.linear)) << s.linear.x << ", " << s.linear.y;
  EXPECT_TRUE(isFinite(s.angular));
}

TEST(Separation, OneNeighbourAtDistanceTwoPushesAwayWithMagnitudeHalf) {
  const std::array ns{neighbour({2, 0})};
  const SteeringOutput s = separation(bodyAt({0, 0}), ns);
  expectVec(s.linear, {-0.5f, 0.0f});
  EXPECT_NEAR(length(s.linear), 0.5f, kTol);
  EXPECT_EQ(s.angular, 0.0f);
}

TEST(Separation, InverseSquareFalloffGivesQuarterAtDistanceTwo) {
  const std::array ns{neighbour({2, 0})};
  const SteeringOutput s = separation(bodyAt({0, 0}), ns, {SeparationFalloff::kInverseSquare});
  expectVec(s.linear, {-0.25f, 0.0f});
}

TEST(Separation, SumsOverNeighbours) {
  // (-1, 0) / 2 + (0, 1) / 4.
  const std::array ns{neighbour({2, 0}), neighbour({0, -4})};
  expectVec(separation(bodyAt({0, 0}), ns).linear, {-0.5f, 0.25f});
  // Inverse square: (-1, 0) / 4 + (0, 1) / 16.
  expectVec(separation(bodyAt({0, 0}), ns, {SeparationFalloff::kInverseSquare}).linear, {-0.25f, 0.0625f});
}

TEST(Separation, SymmetricNeighboursCancel) {
  const std::array ns{neighbour({3, 0}), neighbour({-3, 0})};
  expectVec(separation(bodyAt({0, 0}), ns).linear, {0, 0});
}

TEST(Separation, CloserNeighbourPushesHarder) {
  const std::array near{neighbour({1, 0})};
  const std::array far{neighbour({4, 0})};
  EXPECT_GT(length(separation(bodyAt({0, 0}), near).linear), length(separation(bodyAt({0, 0}), far).linear));
}

TEST(Separation, CoincidentNeighbourIsSkippedNotNaN) {
  const std::array ns{neighbour({5, 5}), neighbour({7, 5})};
  const SteeringOutput s = separation(bodyAt({5, 5}), ns);
  expectFinite(s);
  expectVec(s.linear, {-0.5f, 0.0f});
  const std::array onlyCoincident{neighbour({5, 5})};
  EXPECT_EQ(separation(bodyAt({5, 5}), onlyCoincident, {SeparationFalloff::kInverseSquare}),
            SteeringOutput{});
}

TEST(Separation, NearlyCoincidentNeighbourIsLargeButFinite) {
  const std::array ns{neighbour({1e-5f, 0})};
  expectFinite(separation(bodyAt({0, 0}), ns));
  expectFinite(separation(bodyAt({0, 0}), ns, {SeparationFalloff::kInverseSquare}));
}

TEST(Separation, NoNeighboursNoForce) {
  EXPECT_EQ(separation(bodyAt({0, 0}), std::span<const Kinematic>{}), SteeringOutput{});
}

TEST(Alignment, TwoNeighbourHeadingsAverageMinusOwnHeading) {
  // average((0, 1), (1, 0)) = (0.5, 0.5); minus heading (1, 0).
  const std::array ns{neighbour({1, 1}, {0, 1}), neighbour({-1, 1}, {1, 0})};
  expectVec(alignment(bodyAt({0, 0}), ns).linear, {-0.5f, 0.5f});
}

TEST(Alignment, AlreadyAlignedGivesZero) {
  const std::array ns{neighbour({1, 1}, {1, 0}), neighbour({2, 2}, {1, 0})};
  expectVec(alignment(bodyAt({0, 0}), ns).linear, {0, 0});
}

TEST(Alignment, OpposedNeighbourHeadingsCancelToMinusHeading) {
  const std::array ns{neighbour({1, 1}, {0, 1}), neighbour({2, 2}, {0, -1})};
  expectVec(alignment(bodyAt({0, 0}), ns).linear, {-1, 0});
}

TEST(Alignment, NoNeighboursNoForce) {
  EXPECT_EQ(alignment(bodyAt({0, 0}), std::span<const Kinematic>{}), SteeringOutput{});
}

TEST(Cohesion, SeeksCentreOfMass) {
  // Centre (3, 1); seek with maxSpeed 2 from rest.
  const std::array ns{neighbour({2, 0}), neighbour({4, 2})};
  const SteeringOutput s = cohesion(bodyAt({0, 0}, {}, 2.0f), ns);
  expectVec(s.linear, normalized(Vec2{3, 1}) * 2.0f);
}

TEST(Cohesion, SubtractsCurrentVelocityLikeSeek) {
  const std::array ns{neighbour({0, 5})};
  expectVec(cohesion(bodyAt({0, 0}, {1, 0}, 1.0f), ns).linear, {-1, 1});
}

TEST(Cohesion, NoNeighboursNoForce) {
  EXPECT_EQ(cohesion(bodyAt({0, 0}, {1, 0}), std::span<const Kinematic>{}), SteeringOutput{});
}

TEST(Cohesion, CentreOnTheBodyBrakesWithoutNaN) {
  const std::array ns{neighbour({1, 0}), neighbour({-1, 0})};
  const SteeringOutput s = cohesion(bodyAt({0, 0}, {0.5f, 0}), ns);
  expectFinite(s);
  expectVec(s.linear, {-0.5f, 0});
}

TEST(Cohesion, ZeroMaxSpeedOnlyBrakes) {
  const std::array ns{neighbour({4, 0})};
  expectVec(cohesion(bodyAt({0, 0}, {0, 1}, 0.0f), ns).linear, {0, -1});
}

TEST(Flock, WeightedSumOfTheThree) {
  // One neighbour at (2, 0) heading north; body at rest heading east, maxSpeed 1:
  // separation (-0.5, 0), alignment (-1, 1), cohesion (1, 0).
  const std::array ns{neighbour({2, 0}, {0, 1})};
  const Body body = bodyAt({0, 0});
  FlockParams params;
  params.separationWeight = 2.0f;
  params.alignmentWeight = 1.0f;
  params.cohesionWeight = 0.5f;
  expectVec(flock(body, ns, params).linear, {-1.5f, 1.0f});
  // Default weights are 1 each.
  expectVec(flock(body, ns).linear, {-0.5f, 1.0f});
}

TEST(Flock, UsesSeparationFalloffOption) {
  const std::array ns{neighbour({2, 0}, {1, 0})};
  FlockParams params;
  params.alignmentWeight = 0.0f;
  params.cohesionWeight = 0.0f;
  params.separation.falloff = SeparationFalloff::kInverseSquare;
  expectVec(flock(bodyAt({0, 0}), ns, params).linear, {-0.25f, 0});
}

TEST(Flock, IsolatedBodyDoesNothing) {
  EXPECT_EQ(flock(bodyAt({0, 0}, {1, 0}), std::span<const Kinematic>{}), SteeringOutput{});
}

TEST(Flock, AllCoincidentNeighboursStayFinite) {
  const std::array ns{neighbour({0, 0}, {0, 1}), neighbour({0, 0}, {-1, 0})};
  expectFinite(flock(bodyAt({0, 0}), ns));
}

TEST(KinematicFlock, MatchesNeighbourVelocityWhenCohesionAndSeparationCancel) {
  // Centre of mass on the body, separations cancel: only the averaged velocity (0, 2) is left,
  // and the speed comes from its length.
  const std::array ns{neighbour({0, 2}, {0, 1}, {0, 2}), neighbour({0, -2}, {0, 1}, {0, 2})};
  KinematicFlockParams params;
  params.minSpeed = 0.5f;
  params.maxSpeed = 3.0f;
  const SteeringOutput s = kinematicFlock(bodyAt({0, 0}, {1, 0}), ns, params);
  expectVec(s.linear, {0, 2});
}

TEST(KinematicFlock, NormalisedSumTimesClampedSpeed) {
  // cohesion (1, 0) * current speed 1; align (0, 1); separation (-4, 0) / 16 = (-0.25, 0);
  // sum (0.75, 1) -> direction (0.6, 0.8); speed clamp(|align| = 1, 0, 5) = 1.
  const std::array ns{neighbour({4, 0}, {0, 1}, {0, 1})};
  KinematicFlockParams params;
  params.maxSpeed = 5.0f;
  expectVec(kinematicFlock(bodyAt({0, 0}, {1, 0}), ns, params).linear, {0.6f, 0.8f});
}

TEST(KinematicFlock, SpeedIsClampedToMinAndMax) {
  const std::array fast{neighbour({0, 2}, {0, 1}, {0, 10}), neighbour({0, -2}, {0, 1}, {0, 10})};
  KinematicFlockParams params;
  params.minSpeed = 0.5f;
  params.maxSpeed = 3.0f;
  EXPECT_NEAR(length(kinematicFlock(bodyAt({0, 0}), fast, params).linear), 3.0f, kTol);
  const std::array slow{neighbour({0, 2}, {0, 1}, {0, 0.1f}), neighbour({0, -2}, {0, 1}, {0, 0.1f})};
  EXPECT_NEAR(length(kinematicFlock(bodyAt({0, 0}), slow, params).linear), 0.5f, kTol);
}

TEST(KinematicFlock, NoNeighboursKeepsGoingAlongHeading) {
  KinematicFlockParams params;
  params.minSpeed = 0.5f;
  params.maxSpeed = 3.0f;
  Body b = bodyAt({0, 0}, {0, 0});
  b.heading = {0, 1};
  expectVec(kinematicFlock(b, std::span<const Kinematic>{}, params).linear, {0, 0.5f});
  b.velocity = {0, 2};
  expectVec(kinematicFlock(b, std::span<const Kinematic>{}, params).linear, {0, 2});
}

TEST(KinematicFlock, CancellingRulesFallBackToHeadingNotNaN) {
  // Centre on the body, separations cancel, average velocity zero: nothing says where to go.
  const std::array ns{neighbour({0, 2}, {0, 1}, {0, 1}), neighbour({0, -2}, {0, -1}, {0, -1})};
  KinematicFlockParams params;
  params.minSpeed = 0.5f;
  params.maxSpeed = 3.0f;
  const SteeringOutput s = kinematicFlock(bodyAt({0, 0}), ns, params);
  expectFinite(s);
  expectVec(s.linear, {0.5f, 0});
}

TEST(KinematicFlock, ZeroMaxSpeedGivesZeroVelocity) {
  const std::array ns{neighbour({3, 0}, {0, 1}, {0, 1})};
  KinematicFlockParams params;
  params.maxSpeed = 0.0f;
  EXPECT_EQ(kinematicFlock(bodyAt({0, 0}, {1, 0}), ns, params).linear, Vec2{});
}

TEST(KinematicFlock, CoincidentNeighboursStayFinite) {
  const std::array ns{neighbour({0, 0}), neighbour({0, 0})};
  expectFinite(kinematicFlock(bodyAt({0, 0}), ns));
}

TEST(Flock, ZeroMaxSpeedDropsOnlyCohesionsPull) {
  // As Flock.WeightedSumOfTheThree with maxSpeed 0: separation (-0.5, 0) + alignment (-1, 1) +
  // cohesion (0, 0) (seek with maxSpeed 0 at rest).
  const std::array ns{neighbour({2, 0}, {0, 1})};
  const SteeringOutput s = flock(bodyAt({0, 0}, {}, 0.0f), ns);
  expectFinite(s);
  expectVec(s.linear, {-1.5f, 1.0f});
}

TEST(Flock, CoincidentNeighbourAtRestWithZeroMaxSpeed) {
  // Separation skips the coincident neighbour, cohesion's centre is the body itself (seek brakes,
  // v = 0), alignment still sees its heading: (0, 1) - (1, 0).
  const std::array ns{neighbour({0, 0}, {0, 1})};
  const SteeringOutput s = flock(bodyAt({0, 0}, {}, 0.0f), ns);
  expectFinite(s);
  expectVec(s.linear, {-1.0f, 1.0f});
}

TEST(Alignment, ZeroHeadingsAndCoincidentNeighboursStayFinite) {
  Body b = bodyAt({0, 0});
  b.heading = {};
  const std::array ns{neighbour({0, 0}, {0, 0}), neighbour({0, 0}, {0, 0})};
  const SteeringOutput s = alignment(b, ns);
  expectFinite(s);
  EXPECT_EQ(s.linear, Vec2{});
}

TEST(Separation, ZeroMaxSpeedAndZeroVelocityDoNotMatter) {
  // Separation reads positions only: the pinned (-0.5, 0) at distance 2.
  const std::array ns{neighbour({2, 0})};
  const SteeringOutput s = separation(bodyAt({0, 0}, {}, 0.0f), ns);
  expectFinite(s);
  expectVec(s.linear, {-0.5f, 0});
}

}  // namespace
}  // namespace steer
