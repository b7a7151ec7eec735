#include "steering/hide.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "steering/locomotion.h"

namespace steer {
namespace {

Body bodyAt(Vec2 p, float maxSpeed = 2.0f) {
  Body b;
  b.position = p;
  b.limits.maxSpeed = maxSpeed;
  b.limits.maxForce = 20.0f;
  return b;
}

Kinematic hunterAt(Vec2 p, Vec2 v = {}) { return {p, v, normalizedOr(v, Vec2{1, 0}), 0.5f}; }

TEST(HidingSpot, IsBehindTheObstacleAwayFromTheHunter) {
  // Obstacle centre (10, 0) radius 2, hunter at (0, 0), gap 1: (10, 0) + (1, 0) * 3 = (13, 0).
  const Vec2 s = hidingSpot({{10, 0}, 2.0f}, {0, 0}, 1.0f);
  EXPECT_FLOAT_EQ(s.x, 13.0f);
  EXPECT_FLOAT_EQ(s.y, 0.0f);
  // Hunter at (7, 4): away = (3, -4) / 5; spot = (10, 0) + (0.6, -0.8) * (1.5 + 2) = (12.1, -2.8).
  const Vec2 t = hidingSpot({{10, 0}, 1.5f}, {7, 4}, 2.0f);
  EXPECT_NEAR(t.x, 12.1f, 1e-5f);
  EXPECT_NEAR(t.y, -2.8f, 1e-5f);
}

TEST(HidingSpot, DefaultGapIsOneMetre) { EXPECT_FLOAT_EQ(HideParams{}.distanceFromBoundary, 1.0f); }

TEST(HidingSpot, HunterOnTheCentreGivesAFiniteSpot) {
  const Vec2 s = hidingSpot({{3, 3}, 1.0f}, {3, 3}, 1.0f);
  EXPECT_EQ(s, (Vec2{5, 3}));
}

TEST(Hide, ArrivesAtTheSpotNearestToTheBody) {
  // Hunter at origin. Obstacle A (10, 0) r 1 -> spot (12, 0); obstacle B (0, 10) r 1 -> spot (0, 12).
  const std::array<CircleObstacle, 2> obstacles{{{{10, 0}, 1.0f}, {{0, 10}, 1.0f}}};
  const Body b = bodyAt({1, 11});  // nearer B's spot
  const auto spot = nearestHidingSpot(b.position, {0, 0}, obstacles, 1.0f);
  ASSERT_TRUE(spot.has_value());
  EXPECT_NEAR(spot->x, 0.0f, 1e-5f);
  EXPECT_NEAR(spot->y, 12.0f, 1e-5f);
  const SteeringOutput out = hide(b, hunterAt({0, 0}), obstacles);
  const SteeringOutput expected = arrive(b, {0, 12}, {.deceleration = kDecelerationFast});
  EXPECT_NEAR(out.linear.x, expected.linear.x, 1e-5f);
  EXPECT_NEAR(out.linear.y, expected.linear.y, 1e-5f);
}

TEST(Hide, NoObstaclesEvadesTheHunter) {
  const Body b = bodyAt({});
  const Kinematic hunter = hunterAt({6, 0}, {-1, 0});
  const SteeringOutput out = hide(b, hunter, {});
  EXPECT_EQ(out, evade(b, hunter));
  EXPECT_LT(out.linear.x, 0.0f);
  EXPECT_EQ(hide(b, hunter, {}, {.evade = {.threatRange = 5.0f}}), SteeringOutput{});
}

TEST(Hide, BodyEndsUpOutOfTheHuntersSight) {
  const std::array<CircleObstacle, 1> obstacles{{{{5, 5}, 1.5f}}};
  const Kinematic hunter = hunterAt({0, 0});
  Body b = bodyAt({8, 0});
  EXPECT_FALSE(lineOfSightBlocked(hunter.position, b.position, obstacles));
  for (int i = 0; i < 400; ++i) b = integrateDynamic(b, hide(b, hunter, obstacles).linear, 0.05f);
  EXPECT_TRUE(lineOfSightBlocked(hunter.position, b.position, obstacles));
  const Vec2 spot = hidingSpot(obstacles[0], hunter.position, 1.0f);
  EXPECT_LT(distance(b.position, spot), 0.05f);
}

TEST(Hide, DegenerateInputsGiveFiniteOutput) {
  const std::array<CircleObstacle, 2> obstacles{{{{2, 2}, 0.0f}, {{2, 2}, 1.0f}}};
  // Body, hunter and obstacle centres all at one point; zero max speed.
  EXPECT_TRUE(isFinite(hide(bodyAt({2, 2}), hunterAt({2, 2}), obstacles).linear));
  EXPECT_TRUE(isFinite(hide(bodyAt({2, 2}, 0.0f), hunterAt({2, 2}), {}).linear));
  EXPECT_TRUE(isFinite(hide(bodyAt({0, 0}, 0.0f), hunterAt({5, 5}), obstacles).linear));
}

TEST(LineOfSight, ObstacleAcrossTheSegmentBlocks) {
  const std::array<CircleObstacle, 1> o{{{{5, 0.5f}, 1.0f}}};
  EXPECT_TRUE(lineOfSightBlocked({0, 0}, {10, 0}, o));
  EXPECT_TRUE(lineOfSightBlocked({10, 0}, {0, 0}, o));  // symmetric
}

TEST(LineOfSight, ObstacleBesideOrBeyondTheSegmentDoesNotBlock) {
  const std::array<CircleObstacle, 3> o{{{{5, 2}, 1.0f}, {{12, 0}, 1.0f}, {{-3, 0}, 1.0f}}};
  EXPECT_FALSE(lineOfSightBlocked({0, 0}, {10, 0}, o));
}

TEST(LineOfSight, GrazingTheEdgeDoesNotBlock) {
  const std::array<CircleObstacle, 1> o{{{{5, 1}, 1.0f}}};
  EXPECT_FALSE(lineOfSightBlocked({0, 0}, {10, 0}, o));
}

TEST(LineOfSight, EndPointInsideAnObstacleBlocks) {
  const std::array<CircleObstacle, 1> o{{{{10, 0}, 1.0f}}};
  EXPECT_TRUE(lineOfSightBlocked({0, 0}, {10.5f, 0}, o));
}

TEST(LineOfSight, ZeroLengthSegmentAndNoObstacles) {
  const std::array<CircleObstacle, 1> o{{{{1, 1}, 1.0f}}};
  EXPECT_TRUE(lineOfSightBlocked({1, 1.5f}, {1, 1.5f}, o));
  EXPECT_FALSE(lineOfSightBlocked({5, 5}, {5, 5}, o));
  EXPECT_FALSE(lineOfSightBlocked({0, 0}, {10, 0}, {}));
}

TEST(Hide, OnTheSpotAtRestOrWithZeroMaxSpeedIsZero) {
  // Obstacle (10, 0) r 2, hunter at the origin: the spot is (13, 0). Standing on it at rest: zero.
  const std::array<CircleObstacle, 1> obstacles{{{{10, 0}, 2.0f}}};
  const SteeringOutput on = hide(bodyAt({13, 0}), hunterAt({0, 0}), obstacles);
  EXPECT_TRUE(std::isfinite(on.linear.x) && std::isfinite(on.linear.y) && std::isfinite(on.angular));
  EXPECT_EQ(on, SteeringOutput{});
  // Zero max speed away from the spot, at rest: arrive's desired speed is 0.
  EXPECT_EQ(hide(bodyAt({0, 5}, 0.0f), hunterAt({0, 0}), obstacles), SteeringOutput{});
  // No obstacles, hunter on top of a body with no heading and no velocity: evade has no "away".
  Body lost = bodyAt({4, 4});
  lost.heading = {};
  const SteeringOutput none = hide(lost, hunterAt({4, 4}), {});
  EXPECT_TRUE(std::isfinite(none.linear.x) && std::isfinite(none.linear.y));
  EXPECT_EQ(none.linear, Vec2{});
}

// Behind a wall: the spot is distanceFromBoundary in front of a wall the hunter is behind, as near
// the body as the wall's shadow (inset from the ends) allows.
TEST(HideBehindWall, TheSpotIsInTheWallsShadowNearestTheBody) {
  // Wall along x = 0 from y = -10 to 10, normal +x (from (0, 10) to (0, -10)); hunter at (-10, 0).
  const Wall w = makeWall({0, 10}, {0, -10});
  ASSERT_EQ(w.normal, (Vec2{1, 0}));
  const auto mid = hidingSpotBehindWall(w, {-10, 0}, {5, 2}, 1.0f);
  ASSERT_TRUE(mid.has_value());
  EXPECT_NEAR(mid->x, 1.0f, 1e-5f);
  EXPECT_NEAR(mid->y, 2.0f, 1e-5f);  // level with the body: well inside the shadow
  // A body far up the wall: the spot stops where the hunter's line still crosses the wall 1 m from
  // its end: t = H + (len - inset - H) k, k = (h + d) / h = 1.1, in the wall's frame (t from
  // (0, 10) downwards, H = 10): t = 10 + (19 - 10) * 1.1 = 19.9, y = 10 - 19.9 = -9.9.
  const auto low = hidingSpotBehindWall(w, {-10, 0}, {3, -40}, 1.0f);
  ASSERT_TRUE(low.has_value());
  EXPECT_NEAR(low->y, -9.9f, 1e-4f);
  // The line from the hunter to it crosses x = 0 at y = -9.9 / 1.1 = -9: 1 m from the end.
  EXPECT_NEAR(low->y * 10.0f / 11.0f, -9.0f, 1e-4f);
  // A hunter in front of the wall (its normal side), or level with it: no cover.
  EXPECT_FALSE(hidingSpotBehindWall(w, {10, 0}, {5, 2}, 1.0f).has_value());
  EXPECT_FALSE(hidingSpotBehindWall(w, {0, 30}, {5, 2}, 1.0f).has_value());
  // A wall of no length: none.
  EXPECT_FALSE(hidingSpotBehindWall(makeWall({1, 1}, {1, 1}), {-10, 0}, {5, 2}, 1.0f).has_value());
}

TEST(HideBehindWall, TheNearestSpotOfObstaclesAndWallsIsChosen) {
  const Wall w = makeWall({0, 10}, {0, -10});
  const std::array<CircleObstacle, 1> far{{{{0, 40}, 2.0f}}};
  const std::array<Wall, 1> walls{w};
  const Body b = bodyAt({5, 2});
  const auto spot = nearestHidingSpot(b.position, {-10, 0}, far, walls, 1.0f);
  ASSERT_TRUE(spot.has_value());
  EXPECT_NEAR(spot->x, 1.0f, 1e-5f);
  const SteeringOutput out = hide(b, hunterAt({-10, 0}), far, walls);
  EXPECT_EQ(out, arrive(b, *spot, {.deceleration = kDecelerationFast}));
  // Without the wall, the obstacle's spot.
  EXPECT_EQ(hide(b, hunterAt({-10, 0}), far),
            arrive(b, hidingSpot(far[0], {-10, 0}, 1.0f), {.deceleration = kDecelerationFast}));
}

}  // namespace
}  // namespace steer
