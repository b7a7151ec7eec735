// Navigation's corner rule (navigation.h, pastCorner): a walker the crowd pushed round a corner
// wide of its reach circle goes on to the next corner, but never across the end of a thin wall.
#include "world/navigation.h"

#include <gtest/gtest.h>

namespace steerd {
namespace {

using steer::Vec2;

// A left turn at (10, 0): east along y = 0, then north. The obstacle it turns round is to the
// north-west of the corner.
constexpr Vec2 kBefore{0, 0}, kCorner{10, 0}, kNext{10, 10};

TEST(PastCorner, BeyondTheCornerAlongBothLegsAndNearIsPast) {
  EXPECT_TRUE(pastCorner(kBefore, kCorner, kNext, {10.5f, 1.0f}));
  EXPECT_TRUE(pastCorner(kBefore, kCorner, kNext, {12.0f, 1.5f}));
}

TEST(PastCorner, BeforeTheCornerOnEitherLegIsNot) {
  EXPECT_FALSE(pastCorner(kBefore, kCorner, kNext, {9.0f, -0.5f}));   // still on the leg in
  EXPECT_FALSE(pastCorner(kBefore, kCorner, kNext, {10.5f, -1.0f}));  // beyond it, but short of the turn
  EXPECT_FALSE(pastCorner(kBefore, kCorner, kNext, kCorner));         // on it: the reach circle's case
}

TEST(PastCorner, FartherThanItsReachIsNot) {
  EXPECT_FALSE(pastCorner(kBefore, kCorner, kNext, {10.0f + kPastCornerWithin, 0.5f}));
  EXPECT_TRUE(pastCorner(kBefore, kCorner, kNext, {10.0f + 0.9f * kPastCornerWithin, 0.1f}));
}

// The path turns back round the end of a thin wall along y = 0.5, x < 10: east below it, round
// (10, 0), then west above it. A walker still coming east below the wall is beyond the corner
// along the leg out (west), but heading there would walk it into the wall.
TEST(PastCorner, NotAcrossTheEndOfAThinWall) {
  const Vec2 back{0.0f, 1.0f};
  EXPECT_FALSE(pastCorner(kBefore, kCorner, back, {8.0f, 0.2f}));
  EXPECT_TRUE(pastCorner(kBefore, kCorner, back, {10.1f, 1.5f}));  // round the end, above it
}

}  // namespace
}  // namespace steerd
