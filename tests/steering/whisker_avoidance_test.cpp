#include "steering/whisker_avoidance.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "steering/seek.h"

namespace steer {
namespace {

void expectFinite(SteeringOutput s) {
  EXPECT_TRUE(isFinite(s.linear)) << s.linear.x << ", " << s.linear.y;
  EXPECT_TRUE(isFinite(s.angular));
}

// A 90-degree concave corner with its vertex at the origin; bodies live in x < 0, y < 0.
// makeWall's normal is the left-hand one: (0,-20)->(0,0) faces -x, (0,0)->(-20,0) faces -y.
const std::array<Wall, 2> kCorner{makeWall({0, -20}, {0, 0}), makeWall({0, 0}, {-20, 0})};

Body bodyAt(Vec2 p, float headingDegrees) {
  Body b;
  b.position = p;
  b.heading = fromAngle(headingDegrees * kPi / 180.0f);
  b.limits.maxSpeed = 2.0f;
  b.limits.maxForce = 4.0f;
  b.limits.radius = 0.5f;
  b.velocity = b.heading * b.limits.maxSpeed;
  return b;
}

// Sideways (local +y) part of a world force for a body.
float lateral(const Body& b, Vec2 force) { return unrotate(force, b.heading).y; }

TEST(CastRay, HitsTheNearestWallOrInflatedCircle) {
  const std::array<Wall, 1> walls{makeWall({5, -5}, {5, 5})};  // x = 5, facing -x
  const std::array<CircleObstacle, 1> circles{{{{3, 0}, 0.5f}}};
  const auto hit = castRay({0, 0}, {1, 0}, 10.0f, walls, circles, 0.5f);
  ASSERT_TRUE(hit.has_value());
  EXPECT_NEAR(hit->distance, 2.0f, 1e-5f);  // circle edge 3 - (0.5 + 0.5)
  EXPECT_NEAR(hit->normal.x, -1.0f, 1e-5f);
  const auto wallOnly = castRay({0, 0}, {1, 0}, 10.0f, walls, {}, 0.5f);
  ASSERT_TRUE(wallOnly.has_value());
  EXPECT_NEAR(wallOnly->distance, 5.0f, 1e-5f);
  EXPECT_FALSE(castRay({0, 0}, {1, 0}, 4.0f, walls, {}, 0.5f).has_value());  // too short
  EXPECT_FALSE(castRay({0, 0}, {-1, 0}, 10.0f, walls, circles, 0.5f).has_value());
}

TEST(CastRay, RayIntoACornerVertexGetsTheAveragedNormal) {
  const auto hit = castRay({-2, -2}, normalized(Vec2{1, 1}), 5.0f, kCorner, {}, 0.0f);
  ASSERT_TRUE(hit.has_value());
  EXPECT_NEAR(hit->distance, 2.0f * std::sqrt(2.0f), 1e-4f);
  EXPECT_NEAR(hit->normal.x, -std::sqrt(0.5f), 1e-5f);
  EXPECT_NEAR(hit->normal.y, -std::sqrt(0.5f), 1e-5f);
}

TEST(CastRay, DegenerateInputsStayFinite) {
  const std::array<Wall, 1> zeroWall{makeWall({1, 0}, {1, 0})};
  const std::array<CircleObstacle, 2> circles{{{{0, 0}, 1.0f}, {{2, 0}, 0.0f}}};
  EXPECT_FALSE(castRay({0, 0}, {1, 0}, 5.0f, zeroWall, {}, 0.0f).has_value());
  EXPECT_FALSE(castRay({0, 0}, {1, 0}, 0.0f, zeroWall, circles, 0.0f).has_value());
  // Starting at a circle's centre: inside, hit at 0, normal falls back to -dir.
  const auto inside = castRay({0, 0}, {1, 0}, 5.0f, {}, circles, 0.0f);
  ASSERT_TRUE(inside.has_value());
  EXPECT_EQ(inside->distance, 0.0f);
  EXPECT_TRUE(isFinite(inside->normal));
  EXPECT_NEAR(inside->normal.x, -1.0f, 1e-6f);
}

// Body on the corner's bisector, 2 from each wall, heading straight into the vertex. Central ray
// (3) hits the vertex at 2.83 with the averaged normal (straight back). Whiskers (2.25 at +-45
// degrees) point straight at the walls: left hits y = 0 at 2, normal (0,-1); right hits x = 0 at 2,
// normal (-1,0). Each overshoots by 0.25; their sideways parts are +-0.25 * cos 45 and cancel.
TEST(WhiskerAvoidance, NaiveSumCancelsSidewaysInASymmetricCorner) {
  const Body b = bodyAt({-2, -2}, 45.0f);
  const WhiskerHits hits = castWhiskers(b, kCorner, {});
  ASSERT_TRUE(hits.centre && hits.left && hits.right);
  EXPECT_NEAR(hits.left->distance, 2.0f, 1e-5f);
  EXPECT_NEAR(hits.right->distance, 2.0f, 1e-5f);
  const SteeringOutput naive = naiveWhiskerSum(hits);
  EXPECT_NEAR(lateral(b, naive.linear), 0.0f, 1e-5f);  // no turn at all: the trap
  // Straight back: centre overshoot (3 - 2 sqrt 2) + both whiskers 0.25 * cos 45.
  const float back = (3.0f - 2.0f * std::sqrt(2.0f)) + 2.0f * 0.25f * std::sqrt(0.5f);
  EXPECT_NEAR(unrotate(naive.linear, b.heading).x, -back, 1e-4f);
}

TEST(WhiskerAvoidance, SymmetricCornerTurnsLeftWithTheSummedOvershoot) {
  const Body b = bodyAt({-2, -2}, 45.0f);
  const SteeringOutput s = whiskerAvoidance(b, kCorner, {});
  const Vec2 local = unrotate(s.linear, b.heading);
  // Tie broken to the left; strength = all overshoots: (3 - 2 sqrt 2) + 0.25 + 0.25.
  EXPECT_NEAR(local.y, (3.0f - 2.0f * std::sqrt(2.0f)) + 0.5f, 1e-4f);
  // The naive braking part is kept.
  EXPECT_NEAR(local.x, unrotate(naiveWhiskerSum(castWhiskers(b, kCorner, {})).linear, b.heading).x, 1e-5f);
  EXPECT_EQ(cornerTurnSide(b.heading, castWhiskers(b, kCorner, {})), 1.0f);
}

TEST(WhiskerAvoidance, OffBisectorTurnsTowardTheCheaperEscape) {
  // Heading 35 degrees: escaping left means turning to 180 (145 degrees), right to -90 (125): right.
  const Body right = bodyAt({-2, -2}, 35.0f);
  EXPECT_EQ(cornerTurnSide(right.heading, castWhiskers(right, kCorner, {})), -1.0f);
  EXPECT_LT(lateral(right, whiskerAvoidance(right, kCorner, {}).linear), 0.0f);
  const Body left = bodyAt({-2, -2}, 55.0f);
  EXPECT_EQ(cornerTurnSide(left.heading, castWhiskers(left, kCorner, {})), 1.0f);
  EXPECT_GT(lateral(left, whiskerAvoidance(left, kCorner, {}).linear), 0.0f);
}

TEST(WhiskerAvoidance, CorridorKeepsTheCentringNaiveSum) {
  // Walls parallel to the heading at y = 1 and y = -1.4, both within the whiskers' reach
  // (2.25 sin 45 = 1.59): not a corner. The nearer (upper) wall pushes harder, so the body is
  // pushed down, towards the middle, exactly as the naive sum says.
  const std::array<Wall, 2> corridor{makeWall({20, 1.0f}, {-20, 1.0f}), makeWall({-20, -1.4f}, {20, -1.4f})};
  const Body b = bodyAt({0, 0}, 0.0f);
  const WhiskerHits hits = castWhiskers(b, corridor, {});
  ASSERT_TRUE(hits.left && hits.right);
  const SteeringOutput s = whiskerAvoidance(b, corridor, {});
  EXPECT_EQ(s, naiveWhiskerSum(hits));
  EXPECT_LT(s.linear.y, 0.0f);
}

TEST(WhiskerAvoidance, HeadOnCircleIsPassedOnTheLeft) {
  const std::array<CircleObstacle, 1> circles{{{{2, 0}, 0.5f}}};
  const Body b = bodyAt({0, 0}, 0.0f);
  const SteeringOutput s = whiskerAvoidance(b, {}, circles);
  EXPECT_GT(s.linear.y, 0.0f);
  EXPECT_LT(s.linear.x, 0.0f);
}

struct SimResult {
  float minWallClearance = 1e9f;    // min over ticks of the centre's distance to the nearer wall line
  float maxTurnWhileMoving = 0.0f;  // degrees off the initial heading before first slowing below maxSpeed/4
  float finalDistanceToVertex = 0.0f;
};

// Dynamic point mass (STEERING.md section 1) seeking (5, 5), beyond the vertex, from (-8, -8) on
// the bisector. Avoidance has priority in Buckland's running-sum sense: its weighted force is
// spent first and seek gets what is left of maxForce.
template <typename Avoid>
SimResult simulateCorner(Avoid avoid) {
  Body b = bodyAt({-8, -8}, 45.0f);
  const Vec2 target{5, 5};
  const float dt = 0.05f;
  const float initial = toAngle(b.heading);
  SimResult r;
  bool slowed = false;
  for (int i = 0; i < 2000; ++i) {
    Vec2 force = truncate(avoid(b).linear * 2.0f, b.limits.maxForce);
    force += truncate(seek(b, target).linear, b.limits.maxForce - length(force));
    b.velocity = truncate(b.velocity + force / b.limits.mass * dt, b.limits.maxSpeed);
    b.position += b.velocity * dt;
    if (length(b.velocity) > 1e-6f) b.heading = normalized(b.velocity);
    r.minWallClearance = std::min(r.minWallClearance, std::min(-b.position.x, -b.position.y));
    slowed = slowed || length(b.velocity) < 0.25f * b.limits.maxSpeed;
    if (!slowed) {
      const float turn = std::abs(wrapAngle(toAngle(b.heading) - initial)) * 180.0f / kPi;
      r.maxTurnWhileMoving = std::max(r.maxTurnWhileMoving, turn);
    }
  }
  r.finalDistanceToVertex = length(b.position);
  return r;
}

// The corner trap. With the naive sum the body drives straight at the vertex and stalls facing it
// (its heading never turns more than a few degrees before the braking stops it). With the corner
// fix it turns well away (> 60 degrees) while still moving. A memoryless agent seeking a point
// behind a wall will always come back (that target needs a path, seed 003), but it never
// penetrates a wall and stays clear of the vertex.
TEST(WhiskerAvoidance, BodySeekingPastAConcaveCornerTurnsAwayAndNeverPenetrates) {
  const SimResult naive =
      simulateCorner([](const Body& b) { return naiveWhiskerSum(castWhiskers(b, kCorner, {})); });
  const SimResult fixed = simulateCorner([](const Body& b) { return whiskerAvoidance(b, kCorner, {}); });
  EXPECT_LT(naive.maxTurnWhileMoving, 10.0f);
  EXPECT_GT(fixed.maxTurnWhileMoving, 60.0f);
  EXPECT_GT(fixed.minWallClearance, 0.5f);  // the body's radius: never touches a wall
  EXPECT_GT(fixed.finalDistanceToVertex, 2.0f);
}

TEST(WhiskerAvoidance, DegenerateInputsGiveFiniteOutput) {
  const std::array<Wall, 1> zeroWall{makeWall({1, 0}, {1, 0})};
  const std::array<CircleObstacle, 1> onBody{{{{0, 0}, 1.0f}}};
  Body b = bodyAt({0, 0}, 0.0f);
  expectFinite(whiskerAvoidance(b, zeroWall, onBody));
  b.velocity = {};
  b.limits.maxSpeed = 0.0f;
  b.heading = {};
  expectFinite(whiskerAvoidance(b, zeroWall, onBody));
  b.limits.radius = 0.0f;
  expectFinite(whiskerAvoidance(b, zeroWall, onBody));
  EXPECT_EQ(whiskerAvoidance(b, {}, {}), SteeringOutput{});
  WhiskerParams off;
  off.rayLength = 0.0f;
  EXPECT_EQ(whiskerAvoidance(b, kCorner, onBody, off), SteeringOutput{});
  // Standing on the vertex itself.
  expectFinite(whiskerAvoidance(bodyAt({0, 0}, 45.0f), kCorner, {}));
}

}  // namespace
}  // namespace steer
