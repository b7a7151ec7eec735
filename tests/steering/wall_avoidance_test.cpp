#include "steering/wall_avoidance.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <optional>
#include <span>

#include "steering/random.h"

namespace steer {
namespace {

void expectFinite(SteeringOutput s) {
  EXPECT_TRUE(isFinite(s.linear)) << s.linear.x << ", " << s.linear.y;
  EXPECT_TRUE(isFinite(s.angular));
}

TEST(SegmentIntersection, CrossingSegmentsMeetAtTheRightPoint) {
  // x axis 0..4 against the vertical x = 1, y in -1..3: t = 1/4, u = 1/4.
  const auto hit = segmentIntersection({0, 0}, {4, 0}, {1, -1}, {1, 3});
  ASSERT_TRUE(hit.has_value());
  EXPECT_FLOAT_EQ(hit->t, 0.25f);
  EXPECT_FLOAT_EQ(hit->u, 0.25f);
  EXPECT_FLOAT_EQ(hit->point.x, 1.0f);
  EXPECT_FLOAT_EQ(hit->point.y, 0.0f);
}

TEST(SegmentIntersection, TouchingEndpointsCount) {
  const auto tip = segmentIntersection({0, 0}, {1, 0}, {1, -1}, {1, 1});  // feeler tip on the wall
  ASSERT_TRUE(tip.has_value());
  EXPECT_FLOAT_EQ(tip->t, 1.0f);
  EXPECT_FLOAT_EQ(tip->u, 0.5f);
  const auto corner = segmentIntersection({0, 0}, {2, 0}, {2, 0}, {2, 5});  // end meets end
  ASSERT_TRUE(corner.has_value());
  EXPECT_FLOAT_EQ(corner->t, 1.0f);
  EXPECT_FLOAT_EQ(corner->u, 0.0f);
}

TEST(SegmentIntersection, MissesWhenTheCrossingIsOutsideEitherSegment) {
  EXPECT_FALSE(segmentIntersection({0, 0}, {1, 0}, {2, -1}, {2, 1}).has_value());  // beyond the tip
  EXPECT_FALSE(segmentIntersection({0, 0}, {4, 0}, {1, 1}, {1, 3}).has_value());   // beside the wall end
}

TEST(SegmentIntersection, ParallelAndCollinearSegmentsHaveNoHit) {
  EXPECT_FALSE(segmentIntersection({0, 0}, {4, 0}, {0, 1}, {4, 1}).has_value());
  EXPECT_FALSE(segmentIntersection({0, 0}, {4, 0}, {1, 0}, {3, 0}).has_value());  // overlapping
  EXPECT_FALSE(segmentIntersection({0, 0}, {4, 0}, {4, 0}, {8, 0}).has_value());  // end to end
}

TEST(SegmentIntersection, ZeroLengthSegmentsHaveNoHit) {
  EXPECT_FALSE(segmentIntersection({0, 0}, {4, 0}, {1, 0}, {1, 0}).has_value());  // point on the line
  EXPECT_FALSE(segmentIntersection({1, 0}, {1, 0}, {1, -1}, {1, 1}).has_value());
  EXPECT_FALSE(segmentIntersection({1, 1}, {1, 1}, {1, 1}, {1, 1}).has_value());
}

TEST(SegmentIntersection, ShortButNotParallelWallStillHits) {
  // The parallel test is relative to the lengths: a 1 mm wall across a 10 m feeler is a real hit.
  const auto hit = segmentIntersection({0, 0}, {10, 0}, {5, -0.0005f}, {5, 0.0005f});
  ASSERT_TRUE(hit.has_value());
  EXPECT_NEAR(hit->point.x, 5.0f, 1e-5f);
}

TEST(WallFeelers, AheadAtFullLengthSidesAtHalfLengthAndFortyFiveDegrees) {
  Body b;
  b.position = {1, 1};
  const auto f = wallFeelers(b, {4.0f, 0.5f, kPi / 4.0f});
  EXPECT_NEAR(f[0].x, 5.0f, 1e-5f);
  EXPECT_NEAR(f[0].y, 1.0f, 1e-5f);
  const float s = 2.0f * std::sqrt(0.5f);  // 2 * cos 45
  EXPECT_NEAR(f[1].x, 1.0f + s, 1e-5f);    // left
  EXPECT_NEAR(f[1].y, 1.0f + s, 1e-5f);
  EXPECT_NEAR(f[2].x, 1.0f + s, 1e-5f);  // right
  EXPECT_NEAR(f[2].y, 1.0f - s, 1e-5f);
}

// Body at the origin heading +x, feeler length 4 (sides 2 at +-45 degrees). Wall x = 3 facing -x.
// Ahead feeler tip (4, 0) crosses at (3, 0): penetration 1 -> F = (-1, 0) * 1. The side feelers
// reach x = 2 cos 45 = 1.414 < 3: no hit.
TEST(WallAvoidance, PushesAlongTheNormalByThePenetrationDepth) {
  const std::array<Wall, 1> walls{makeWall({3, -5}, {3, 5})};
  ASSERT_NEAR(walls[0].normal.x, -1.0f, 1e-6f);
  const SteeringOutput s = wallAvoidance(Body{}, walls, {4.0f, 0.5f, kPi / 4.0f});
  EXPECT_NEAR(s.linear.x, -1.0f, 1e-5f);
  EXPECT_NEAR(s.linear.y, 0.0f, 1e-5f);
}

TEST(WallAvoidance, ClosestWallPerFeelerAndFeelersAddUp) {
  // Wall x = 1 (facing -x) and, behind it, x = 2: the ahead feeler takes x = 1, penetration 3.
  // The left feeler (tip (1.414, 1.414)) crosses x = 1 at t = 1/1.414, penetration 2 - 1.414 = 0.586.
  // Same for the right one. Total (-(3 + 2 * 0.586), 0).
  const std::array<Wall, 2> walls{makeWall({2, -5}, {2, 5}), makeWall({1, -5}, {1, 5})};
  const SteeringOutput s = wallAvoidance(Body{}, walls, {4.0f, 0.5f, kPi / 4.0f});
  const float side = 2.0f - std::sqrt(2.0f);
  EXPECT_NEAR(s.linear.x, -(3.0f + 2.0f * side), 1e-4f);
  EXPECT_NEAR(s.linear.y, 0.0f, 1e-5f);
}

TEST(WallAvoidance, WallSeenFromBehindIsIgnored) {
  // The same wall drawn the other way faces +x, away from the body: one-sided, so no hit. A fence
  // is two walls back to back; only the front one pushes.
  const std::array<Wall, 1> back{makeWall({3, 5}, {3, -5})};
  EXPECT_EQ(wallAvoidance(Body{}, back, {4.0f, 0.5f, kPi / 4.0f}), SteeringOutput{});
  const std::array<Wall, 2> fence{makeWall({3, 5}, {3, -5}), makeWall({3, -5}, {3, 5})};
  const SteeringOutput s = wallAvoidance(Body{}, fence, {4.0f, 0.5f, kPi / 4.0f});
  EXPECT_NEAR(s.linear.x, -1.0f, 1e-5f);
}

TEST(WallAvoidance, DegenerateInputsGiveFiniteOutput) {
  const std::array<Wall, 3> walls{makeWall({1, 1}, {1, 1}), makeWall({3, -5}, {3, 5}),
                                  makeWall({0, 0}, {0, 0})};
  Body b;
  expectFinite(wallAvoidance(b, walls));
  b.heading = {};  // treated as +x
  expectFinite(wallAvoidance(b, walls));
  EXPECT_EQ(wallAvoidance(b, {}), SteeringOutput{});
  EXPECT_EQ(wallAvoidance(b, walls, {0.0f, 0.5f, kPi / 4.0f}), SteeringOutput{});
  // Body standing exactly on a wall: the ahead feeler starts on it, penetration = full length.
  b.heading = {1, 0};
  b.position = {3, 0};
  const SteeringOutput onWall = wallAvoidance(b, walls, {4.0f, 0.5f, kPi / 4.0f});
  expectFinite(onWall);
  EXPECT_NEAR(onWall.linear.x, -(4.0f + 2.0f + 2.0f), 1e-4f);
}

TEST(WallAvoidance, ZeroMaxSpeedAndZeroVelocityUseTheSameFeelers) {
  // Feelers have a fixed length: a body at rest that cannot move still feels the wall ahead, with
  // the same penetration as in the pinned case, (-1, 0).
  const std::array<Wall, 1> walls{makeWall({3, -5}, {3, 5})};
  Body b;
  b.limits.maxSpeed = 0.0f;
  const SteeringOutput s = wallAvoidance(b, walls, {4.0f, 0.5f, kPi / 4.0f});
  EXPECT_TRUE(std::isfinite(s.linear.x) && std::isfinite(s.linear.y) && std::isfinite(s.angular));
  EXPECT_NEAR(s.linear.x, -1.0f, 1e-5f);
  EXPECT_NEAR(s.linear.y, 0.0f, 1e-5f);
  // Feeler tip exactly on the wall: penetration 0, finite and zero.
  const SteeringOutput touching = wallAvoidance(b, walls, {3.0f, 0.5f, kPi / 4.0f});
  expectFinite(touching);
  EXPECT_NEAR(length(touching.linear), 0.0f, 1e-6f);
}

// The feelers' closest crossings found the plain way: every feeler against every wall.
// wallAvoidance skips walls behind the body or out of reach first; it must give the same bits.
SteeringOutput everyFeelerAgainstEveryWall(const Body& body, std::span<const Wall> walls,
                                           const WallAvoidanceParams& params) {
  const std::array<Vec2, 3> feelers = wallFeelers(body, params);
  Vec2 force;
  for (const Vec2 tip : feelers) {
    const Wall* closest = nullptr;
    float closestT = 0.0f;
    Vec2 closestPoint;
    for (const Wall& wall : walls) {
      if (dot(tip - body.position, wall.normal) >= 0.0f) continue;
      const std::optional<SegmentHit> hit = segmentIntersection(body.position, tip, wall.from, wall.to);
      if (hit && (closest == nullptr || hit->t < closestT)) {
        closest = &wall, closestT = hit->t, closestPoint = hit->point;
      }
    }
    if (closest != nullptr) force += closest->normal * length(tip - closestPoint);
  }
  return {force, 0.0f};
}

TEST(WallAvoidance, SkippingFarWallsGivesTheSameForceAsTestingThemAll) {
  Rng rng(7);
  int pushed = 0;
  for (int round = 0; round < 2000; ++round) {
    // A box near the body, far from the origin on some rounds (float rounding grows with it).
    const Vec2 centre{rng.uniform() * 1000.0f, rng.uniform() * 1000.0f};
    const Vec2 h{0.5f + rng.uniform() * 4.0f, 0.5f + rng.uniform() * 4.0f};
    const Vec2 c[4] = {centre + Vec2{-h.x, -h.y}, centre + Vec2{h.x, -h.y}, centre + Vec2{h.x, h.y},
                       centre + Vec2{-h.x, h.y}};
    // Clockwise, so the normals face out; one fence segment through the box both ways.
    const std::array<Wall, 6> walls{makeWall(c[1], c[0]), makeWall(c[2], c[1]), makeWall(c[3], c[2]),
                                    makeWall(c[0], c[3]), makeWall(c[0], c[2]), makeWall(c[2], c[0])};
    Body b;
    b.position = centre + Vec2{rng.clamped(), rng.clamped()} * 8.0f;
    b.heading = normalizedOr(Vec2{rng.clamped(), rng.clamped()}, Vec2{1.0f, 0.0f});
    const WallAvoidanceParams params{0.5f + rng.uniform() * 4.0f, 0.5f, kPi / 4.0f};
    const SteeringOutput fast = wallAvoidance(b, walls, params);
    const SteeringOutput plain = everyFeelerAgainstEveryWall(b, walls, params);
    ASSERT_EQ(fast.linear.x, plain.linear.x) << round;
    ASSERT_EQ(fast.linear.y, plain.linear.y) << round;
    pushed += length(plain.linear) > 0.0f ? 1 : 0;
  }
  EXPECT_GT(pushed, 200);  // the rounds do test crossings, not only misses
}

}  // namespace
}  // namespace steer
