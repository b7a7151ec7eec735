// Thresholds and the verdict, the exit code, and the report's JSON and table.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "loadtest/json_writer.h"
#include "loadtest/report.h"

namespace steerd::loadtest {
namespace {

Measured healthy() {
  Measured m;
  m.players = 20;
  m.connected = 20;
  m.connectedAtEnd = 20;
  m.tickP99Ms = 1.5;
  m.snapshotInterval = summarize({50, 50, 67, 33, 70});
  m.stall = summarize({});
  m.serverReachable = true;
  return m;
}

TEST(VerdictTest, NoThresholdsPassWhenSomeoneConnected) {
  const Verdict v = evaluate({}, healthy());
  EXPECT_TRUE(v.pass);
  EXPECT_TRUE(v.checks.empty());
  Measured nobody = healthy();
  nobody.connected = nobody.connectedAtEnd = 0;
  const Verdict w = evaluate({}, nobody);
  EXPECT_FALSE(w.pass);
  ASSERT_EQ(w.failures.size(), 1u);
  EXPECT_NE(w.failures[0].find("no player could connect"), std::string::npos);
}

TEST(VerdictTest, EachThresholdPassesAndFails) {
  Thresholds t;
  t.maxTickP99Ms = 2.0;
  t.maxStallMs = 100.0;
  t.maxSnapshotIntervalP99Ms = 80.0;
  t.minConnectedFraction = 0.95;
  const Verdict ok = evaluate(t, healthy());
  EXPECT_TRUE(ok.pass);
  ASSERT_EQ(ok.checks.size(), 4u);
  for (const Check& c : ok.checks) EXPECT_TRUE(c.pass) << c.name;
  EXPECT_DOUBLE_EQ(*ok.checks[1].value, 0.0);  // no stall at all

  Measured slow = healthy();
  slow.tickP99Ms = 2.5;
  slow.stall = summarize({20, 150});
  slow.snapshotInterval = summarize({50, 400});
  slow.connectedAtEnd = 18;  // 0.9
  const Verdict bad = evaluate(t, slow);
  EXPECT_FALSE(bad.pass);
  EXPECT_EQ(bad.failures.size(), 4u);
  for (const Check& c : bad.checks) EXPECT_FALSE(c.pass) << c.name;
  EXPECT_EQ(bad.checks[0].name, "max_tick_p99_ms");
  EXPECT_DOUBLE_EQ(*bad.checks[0].value, 2.5);
  EXPECT_DOUBLE_EQ(*bad.checks[1].value, 150.0);
  EXPECT_DOUBLE_EQ(*bad.checks[2].value, 400.0);
  EXPECT_DOUBLE_EQ(*bad.checks[3].value, 0.9);
}

TEST(VerdictTest, LimitsAreInclusive) {
  Thresholds t;
  t.maxTickP99Ms = 1.5;
  t.maxSnapshotIntervalP99Ms = 70.0;
  t.minConnectedFraction = 1.0;
  EXPECT_TRUE(evaluate(t, healthy()).pass);
}

TEST(VerdictTest, WhatCannotBeMeasuredFails) {
  Thresholds t;
  t.maxTickP99Ms = 5.0;
  t.maxSnapshotIntervalP99Ms = 100.0;
  Measured m = healthy();
  m.tickP99Ms.reset();
  m.serverReachable = false;
  m.snapshotInterval = summarize({});
  const Verdict v = evaluate(t, m);
  EXPECT_FALSE(v.pass);
  ASSERT_EQ(v.failures.size(), 2u);
  EXPECT_NE(v.failures[0].find("unreachable"), std::string::npos);
  EXPECT_FALSE(v.checks[0].value);
}

Report sampleReport() {
  Report r;
  r.options.server = "127.0.0.1:7777";
  r.options.players = 20;
  r.options.durationSeconds = 4;
  r.options.thresholds.maxTickP99Ms = 0.000001;
  r.elapsedSeconds = 4.2;
  r.counts.players = 20;
  r.counts.connected = 20;
  r.counts.connectedAtEnd = 20;
  r.counts.snapshots = 1600;
  r.counts.refusedExample = "server \"full\"\n";
  r.series[kSnapshotInterval] = summarize({50, 60, 70});
  r.series[kRtt].mean = std::numeric_limits<double>::quiet_NaN();
  r.server.address = "http://127.0.0.1:9100/metrics";
  r.server.reachable = true;
  r.server.tickP99Ms = 0.5;
  r.verdict = evaluate(r.options.thresholds, measuredOf(r));
  return r;
}

TEST(ReportTest, ExitCodeFollowsTheVerdict) {
  Report r = sampleReport();
  EXPECT_FALSE(r.verdict.pass);
  EXPECT_EQ(exitCodeOf(r), 1);
  r.options.thresholds = {};
  r.verdict = evaluate(r.options.thresholds, measuredOf(r));
  EXPECT_EQ(exitCodeOf(r), 0);
  // --find-capacity: passes when at least the first step held.
  r.capacity = CapacityResult{50, 0, {}};
  EXPECT_EQ(exitCodeOf(r), 1);
  r.capacity->highestHeld = 100;
  EXPECT_EQ(exitCodeOf(r), 0);
}

TEST(ReportTest, JsonHasEveryKeyEscapesAndNoNaN) {
  const std::string j = reportJson(sampleReport());
  for (const char* key : {"\"schema\"",
                          "\"config\"",
                          "\"counts\"",
                          "\"connected\": 20",
                          "\"refused\"",
                          "\"timed_out\"",
                          "\"disconnected\"",
                          "\"decode_failures\"",
                          "\"snapshots\": 1600",
                          "\"snapshot_interval_ms\"",
                          "\"stall_ms\"",
                          "\"extrapolation_ms\"",
                          "\"rtt_ms\"",
                          "\"kbps_in\"",
                          "\"kbps_out\"",
                          "\"entities_in_view\"",
                          "\"p50\"",
                          "\"p95\"",
                          "\"p99\"",
                          "\"max\"",
                          "\"server\"",
                          "\"tick_p99_ms\": 0.5",
                          "\"thresholds\"",
                          "\"max_tick_p99_ms\": 1e-06",
                          "\"max_stall_ms\": null",
                          "\"verdict\": \"fail\"",
                          "\"failures\"",
                          "\"exit_code\": 1"}) {
    EXPECT_NE(j.find(key), std::string::npos) << key << "\n" << j;
  }
  EXPECT_EQ(j.find("nan"), std::string::npos);
  EXPECT_NE(j.find("\"mean\": null"), std::string::npos);
  EXPECT_NE(j.find(R"("refused": "server \"full\"\n")"), std::string::npos);
  EXPECT_EQ(j.find("\"capacity\""), std::string::npos);
}

TEST(ReportTest, TableShowsTheRowsAndTheVerdict) {
  const std::string t = reportTable(sampleReport());
  for (const char* s : {"snapshot interval (ms)", "stall (ms)", "extrapolation (ms)", "rtt (ms)", "kbps in",
                        "kbps out", "entities in view", "p50", "p95", "p99", "max", "connected 20",
                        "tick p99 0.50 ms", "max_tick_p99_ms", "FAIL", "verdict: FAIL"}) {
    EXPECT_NE(t.find(s), std::string::npos) << s << "\n" << t;
  }
}

TEST(JsonWriterTest, NestsAndEscapes) {
  JsonWriter j;
  j.beginObject().field("a", 1.5).key("b").beginArray().value("x\ty").null().value(true).endArray();
  j.key("c").beginObject().endObject().field("d", std::optional<double>{}).endObject();
  EXPECT_EQ(j.str(),
            "{\n  \"a\": 1.5,\n  \"b\": [\n    \"x\\ty\",\n    null,\n    true\n  ],\n  \"c\": {},\n  \"d\": "
            "null\n}\n");
  EXPECT_EQ(jsonEscape(std::string("\x01", 1)), "\\u0001");
}

}  // namespace
}  // namespace steerd::loadtest
