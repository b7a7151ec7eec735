#include "steering/neighbours.h"

#include <gtest/gtest.h>

#include <limits>

namespace steer {
namespace {

Body facingPlusX() {
  Body b;
  b.position = {0, 0};
  b.heading = {1, 0};
  return b;
}

Kinematic at(Vec2 p) {
  Kinematic k;
  k.position = p;
  return k;
}

TEST(CosHalfFov, KnownAngles) {
  EXPECT_EQ(cosHalfFovFromDegrees(360.0f), -1.0f);
  EXPECT_EQ(cosHalfFovFromDegrees(720.0f), -1.0f);
  EXPECT_NEAR(cosHalfFovFromDegrees(180.0f), 0.0f, 1e-6f);
  EXPECT_NEAR(cosHalfFovFromDegrees(270.0f), -0.70710678f, 1e-6f);
  EXPECT_NEAR(cosHalfFovFromDegrees(90.0f), 0.70710678f, 1e-6f);
  EXPECT_EQ(cosHalfFovFromDegrees(0.0f), 1.0f);
  EXPECT_EQ(cosHalfFovFromDegrees(-30.0f), 1.0f);
}

TEST(CosHalfFov, NaNMeansNoRestriction) {
  EXPECT_EQ(cosHalfFovFromDegrees(std::numeric_limits<float>::quiet_NaN()), -1.0f);
}

TEST(InNeighbourhood, NeighbourDirectlyBehindExcludedAt270IncludedAt360) {
  const Body self = facingPlusX();
  const Kinematic behind = at({-2, 0});
  EXPECT_FALSE(inNeighbourhood(self, behind, 5.0f, cosHalfFovFromDegrees(270.0f)));
  EXPECT_TRUE(inNeighbourhood(self, behind, 5.0f, cosHalfFovFromDegrees(360.0f)));
}

TEST(InNeighbourhood, RadiusIsInclusiveAndFarIsOut) {
  const Body self = facingPlusX();
  EXPECT_TRUE(inNeighbourhood(self, at({3, 4}), 5.0f, -1.0f));
  EXPECT_FALSE(inNeighbourhood(self, at({3, 4.01f}), 5.0f, -1.0f));
}

TEST(InNeighbourhood, FieldOfViewEdges) {
  const Body self = facingPlusX();
  const float c180 = cosHalfFovFromDegrees(180.0f);
  EXPECT_TRUE(inNeighbourhood(self, at({1, 1}), 5.0f, c180));       // 45 degrees left
  EXPECT_TRUE(inNeighbourhood(self, at({0.01f, -2}), 5.0f, c180));  // just ahead of abeam
  EXPECT_FALSE(inNeighbourhood(self, at({-0.01f, 2}), 5.0f, c180));
  // 270 degrees: 135 degrees either side. 120 degrees is in, 150 is out.
  const float c270 = cosHalfFovFromDegrees(270.0f);
  const float degree = kPi / 180.0f;
  EXPECT_TRUE(inNeighbourhood(self, at(fromAngle(120.0f * degree) * 2.0f), 5.0f, c270));
  EXPECT_TRUE(inNeighbourhood(self, at(fromAngle(-120.0f * degree) * 2.0f), 5.0f, c270));
  EXPECT_FALSE(inNeighbourhood(self, at(fromAngle(150.0f * degree) * 2.0f), 5.0f, c270));
  EXPECT_FALSE(inNeighbourhood(self, at(fromAngle(-150.0f * degree) * 2.0f), 5.0f, c270));
}

TEST(InNeighbourhood, FollowsHeadingNotWorldAxes) {
  Body self = facingPlusX();
  self.position = {10, 10};
  self.heading = {0, -1};  // facing south
  const float c180 = cosHalfFovFromDegrees(180.0f);
  EXPECT_TRUE(inNeighbourhood(self, at({10, 8}), 5.0f, c180));
  EXPECT_FALSE(inNeighbourhood(self, at({10, 12}), 5.0f, c180));
}

TEST(InNeighbourhood, CoincidentBodyIsANeighbourWhateverTheFov) {
  const Body self = facingPlusX();
  EXPECT_TRUE(inNeighbourhood(self, at({0, 0}), 5.0f, cosHalfFovFromDegrees(90.0f)));
  EXPECT_TRUE(inNeighbourhood(self, at({0, 0}), 0.0f, 1.0f));
}

TEST(InNeighbourhood, BadRadiusOrPositionAdmitsNothing) {
  const Body self = facingPlusX();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(inNeighbourhood(self, at({1, 0}), -1.0f, -1.0f));
  EXPECT_FALSE(inNeighbourhood(self, at({0, 0}), -1.0f, -1.0f));
  EXPECT_FALSE(inNeighbourhood(self, at({1, 0}), nan, -1.0f));
  EXPECT_FALSE(inNeighbourhood(self, at({nan, 0}), 5.0f, -1.0f));
  EXPECT_FALSE(inNeighbourhood(self, at({std::numeric_limits<float>::infinity(), 0}), 5.0f, -1.0f));
}

TEST(InNeighbourhood, ZeroHeadingStillAdmitsWithFullFov) {
  Body self = facingPlusX();
  self.heading = {};
  EXPECT_TRUE(inNeighbourhood(self, at({-1, 0}), 5.0f, -1.0f));
}

}  // namespace
}  // namespace steer
