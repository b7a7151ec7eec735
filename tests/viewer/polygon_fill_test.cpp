#include "viewer/polygon_fill.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace steerd::viewer {
namespace {

float triangleArea(const std::vector<Point>& p, const Triangle& t) {
  const Point a = p[t[0]], b = p[t[1]], c = p[t[2]];
  return std::abs((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)) * 0.5f;
}

float filledArea(const std::vector<Point>& p) {
  float sum = 0.0f;
  for (const Triangle& t : triangulate(p)) sum += triangleArea(p, t);
  return sum;
}

// Even-odd test: is p inside the polygon?
bool contains(const std::vector<Point>& poly, Point p) {
  bool in = false;
  for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
    const Point a = poly[i], b = poly[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) in = !in;
  }
  return in;
}

TEST(PolygonFill, ASquareIsTwoTriangles) {
  const std::vector<Point> square{{0, 0}, {4, 0}, {4, 4}, {0, 4}};
  EXPECT_EQ(triangulate(square).size(), 2u);
  EXPECT_FLOAT_EQ(filledArea(square), 16.0f);
}

TEST(PolygonFill, ANonConvexPolygonIsFilledExactlyEitherWinding) {
  // An L: the 4 x 4 square less its 2 x 2 top-right corner, area 12.
  std::vector<Point> l{{0, 0}, {4, 0}, {4, 2}, {2, 2}, {2, 4}, {0, 4}};
  for (int winding = 0; winding < 2; ++winding) {
    const auto triangles = triangulate(l);
    EXPECT_EQ(triangles.size(), 4u);
    EXPECT_FLOAT_EQ(filledArea(l), 12.0f);
    for (const Triangle& t : triangles) {
      const Point c{(l[t[0]].x + l[t[1]].x + l[t[2]].x) / 3, (l[t[0]].y + l[t[1]].y + l[t[2]].y) / 3};
      EXPECT_TRUE(contains(l, c)) << "a triangle outside the polygon, centroid " << c.x << ", " << c.y;
    }
    std::reverse(l.begin(), l.end());
  }
}

TEST(PolygonFill, PointsOnAStraightEdgeAreFine) {
  const std::vector<Point> p{{0, 0}, {2, 0}, {4, 0}, {4, 4}, {0, 4}};
  EXPECT_FLOAT_EQ(filledArea(p), 16.0f);
}

TEST(PolygonFill, DegenerateInputGivesNothingOrSomethingButAlwaysEnds) {
  EXPECT_TRUE(triangulate({}).empty());
  EXPECT_TRUE(triangulate({{0, 0}, {1, 1}}).empty());
  EXPECT_TRUE(triangulate({{0, 0}, {1, 1}, {2, 2}, {3, 3}}).empty());  // a line has no area
  // A bow tie (self-crossing): whatever it draws, it returns.
  const auto bowTie = triangulate({{0, 0}, {4, 4}, {4, 0}, {0, 4}});
  EXPECT_LE(bowTie.size(), 2u);
}

}  // namespace
}  // namespace steerd::viewer
