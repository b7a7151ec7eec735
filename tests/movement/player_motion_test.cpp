// The player movement model (server/movement/player_motion.h): the same steps give the same bits,
// the body never ends a step inside the geometry, it slides along walls and round obstacles, and
// bad intents move nothing.
#include "movement/player_motion.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace steerd::movement {
namespace {

steer::BodyLimits playerLimits() {
  steer::BodyLimits l;
  l.radius = 0.5f;
  l.mass = 1.0f;
  l.maxSpeed = 6.0f;
  l.maxForce = 40.0f;
  l.maxTurnRate = -1.0f;  // no turn limit: a player turns on the spot
  return l;
}

// A 100 m field: a wall from (50, 20) to (50, 80), a building (four walls) at 70..80 x 40..50, and
// a rock at (20, 50), radius 5.
CollisionScene field() {
  std::vector<Segment> walls = {{{50, 20}, {50, 80}},
                                {{70, 40}, {80, 40}},
                                {{80, 40}, {80, 50}},
                                {{80, 50}, {70, 50}},
                                {{70, 50}, {70, 40}}};
  return CollisionScene(0, 0, 100, 100, {{{20, 50}, 5.0f}}, std::move(walls));
}

// How far a body of `radius` at p is inside any shape (0: free).
float penetration(Vec2 p, float radius, const CollisionScene& s) {
  float worst = 0.0f;
  for (const Circle& c : s.obstacles())
    worst = std::max(worst, c.radius + radius - steer::distance(p, c.centre));
  for (const Segment& w : s.walls()) {
    const Vec2 ab = w.to - w.from;
    const float t = std::clamp(steer::dot(p - w.from, ab) / steer::lengthSq(ab), 0.0f, 1.0f);
    worst = std::max(worst, radius - steer::distance(p, w.from + ab * t));
  }
  return worst;
}

bool sameBits(const PlayerState& a, const PlayerState& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(PlayerMotion, OnOpenGroundItReachesMaxSpeedAndNoMore) {
  const CollisionScene s = field();
  PlayerState p{{10, 10}, {}};
  for (int i = 0; i < 60; ++i) p = stepPlayer(p, {{1, 0}, 1.0f / 30.0f}, playerLimits(), s);
  EXPECT_NEAR(steer::length(p.velocity), 6.0f, 1e-3f);
  EXPECT_NEAR(p.velocity.y, 0.0f, 1e-6f);
  // A move longer than 1 asks for no more than max speed.
  PlayerState q{{10, 10}, {}};
  for (int i = 0; i < 60; ++i) q = stepPlayer(q, {{50, 0}, 1.0f / 30.0f}, playerLimits(), s);
  EXPECT_TRUE(sameBits(p, q));
}

TEST(PlayerMotion, IntoAWallItStopsAtTheWallAndSlidesAlongIt) {
  const CollisionScene s = field();
  PlayerState p{{40, 30}, {}};
  // Diagonally into the wall at x = 50, for 6 s.
  for (int i = 0; i < 180; ++i) {
    p = stepPlayer(p, {{0.7071f, 0.7071f}, 1.0f / 30.0f}, playerLimits(), s);
    ASSERT_LE(penetration(p.position, 0.5f, s), 1e-4f) << "step " << i;
    ASSERT_LE(p.position.x, 49.5f + 1e-4f) << "never through the wall";
  }
  EXPECT_NEAR(p.position.x, 49.5f, 1e-3f);
  EXPECT_GT(p.position.y, 45.0f) << "it slid up along the wall";
  EXPECT_NEAR(p.velocity.x, 0.0f, 1e-3f) << "nothing left into the wall";
}

TEST(PlayerMotion, RoundABuildingAndARockItNeverEntersThem) {
  const CollisionScene s = field();
  PlayerState p{{60, 45}, {}};
  // East through the building, then west through the rock: pressed into both, and round.
  for (int i = 0; i < 300; ++i) {
    const Vec2 move = i < 150 ? Vec2{1, 0.05f} : Vec2{-1, 0.02f};
    p = stepPlayer(p, {move, 1.0f / 30.0f}, playerLimits(), s);
    ASSERT_LE(penetration(p.position, 0.5f, s), 1e-4f) << "step " << i;
  }
}

TEST(PlayerMotion, AFastBodyDoesNotPassThroughAThinWall) {
  const CollisionScene s = field();
  steer::BodyLimits fast = playerLimits();
  fast.maxSpeed = 200.0f;
  fast.maxForce = 10000.0f;
  PlayerState p{{45, 50}, {200, 0}};
  // One long step that would carry it 20 m, across the wall at x = 50.
  p = stepPlayer(p, {{1, 0}, 0.1f}, fast, s);
  EXPECT_LE(p.position.x, 49.5f + 1e-4f);
}

TEST(PlayerMotion, BoundsHoldTheBody) {
  const CollisionScene s = field();
  PlayerState p{{2, 2}, {}};
  for (int i = 0; i < 60; ++i) p = stepPlayer(p, {{-1, -1}, 1.0f / 30.0f}, playerLimits(), s);
  EXPECT_FLOAT_EQ(p.position.x, 0.5f);
  EXPECT_FLOAT_EQ(p.position.y, 0.5f);
}

TEST(PlayerMotion, BadIntentsMoveNothingOrNoFasterThanAllowed) {
  const CollisionScene s = field();
  const PlayerState p{{10, 10}, {1, 0}};
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(sameBits(stepPlayer(p, {{1, 0}, nan}, playerLimits(), s), p));
  EXPECT_TRUE(sameBits(stepPlayer(p, {{1, 0}, -0.1f}, playerLimits(), s), p));
  EXPECT_TRUE(sameBits(stepPlayer(p, {{1, 0}, inf}, playerLimits(), s), p));
  // A NaN move is no move asked for: the body brakes, it does not go NaN.
  const PlayerState q = stepPlayer(p, {{nan, 1}, 1.0f / 30.0f}, playerLimits(), s);
  EXPECT_TRUE(steer::isFinite(q.position) && steer::isFinite(q.velocity));
  EXPECT_LT(q.velocity.x, 1.0f);
  EXPECT_EQ(clampedMove({inf, 0}), Vec2{});
  EXPECT_NEAR(steer::length(clampedMove({3, 4})), 1.0f, 1e-6f);
}

TEST(PlayerMotion, TheSameInputsFromTheSameStateGiveTheSameBits) {
  const CollisionScene a = field();
  const CollisionScene b = field();  // built apart, as the server and a client build theirs
  PlayerState x{{30, 30}, {}}, y{{30, 30}, {}};
  for (int i = 0; i < 2000; ++i) {
    const float t = static_cast<float>(i) * 0.013f;
    const PlayerIntent in{{std::cos(t * 1.7f), std::sin(t * 1.1f)},
                          1.0f / 30.0f + 0.001f * static_cast<float>(i % 7)};
    x = stepPlayer(x, in, playerLimits(), a);
    y = stepPlayer(y, in, playerLimits(), b);
    ASSERT_TRUE(sameBits(x, y)) << "step " << i;
  }
}

TEST(PlayerMotion, AGridOfManyShapesFindsTheSameContactsAsNone) {
  // Many obstacles (bucketed) against the same obstacles checked one by one.
  std::vector<Circle> rocks;
  for (int i = 0; i < 400; ++i)
    rocks.push_back(
        {{5.0f + static_cast<float>(i % 20) * 10.0f, 5.0f + static_cast<float>(i / 20) * 10.0f}, 2.0f});
  const CollisionScene bucketed(0, 0, 200, 200, rocks, {});
  PlayerState p{{1, 1}, {}};
  for (int i = 0; i < 600; ++i) {
    p = stepPlayer(p, {{0.8f, 0.6f}, 1.0f / 30.0f}, playerLimits(), bucketed);
    ASSERT_LE(penetration(p.position, 0.5f, bucketed), 1e-4f) << "step " << i;
  }
  EXPECT_GT(p.position.x + p.position.y, 100.0f) << "it got through the field";
}

TEST(PlayerMotion, AGapNarrowerThanTheBodyStopsItClearInsteadOfSqueezingIn) {
  // A rock whose edge is 0.5 m from a wall: a body of radius 0.5 does not fit between them.
  const CollisionScene s(0, 0, 200, 200, {{{104, 50}, 1.5f}}, {{{106, 40}, {106, 60}}});
  PlayerState p{{105.4f, 44.0f}, {}};
  for (int i = 0; i < 120; ++i) {
    p = stepPlayer(p, {{0.1f, 1.0f}, 1.0f / 30.0f}, playerLimits(), s);
    ASSERT_LE(penetration(p.position, 0.5f, s), 1e-4f) << "step " << i;
  }
  EXPECT_LT(p.position.y, 50.0f) << "it stopped short of the gap";
}

// moveBlocked, the scene test stepPlayer's substeps and the server's position inputs share: a move
// that ends in a shape, crosses a wall, or takes the centre through a rock is blocked, however
// clear its ends are; one that only grazes a rock (its body, not its centre) is not.
TEST(PlayerMotion, AMoveIsBlockedThroughAWallOrARockOrIntoOne) {
  const CollisionScene s = field();
  EXPECT_FALSE(moveBlocked({40, 30}, {41, 31}, 0.5f, s)) << "open ground";
  EXPECT_TRUE(moveBlocked({49, 30}, {51, 30}, 0.5f, s)) << "across the wall, both ends clear";
  EXPECT_TRUE(moveBlocked({49, 30}, {49.8f, 30}, 0.5f, s)) << "ends overlapping the wall";
  EXPECT_TRUE(moveBlocked({10, 50}, {30, 50}, 0.5f, s)) << "through the rock, both ends clear";
  EXPECT_TRUE(moveBlocked({10, 50}, {15, 50}, 0.5f, s)) << "ends in the rock";
  EXPECT_FALSE(moveBlocked({10, 55.4f}, {30, 55.4f}, 0.5f, s)) << "the body grazes the rock's edge";
  EXPECT_TRUE(moveBlocked({75, 30}, {75, 45}, 0.5f, s)) << "into the building";
  EXPECT_FALSE(moveBlocked({40, 30}, {40, 30}, 0.5f, s)) << "standing still in the open";
  EXPECT_TRUE(moveBlocked({20, 50}, {20, 50}, 0.5f, s)) << "standing still in the rock";
}

}  // namespace
}  // namespace steerd::movement
