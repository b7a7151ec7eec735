#include <gtest/gtest.h>

#include <chrono>
#include <limits>

#include "client/clock_sync.h"

namespace steerd::client {
namespace {

using std::chrono::milliseconds;

// Fake times: nothing here reads a clock.
const TimePoint t0 = TimePoint{} + std::chrono::hours(1);
TimePoint at(double seconds) {
  return t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

TEST(ClockSyncTest, NoEstimateBeforeAnything) {
  ClockSync c;
  c.setTickRate(30);
  EXPECT_FALSE(c.hasEstimate());
  EXPECT_EQ(c.serverTickAt(t0), 0.0);
  EXPECT_EQ(c.rttMs(), 0.0);
}

TEST(ClockSyncTest, RttIsSmoothedWithAJitterEstimate) {
  ClockSync c;
  c.setTickRate(30);
  ASSERT_TRUE(c.onPong(at(0.0), at(0.1), 100, 0.0f));
  EXPECT_DOUBLE_EQ(c.rttMs(), 100.0);
  EXPECT_DOUBLE_EQ(c.jitterMs(), 50.0);
  ASSERT_TRUE(c.onPong(at(1.0), at(1.1), 130, 0.0f));
  EXPECT_NEAR(c.rttMs(), 100.0, 1e-9);
  EXPECT_NEAR(c.jitterMs(), 37.5, 1e-9);  // 50 + 0.25 (0 - 50)
  ASSERT_TRUE(c.onPong(at(2.0), at(2.2), 160, 0.0f));
  EXPECT_NEAR(c.lastRttMs(), 200.0, 1e-9);
  EXPECT_NEAR(c.rttMs(), 112.5, 1e-9);      // 100 + 0.125 (200 - 100)
  EXPECT_NEAR(c.jitterMs(), 53.125, 1e-9);  // 37.5 + 0.25 (100 - 37.5)
  EXPECT_EQ(c.pongs(), 3u);
}

TEST(ClockSyncTest, EstimatesTheServerTickFromAPong) {
  ClockSync c;
  c.setTickRate(30);
  // Sent at 0, back at 0.1 s: the server was at tick 100.5 about 50 ms ago (1.5 ticks).
  ASSERT_TRUE(c.onPong(at(0.0), at(0.1), 100, 0.5f));
  EXPECT_NEAR(c.serverTickAt(at(0.1)), 102.0, 1e-6);
  EXPECT_NEAR(c.serverTickAt(at(1.1)), 132.0, 1e-6);
  EXPECT_NEAR(c.serverTickAt(at(0.6)), 117.0, 1e-6);
}

TEST(ClockSyncTest, SmallDisagreementsSlewWithoutGoingBackwards) {
  ClockSync c;
  c.setTickRate(30);
  ASSERT_TRUE(c.onPong(at(0.0), at(0.1), 100, 0.5f));  // 102 at 0.1 s
  // A pong saying the server is 3 ticks behind the estimate (not enough to snap).
  // Estimate at 1.1 s: 132; the pong says 129.
  ASSERT_TRUE(c.onPong(at(1.0), at(1.1), 127, 0.5f));
  EXPECT_EQ(c.snaps(), 0u);
  double last = c.serverTickAt(at(1.1));
  EXPECT_NEAR(last, 132.0, 1e-6);  // no jump at the pong
  for (int i = 1; i <= 300; ++i) {
    const double now = c.serverTickAt(at(1.1 + i * 0.01));
    EXPECT_GT(now, last) << "step " << i;
    last = now;
  }
  // The target moved by offsetGain (0.1) x -3 ticks and the estimate has slewed all of it.
  EXPECT_NEAR(c.serverTickAt(at(11.1)), 132.0 + 300.0 - 0.3, 1e-6);
  // Slewing at most 0.1 tick per tick: 0.1 s (3 ticks) after the pong at most 0.3 tick moved.
  EXPECT_GE(c.serverTickAt(at(1.2)), 135.0 - 0.3 - 1e-9);
}

TEST(ClockSyncTest, LargeDisagreementsSnap) {
  ClockSync c;
  c.setTickRate(30);
  ASSERT_TRUE(c.onPong(at(0.0), at(0.1), 100, 0.5f));
  // The server jumped 50 ticks ahead (it dropped a backlog... or we stalled).
  ASSERT_TRUE(c.onPong(at(1.0), at(1.1), 177, 0.5f));
  EXPECT_EQ(c.snaps(), 1u);
  EXPECT_NEAR(c.serverTickAt(at(1.1)), 179.0, 1e-6);
  // And 40 behind.
  ASSERT_TRUE(c.onPong(at(2.0), at(2.1), 169, 0.5f));
  EXPECT_EQ(c.snaps(), 2u);
  EXPECT_NEAR(c.serverTickAt(at(2.1)), 171.0, 1e-6);
}

TEST(ClockSyncTest, TheFirstPongReplacesTheSeed) {
  ClockSync c;
  c.setTickRate(30);
  c.seed(100, at(0.0), milliseconds(100));
  EXPECT_TRUE(c.hasEstimate());
  EXPECT_NEAR(c.serverTickAt(at(0.0)), 101.5, 1e-6);
  EXPECT_NEAR(c.serverTickAt(at(1.0)), 131.5, 1e-6);
  ASSERT_TRUE(c.onPong(at(1.0), at(1.02), 125, 0.0f));  // 3 ticks off the seed: snaps anyway
  EXPECT_EQ(c.snaps(), 0u);                             // the first pong is no "snap"
  EXPECT_NEAR(c.serverTickAt(at(1.02)), 125.3, 1e-6);
}

TEST(ClockSyncTest, ImplausiblePongsAreIgnored) {
  ClockSync c;
  EXPECT_FALSE(c.onPong(at(0.0), at(0.1), 10, 0.0f));  // no tick rate yet
  c.setTickRate(30);
  EXPECT_FALSE(c.onPong(at(1.0), at(0.5), 10, 0.0f));  // back before it left
  EXPECT_FALSE(c.onPong(at(0.0), at(100.0), 10, 0.0f));
  EXPECT_FALSE(c.onPong(at(0.0), at(0.1), 10, std::numeric_limits<float>::quiet_NaN()));
  EXPECT_EQ(c.pongs(), 0u);
  EXPECT_FALSE(c.hasEstimate());
  // A phase out of 0..1 is clamped.
  ASSERT_TRUE(c.onPong(at(0.0), at(0.0), 10, 7.0f));
  EXPECT_NEAR(c.serverTickAt(at(0.0)), 11.0, 1e-6);
}

}  // namespace
}  // namespace steerd::client
