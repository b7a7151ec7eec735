// steering/polygon.h: what a polygon obstacle is checked against, and the triangles the navmesh is
// carved with and the viewer fills with.
#include "steering/polygon.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace steer {
namespace {

// An L, counter-clockwise: the notch is the square (-1, -1)..(3, 3).
const std::vector<Vec2> kEll{{-3, -3}, {3, -3}, {3, -1}, {-1, -1}, {-1, 3}, {-3, 3}};

float triangleArea2(Vec2 a, Vec2 b, Vec2 c) { return std::fabs(cross(b - a, c - a)); }

TEST(Polygon, AreaSignGivesTheWinding) {
  EXPECT_FLOAT_EQ(signedArea2(kEll), 2.0f * 20.0f);
  const std::vector<Vec2> cw(kEll.rbegin(), kEll.rend());
  EXPECT_FLOAT_EQ(signedArea2(cw), -40.0f);
}

TEST(Polygon, ConvexOnlyWhenItNeverTurnsRight) {
  EXPECT_FALSE(isConvexCcw(kEll));
  EXPECT_TRUE(isConvexCcw(std::vector<Vec2>{{0, 0}, {2, 0}, {2, 1}, {0, 1}}));
  EXPECT_TRUE(isConvexCcw(std::vector<Vec2>{{0, 0}, {1, 0}, {2, 0}, {1, 1}})) << "a straight run is convex";
}

TEST(Polygon, InsideTheArmsNotTheNotch) {
  EXPECT_TRUE(insidePolygon({-2, 2}, kEll));
  EXPECT_TRUE(insidePolygon({2, -2}, kEll));
  EXPECT_FALSE(insidePolygon({2, 2}, kEll));
  EXPECT_FALSE(insidePolygon({5, 0}, kEll));
}

TEST(Polygon, SimpleOutlinesPassAndEachFaultIsNamed) {
  EXPECT_EQ(simplePolygonProblem(kEll), "");
  EXPECT_EQ(simplePolygonProblem(std::vector<Vec2>(kEll.rbegin(), kEll.rend())), "") << "either winding";
  EXPECT_EQ(simplePolygonProblem(std::vector<Vec2>{{0, 0}, {1, 0}}), "needs at least 3 points, has 2");
  EXPECT_EQ(simplePolygonProblem(std::vector<Vec2>{{0, 0}, {2, 2}, {2, 0}, {0, 2}}),
            "edges 0 and 2 cross (not a simple polygon)")
      << "a bow tie";
  EXPECT_EQ(simplePolygonProblem(std::vector<Vec2>{{0, 0}, {1, 0}, {1, 0}, {0, 1}}),
            "points 1 and next are the same");
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(simplePolygonProblem(std::vector<Vec2>{{0, 0}, {nan, 0}, {0, 1}}), "a point is not finite");
  EXPECT_EQ(simplePolygonProblem(std::vector<Vec2>{{0, 0}, {2, 0}, {1, 0}}),
            "edges 0 and 1 fold back over each other")
      << "a spike along one line";
  // Two corners touching: a figure eight pinched at (2, 0).
  EXPECT_NE(simplePolygonProblem(std::vector<Vec2>{{0, 0}, {2, 0}, {4, 0}, {4, 2}, {2, 0}, {0, 2}}), "");
}

TEST(Polygon, TrianglesCoverTheOutlineExactly) {
  for (const auto& poly : {kEll, std::vector<Vec2>(kEll.rbegin(), kEll.rend())}) {
    const std::vector<Triangle> t = triangulate(poly);
    ASSERT_EQ(t.size(), poly.size() - 2);
    float area2 = 0.0f;
    for (const Triangle& tri : t) {
      area2 += triangleArea2(poly[tri[0]], poly[tri[1]], poly[tri[2]]);
      // Each triangle's centre lies inside the polygon: none covers the notch.
      const Vec2 centre = (poly[tri[0]] + poly[tri[1]] + poly[tri[2]]) * (1.0f / 3.0f);
      EXPECT_TRUE(insidePolygon(centre, poly)) << centre.x << ", " << centre.y;
    }
    EXPECT_FLOAT_EQ(area2, std::fabs(signedArea2(poly)));
  }
}

TEST(Polygon, ASelfCrossingOutlineStillEnds) {
  const std::vector<Vec2> bowTie{{0, 0}, {2, 2}, {2, 0}, {0, 2}};
  EXPECT_LE(triangulate(bowTie).size(), 2u);
}

}  // namespace
}  // namespace steer
