// The avatar: keyboard and pointer movement stay under the server's speed limit and inside the
// bounds; walking to the pointer arrives without overshooting; a bot runs only when nothing else
// steers.
#include <gtest/gtest.h>

#include <cmath>

#include "viewer/player_control.h"

namespace steerd::viewer {
namespace {

const WorldRect kBounds{0.0f, 0.0f, 100.0f, 50.0f};
constexpr float kMaxSpeed = 8.0f;
constexpr float kLimit = kMaxSpeed * PlayerControl::kSpeedFraction;

TEST(PlayerControl, StartsWhereItIsPlacedAndStandsStill) {
  PlayerControl c;
  EXPECT_FALSE(c.active());
  c.reset({50.0f, 25.0f}, kBounds, kMaxSpeed, std::nullopt);
  EXPECT_TRUE(c.active());
  const Motion m = c.update({}, 1.0 / 60.0);
  EXPECT_EQ(m.position, (Point{50.0f, 25.0f}));
  EXPECT_EQ(m.velocity, (Point{}));
}

TEST(PlayerControl, KeysMoveAtTheLimitAndDiagonalsAreNotFaster) {
  PlayerControl c;
  c.reset({50.0f, 25.0f}, kBounds, kMaxSpeed, std::nullopt);
  Motion m = c.update({1.0f, 0.0f, std::nullopt}, 0.1);
  EXPECT_NEAR(m.velocity.x, kLimit, 1e-4f);
  EXPECT_NEAR(m.position.x, 50.0f + kLimit * 0.1f, 1e-4f);
  m = c.update({1.0f, 1.0f, std::nullopt}, 0.1);
  EXPECT_NEAR(length(m.velocity), kLimit, 1e-3f);
  EXPECT_GT(m.velocity.y, 0.0f);  // W / up is +y in the world
}

TEST(PlayerControl, NeverLeavesTheBounds) {
  PlayerControl c;
  c.reset({99.0f, 49.0f}, kBounds, kMaxSpeed, std::nullopt);
  for (int i = 0; i < 100; ++i) {
    const Motion m = c.update({1.0f, 1.0f, std::nullopt}, 0.1);
    EXPECT_TRUE(kBounds.inset(PlayerControl::kMargin).contains(m.position));
    EXPECT_LE(length(m.velocity), kLimit + 1e-3f);
  }
  // Pressed against the corner it stops rather than claiming a speed it does not move at.
  EXPECT_NEAR(length(c.motion().velocity), 0.0f, 1e-3f);
}

TEST(PlayerControl, WalksToThePointerAndStopsOnIt) {
  PlayerControl c;
  c.reset({10.0f, 10.0f}, kBounds, kMaxSpeed, std::nullopt);
  const Point goal{30.0f, 20.0f};
  float previous = length(goal - Point{10.0f, 10.0f});
  for (int i = 0; i < 600; ++i) {
    const Motion m = c.update({0.0f, 0.0f, goal}, 1.0 / 60.0);
    EXPECT_LE(length(m.velocity), kLimit + 1e-3f);
    const float d = length(goal - m.position);
    EXPECT_LE(d, previous + 1e-4f);  // never overshoots and comes back
    previous = d;
  }
  EXPECT_NEAR(c.motion().position.x, goal.x, 1e-3f);
  EXPECT_NEAR(c.motion().position.y, goal.y, 1e-3f);
}

TEST(PlayerControl, AStalledFrameDoesNotTeleport) {
  PlayerControl c;
  c.reset({50.0f, 25.0f}, kBounds, kMaxSpeed, std::nullopt);
  const Motion m = c.update({1.0f, 0.0f, std::nullopt}, 5.0);
  EXPECT_LE(m.position.x - 50.0f, kLimit * 0.25f + 1e-3f);
  EXPECT_LE(length(m.velocity), kLimit + 1e-3f);
}

TEST(PlayerControl, BotMovesOnlyWhenTheUserDoesNot) {
  PlayerControl c;
  c.reset({50.0f, 25.0f}, kBounds, kMaxSpeed, BotPattern::kCircle);
  EXPECT_TRUE(c.botActive());
  Point p = c.motion().position;
  for (int i = 0; i < 60; ++i) p = c.update({}, 1.0 / 60.0).position;
  EXPECT_GT(length(p - Point{50.0f, 25.0f}), 1.0f);
  // A key overrides the bot for that frame.
  const Motion m = c.update({0.0f, -1.0f, std::nullopt}, 0.1);
  EXPECT_NEAR(m.velocity.x, 0.0f, 1e-4f);
  EXPECT_NEAR(m.velocity.y, -kLimit, 1e-3f);
}

TEST(PlayerControl, NonsenseFramesAndSpeedsAreHarmless) {
  PlayerControl c;
  c.reset({50.0f, 25.0f}, kBounds, std::nanf(""), std::nullopt);
  Motion m = c.update({1.0f, 0.0f, std::nullopt}, 0.1);
  EXPECT_EQ(m.position, (Point{50.0f, 25.0f}));
  c.reset({50.0f, 25.0f}, kBounds, kMaxSpeed, std::nullopt);
  m = c.update({1.0f, 0.0f, std::nullopt}, std::nan(""));
  EXPECT_EQ(m.position, (Point{50.0f, 25.0f}));
  EXPECT_EQ(m.velocity, (Point{}));
}

}  // namespace
}  // namespace steerd::viewer
