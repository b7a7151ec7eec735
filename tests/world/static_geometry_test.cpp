#include "world/static_geometry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace steerd {
namespace {

StaticGeometry field() {
  StaticGeometry g;
  g.bounds = {0, 0, 200, 200};
  g.obstacles = {{{20, 20}, 2}, {{100, 100}, 5}, {{180, 20}, 3}};
  g.walls = {steer::makeWall({10, 150}, {60, 150})};
  g.index(16.0f, 6.0f);
  return g;
}

TEST(StaticGeometry, ObstaclesNearHoldsOnlyThoseWithinReach) {
  const StaticGeometry g = field();
  const auto near = g.obstaclesNear(22, 22);
  ASSERT_EQ(near.size(), 1u);
  EXPECT_EQ(near[0].center, (steer::Vec2{20, 20}));
  EXPECT_TRUE(g.obstaclesNear(60, 60).empty());
  // Within reach of the cell's edge, though the centre is two cells away.
  EXPECT_EQ(g.obstaclesNear(110, 100).size(), 1u);
}

TEST(StaticGeometry, WallsNearHoldsOnlyWallsWithinReach) {
  const StaticGeometry g = field();
  EXPECT_EQ(g.wallsNear(30, 148).size(), 1u);
  EXPECT_TRUE(g.wallsNear(30, 100).empty());
  EXPECT_TRUE(g.wallsNear(150, 150).empty());
}

TEST(StaticGeometry, ObstaclesInRangeFindsFarOnesOnceEach) {
  const StaticGeometry g = field();
  steer::CircleObstacle out[8];
  EXPECT_EQ(g.obstaclesInRange(60, 60, 60, out), 2u);  // (20,20) and (100,100), not (180,20)
  EXPECT_EQ(g.obstaclesInRange(60, 60, 5, out), 0u);
  // A full buffer stops the search rather than overflowing.
  EXPECT_EQ(g.obstaclesInRange(100, 100, 300, std::span<steer::CircleObstacle>(out, 1)), 1u);
}

TEST(StaticGeometry, QueriesOutsideTheBoundsOrNaNStayInRange) {
  const StaticGeometry g = field();
  EXPECT_NO_FATAL_FAILURE(g.obstaclesNear(-1e9f, 1e9f));
  EXPECT_NO_FATAL_FAILURE(g.obstaclesNear(std::numeric_limits<float>::infinity(), -1e30f));
  EXPECT_NO_FATAL_FAILURE(g.wallsNear(std::numeric_limits<float>::quiet_NaN(), 5));
  steer::CircleObstacle out[4];
  EXPECT_LE(g.obstaclesInRange(-500, -500, 10, out), 4u);
}

TEST(StaticGeometry, EmptyGeometryAnswersEmpty) {
  StaticGeometry g;
  g.index(16.0f, 6.0f);
  EXPECT_TRUE(g.obstaclesNear(5, 5).empty());
  EXPECT_TRUE(g.wallsNear(5, 5).empty());
  steer::CircleObstacle out[4];
  EXPECT_EQ(g.obstaclesInRange(5, 5, 100, out), 0u);
}

// Whatever the bucket size, an agent's lists hold every shape within reach of it, in index order:
// the world's results do not depend on the bucket size (it only changes how many far shapes an
// agent loops over). An obstacle is within reach while its centre is within reach + 2 radii (the
// detection box tests centres, obstacle_avoidance.h): wildlife's 10 m rock changed the world when
// 4 m buckets only held obstacles whose edge was within reach.
TEST(StaticGeometry, EveryBucketSizeListsTheShapesWithinReachInOrder) {
  for (const float cell : {2.0f, 4.0f, 16.0f, 64.0f}) {
    StaticGeometry g = field();
    g.obstacles.push_back({{150, 60}, 10});
    g.walls.push_back(steer::makeWall({100, 20}, {100, 80}));
    g.index(cell, 6.0f);
    for (float x = 1; x < 200; x += 7.3f) {
      for (float y = 1; y < 200; y += 7.3f) {
        const auto near = g.near(x, y);
        std::vector<std::size_t> seen;
        for (const auto& o : near.obstacles) {
          for (std::size_t i = 0; i < g.obstacles.size(); ++i) {
            if (g.obstacles[i].center == o.center) seen.push_back(i);
          }
        }
        EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end())) << cell;
        for (std::size_t i = 0; i < g.obstacles.size(); ++i) {
          const float gap =
              steer::length(g.obstacles[i].center - steer::Vec2{x, y}) - 2.0f * g.obstacles[i].radius;
          if (gap <= 6.0f) {
            EXPECT_NE(std::find(seen.begin(), seen.end(), i), seen.end()) << cell << " " << x << "," << y;
          }
        }
        // The fence along x = 100 is seen from within reach of it.
        const bool nearFence = std::abs(x - 100) <= 6.0f && y >= 14 && y <= 86;
        bool listed = false;
        for (const auto& w : near.walls) listed = listed || w.from.x == 100.0f;
        if (nearFence) {
          EXPECT_TRUE(listed) << cell << " " << x << "," << y;
        }
      }
    }
  }
}

// A world of 100 km square does not get 625 million buckets of 4 m: the bucket grows.
TEST(StaticGeometry, AHugeWorldGetsLargerBuckets) {
  StaticGeometry g;
  g.bounds = {0, 0, 100000, 100000};
  g.obstacles = {{{50000, 50000}, 3}};
  g.index(4.0f, 6.0f);
  EXPECT_EQ(g.obstaclesNear(50005, 50000).size(), 1u);
  EXPECT_TRUE(g.obstaclesNear(10, 10).empty());
}

// Sight asks only the walls bucketed around the segment: it must answer as trying every wall does
// (an unindexed copy), with walls crossing near an end, many walls in one place (more than its
// array holds), and segments longer than a bucket.
TEST(StaticGeometry, SightThroughBucketsAnswersAsEveryWallDoes) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(0.0f, 200.0f), d(-6.0f, 6.0f), len(0.5f, 60.0f);
  StaticGeometry indexed;
  indexed.bounds = {0, 0, 200, 200};
  for (int i = 0; i < 300; ++i) {
    const steer::Vec2 a{u(rng), u(rng)};
    indexed.walls.push_back(steer::makeWall(a, a + steer::Vec2{d(rng), d(rng)}));
  }
  for (int i = 0; i < 100; ++i) {  // a thicket: 100 short walls in a 4 m square
    const steer::Vec2 a{100 + d(rng) / 3, 100 + d(rng) / 3};
    indexed.walls.push_back(steer::makeWall(a, a + steer::Vec2{d(rng) / 3, d(rng) / 3}));
  }
  StaticGeometry everyWall = indexed;
  indexed.index(4.0f, 6.0f);
  ASSERT_TRUE(indexed.indexed());
  ASSERT_FALSE(everyWall.indexed());
  int blocked = 0;
  for (int i = 0; i < 20000; ++i) {
    const steer::Vec2 from =
        i % 4 == 0 ? steer::Vec2{100 + d(rng), 100 + d(rng)} : steer::Vec2{u(rng), u(rng)};
    const float angle = u(rng);
    const steer::Vec2 to = from + steer::Vec2{std::cos(angle), std::sin(angle)} * len(rng);
    const bool b = sightBlocked(indexed, from, to);
    ASSERT_EQ(b, sightBlocked(everyWall, from, to))
        << from.x << "," << from.y << " -> " << to.x << "," << to.y;
    blocked += b ? 1 : 0;
  }
  EXPECT_GT(blocked, 1000);
  EXPECT_LT(blocked, 19000);
}

}  // namespace
}  // namespace steerd
