#include "steering/offset_pursuit.h"

#include <gtest/gtest.h>

#include <cmath>

#include "steering/locomotion.h"

namespace steer {
namespace {

Body followerAt(Vec2 p, float maxSpeed = 3.0f) {
  Body b;
  b.position = p;
  b.limits.maxSpeed = maxSpeed;
  b.limits.maxForce = 20.0f;
  return b;
}

TEST(OffsetPursuit, OffsetIsInTheLeadersLocalSpace) {
  // Leader at (5,5) facing +y: local (-2, 1) (behind and to the left) is world (5-1, 5-2).
  const Kinematic leader{{5, 5}, {}, {0, 1}, 0.5f};
  const Vec2 w = offsetWorldPoint(leader, {-2, 1});
  EXPECT_NEAR(w.x, 4.0f, 1e-6f);
  EXPECT_NEAR(w.y, 3.0f, 1e-6f);
}

TEST(OffsetPursuit, TargetLeadsTheSlotByTheLookahead) {
  // Leader at origin facing +x, moving (2, 0); offset (-1, 0) -> W = (-1, 0).
  // Follower at (-1, -10): |W - p| = 10, T = 10 / (3 + 2) = 2 -> target W + (4, 0) = (3, 0).
  const Kinematic leader{{0, 0}, {2, 0}, {1, 0}, 0.5f};
  const Body b = followerAt({-1, -10});
  const Vec2 t = offsetPursuitTarget(b, leader, {-1, 0});
  EXPECT_NEAR(t.x, 3.0f, 1e-5f);
  EXPECT_NEAR(t.y, 0.0f, 1e-5f);
}

TEST(OffsetPursuit, ArrivesAtTheTargetWithTheDecelerationParam) {
  const Kinematic leader{{0, 0}, {2, 0}, {1, 0}, 0.5f};
  const Body b = followerAt({-1, -10});
  const SteeringOutput fast = offsetPursuit(b, leader, {-1, 0});
  const SteeringOutput expectedFast = arrive(b, {3, 0}, {.deceleration = kDecelerationFast});
  EXPECT_NEAR(fast.linear.x, expectedFast.linear.x, 1e-5f);
  EXPECT_NEAR(fast.linear.y, expectedFast.linear.y, 1e-5f);
  const SteeringOutput slow = offsetPursuit(b, leader, {-1, 0}, {.deceleration = 10.0f});
  EXPECT_NEAR(length(slow.linear), length(Vec2{3, 0} - b.position) / 10.0f, 1e-5f);
}

// Arrive needs a distance to produce a speed, so a follower of a moving leader settles a fixed lag
// e behind its slot: |target - p| = e * (1 + |v| / (maxSpeed + |v|)) must equal |v| * deceleration.
// Leader speed 1, maxSpeed 3, fast (1): e = 1 / 1.25 = 0.8.
TEST(OffsetPursuit, FollowerSettlesAtAFixedLagBehindItsSlot) {
  Kinematic leader{{0, 0}, {1, 0}, {1, 0}, 0.5f};
  Body b = followerAt({-6, 4});
  for (int i = 0; i < 600; ++i) {
    b = integrateDynamic(b, offsetPursuit(b, leader, {-2, 1}).linear, 0.05f);
    leader.position += leader.velocity * 0.05f;
  }
  const Vec2 slot = offsetWorldPoint(leader, {-2, 1});
  EXPECT_NEAR(distance(b.position, slot), 0.8f, 0.02f);
  EXPECT_NEAR(b.position.y, slot.y, 0.02f);
  EXPECT_NEAR(b.velocity.x, 1.0f, 0.02f);
}

TEST(OffsetPursuit, DegenerateInputsGiveFiniteOutput) {
  // Leader with zero heading and velocity; follower on the slot; zero max speed.
  const Kinematic still{{1, 1}, {}, {}, 0.5f};
  EXPECT_EQ(offsetWorldPoint(still, {1, 0}), (Vec2{2, 1}));
  EXPECT_EQ(offsetPursuit(followerAt({2, 1}), still, {1, 0}).linear, Vec2{});
  EXPECT_TRUE(isFinite(offsetPursuit(followerAt({}, 0.0f), still, {1, 0}).linear));
  EXPECT_TRUE(isFinite(offsetPursuitTarget(followerAt({}, 0.0f), still, {1, 0})));
}

// Zero max speed: T = |W - p| / |leader.v| (the closing speed is the leader's alone), finite; arrive
// with maxSpeed 0 then only brakes. Leader at the origin moving (2, 0), offset (-1, 0): W = (-1, 0);
// follower at (-1, -10): T = 10 / 2 = 5, target (9, 0).
TEST(OffsetPursuit, ZeroMaxSpeedWithAMovingLeaderIsFiniteAndOnlyBrakes) {
  const Kinematic leader{{0, 0}, {2, 0}, {1, 0}, 0.5f};
  Body b = followerAt({-1, -10}, 0.0f);
  const Vec2 t = offsetPursuitTarget(b, leader, {-1, 0});
  EXPECT_NEAR(t.x, 9.0f, 1e-5f);
  EXPECT_NEAR(t.y, 0.0f, 1e-5f);
  EXPECT_EQ(offsetPursuit(b, leader, {-1, 0}).linear, Vec2{});
  b.velocity = {0, 1};
  const SteeringOutput out = offsetPursuit(b, leader, {-1, 0});
  EXPECT_TRUE(std::isfinite(out.linear.x) && std::isfinite(out.linear.y) && std::isfinite(out.angular));
  EXPECT_EQ(out.linear, (Vec2{0, -1}));
}

TEST(OffsetPursuit, FollowerOnItsSlotAtRestWithAMovingLeaderGetsNoNaN) {
  // Coincident with the slot: T = 0, so the target is the slot itself and arrive's d = 0 case runs.
  const Kinematic leader{{0, 0}, {2, 0}, {1, 0}, 0.5f};
  const SteeringOutput out = offsetPursuit(followerAt({-1, 0}), leader, {-1, 0});
  EXPECT_TRUE(std::isfinite(out.linear.x) && std::isfinite(out.linear.y) && std::isfinite(out.angular));
  EXPECT_EQ(out, SteeringOutput{});
  // Zero offset on a leader with no heading: the slot is the leader itself.
  const Kinematic still{{3, 3}, {}, {}, 0.5f};
  EXPECT_EQ(offsetPursuit(followerAt({3, 3}, 0.0f), still, {}), SteeringOutput{});
}

}  // namespace
}  // namespace steer
