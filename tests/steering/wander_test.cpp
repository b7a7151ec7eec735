#include "steering/wander.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

#include "steering/locomotion.h"

namespace steer {
namespace {

Body bodyAt(Vec2 p, Vec2 heading = {1, 0}) {
  Body b;
  b.position = p;
  b.heading = heading;
  b.orientation = toAngle(heading);
  b.limits.maxSpeed = 2.0f;
  b.limits.maxForce = 4.0f;
  return b;
}

TEST(Wander, ForcePointsAtTheTargetOnTheCircleAheadInLocalSpace) {
  // dt = 0: no jitter. Body at (1, 1) facing +y, target local (0, 1.2) (its left):
  // local point (2, 1.2) -> world offset rotate((2, 1.2), (0, 1)) = (-1.2, 2).
  Rng rng(3);
  const WanderResult r = wander(bodyAt({1, 1}, {0, 1}), {0, 1.2f}, 0.0f, rng);
  EXPECT_NEAR(r.steering.linear.x, -1.2f, 1e-6f);
  EXPECT_NEAR(r.steering.linear.y, 2.0f, 1e-6f);
  EXPECT_NEAR(r.target.x, 0.0f, 1e-6f);
  EXPECT_NEAR(r.target.y, 1.2f, 1e-6f);
}

TEST(Wander, JitterIsClampedDrawsTimesJitterPerSecondTimesDtThenReprojected) {
  Rng rng(11);
  Rng copy(11);
  const float jx = copy.clamped();
  const float jy = copy.clamped();
  const WanderParams params{.radius = 1.2f, .distance = 2.0f, .jitterPerSecond = 10.0f};
  const WanderResult r = wander(bodyAt({}), {1.2f, 0}, 0.05f, rng, params);  // jitter 0.5
  const Vec2 expected = normalized(Vec2{1.2f + jx * 0.5f, jy * 0.5f}) * 1.2f;
  EXPECT_NEAR(r.target.x, expected.x, 1e-6f);
  EXPECT_NEAR(r.target.y, expected.y, 1e-6f);
  EXPECT_NEAR(r.steering.linear.x, expected.x + 2.0f, 1e-6f);
  EXPECT_NEAR(r.steering.linear.y, expected.y, 1e-6f);
}

TEST(Wander, TargetStaysOnTheCircleAndForceWithinTheCircleAhead) {
  Rng rng(5);
  Vec2 target = initialWanderTarget(rng, 1.2f);
  for (int i = 0; i < 1000; ++i) {
    const WanderResult r = wander(bodyAt({}), target, 0.05f, rng);
    target = r.target;
    ASSERT_NEAR(length(target), 1.2f, 1e-5f);
    ASSERT_NEAR(distance(r.steering.linear, Vec2{2, 0}), 1.2f, 1e-5f);
  }
}

// Seed 000 draws random(0, JITTER): always up and to the right. The draw must be symmetric, so over
// many ticks the target visits both sides of the circle.
TEST(Wander, TargetVisitsBothSides) {
  Rng rng(9);
  Vec2 target{1.2f, 0};
  int left = 0;
  int right = 0;
  for (int i = 0; i < 2000; ++i) {
    target = wander(bodyAt({}), target, 0.05f, rng).target;
    (target.y > 0 ? left : right)++;
  }
  EXPECT_GT(left, 400);
  EXPECT_GT(right, 400);
}

TEST(Wander, DegenerateInputsGiveFiniteOutput) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Rng rng(1);
  // Zero stored target with no jitter: restarts on +x.
  const WanderResult z = wander(bodyAt({}), {}, 0.0f, rng);
  EXPECT_EQ(z.target, (Vec2{1.2f, 0}));
  // NaN target, NaN dt, zero heading, zero radius.
  const WanderResult n = wander(bodyAt({}, {}), {nan, 1}, nan, rng);
  EXPECT_TRUE(isFinite(n.target));
  EXPECT_TRUE(isFinite(n.steering.linear));
  const WanderResult r0 = wander(bodyAt({}), {1, 0}, 0.1f, rng, {.radius = 0.0f});
  EXPECT_EQ(r0.target, Vec2{});
  EXPECT_NEAR(r0.steering.linear.x, 2.0f, 1e-6f);
  EXPECT_TRUE(isFinite(wanderJittery(bodyAt({}, {}), rng).linear));
}

TEST(WanderJittery, IsAFreshPointOnTheCircleAhead) {
  Rng rng(4);
  Rng copy(4);
  const float rx = copy.clamped();
  const float ry = copy.clamped();
  const SteeringOutput out = wanderJittery(bodyAt({3, 3}), rng);
  const Vec2 expected = normalized(Vec2{rx, ry}) * 1.2f + Vec2{2, 0};
  EXPECT_NEAR(out.linear.x, expected.x, 1e-6f);
  EXPECT_NEAR(out.linear.y, expected.y, 1e-6f);
}

float meanAbsTurn(Vec2 (*step)(Body&, Vec2&, Rng&), std::uint64_t seed) {
  Rng rng(seed);
  Body b = bodyAt({});
  Vec2 target = initialWanderTarget(rng, 1.2f);
  Vec2 previous = step(b, target, rng);
  float sum = 0.0f;
  constexpr int kTicks = 500;
  for (int i = 0; i < kTicks; ++i) {
    const Vec2 f = step(b, target, rng);
    sum += std::fabs(std::atan2(cross(previous, f), dot(previous, f)));
    previous = f;
  }
  return sum / kTicks;
}

// Why Reynolds' form: with the same random stream, the force direction changes much less from one
// tick to the next than with a fresh random point per tick (seed 004), for a body moving under it.
TEST(Wander, ReynoldsFormIsSmootherThanAFreshRandomPointEachTick) {
  constexpr std::uint64_t kSeed = 20240601;
  std::printf("seed %llu\n", static_cast<unsigned long long>(kSeed));
  constexpr float kDt = 0.05f;
  const auto reynolds = [](Body& b, Vec2& target, Rng& rng) {
    const WanderResult r = wander(b, target, kDt, rng);
    target = r.target;
    b = integrateDynamic(b, r.steering.linear, kDt);
    return r.steering.linear;
  };
  const auto jittery = [](Body& b, Vec2&, Rng& rng) {
    const SteeringOutput out = wanderJittery(b, rng);
    b = integrateDynamic(b, out.linear, kDt);
    return out.linear;
  };
  const float smooth = meanAbsTurn(reynolds, kSeed);
  const float jumpy = meanAbsTurn(jittery, kSeed);
  std::printf("mean |turn| per tick: reynolds %.4f rad, fresh point %.4f rad\n", smooth, jumpy);
  EXPECT_LT(smooth * 3.0f, jumpy);
}

TEST(Wander, ZeroCircleZeroMaxSpeedAndZeroJitterStayFinite) {
  Rng rng(2);
  // Zero radius and distance: the wander point is the body itself, F = 0.
  const WanderResult zero = wander(bodyAt({5, 5}), {1, 0}, 0.05f, rng, {.radius = 0.0f, .distance = 0.0f});
  EXPECT_TRUE(std::isfinite(zero.steering.linear.x) && std::isfinite(zero.steering.linear.y));
  EXPECT_EQ(zero.steering.linear, Vec2{});
  // Wander does not read maxSpeed: a body with maxSpeed 0 and no velocity gets the same force.
  Body still = bodyAt({});
  still.limits.maxSpeed = 0.0f;
  Rng a(8);
  Rng b(8);
  const WanderResult r0 = wander(still, {0, 1.2f}, 0.05f, a);
  const WanderResult r1 = wander(bodyAt({}), {0, 1.2f}, 0.05f, b);
  EXPECT_TRUE(isFinite(r0.steering.linear));
  EXPECT_EQ(r0.steering, r1.steering);
  // Zero jitter and negative dt: the target does not move.
  const WanderResult noJitter = wander(bodyAt({}), {0, 1.2f}, 0.05f, rng, {.jitterPerSecond = 0.0f});
  EXPECT_NEAR(noJitter.target.x, 0.0f, 1e-6f);
  EXPECT_NEAR(noJitter.target.y, 1.2f, 1e-6f);
  EXPECT_EQ(wander(bodyAt({}), {0, 1.2f}, -1.0f, rng).target, (Vec2{0, 1.2f}));
  // Jittery form with a zero circle: straight ahead by D.
  const SteeringOutput j = wanderJittery(still, rng, {.radius = 0.0f});
  EXPECT_NEAR(j.linear.x, 2.0f, 1e-6f);
  EXPECT_NEAR(j.linear.y, 0.0f, 1e-6f);
}

}  // namespace
}  // namespace steer
