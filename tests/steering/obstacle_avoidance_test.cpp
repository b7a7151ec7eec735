#include "steering/obstacle_avoidance.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>

namespace steer {
namespace {

// The pinned case. Body at the origin heading +x, |v| = 1, maxSpeed 2, radius 0.5;
// minDetectionLength 4, so L = 4 + (1/2) * 4 = 6.
Body pinnedBody() {
  Body b;
  b.velocity = {1.0f, 0.0f};
  b.limits.maxSpeed = 2.0f;
  b.limits.radius = 0.5f;
  return b;
}
constexpr ObstacleAvoidanceParams kPinned{4.0f, 0.2f};

void expectFinite(SteeringOutput s) {
  EXPECT_TRUE(isFinite(s.linear)) << s.linear.x << ", " << s.linear.y;
  EXPECT_TRUE(isFinite(s.angular));
}

TEST(DetectionBoxLength, GrowsFromMinAtRestToTwiceMinAtMaxSpeed) {
  Body b = pinnedBody();
  EXPECT_FLOAT_EQ(detectionBoxLength(b, 4.0f), 6.0f);
  b.velocity = {};
  EXPECT_FLOAT_EQ(detectionBoxLength(b, 4.0f), 4.0f);
  b.velocity = {0.0f, -2.0f};
  EXPECT_FLOAT_EQ(detectionBoxLength(b, 4.0f), 8.0f);
}

TEST(DetectionBoxLength, ZeroMaxSpeedOrOverspeedStaysFinite) {
  Body b = pinnedBody();
  b.limits.maxSpeed = 0.0f;
  EXPECT_FLOAT_EQ(detectionBoxLength(b, 4.0f), 4.0f);
  b.limits.maxSpeed = 2.0f;
  b.velocity = {100.0f, 0.0f};  // before locomotion truncates: capped at 2 * minLen
  EXPECT_FLOAT_EQ(detectionBoxLength(b, 4.0f), 8.0f);
  EXPECT_FLOAT_EQ(detectionBoxLength(b, 0.0f), 0.0f);
  EXPECT_FLOAT_EQ(detectionBoxLength(b, -1.0f), 0.0f);
}

// Obstacle r = 1 at local (3, 0.5): expanded radius R = 1 + 0.5 = 1.5.
//   multiplier = 1 + (L - x) / L = 1 + (6 - 3) / 6 = 1.5
//   lateral    = -(R - |y|) * multiplier = -(1.5 - 0.5) * 1.5 = -1.5   (obstacle on the left: push right)
//   braking    = (o.r - x) * 0.2 = (1 - 3) * 0.2 = -0.4
// Seed 000 / Buckland's (o.r - y) * multiplier would give +0.75 here: towards the obstacle.
TEST(ObstacleAvoidance, PinnedCaseLateralAwayAndBucklandBraking) {
  const std::array<CircleObstacle, 1> obstacles{{{{3.0f, 0.5f}, 1.0f}}};
  const SteeringOutput s = obstacleAvoidance(pinnedBody(), obstacles, kPinned);
  EXPECT_NEAR(s.linear.x, -0.4f, 1e-5f);
  EXPECT_NEAR(s.linear.y, -1.5f, 1e-5f);
  EXPECT_EQ(s.angular, 0.0f);
}

TEST(ObstacleAvoidance, PinnedCaseRotatesBackToWorldSpace) {
  // Same local geometry with the body at (10, 10) heading north: local (3, 0.5) is world (9.5, 13).
  Body b = pinnedBody();
  b.position = {10.0f, 10.0f};
  b.heading = {0.0f, 1.0f};
  b.velocity = {0.0f, 1.0f};
  const std::array<CircleObstacle, 1> obstacles{{{{9.5f, 13.0f}, 1.0f}}};
  const SteeringOutput s = obstacleAvoidance(b, obstacles, kPinned);
  // local (braking -0.4, lateral -1.5) -> world: right of north is east, braking is south.
  EXPECT_NEAR(s.linear.x, 1.5f, 1e-5f);
  EXPECT_NEAR(s.linear.y, -0.4f, 1e-5f);
}

TEST(ObstacleAvoidance, MultiplierIsTwoAtTheBodyAndOneAtTheFarEndOfTheBox) {
  // Head-on (y = 0, lateral = R * multiplier, R = 1.5): x = 0 -> multiplier 2; x = L = 6 -> 1.
  const std::array<CircleObstacle, 1> atBody{{{{0.0f, 0.0f}, 1.0f}}};
  EXPECT_NEAR(obstacleAvoidance(pinnedBody(), atBody, kPinned).linear.y, 1.5f * 2.0f, 1e-5f);
  const std::array<CircleObstacle, 1> atEnd{{{{6.0f, 0.0f}, 1.0f}}};
  EXPECT_NEAR(obstacleAvoidance(pinnedBody(), atEnd, kPinned).linear.y, 1.5f * 1.0f, 1e-5f);
}

TEST(ObstacleAvoidance, ObstacleOnTheRightPushesLeftAndDeadAheadGoesLeft) {
  const std::array<CircleObstacle, 1> right{{{{3.0f, -0.5f}, 1.0f}}};
  EXPECT_NEAR(obstacleAvoidance(pinnedBody(), right, kPinned).linear.y, 1.5f, 1e-5f);
  const std::array<CircleObstacle, 1> ahead{{{{3.0f, 0.0f}, 1.0f}}};
  EXPECT_NEAR(obstacleAvoidance(pinnedBody(), ahead, kPinned).linear.y, 1.5f * 1.5f, 1e-5f);
}

TEST(ObstacleAvoidance, BrakingWeightIsAParameter) {
  // Seed 000's 2.0: braking = (1 - 3) * 2 = -4, ten times Buckland's.
  const std::array<CircleObstacle, 1> obstacles{{{{3.0f, 0.5f}, 1.0f}}};
  const SteeringOutput s = obstacleAvoidance(pinnedBody(), obstacles, {4.0f, 2.0f});
  EXPECT_NEAR(s.linear.x, -4.0f, 1e-5f);
  EXPECT_NEAR(s.linear.y, -1.5f, 1e-5f);
}

TEST(ObstacleAvoidance, PicksTheClosestIntersectionNotTheClosestCentre) {
  // A: r = 0.2 at (2.5, 0): hit at 2.5 - 0.7 = 1.8. B: r = 1.5 at (3, 0): hit at 3 - 2 = 1.0.
  // B's centre is further but its edge is nearer: B wins. lateral = 2 * (1 + 3/6) = 3.
  const std::array<CircleObstacle, 2> obstacles{{{{2.5f, 0.0f}, 0.2f}, {{3.0f, 0.0f}, 1.5f}}};
  const SteeringOutput s = obstacleAvoidance(pinnedBody(), obstacles, kPinned);
  EXPECT_NEAR(s.linear.y, 3.0f, 1e-5f);
  EXPECT_NEAR(s.linear.x, (1.5f - 3.0f) * 0.2f, 1e-5f);
}

TEST(ObstacleAvoidance, IgnoresObstaclesBehindBesideOrBeyondTheBox) {
  const std::array<CircleObstacle, 4> obstacles{{
      {{-2.0f, 0.0f}, 1.0f},  // behind
      {{3.0f, 1.6f}, 1.0f},   // |y| = 1.6 > R = 1.5: the box misses it
      {{7.5f, 0.0f}, 1.0f},   // nearest point 6.5 > L = 6
      {{3.0f, -1.5f}, 1.0f},  // exactly grazing: |y| == R
  }};
  EXPECT_EQ(obstacleAvoidance(pinnedBody(), obstacles, kPinned), SteeringOutput{});
  EXPECT_EQ(obstacleAvoidance(pinnedBody(), {}, kPinned), SteeringOutput{});
}

TEST(ObstacleAvoidance, DegenerateInputsGiveFiniteOutput) {
  Body b = pinnedBody();
  const std::array<CircleObstacle, 2> onBody{{{{0.0f, 0.0f}, 1.0f}, {{0.0f, 0.0f}, 0.0f}}};
  // Obstacles exactly on the body (x = 0, y = 0), multiplier 2. The body is inside both expanded
  // circles, so the hits are the far roots: 1.5 for r = 1, 0.5 for the point obstacle, which wins:
  // lateral = R * 2 = 0.5 * 2 = 1, to the left.
  SteeringOutput s = obstacleAvoidance(b, onBody, kPinned);
  expectFinite(s);
  EXPECT_NEAR(s.linear.y, 1.0f, 1e-5f);
  EXPECT_NEAR(s.linear.x, 0.0f * 0.2f, 1e-5f);  // braking (o.r - x) * 0.2 with o.r = 0, x = 0

  b.velocity = {};
  b.limits.maxSpeed = 0.0f;
  expectFinite(obstacleAvoidance(b, onBody, kPinned));
  b.heading = {};  // not unit: treated as +x rather than collapsing every obstacle onto the origin
  expectFinite(obstacleAvoidance(b, onBody, kPinned));
  b.limits.radius = 0.0f;
  expectFinite(obstacleAvoidance(b, onBody, kPinned));
  // Zero-radius obstacle with a zero-radius body dead ahead: R = 0, |y| < 0 never holds.
  const std::array<CircleObstacle, 1> point{{{{1.0f, 0.0f}, 0.0f}}};
  EXPECT_EQ(obstacleAvoidance(b, point, kPinned), SteeringOutput{});
  // No box: nothing is detected, and no division by L = 0.
  EXPECT_EQ(obstacleAvoidance(pinnedBody(), onBody, {0.0f, 0.2f}), SteeringOutput{});
  const std::array<CircleObstacle, 1> negative{{{{2.0f, 0.0f}, -3.0f}}};
  expectFinite(obstacleAvoidance(pinnedBody(), negative, kPinned));
}

// Zero maxSpeed while still moving (before locomotion truncates): the box does not grow, L = minLen
// = 4. Obstacle r 1 at local (3, 0.5): multiplier 1 + (4 - 3) / 4 = 1.25, lateral -(1.5 - 0.5) *
// 1.25 = -1.25, braking (1 - 3) * 0.2 = -0.4.
TEST(ObstacleAvoidance, ZeroMaxSpeedKeepsTheMinimumBoxAndTheFormula) {
  Body b = pinnedBody();
  b.limits.maxSpeed = 0.0f;
  const std::array<CircleObstacle, 1> obstacles{{{{3.0f, 0.5f}, 1.0f}}};
  const SteeringOutput s = obstacleAvoidance(b, obstacles, kPinned);
  EXPECT_TRUE(std::isfinite(s.linear.x) && std::isfinite(s.linear.y) && std::isfinite(s.angular));
  EXPECT_NEAR(s.linear.x, -0.4f, 1e-5f);
  EXPECT_NEAR(s.linear.y, -1.25f, 1e-5f);
  // At rest with zero max speed: same box, same answer (the box never depends on 0 / 0).
  b.velocity = {};
  EXPECT_EQ(obstacleAvoidance(b, obstacles, kPinned), s);
}

}  // namespace
}  // namespace steer
