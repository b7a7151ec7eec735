#include "world/static_geometry.h"

#include <gtest/gtest.h>

#include <limits>

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

}  // namespace
}  // namespace steerd
