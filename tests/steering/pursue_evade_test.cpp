#include "steering/pursue.h"

#include <gtest/gtest.h>

#include <cmath>

#include "steering/locomotion.h"

namespace steer {
namespace {

Body pursuerAt(Vec2 p, float maxSpeed = 3.0f) {
  Body b;
  b.position = p;
  b.limits.maxSpeed = maxSpeed;
  return b;
}

Kinematic movingAt(Vec2 p, Vec2 v) { return {p, v, normalizedOr(v, Vec2{1, 0}), 0.5f}; }

void expectSeeksPoint(const SteeringOutput& out, const Body& b, Vec2 point) {
  const SteeringOutput expected = seek(b, point);
  EXPECT_NEAR(out.linear.x, expected.linear.x, 1e-5f);
  EXPECT_NEAR(out.linear.y, expected.linear.y, 1e-5f);
}

TEST(Lookahead, IsDistanceOverClosingSpeed) {
  // Distance 10, maxSpeed 3, target speed 2: T = 10 / 5 = 2.
  const Body b = pursuerAt({});
  const Kinematic target = movingAt({10, 0}, {0, 2});
  EXPECT_FLOAT_EQ(lookaheadTime(b, target), 2.0f);
  const Vec2 p = predictedPosition(b, target);
  EXPECT_FLOAT_EQ(p.x, 10.0f);
  EXPECT_FLOAT_EQ(p.y, 4.0f);
}

TEST(Lookahead, IsCappedByMaxPrediction) {
  const Body b = pursuerAt({});
  const Kinematic target = movingAt({10, 0}, {0, 2});
  EXPECT_FLOAT_EQ(lookaheadTime(b, target, 1.5f), 1.5f);
  EXPECT_FLOAT_EQ(predictedPosition(b, target, 1.5f).y, 3.0f);
  EXPECT_FLOAT_EQ(lookaheadTime(b, target, 0.0f), 2.0f);  // <= 0: no cap
}

TEST(Lookahead, ZeroClosingSpeedOrCoincidentGivesZeroNotInf) {
  const Body still = pursuerAt({}, 0.0f);
  EXPECT_EQ(lookaheadTime(still, movingAt({5, 5}, {})), 0.0f);
  EXPECT_EQ(lookaheadTime(pursuerAt({1, 1}), movingAt({1, 1}, {1, 0})), 0.0f);
}

TEST(Pursue, SeeksThePredictedPosition) {
  const Body b = pursuerAt({});
  const SteeringOutput out = pursue(b, movingAt({10, 0}, {0, 2}));
  expectSeeksPoint(out, b, {10, 4});
}

TEST(Pursue, MaxPredictionParamCapsTheLookahead) {
  const Body b = pursuerAt({});
  const SteeringOutput out = pursue(b, movingAt({10, 0}, {0, 2}), {.maxPrediction = 0.5f});
  expectSeeksPoint(out, b, {10, 1});
}

// Slip in seed 000 (`facing > -10 && facing < -10` never holds): the intended special case fires
// when the evader is ahead and coming straight at us: seek where it is, not where it will be.
TEST(Pursue, HeadOnEvaderIsSeekedDirectly) {
  const Body b = pursuerAt({});  // heading +x
  const Kinematic evader = movingAt({10, 1}, {-2, 0});
  EXPECT_TRUE(isHeadOn(b, evader, PursueParams{}.headOnCosine));
  expectSeeksPoint(pursue(b, evader), b, {10, 1});
}

TEST(Pursue, HeadOnToleranceIsAboutTwentyDegrees) {
  const Body b = pursuerAt({});
  const float cosine = PursueParams{}.headOnCosine;
  const auto evaderOff = [](float degrees) {
    const Vec2 h = fromAngle(kPi + degrees * kPi / 180.0f);
    return Kinematic{{10, 1}, h * 2.0f, h, 0.5f};
  };
  EXPECT_TRUE(isHeadOn(b, evaderOff(10.0f), cosine));
  EXPECT_TRUE(isHeadOn(b, evaderOff(-19.0f), cosine));
  EXPECT_FALSE(isHeadOn(b, evaderOff(21.0f), cosine));
  EXPECT_FALSE(isHeadOn(b, evaderOff(45.0f), cosine));
  // Off the head-on cone the pursuer leads the target instead.
  const Kinematic crossing = evaderOff(45.0f);
  expectSeeksPoint(pursue(b, crossing), b, predictedPosition(b, crossing));
}

TEST(Pursue, EvaderBehindFacingUsIsNotHeadOn) {
  const Body b = pursuerAt({});  // heading +x
  const Kinematic evader = movingAt({-10, 1}, {-2, 0});
  EXPECT_FALSE(isHeadOn(b, evader, PursueParams{}.headOnCosine));
  expectSeeksPoint(pursue(b, evader), b, predictedPosition(b, evader));
}

TEST(Pursue, CatchesACrossingTarget) {
  Body b = pursuerAt({});
  b.limits.maxForce = 10.0f;
  Kinematic evader = movingAt({10, 0}, {0, 1.5f});
  float closest = 1e9f;
  for (int i = 0; i < 400; ++i) {
    b = integrateDynamic(b, pursue(b, evader).linear, 0.05f);
    evader.position += evader.velocity * 0.05f;
    closest = std::fmin(closest, distance(b.position, evader.position));
  }
  EXPECT_LT(closest, 0.5f);
}

TEST(Pursue, DegenerateInputsGiveFiniteOutput) {
  // Coincident, zero velocity, zero heading, zero max speed.
  const Body b = pursuerAt({2, 2});
  EXPECT_TRUE(isFinite(pursue(b, movingAt({2, 2}, {})).linear));
  EXPECT_TRUE(isFinite(pursue(b, Kinematic{{5, 5}, {}, {}, 0.5f}).linear));
  EXPECT_EQ(pursue(pursuerAt({}, 0.0f), movingAt({5, 0}, {})).linear, Vec2{});
}

TEST(Evade, FleesThePredictedPosition) {
  const Body b = pursuerAt({});
  const SteeringOutput out = evade(b, movingAt({10, 0}, {0, 2}));
  const SteeringOutput expected = flee(b, {10, 4});
  EXPECT_NEAR(out.linear.x, expected.linear.x, 1e-5f);
  EXPECT_NEAR(out.linear.y, expected.linear.y, 1e-5f);
  EXPECT_LT(out.linear.x, 0.0f);
}

TEST(Evade, NoOutputBeyondThreatRange) {
  const Body b = pursuerAt({});
  EXPECT_EQ(evade(b, movingAt({10, 0}, {-1, 0}), {.threatRange = 9.0f}), SteeringOutput{});
  EXPECT_NE(evade(b, movingAt({8, 0}, {-1, 0}), {.threatRange = 9.0f}), SteeringOutput{});
}

TEST(Evade, MaxPredictionParamCapsTheLookahead) {
  const Body b = pursuerAt({});
  const SteeringOutput out = evade(b, movingAt({10, 0}, {0, 2}), {.maxPrediction = 0.5f});
  const SteeringOutput expected = flee(b, {10, 1});
  EXPECT_NEAR(out.linear.x, expected.linear.x, 1e-5f);
  EXPECT_NEAR(out.linear.y, expected.linear.y, 1e-5f);
}

TEST(Evade, CoincidentPursuerFleesAlongHeadingNotNaN) {
  Body b = pursuerAt({3, 3});
  b.heading = {0, -1};
  const SteeringOutput out = evade(b, movingAt({3, 3}, {}));
  EXPECT_NEAR(out.linear.x, 0.0f, 1e-6f);
  EXPECT_NEAR(out.linear.y, -3.0f, 1e-6f);
}

// Zero maxSpeed: the closing speed is the target's own, T = d / |target.v| (finite), and seek with
// maxSpeed 0 only brakes. Distance 10, target speed 2: T = 5.
TEST(Pursue, ZeroMaxSpeedWithAMovingTargetUsesItsSpeedAndOnlyBrakes) {
  Body b = pursuerAt({}, 0.0f);
  b.velocity = {1, 0};
  const Kinematic target = movingAt({10, 0}, {0, 2});
  EXPECT_FLOAT_EQ(lookaheadTime(b, target), 5.0f);
  const SteeringOutput out = pursue(b, target);
  EXPECT_TRUE(std::isfinite(out.linear.x) && std::isfinite(out.linear.y) && std::isfinite(out.angular));
  EXPECT_EQ(out.linear, (Vec2{-1, 0}));
}

TEST(Pursue, CoincidentMovingTargetSeeksWhereItWillBe) {
  // Coincident: T = 0, so the prediction is the target itself and seek brakes (no NaN direction).
  Body b = pursuerAt({2, 2});
  b.velocity = {0, 1};
  const SteeringOutput out = pursue(b, movingAt({2, 2}, {1, 0}));
  EXPECT_TRUE(std::isfinite(out.linear.x) && std::isfinite(out.linear.y));
  EXPECT_EQ(out.linear, (Vec2{0, -1}));
}

TEST(Evade, DegenerateInputsGiveFiniteOutput) {
  // Zero max speed, pursuer still: T = 0, flee with maxSpeed 0 gives zero.
  EXPECT_EQ(evade(pursuerAt({}, 0.0f), movingAt({5, 0}, {})), SteeringOutput{});
  // Zero max speed, pursuer moving: finite, only brakes.
  Body moving = pursuerAt({}, 0.0f);
  moving.velocity = {0, 1};
  const SteeringOutput brake = evade(moving, movingAt({5, 0}, {-1, 0}));
  EXPECT_TRUE(std::isfinite(brake.linear.x) && std::isfinite(brake.linear.y));
  EXPECT_EQ(brake.linear, (Vec2{0, -1}));
  // Coincident, zero heading, zero velocity: nowhere to go, zero and finite.
  Body lost = pursuerAt({3, 3});
  lost.heading = {};
  const SteeringOutput none = evade(lost, movingAt({3, 3}, {}));
  EXPECT_TRUE(std::isfinite(none.linear.x) && std::isfinite(none.linear.y));
  EXPECT_EQ(none.linear, Vec2{});
  // Coincident inside a threat range: still flees (along the heading).
  const SteeringOutput ranged = evade(pursuerAt({3, 3}), movingAt({3, 3}, {}), {.threatRange = 1.0f});
  EXPECT_NEAR(ranged.linear.x, 3.0f, 1e-6f);
  // Pursuer behind us, moving away: still flees from its predicted position (ahead of us: +x).
  // Body at 0, pursuer at (-10, 0) moving (-2, 0): T = 10 / 5 = 2, predicted (-14, 0): flee +x.
  const SteeringOutput behind = evade(pursuerAt({}), movingAt({-10, 0}, {-2, 0}));
  EXPECT_NEAR(behind.linear.x, 3.0f, 1e-6f);
  EXPECT_NEAR(behind.linear.y, 0.0f, 1e-6f);
}

}  // namespace
}  // namespace steer
