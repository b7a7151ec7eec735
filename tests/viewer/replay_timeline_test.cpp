// The replay bar's text and speed steps, and the scripted --replay- controls' idea of done.
#include "viewer/replay_timeline.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace steerd::viewer {
namespace {

TEST(ReplayTimeline, SpeedStepsDoubleAndHoldAtTheEnds) {
  EXPECT_EQ(nextReplaySpeed(1.0f, +1), 2.0f);
  EXPECT_EQ(nextReplaySpeed(1.0f, -1), 0.5f);
  EXPECT_EQ(nextReplaySpeed(8.0f, +1), 8.0f);
  EXPECT_EQ(nextReplaySpeed(0.125f, -1), 0.125f);
  EXPECT_EQ(nextReplaySpeed(3.0f, +1), 8.0f);  // nearest step is 4 (log scale), one up is 8
  EXPECT_EQ(nextReplaySpeed(0.3f, -1), 0.125f);
  EXPECT_EQ(nextReplaySpeed(std::numeric_limits<float>::quiet_NaN(), +1), 2.0f);  // as if 1x
  EXPECT_EQ(nextReplaySpeed(0.0f, -1), 0.5f);
}

TEST(ReplayTimeline, PlayTimeIsMinutesSecondsAndTenths) {
  EXPECT_EQ(formatPlayTime(0.0), "0:00.0");
  EXPECT_EQ(formatPlayTime(5.0), "0:05.0");
  EXPECT_EQ(formatPlayTime(61.25), "1:01.2");
  EXPECT_EQ(formatPlayTime(3725.5), "1:02:05.5");
  EXPECT_EQ(formatPlayTime(-3.0), "0:00.0");
  EXPECT_EQ(formatPlayTime(std::numeric_limits<double>::infinity()), "0:00.0");
}

TEST(ReplayTimeline, PositionCountsFromTheRecordingsFirstTick) {
  wire::ReplayStatus s;
  s.set_tick(150);
  s.set_first_tick(0);
  s.set_last_tick(300);
  EXPECT_EQ(replayPosition(s, 30.0), "tick 150 of 300 | 0:05.0 of 0:10.0");
  s.set_first_tick(100);
  s.set_tick(90);  // before the first (a hostile status): no negative time
  EXPECT_EQ(replayPosition(s, 30.0), "tick 90 of 300 | 0:00.0 of 0:06.6");
  EXPECT_EQ(replayPosition(s, 0.0), "tick 90 of 300 | 0:00.0 of 3:20.0");  // no rate: ticks as seconds
}

}  // namespace
}  // namespace steerd::viewer
