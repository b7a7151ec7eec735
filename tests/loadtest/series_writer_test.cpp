// --out: a second's window becomes one JSON line; each line is on disk as soon as it is written.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "loadtest/series_writer.h"

namespace steerd::loadtest {
namespace {

std::vector<std::string> linesOf(const std::string& path) {
  std::ifstream f(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(f, line);) lines.push_back(line);
  return lines;
}

Window aSecond() {
  Window w;
  w.players = 5;
  w.connected = 4;
  w.handshaking = 1;
  w.churned = 2;
  w.kbpsIn = 100.5;
  w.kbpsOut = 30.25;
  w.values[kSnapshotInterval] = {33.3, 66.7, 33.3, 66.7};
  w.values[kSnapshotJitter] = {0.5, 1.5, 0.25, 4.0};
  w.values[kRtt] = {20, 40};
  w.values[kStall] = {300};
  w.values[kTickLag] = {0.1, 0.2};
  w.snapshotsSeen = 1234;
  return w;
}

TEST(SeriesLineTest, OneSecondsWindow) {
  // 90 new snapshots in the 0.9 s since the previous line.
  SeriesLine l = seriesLineOf(aSecond(), 12.0, 0.9, 90);
  l.phase = "hold";
  l.target = 5;
  l.serverTickP99Ms = 1.25;
  EXPECT_DOUBLE_EQ(l.snapshotsPerSecond, 100.0);
  EXPECT_EQ(l.snapshotInterval.count, 4u);
  EXPECT_DOUBLE_EQ(l.snapshotInterval.p99, 66.7);
  EXPECT_DOUBLE_EQ(l.snapshotJitter.max, 4.0);
  EXPECT_EQ(l.stalls, 1u);
  const Json j = seriesLineJson(l);
  EXPECT_DOUBLE_EQ(j["elapsed_s"].get<double>(), 12.0);
  EXPECT_EQ(j["phase"], "hold");
  EXPECT_EQ(j["target"], 5);
  EXPECT_EQ(j["players"], 5);
  EXPECT_EQ(j["connected"], 4);
  EXPECT_EQ(j["connecting"], 1);
  EXPECT_EQ(j["churned"], 2);
  EXPECT_DOUBLE_EQ(j["snapshots_per_s"].get<double>(), 100.0);
  EXPECT_DOUBLE_EQ(j["snapshot_interval_ms"]["p99"].get<double>(), 66.7);
  EXPECT_EQ(j["snapshot_interval_ms"]["count"], 4);
  EXPECT_DOUBLE_EQ(j["snapshot_jitter_ms"]["p50"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(j["rtt_ms"]["p99"].get<double>(), 40.0);
  EXPECT_EQ(j["stalls"], 1);
  EXPECT_DOUBLE_EQ(j["kbps_in"].get<double>(), 100.5);
  EXPECT_DOUBLE_EQ(j["server"]["tick_p99_ms"].get<double>(), 1.25);
  EXPECT_TRUE(j["server"]["clients"].is_null());
}

TEST(SeriesLineTest, NothingMeasuredIsNull) {
  const Json j = seriesLineJson(seriesLineOf(Window{}, 1.0, 0.0, 0));
  EXPECT_DOUBLE_EQ(j["snapshots_per_s"].get<double>(), 0.0);
  EXPECT_EQ(j["snapshot_interval_ms"]["count"], 0);
  EXPECT_TRUE(j["snapshot_interval_ms"]["p99"].is_null());
  EXPECT_TRUE(j["rtt_ms"]["p50"].is_null());
  EXPECT_TRUE(j["tester_tick_lag_p99_ms"].is_null());
  EXPECT_TRUE(j["server"]["tick_p99_ms"].is_null());
}

TEST(SeriesWriterTest, EachLineIsFlushedAndParses) {
  const std::string path = testing::TempDir() + "loadtest_series.jsonl";
  {
    std::ofstream stale(path);
    stale << "left from before\n";
  }
  SeriesWriter w;
  std::string error;
  ASSERT_TRUE(w.open(path, error)) << error;
  EXPECT_TRUE(linesOf(path).empty());  // truncated
  for (int i = 1; i <= 3; ++i) {
    SeriesLine l = seriesLineOf(aSecond(), i, 1.0, 100);
    l.phase = "hold";
    ASSERT_TRUE(w.write(l));
    // Read while the writer is still open: the line is there already.
    const auto lines = linesOf(path);
    ASSERT_EQ(lines.size(), static_cast<std::size_t>(i));
    const Json j = Json::parse(lines.back());
    EXPECT_DOUBLE_EQ(j["elapsed_s"].get<double>(), i);
  }
  w.close();
  EXPECT_FALSE(w.isOpen());
  EXPECT_FALSE(w.write(SeriesLine{}));
  for (const std::string& line : linesOf(path)) EXPECT_TRUE(Json::accept(line)) << line;
  std::remove(path.c_str());
}

TEST(SeriesWriterTest, AnUnwritablePathSaysWhy) {
  SeriesWriter w;
  std::string error;
  EXPECT_FALSE(w.open("/nonexistent-dir/series.jsonl", error));
  EXPECT_NE(error.find("/nonexistent-dir/series.jsonl"), std::string::npos) << error;
  EXPECT_FALSE(w.isOpen());
}

}  // namespace
}  // namespace steerd::loadtest
