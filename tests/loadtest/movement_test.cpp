// Every pattern keeps the player inside the world bounds and under the server's speed limit,
// whatever the step lengths and targets; chase closes in, flee opens up, orbit circles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "loadtest/impairment.h"
#include "loadtest/movement.h"

namespace steerd::loadtest {
namespace {

constexpr Pattern kAll[] = {Pattern::kWalk, Pattern::kOrbit, Pattern::kChase, Pattern::kFlee};

TEST(MovementTest, PatternNamesRoundTrip) {
  for (Pattern p : kAll) EXPECT_EQ(patternFromName(patternName(p)), p);
  EXPECT_FALSE(patternFromName("run"));
}

void checkInside(const Mover& m, const MoveLimits& l) {
  ASSERT_TRUE(std::isfinite(m.x()) && std::isfinite(m.y()));
  ASSERT_GE(m.x(), l.minX);
  ASSERT_LE(m.x(), l.maxX);
  ASSERT_GE(m.y(), l.minY);
  ASSERT_LE(m.y(), l.maxY);
}

TEST(MovementTest, StaysInBoundsAndUnderTheSpeedLimit) {
  const MoveLimits limits{-120.0f, -60.0f, 120.0f, 60.0f, 6.0f};
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (Pattern p : kAll) {
    for (std::uint64_t seed = 1; seed <= 25; ++seed) {
      Mover m(p, limits, seed);
      checkInside(m, limits);
      EXPECT_LE(m.cruiseSpeed(), limits.maxSpeed * Mover::kSpeedFraction);
      SplitMix64 rng(seed * 1000 + static_cast<int>(p));
      for (int step = 0; step < 3000; ++step) {
        // Steps of 0..0.3 s, sometimes 0, sometimes a long pause (the tester hiccuped).
        double dt = rng.uniform() * 0.3;
        if (step % 97 == 0) dt = 0.0;
        if (step % 211 == 0) dt = 5.0;
        // Targets anywhere, outside the world too, on the player, or not a number.
        std::optional<Point> target;
        const double r = rng.uniform();
        if (r < 0.6) {
          target = Point{static_cast<float>(-300 + 600 * rng.uniform()),
                         static_cast<float>(-200 + 400 * rng.uniform())};
        } else if (r < 0.7) {
          target = Point{m.x(), m.y()};
        } else if (r < 0.75) {
          target = Point{nan, 3.0f};
        }
        const float x0 = m.x(), y0 = m.y();
        m.step(dt, target);
        checkInside(m, limits);
        const double moved = std::hypot(m.x() - x0, m.y() - y0);
        ASSERT_LE(moved, limits.maxSpeed * std::min(dt, Mover::kMaxStepSeconds) + 1e-4)
            << patternName(p) << " seed " << seed << " step " << step;
        ASSERT_LE(std::hypot(m.vx(), m.vy()), limits.maxSpeed * 0.951f) << patternName(p);
        ASSERT_TRUE(std::isfinite(m.vx()) && std::isfinite(m.vy()));
      }
    }
  }
}

TEST(MovementTest, TinyAndDegenerateWorlds) {
  const MoveLimits tiny{0.0f, 0.0f, 1.0f, 0.5f, 3.0f};
  const MoveLimits point{5.0f, 5.0f, 5.0f, 5.0f, 3.0f};
  const MoveLimits still{-10.0f, -10.0f, 10.0f, 10.0f, 0.0f};
  for (const MoveLimits& l : {tiny, point, still}) {
    for (Pattern p : kAll) {
      Mover m(p, l, 3);
      for (int i = 0; i < 500; ++i) {
        m.step(0.033, Point{100.0f, -100.0f});
        checkInside(m, l);
        ASSERT_LE(std::hypot(m.vx(), m.vy()), l.maxSpeed + 1e-6f);
      }
    }
  }
}

TEST(MovementTest, ChaseClosesInAndFleeOpensUp) {
  const MoveLimits limits{-100.0f, -100.0f, 100.0f, 100.0f, 6.0f};
  const Point npc{10.0f, 10.0f};
  Mover chase(Pattern::kChase, limits, 11);
  const double d0 = std::hypot(chase.x() - npc.x, chase.y() - npc.y);
  for (int i = 0; i < 30; ++i) chase.step(0.1, npc);
  const double d1 = std::hypot(chase.x() - npc.x, chase.y() - npc.y);
  EXPECT_LE(d1, std::max(0.0, d0 - 0.99 * chase.cruiseSpeed() * 3.0) + 1e-3);
  for (int i = 0; i < 2000; ++i) chase.step(0.1, npc);
  EXPECT_LT(std::hypot(chase.x() - npc.x, chase.y() - npc.y), 0.01);  // arrives and stays

  // A fleeing player within the flee radius moves away until the radius or a wall.
  Mover flee(Pattern::kFlee, limits, 12);
  for (int i = 0; i < 5; ++i) {
    const Point near{flee.x() + 3.0f, flee.y() + 1.0f};
    const double before = std::hypot(flee.x() - near.x, flee.y() - near.y);
    flee.step(0.1, near);
    const bool atWall = flee.x() <= flee.innerMinX() || flee.x() >= flee.innerMaxX() ||
                        flee.y() <= flee.innerMinY() || flee.y() >= flee.innerMaxY();
    if (!atWall) {
      EXPECT_GT(std::hypot(flee.x() - near.x, flee.y() - near.y), before);
    }
  }
}

TEST(MovementTest, OrbitGoesRoundItsCircle) {
  const MoveLimits limits{-100.0f, -100.0f, 100.0f, 100.0f, 6.0f};
  Mover m(Pattern::kOrbit, limits, 21);
  for (int i = 0; i < 2000; ++i) m.step(0.05, std::nullopt);  // reach the circle
  // Over one more lap the player visits every side of its circle: its bounding box is wide.
  float minX = 1e9f, maxX = -1e9f, minY = 1e9f, maxY = -1e9f;
  for (int i = 0; i < 2000; ++i) {
    m.step(0.05, std::nullopt);
    minX = std::min(minX, m.x());
    maxX = std::max(maxX, m.x());
    minY = std::min(minY, m.y());
    maxY = std::max(maxY, m.y());
    EXPECT_GT(std::hypot(m.vx(), m.vy()), 0.5f * m.cruiseSpeed());  // always moving
  }
  EXPECT_GT(maxX - minX, 8.0f);  // a circle of at least 5 m radius
  EXPECT_NEAR(maxX - minX, maxY - minY, 1.0f);
}

TEST(MovementTest, SameSeedSameStartDifferentSeedsSpreadOut) {
  const MoveLimits limits{-100.0f, -100.0f, 100.0f, 100.0f, 6.0f};
  Mover a(Pattern::kWalk, limits, 5), b(Pattern::kWalk, limits, 5), c(Pattern::kWalk, limits, 6);
  EXPECT_EQ(a.x(), b.x());
  EXPECT_EQ(a.y(), b.y());
  EXPECT_NE(a.x(), c.x());
}

}  // namespace
}  // namespace steerd::loadtest
