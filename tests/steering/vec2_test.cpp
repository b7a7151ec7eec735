#include "steering/vec2.h"

#include <gtest/gtest.h>

#include <limits>

#include "steering/random.h"

namespace steer {
namespace {

TEST(Vec2, NearestOnSegmentIsTheProjectionClampedToTheEnds) {
  EXPECT_EQ(nearestOnSegment({3, 4}, {0, 0}, {10, 0}), (Vec2{3, 0}));
  EXPECT_EQ(nearestOnSegment({-5, 1}, {0, 0}, {10, 0}), (Vec2{0, 0}));
  EXPECT_EQ(nearestOnSegment({12, -1}, {0, 0}, {10, 0}), (Vec2{10, 0}));
  EXPECT_EQ(nearestOnSegment({7, 7}, {2, 2}, {2, 2}), (Vec2{2, 2}));  // no length: the start
  EXPECT_FLOAT_EQ(distanceToSegment({3, 4}, {0, 0}, {10, 0}), 4.0f);
  EXPECT_FLOAT_EQ(distanceToSegment({13, 4}, {0, 0}, {10, 0}), 5.0f);
}

TEST(Vec2, TruncateShortensOnlyWhenLonger) {
  EXPECT_EQ(truncate(Vec2{3, 4}, 10.0f), (Vec2{3, 4}));
  const Vec2 t = truncate(Vec2{3, 4}, 2.5f);
  EXPECT_FLOAT_EQ(t.x, 1.5f);
  EXPECT_FLOAT_EQ(t.y, 2.0f);
}

TEST(Vec2, TruncateToZeroOrNegativeMaxGivesZero) {
  EXPECT_EQ(truncate(Vec2{3, 4}, 0.0f), Vec2{});
  EXPECT_EQ(truncate(Vec2{3, 4}, -1.0f), Vec2{});
  EXPECT_EQ(truncate(Vec2{3, 4}, std::numeric_limits<float>::quiet_NaN()), Vec2{});
}

TEST(Vec2, NormalizingZeroGivesFallbackNotNaN) {
  EXPECT_EQ(normalized(Vec2{}), Vec2{});
  EXPECT_EQ(normalizedOr(Vec2{}, Vec2{0, 1}), (Vec2{0, 1}));
  const Vec2 n = normalized(Vec2{0, -5});
  EXPECT_FLOAT_EQ(n.y, -1.0f);
}

TEST(Vec2, LocalAndWorldAreInverse) {
  const Vec2 heading = normalized(Vec2{1, 1});
  const Vec2 origin{10, -3};
  const Vec2 p{4, 7};
  const Vec2 back = toWorld(toLocal(p, origin, heading), origin, heading);
  EXPECT_NEAR(back.x, p.x, 1e-5f);
  EXPECT_NEAR(back.y, p.y, 1e-5f);
  // A point straight ahead is on local +x; one to the left on local +y.
  const Vec2 ahead = toLocal(origin + heading * 2.0f, origin, heading);
  EXPECT_NEAR(ahead.x, 2.0f, 1e-5f);
  EXPECT_NEAR(ahead.y, 0.0f, 1e-5f);
  const Vec2 left = toLocal(origin + perp(heading), origin, heading);
  EXPECT_NEAR(left.y, 1.0f, 1e-5f);
}

TEST(Vec2, OrientationConventionIsCounterClockwiseFromX) {
  EXPECT_NEAR(toAngle(Vec2{0, 1}), kPi / 2, 1e-6f);
  EXPECT_NEAR(fromAngle(kPi).x, -1.0f, 1e-6f);
  EXPECT_NEAR(wrapAngle(3 * kPi), kPi, 1e-5f);
  EXPECT_NEAR(wrapAngle(-kPi / 2 - 2 * kPi), -kPi / 2, 1e-5f);
  EXPECT_EQ(wrapAngle(std::numeric_limits<float>::infinity()), 0.0f);
}

TEST(Rng, StreamIsAPureFunctionOfSeedAgentAndTick) {
  Rng a = Rng::forAgent(7, 42, 100);
  Rng b = Rng::forAgent(7, 42, 100);
  Rng c = Rng::forAgent(7, 43, 100);
  Rng d = Rng::forAgent(7, 42, 101);
  const auto first = a.nextU64();
  EXPECT_EQ(first, b.nextU64());
  EXPECT_NE(first, c.nextU64());
  EXPECT_NE(first, d.nextU64());
}

TEST(Rng, DrawsStayInRange) {
  Rng r(1);
  for (int i = 0; i < 10000; ++i) {
    const float u = r.uniform();
    ASSERT_GE(u, 0.0f);
    ASSERT_LT(u, 1.0f);
    const float c = r.clamped();
    ASSERT_GE(c, -1.0f);
    ASSERT_LT(c, 1.0f);
  }
}

}  // namespace
}  // namespace steer
