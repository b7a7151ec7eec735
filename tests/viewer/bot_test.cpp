// Bot patterns: the avatar stays inside the world and under the server's speed limit, and each
// pattern actually goes somewhere.
#include <gtest/gtest.h>

#include <cmath>

#include "viewer/bot.h"

namespace steerd::viewer {
namespace {

struct Trip {
  float maxSpeedSeen = 0.0f;
  float maxJump = 0.0f;  // |position change| / dt, to check velocity and motion agree
  bool allInside = true;
  WorldRect visited{1e9f, 1e9f, -1e9f, -1e9f};
  Point last;
};

Trip drive(BotPattern pattern, const WorldRect& bounds, float maxSpeed, Point start, double seconds,
           double dt = 1.0 / 60.0) {
  Bot bot(pattern, bounds, maxSpeed, 7);
  Trip run;
  Point p = start;
  for (double t = 0.0; t < seconds; t += dt) {
    const Motion m = bot.step(p, dt);
    run.maxSpeedSeen = std::max(run.maxSpeedSeen, length(m.velocity));
    run.maxJump = std::max(run.maxJump, length(m.position - p) / static_cast<float>(dt));
    run.allInside = run.allInside && bounds.contains(m.position);
    run.visited = {std::min(run.visited.minX, m.position.x), std::min(run.visited.minY, m.position.y),
                   std::max(run.visited.maxX, m.position.x), std::max(run.visited.maxY, m.position.y)};
    p = m.position;
  }
  run.last = p;
  return run;
}

class EveryPattern : public ::testing::TestWithParam<BotPattern> {};

TEST_P(EveryPattern, StaysInsideTheBoundsAndUnderTheSpeedLimit) {
  const WorldRect bounds{0.0f, 0.0f, 240.0f, 240.0f};
  const float maxSpeed = 8.0f;
  const Trip run = drive(GetParam(), bounds, maxSpeed, bounds.centre(), 120.0);
  EXPECT_TRUE(run.allInside);
  EXPECT_LE(run.maxSpeedSeen, maxSpeed * Bot::kSpeedFraction + 1e-3f);
  EXPECT_LE(run.maxJump, maxSpeed * Bot::kSpeedFraction + 1e-3f);
  // It goes somewhere: over two minutes each pattern spans tens of metres both ways.
  EXPECT_GT(run.visited.width(), 40.0f) << botPatternName(GetParam());
  EXPECT_GT(run.visited.height(), 20.0f) << botPatternName(GetParam());
}

TEST_P(EveryPattern, InASmallOffCentreWorldStaysInsideToo) {
  const WorldRect bounds{-1005.0f, 40.0f, -995.0f, 44.0f};
  const Trip run = drive(GetParam(), bounds, 6.0f, {-1000.0f, 42.0f}, 30.0);
  EXPECT_TRUE(run.allInside);
  EXPECT_LE(run.maxSpeedSeen, 6.0f * Bot::kSpeedFraction + 1e-3f);
}

TEST_P(EveryPattern, WithNoSpeedAllowedItStaysPut) {
  const WorldRect bounds{0.0f, 0.0f, 100.0f, 100.0f};
  const Trip run = drive(GetParam(), bounds, 0.0f, {50.0f, 50.0f}, 5.0);
  EXPECT_EQ(run.last, (Point{50.0f, 50.0f}));
  EXPECT_EQ(run.maxSpeedSeen, 0.0f);
}

TEST_P(EveryPattern, LongFramesDoNotBreakTheLimit) {
  const WorldRect bounds{0.0f, 0.0f, 100.0f, 60.0f};
  const Trip run = drive(GetParam(), bounds, 5.0f, {50.0f, 30.0f}, 60.0, 0.5);
  EXPECT_TRUE(run.allInside);
  EXPECT_LE(run.maxJump, 5.0f * Bot::kSpeedFraction + 1e-3f);
}

INSTANTIATE_TEST_SUITE_P(Bot, EveryPattern,
                         ::testing::Values(BotPattern::kCircle, BotPattern::kFigure8, BotPattern::kRandom),
                         [](const auto& info) { return std::string(botPatternName(info.param)); });

TEST(Bot, CircleSettlesOntoItsCircle) {
  const WorldRect bounds{0.0f, 0.0f, 200.0f, 100.0f};
  Bot bot(BotPattern::kCircle, bounds, 10.0f);
  Point p = bounds.centre();
  for (int i = 0; i < 60 * 60; ++i) p = bot.step(p, 1.0 / 60.0).position;
  // Radius 35% of the smaller side of the area (bounds less the margin).
  const float r = 0.35f * (100.0f - 2.0f * Bot::kMargin);
  EXPECT_NEAR(length(p - bounds.centre()), r, 0.5f);
}

TEST(Bot, ZeroOrNegativeStepsDoNotMove) {
  Bot bot(BotPattern::kFigure8, {0, 0, 10, 10}, 3.0f);
  const Motion m = bot.step({5.0f, 5.0f}, 0.0);
  EXPECT_EQ(m.position, (Point{5.0f, 5.0f}));
  EXPECT_EQ(m.velocity, (Point{}));
  EXPECT_EQ(bot.step({5.0f, 5.0f}, -1.0).position, (Point{5.0f, 5.0f}));
  EXPECT_EQ(bot.step({5.0f, 5.0f}, std::nan("")).position, (Point{5.0f, 5.0f}));
}

TEST(Bot, PatternNamesRoundTripAndUnknownNamesAreRefused) {
  for (BotPattern p : {BotPattern::kCircle, BotPattern::kFigure8, BotPattern::kRandom}) {
    EXPECT_EQ(parseBotPattern(botPatternName(p)), p);
  }
  EXPECT_FALSE(parseBotPattern("square").has_value());
  EXPECT_FALSE(parseBotPattern("").has_value());
}

}  // namespace
}  // namespace steerd::viewer
