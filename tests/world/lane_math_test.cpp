// Each formula the four-lane path shares with the scalar path (steering/lanes.h,
// world/agent_formulas.h), run on four random inputs as simd::V2 and on each input alone as
// steer::Vec2: every lane must carry the scalar result's exact bits. Inputs include zeros, values
// near kEpsilon, huge values, infinities and NaN, where the two LaneOps spellings (finite test,
// select, sqrt, masks) could part ways.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "steering/combiners.h"
#include "steering/locomotion.h"
#include "steering/random.h"
#include "steering/seek.h"
#include "steering/wander.h"
#include "world/agent_formulas.h"
#include "world/simd.h"

namespace steerd::agent_internal {
namespace {

using simd::F4;
using simd::I4;
using simd::V2;
using steer::Vec2;

constexpr int kRounds = 20000;

std::uint32_t bitsOf(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

// A float from a mix meant to reach every branch: ordinary values, exact zeros, values around
// kEpsilon, huge ones, infinities and NaN.
float anyFloat(steer::Rng& rng) {
  const float u = rng.uniform();
  const float c = rng.clamped();
  if (u < 0.55f) return c * 20.0f;
  if (u < 0.65f) return 0.0f;
  if (u < 0.75f) return c * 2e-6f;
  if (u < 0.85f) return c * 3e19f;
  if (u < 0.88f)
    return c < 0 ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
  if (u < 0.90f) return std::numeric_limits<float>::quiet_NaN();
  return c;
}

Vec2 anyVec(steer::Rng& rng) {
  const float x = anyFloat(rng);
  return {x, anyFloat(rng)};
}

// Four scalar inputs and their lanes.
struct Quad {
  std::array<Vec2, 4> s;
  V2 lanes() const {
    V2 v;
    for (int k = 0; k < 4; ++k) v.x[k] = s[k].x, v.y[k] = s[k].y;
    return v;
  }
};
Quad anyQuad(steer::Rng& rng) {
  Quad q;
  for (Vec2& v : q.s) v = anyVec(rng);
  return q;
}
F4 lanesOf(const std::array<float, 4>& f) { return F4{f[0], f[1], f[2], f[3]}; }
std::array<float, 4> anyFloats(steer::Rng& rng) {
  return {anyFloat(rng), anyFloat(rng), anyFloat(rng), anyFloat(rng)};
}

// The same bits, or both NaN: which NaN comes out of an operation on two NaNs depends on the
// operand order the compiler picked for a commutative operation, and no NaN reaches the world's
// state (the finite fallbacks replace it), so NaN's sign and payload are not compared.
bool sameFloat(float a, float b) { return bitsOf(a) == bitsOf(b) || (std::isnan(a) && std::isnan(b)); }

::testing::AssertionResult sameBits(const V2& lanes, int k, Vec2 scalar) {
  if (sameFloat(lanes.x[k], scalar.x) && sameFloat(lanes.y[k], scalar.y))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "lane " << k << " (" << lanes.x[k] << ", " << lanes.y[k]
                                       << ") but scalar (" << scalar.x << ", " << scalar.y << ")";
}
::testing::AssertionResult sameMask(const I4& lanes, int k, bool scalar) {
  if ((lanes[k] != 0) == scalar && (lanes[k] == 0 || lanes[k] == -1)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "lane " << k << " mask " << lanes[k] << " but scalar " << scalar;
}

// Runs `check(rng)` kRounds times on one stream.
template <class F>
void forRandomInputs(std::uint64_t seed, F check) {
  steer::Rng rng(seed);
  for (int round = 0; round < kRounds; ++round) check(rng);
}

TEST(LaneMath, NormalizedOrTruncateAndFiniteMatchScalar) {
  forRandomInputs(1, [](steer::Rng& rng) {
    const Quad a = anyQuad(rng), b = anyQuad(rng);
    const float max = anyFloat(rng);
    const V2 n = lanes::normalizedOr(a.lanes(), b.lanes(), steer::kEpsilon);
    const V2 t = lanes::truncate(a.lanes(), max);
    const V2 f = lanes::finiteOrZero(a.lanes());
    for (int k = 0; k < 4; ++k) {
      ASSERT_TRUE(sameBits(n, k, steer::normalizedOr(a.s[k], b.s[k])));
      ASSERT_TRUE(sameBits(t, k, steer::truncate(a.s[k], max)));
      ASSERT_TRUE(sameBits(f, k, lanes::finiteOrZero(a.s[k])));
    }
  });
}

TEST(LaneMath, IntegrateDynamicMatchesScalar) {
  forRandomInputs(2, [](steer::Rng& rng) {
    steer::BodyLimits lim;
    lim.mass = rng.uniform() < 0.1f ? anyFloat(rng) : 0.5f + 3.0f * rng.uniform();
    lim.maxForce = rng.uniform() < 0.1f ? anyFloat(rng) : 1.0f + 20.0f * rng.uniform();
    lim.maxSpeed = rng.uniform() < 0.1f ? anyFloat(rng) : 0.5f + 10.0f * rng.uniform();
    lim.maxTurnRate = rng.uniform() < 0.3f ? -1.0f : 6.0f * rng.uniform();
    const float dt = rng.uniform() < 0.05f ? anyFloat(rng) : 1.0f / 30.0f;
    const steer::DynamicStep step = steer::DynamicStep::of(lim, dt);
    const Quad p = anyQuad(rng), v = anyQuad(rng), h = anyQuad(rng), f = anyQuad(rng);
    const steer::DynamicState<V2> out =
        steer::integrateDynamicLanes(lim, step, {p.lanes(), v.lanes(), h.lanes()}, f.lanes());
    for (int k = 0; k < 4; ++k) {
      const steer::DynamicState<Vec2> one =
          steer::integrateDynamicLanes(lim, step, {p.s[k], v.s[k], h.s[k]}, f.s[k]);
      ASSERT_TRUE(sameBits(out.position, k, one.position));
      ASSERT_TRUE(sameBits(out.velocity, k, one.velocity));
      ASSERT_TRUE(sameBits(out.heading, k, one.heading));
    }
  });
}

TEST(LaneMath, LimitTurnMatchesScalar) {
  forRandomInputs(3, [](steer::Rng& rng) {
    const float angle = 3.0f * rng.uniform();
    const Quad prev = anyQuad(rng), wanted = anyQuad(rng);
    Quad unit = prev;
    for (Vec2& u : unit.s) u = steer::normalizedOr(u, {1.0f, 0.0f});
    const V2 out =
        steer::locomotion_detail::limitTurn(unit.lanes(), wanted.lanes(), std::cos(angle), std::sin(angle));
    for (int k = 0; k < 4; ++k) {
      ASSERT_TRUE(sameBits(
          out, k,
          steer::locomotion_detail::limitTurn(unit.s[k], wanted.s[k], std::cos(angle), std::sin(angle))));
    }
  });
}

TEST(LaneMath, WanderSeekAndRunningSumMatchScalar) {
  forRandomInputs(4, [](steer::Rng& rng) {
    steer::WanderParams params;
    params.radius = rng.uniform() < 0.1f ? anyFloat(rng) : 0.5f + 2.0f * rng.uniform();
    params.distance = rng.uniform() < 0.1f ? anyFloat(rng) : 4.0f * rng.uniform();
    const float jitter = rng.uniform() < 0.1f ? anyFloat(rng) : rng.uniform();
    const Quad target = anyQuad(rng), p = anyQuad(rng), h = anyQuad(rng), v = anyQuad(rng);
    const std::array<float, 4> jx = anyFloats(rng), jy = anyFloats(rng), remaining = anyFloats(rng);
    const float maxSpeed = anyFloat(rng), budget = anyFloat(rng);
    const V2 next = steer::wanderNextTarget(target.lanes(), lanesOf(jx), lanesOf(jy), jitter, params);
    const V2 force = steer::wanderForce(p.lanes(), h.lanes(), target.lanes(), params);
    const V2 seek = steer::seekForce(p.lanes(), v.lanes(), target.lanes(), maxSpeed);
    I4 overflows;
    const V2 sum = steer::runningSumAdd(p.lanes(), v.lanes(), lanesOf(remaining), overflows);
    const F4 left = steer::runningSumRemaining(p.lanes(), budget);
    for (int k = 0; k < 4; ++k) {
      ASSERT_TRUE(sameBits(next, k, steer::wanderNextTarget(target.s[k], jx[k], jy[k], jitter, params)));
      ASSERT_TRUE(sameBits(force, k, steer::wanderForce(p.s[k], h.s[k], target.s[k], params)));
      ASSERT_TRUE(sameBits(seek, k, steer::seekForce(p.s[k], v.s[k], target.s[k], maxSpeed)));
      bool overflowsOne = false;
      ASSERT_TRUE(sameBits(sum, k, steer::runningSumAdd(p.s[k], v.s[k], remaining[k], overflowsOne)));
      ASSERT_TRUE(sameMask(overflows, k, overflowsOne));
      ASSERT_TRUE(sameFloat(left[k], steer::runningSumRemaining(p.s[k], budget)));
    }
  });
}

TEST(LaneMath, WorldFormulasMatchScalar) {
  forRandomInputs(5, [](steer::Rng& rng) {
    Bounds bounds;
    bounds.minX = -50.0f * rng.uniform(), bounds.minY = -50.0f * rng.uniform();
    bounds.maxX = 50.0f * rng.uniform(), bounds.maxY = 50.0f * rng.uniform();
    const float margin = 10.0f * rng.uniform(), radius = anyFloat(rng), blend = rng.uniform();
    const float maxSpeed = anyFloat(rng), maxForce = anyFloat(rng);
    const Quad p = anyQuad(rng), v = anyQuad(rng), f = anyQuad(rng), h = anyQuad(rng);
    const std::array<float, 4> count = anyFloats(rng);
    const V2 align = alignmentFromSums(f.lanes(), lanesOf(count), h.lanes());
    const V2 cohere = cohesionFromSums(p.lanes(), v.lanes(), f.lanes(), lanesOf(count), maxSpeed);
    const V2 back = steerBack(bounds, margin, p.lanes(), v.lanes(), f.lanes(), maxSpeed, maxForce);
    const V2 push = overlapPush(f.lanes(), radius);
    const V2 heading = blendHeading(h.lanes(), f.lanes(), blend);
    V2 clampedP = p.lanes(), clampedV = v.lanes();
    const I4 clamped = clampToBounds(bounds, clampedP, clampedV);
    for (int k = 0; k < 4; ++k) {
      ASSERT_TRUE(sameBits(align, k, alignmentFromSums(f.s[k], count[k], h.s[k])));
      ASSERT_TRUE(sameBits(cohere, k, cohesionFromSums(p.s[k], v.s[k], f.s[k], count[k], maxSpeed)));
      ASSERT_TRUE(sameBits(back, k, steerBack(bounds, margin, p.s[k], v.s[k], f.s[k], maxSpeed, maxForce)));
      ASSERT_TRUE(sameBits(push, k, overlapPush(f.s[k], radius)));
      ASSERT_TRUE(sameBits(heading, k, blendHeading(h.s[k], f.s[k], blend)));
      Vec2 oneP = p.s[k], oneV = v.s[k];
      const bool one = clampToBounds(bounds, oneP, oneV);
      ASSERT_TRUE(sameBits(clampedP, k, oneP));
      ASSERT_TRUE(sameBits(clampedV, k, oneV));
      ASSERT_TRUE(sameMask(clamped, k, one));
    }
  });
}

// The scalar wrappers are the lane formulas at one lane: steer::wander and steer::seek give what
// their halves give (the hand-written versions they replaced were pinned by their own tests).
TEST(LaneMath, ScalarBehavioursAreTheLaneFormulas) {
  steer::Body body;
  body.position = {3.0f, -2.0f};
  body.velocity = {1.0f, 0.5f};
  body.heading = steer::normalized(body.velocity);
  body.limits.maxSpeed = 4.0f;
  const Vec2 target{-7.0f, 5.0f};
  EXPECT_EQ(steer::seek(body, target).linear,
            steer::seekForce(body.position, body.velocity, target, body.limits.maxSpeed));
  steer::Rng a(9), b(9);
  const steer::WanderParams params;
  const steer::WanderResult w = steer::wander(body, {0.3f, 1.0f}, 1.0f / 30.0f, a, params);
  const float jx = b.clamped();
  const float jy = b.clamped();
  const Vec2 next =
      steer::wanderNextTarget(Vec2{0.3f, 1.0f}, jx, jy, steer::wanderJitter(1.0f / 30.0f, params), params);
  EXPECT_EQ(w.target, next);
  EXPECT_EQ(w.steering.linear, steer::wanderForce(body.position, body.heading, next, params));
}

}  // namespace
}  // namespace steerd::agent_internal
