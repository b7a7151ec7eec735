#include "steering/interpose.h"

#include <gtest/gtest.h>

#include <cmath>

#include "steering/locomotion.h"

namespace steer {
namespace {

Body guardAt(Vec2 p, float maxSpeed = 2.0f) {
  Body b;
  b.position = p;
  b.limits.maxSpeed = maxSpeed;
  b.limits.maxForce = 20.0f;
  return b;
}

TEST(Interpose, StationaryBodiesGiveTheMidpoint) {
  const Kinematic a{{0, 0}, {}, {1, 0}, 0.5f};
  const Kinematic b{{10, 4}, {}, {1, 0}, 0.5f};
  const Vec2 t = interposeTarget(guardAt({-3, 9}), a, b);
  EXPECT_FLOAT_EQ(t.x, 5.0f);
  EXPECT_FLOAT_EQ(t.y, 2.0f);
}

// T = |midpoint - p| / maxSpeed. Bodies at (100, 0) and (100, 8): midpoint (100, 4); the guard at
// (100, -6) is 10 away, maxSpeed 2 -> T = 5. a moves (1, 0), b moves (0, 1):
// a' = (105, 0), b' = (100, 13) -> target (102.5, 6.5).
// Seed 000's slip would use |a.p + b.p| / (2 * maxSpeed) = |(200, 8)| / 4 ~ 50 s instead, because
// it measures the midpoint from the world origin, not from the guard.
TEST(Interpose, LookaheadIsDistanceToTheMidpointOverMaxSpeed) {
  const Kinematic a{{100, 0}, {1, 0}, {1, 0}, 0.5f};
  const Kinematic b{{100, 8}, {0, 1}, {0, 1}, 0.5f};
  const Vec2 t = interposeTarget(guardAt({100, -6}), a, b);
  EXPECT_NEAR(t.x, 102.5f, 1e-4f);
  EXPECT_NEAR(t.y, 6.5f, 1e-4f);
}

TEST(Interpose, DoesNotDependOnWhereTheWorldOriginIs) {
  const Vec2 shift{-500, 300};
  const Kinematic a{{1, 0}, {1, 1}, {1, 0}, 0.5f};
  const Kinematic b{{3, 8}, {-1, 0}, {1, 0}, 0.5f};
  const Vec2 t0 = interposeTarget(guardAt({0, -4}), a, b);
  const Kinematic a2{a.position + shift, a.velocity, a.heading, 0.5f};
  const Kinematic b2{b.position + shift, b.velocity, b.heading, 0.5f};
  const Vec2 t1 = interposeTarget(guardAt(Vec2{0, -4} + shift), a2, b2);
  EXPECT_NEAR(t1.x - shift.x, t0.x, 1e-3f);
  EXPECT_NEAR(t1.y - shift.y, t0.y, 1e-3f);
}

TEST(Interpose, ArrivesAtTheTargetWithFastDecelerationByDefault) {
  const Kinematic a{{0, 0}, {}, {1, 0}, 0.5f};
  const Kinematic b{{4, 0}, {}, {1, 0}, 0.5f};
  const Body g = guardAt({2, -1});
  const SteeringOutput out = interpose(g, a, b);
  // Midpoint (2, 0) is 1 away; fast: speed = min(1 / 1, 2) = 1, straight up.
  EXPECT_NEAR(out.linear.x, 0.0f, 1e-6f);
  EXPECT_NEAR(out.linear.y, 1.0f, 1e-6f);
  EXPECT_NEAR(interpose(g, a, b, {.deceleration = kDecelerationNormal}).linear.y, 0.5f, 1e-6f);
}

TEST(Interpose, GuardEndsUpOnTheLineBetweenTwoMovingBodies) {
  Kinematic a{{0, 0}, {0.5f, 0}, {1, 0}, 0.5f};
  Kinematic b{{0, 10}, {0.5f, 0}, {1, 0}, 0.5f};
  Body g = guardAt({-8, 3});
  for (int i = 0; i < 600; ++i) {
    g = integrateDynamic(g, interpose(g, a, b).linear, 0.05f);
    a.position += a.velocity * 0.05f;
    b.position += b.velocity * 0.05f;
  }
  // On the segment between them (x equal), near its middle; lagging a little, as arrive does.
  EXPECT_NEAR(g.position.y, 5.0f, 0.05f);
  EXPECT_NEAR(g.position.x, a.position.x, 0.6f);
}

TEST(AvoidInterpose, FleesThePredictedMidpoint) {
  const Kinematic a{{0, 0}, {}, {1, 0}, 0.5f};
  const Kinematic b{{4, 0}, {}, {1, 0}, 0.5f};
  const SteeringOutput out = avoidInterpose(guardAt({2, -1}), a, b);
  EXPECT_NEAR(out.linear.x, 0.0f, 1e-6f);
  EXPECT_NEAR(out.linear.y, -2.0f, 1e-6f);
  EXPECT_EQ(avoidInterpose(guardAt({2, -10}), a, b, {.panicDistance = 5.0f}), SteeringOutput{});
}

TEST(Interpose, DegenerateInputsGiveFiniteOutput) {
  // Everyone at one point; zero max speed; guard already on the midpoint.
  const Kinematic a{{1, 1}, {1, 0}, {}, 0.5f};
  const Kinematic b{{1, 1}, {0, 1}, {}, 0.5f};
  EXPECT_TRUE(isFinite(interpose(guardAt({1, 1}), a, b).linear));
  EXPECT_TRUE(isFinite(avoidInterpose(guardAt({1, 1}), a, b).linear));
  EXPECT_EQ(interposeTarget(guardAt({5, 5}, 0.0f), a, b), (Vec2{1, 1}));
  EXPECT_EQ(interpose(guardAt({5, 5}, 0.0f), a, b).linear, Vec2{});
}

TEST(Interpose, CoincidentAtRestWithZeroMaxSpeedIsZero) {
  // Everyone at rest at one point and the guard cannot move: exact zero, not NaN.
  const Kinematic a{{1, 1}, {}, {1, 0}, 0.5f};
  const Kinematic b{{1, 1}, {}, {1, 0}, 0.5f};
  const SteeringOutput out = interpose(guardAt({1, 1}, 0.0f), a, b);
  EXPECT_TRUE(std::isfinite(out.linear.x) && std::isfinite(out.linear.y) && std::isfinite(out.angular));
  EXPECT_EQ(out, SteeringOutput{});
  EXPECT_EQ(avoidInterpose(guardAt({1, 1}, 0.0f), a, b), SteeringOutput{});
  // Guard on the midpoint of two moving bodies: T = 0, the target is the current midpoint.
  const Kinematic c{{0, 0}, {1, 0}, {1, 0}, 0.5f};
  const Kinematic d{{4, 0}, {0, 1}, {0, 1}, 0.5f};
  EXPECT_EQ(interposeTarget(guardAt({2, 0}), c, d), (Vec2{2, 0}));
  EXPECT_EQ(interpose(guardAt({2, 0}), c, d), SteeringOutput{});
  // Guard 2 below it, maxSpeed 2: T = 1, a' = (1, 0), b' = (4, 1): target (2.5, 0.5).
  const Vec2 t = interposeTarget(guardAt({2, -2}), c, d);
  EXPECT_NEAR(t.x, 2.5f, 1e-6f);
  EXPECT_NEAR(t.y, 0.5f, 1e-6f);
}

}  // namespace
}  // namespace steer
