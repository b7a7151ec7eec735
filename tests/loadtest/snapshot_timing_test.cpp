// Snapshot intervals and their jitter, with the arrival times given: the server's tick cadence
// (30 Hz ticks, 20 snapshots/s: 33 and 67 ms alternate) is in the intervals and not in the
// jitter; a late arrival is; a lost snapshot is a longer interval, not jitter.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <vector>

#include "loadtest/percentiles.h"
#include "loadtest/snapshot_timing.h"

namespace steerd::loadtest {
namespace {

using TimePoint = SnapshotIntervalMeter::TimePoint;

TimePoint at(double ms) {
  return TimePoint{} +
         std::chrono::duration_cast<TimePoint::duration>(std::chrono::duration<double, std::milli>(ms));
}

// The ticks a 30 Hz server sends on at 20 snapshots/s: two of every three.
std::vector<std::uint32_t> sendTicks(int n) {
  std::vector<std::uint32_t> ticks;
  double due = 0;
  for (std::uint32_t t = 0; static_cast<int>(ticks.size()) < n; ++t) {
    if (t * 20.0 / 30.0 + 1e-9 >= due) {
      ticks.push_back(t);
      due += 1.0;
    }
  }
  return ticks;
}

TEST(SnapshotTimingTest, TheTickCadenceIsNotJitter) {
  SnapshotIntervalMeter meter;
  std::vector<double> intervals, tickIntervals, jitter;
  for (std::uint32_t tick : sendTicks(61)) {
    // Sent on its tick, arriving 12 ms later, every time.
    const auto o = meter.observe(tick, at(1000.0 + tick * 1000.0 / 30.0 + 12.0), 30.0);
    EXPECT_TRUE(o.newer);
    if (!o.gap) continue;
    intervals.push_back(o.gap->intervalMs);
    tickIntervals.push_back(o.gap->tickIntervalMs);
    jitter.push_back(o.gap->jitterMs);
  }
  ASSERT_EQ(intervals.size(), 60u);
  const Summary i = summarize(intervals), t = summarize(tickIntervals), j = summarize(jitter);
  EXPECT_NEAR(i.mean, 50.0, 0.01);  // the send period
  EXPECT_NEAR(i.p50, 1000.0 / 30.0, 0.01);
  EXPECT_NEAR(i.p99, 2000.0 / 30.0, 0.01);
  EXPECT_NEAR(t.p99, 2000.0 / 30.0, 1e-9);
  EXPECT_NEAR(t.mean, 50.0, 1e-9);
  EXPECT_LT(j.max, 0.01);  // none: the arrivals kept the server's spacing exactly
}

TEST(SnapshotTimingTest, ALateArrivalIsJitterOnBothSidesOfIt) {
  SnapshotIntervalMeter meter;
  EXPECT_FALSE(meter.observe(0, at(0), 30.0).gap);  // the first: nothing to measure from
  auto o = meter.observe(2, at(66.667), 30.0);
  ASSERT_TRUE(o.gap);
  EXPECT_NEAR(o.gap->jitterMs, 0.0, 0.001);
  o = meter.observe(3, at(100.0 + 8.0), 30.0);  // 8 ms late
  ASSERT_TRUE(o.gap);
  EXPECT_NEAR(o.gap->intervalMs, 41.333, 0.001);
  EXPECT_NEAR(o.gap->tickIntervalMs, 33.333, 0.001);
  EXPECT_NEAR(o.gap->jitterMs, 8.0, 0.001);
  o = meter.observe(5, at(166.667), 30.0);  // on time again: 8 ms early relative to the late one
  ASSERT_TRUE(o.gap);
  EXPECT_NEAR(o.gap->jitterMs, 8.0, 0.001);
}

TEST(SnapshotTimingTest, ALostSnapshotIsALongerIntervalNotJitter) {
  SnapshotIntervalMeter meter;
  meter.observe(0, at(10), 30.0);
  const auto o = meter.observe(3, at(110), 30.0);  // tick 2 lost on the way
  ASSERT_TRUE(o.gap);
  EXPECT_NEAR(o.gap->intervalMs, 100.0, 1e-6);
  EXPECT_NEAR(o.gap->tickIntervalMs, 100.0, 1e-6);
  EXPECT_NEAR(o.gap->jitterMs, 0.0, 1e-6);
}

TEST(SnapshotTimingTest, OldSnapshotsChangeNothing) {
  SnapshotIntervalMeter meter;
  meter.observe(10, at(0), 30.0);
  auto o = meter.observe(10, at(5), 30.0);  // the same tick again
  EXPECT_FALSE(o.newer);
  EXPECT_FALSE(o.gap);
  o = meter.observe(8, at(20), 30.0);  // an older one, late
  EXPECT_FALSE(o.newer);
  EXPECT_FALSE(o.gap);
  o = meter.observe(12, at(66.667), 30.0);  // measured from tick 10 at 0 ms
  ASSERT_TRUE(o.gap);
  EXPECT_NEAR(o.gap->intervalMs, 66.667, 0.001);
  EXPECT_NEAR(o.gap->jitterMs, 0.0, 0.001);
}

TEST(SnapshotTimingTest, OtherTickRatesAndAnUnknownOne) {
  SnapshotIntervalMeter meter;
  meter.observe(100, at(0), 60.0);
  auto o = meter.observe(103, at(45), 60.0);
  ASSERT_TRUE(o.gap);
  EXPECT_NEAR(o.gap->tickIntervalMs, 50.0, 1e-9);
  EXPECT_NEAR(o.gap->jitterMs, 5.0, 1e-6);
  o = meter.observe(104, at(78.333), 0.0);  // no rate known yet: 30 Hz assumed
  ASSERT_TRUE(o.gap);
  EXPECT_NEAR(o.gap->tickIntervalMs, 33.333, 0.001);
  EXPECT_NEAR(o.gap->jitterMs, 0.0, 0.001);
}

}  // namespace
}  // namespace steerd::loadtest
