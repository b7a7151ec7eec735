// Thresholds and the verdict, the exit code, and the report's JSON (read back with nlohmann-json)
// and table.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "loadtest/report.h"

namespace steerd::loadtest {
namespace {

Report healthy() {
  Report r;
  r.options.players = 20;
  r.counts.players = 20;
  r.counts.connected = 20;
  r.counts.connectedAtEnd = 20;
  r.server.reachable = true;
  r.server.tickP99Ms = 1.5;
  r.series[kSnapshotInterval] = summarize({50, 50, 67, 33, 70});
  r.series[kStall] = summarize({});
  return r;
}

Verdict judged(const Thresholds& t, const Report& r) { return evaluate(t, reportJsonValue(r, false)); }

ThresholdExpr expr(const std::string& text) {
  std::string error;
  auto e = parseThreshold(text, error);
  EXPECT_TRUE(e) << error;
  return *e;
}

TEST(VerdictTest, NoThresholdsPassWhenSomeoneConnected) {
  const Verdict v = judged({}, healthy());
  EXPECT_TRUE(v.pass);
  EXPECT_TRUE(v.checks.empty());
  Report nobody = healthy();
  nobody.counts.connected = nobody.counts.connectedAtEnd = 0;
  const Verdict w = judged({}, nobody);
  EXPECT_FALSE(w.pass);
  ASSERT_EQ(w.failures.size(), 1u);
  EXPECT_NE(w.failures[0].find("no player could connect"), std::string::npos);
}

TEST(VerdictTest, EachNamedThresholdPassesAndFails) {
  Thresholds t;
  t.maxTickP99Ms = 2.0;
  t.maxStallMs = 100.0;
  t.maxSnapshotIntervalP99Ms = 80.0;
  t.minConnectedFraction = 0.95;
  const Verdict ok = judged(t, healthy());
  EXPECT_TRUE(ok.pass);
  ASSERT_EQ(ok.checks.size(), 4u);
  for (const Check& c : ok.checks) EXPECT_TRUE(c.pass) << c.name;
  EXPECT_DOUBLE_EQ(*ok.checks[1].value, 0.0);  // no stall at all

  Report slow = healthy();
  slow.server.tickP99Ms = 2.5;
  slow.series[kStall] = summarize({20, 150});
  slow.series[kSnapshotInterval] = summarize({50, 400});
  slow.counts.connectedAtEnd = 18;  // 0.9
  const Verdict bad = judged(t, slow);
  EXPECT_FALSE(bad.pass);
  EXPECT_EQ(bad.failures.size(), 4u);
  for (const Check& c : bad.checks) EXPECT_FALSE(c.pass) << c.name;
  EXPECT_EQ(bad.checks[0].name, "max_tick_p99_ms");
  EXPECT_EQ(bad.checks[0].expression, "server.tick_p99_ms<=2");
  EXPECT_DOUBLE_EQ(*bad.checks[0].value, 2.5);
  EXPECT_DOUBLE_EQ(*bad.checks[1].value, 150.0);
  EXPECT_DOUBLE_EQ(*bad.checks[2].value, 400.0);
  EXPECT_DOUBLE_EQ(*bad.checks[3].value, 0.9);
  EXPECT_EQ(bad.failures[0], "server.tick_p99_ms 2.5 > 2 (--max-tick-p99-ms 2)");
}

TEST(VerdictTest, LimitsAreInclusive) {
  Thresholds t;
  t.maxTickP99Ms = 1.5;
  t.maxSnapshotIntervalP99Ms = 70.0;
  t.minConnectedFraction = 1.0;
  EXPECT_TRUE(judged(t, healthy()).pass);
}

TEST(VerdictTest, WhatCannotBeMeasuredFails) {
  Thresholds t;
  t.maxTickP99Ms = 5.0;
  t.maxSnapshotIntervalP99Ms = 100.0;
  Report r = healthy();
  r.server.tickP99Ms.reset();
  r.server.reachable = false;
  r.series[kSnapshotInterval] = summarize({});
  const Verdict v = judged(t, r);
  EXPECT_FALSE(v.pass);
  ASSERT_EQ(v.failures.size(), 2u);
  EXPECT_NE(v.failures[0].find("unreachable"), std::string::npos) << v.failures[0];
  EXPECT_NE(v.failures[1].find("not measured"), std::string::npos) << v.failures[1];
  EXPECT_FALSE(v.checks[0].value);
  EXPECT_FALSE(v.checks[1].value);
}

TEST(VerdictTest, ExpressionsOnAnyFigure) {
  Report r = healthy();
  r.series[kRtt] = summarize({10, 20, 95});
  r.series[kSnapshotJitter] = summarize({0.5, 1, 2});
  r.counts.disconnected = 1;
  Thresholds t;
  t.expressions = {expr("rtt_ms.p99<80"), expr("snapshot_jitter_ms.p99<5"), expr("counts.disconnected<1"),
                   expr("connected_fraction>=1")};
  const Verdict v = judged(t, r);
  EXPECT_FALSE(v.pass);
  ASSERT_EQ(v.checks.size(), 4u);
  EXPECT_FALSE(v.checks[0].pass);
  EXPECT_TRUE(v.checks[1].pass);
  EXPECT_FALSE(v.checks[2].pass);
  EXPECT_TRUE(v.checks[3].pass);
  ASSERT_EQ(v.failures.size(), 2u);
  EXPECT_EQ(v.failures[0], "rtt_ms.p99 95 >= 80 (--threshold 'rtt_ms.p99<80')");
  EXPECT_EQ(v.failures[1], "counts.disconnected 1 >= 1 (--threshold 'counts.disconnected<1')");
}

Report sampleReport() {
  Report r;
  r.options.server = "127.0.0.1:7777";
  r.options.players = 20;
  r.options.durationSeconds = 4;
  r.options.thresholds.maxTickP99Ms = 0.000001;
  r.elapsedSeconds = 4.2;
  r.heldSeconds = 3.9;
  r.counts.players = 20;
  r.counts.connected = 20;
  r.counts.connectedAtEnd = 20;
  r.counts.snapshots = 1600;
  r.counts.refusedExample = "server \"full\"\n";
  r.series[kSnapshotInterval] = summarize({50, 60, 70});
  r.series[kSnapshotJitter] = summarize({0.5, 1.0, 2.0});
  r.series[kRtt] = summarize({1, 2});
  r.series[kRtt].mean = std::numeric_limits<double>::quiet_NaN();
  r.server.address = "http://127.0.0.1:9100/metrics";
  r.server.reachable = true;
  r.server.tickP99Ms = 0.5;
  r.server.tickRateHz = 30;
  r.server.sendRateHz = 20;
  r.testerUserSeconds = 1.5;
  r.testerSystemSeconds = 0.6;
  r.testerCpuSeconds = 2.1;
  r.counts.fullDecodePlayers = 16;
  r.counts.lightDecodePlayers = 4;
  r.verdict = judged(r.options.thresholds, r);
  return r;
}

TEST(ReportTest, ExitCodeFollowsTheVerdict) {
  Report r = sampleReport();
  EXPECT_FALSE(r.verdict.pass);
  EXPECT_EQ(exitCodeOf(r), 1);
  r.options.thresholds = {};
  r.verdict = judged(r.options.thresholds, r);
  EXPECT_EQ(exitCodeOf(r), 0);
  // --find-capacity: passes when at least the first step held.
  r.capacity = CapacityResult{50, 0, {}};
  EXPECT_EQ(exitCodeOf(r), 1);
  r.capacity->highestHeld = 100;
  EXPECT_EQ(exitCodeOf(r), 0);
}

TEST(ReportTest, JsonParsesWithEveryKey) {
  const nlohmann::json d = nlohmann::json::parse(reportJson(sampleReport()));
  for (const char* key : {"schema",
                          "config",
                          "elapsed_s",
                          "ramp_s",
                          "held_s",
                          "interrupted",
                          "signal",
                          "end",
                          "aborted",
                          "prediction_corrections_per_s",
                          "connected_fraction",
                          "counts",
                          "why",
                          "snapshot_interval_ms",
                          "snapshot_tick_interval_ms",
                          "snapshot_jitter_ms",
                          "stall_ms",
                          "extrapolation_ms",
                          "rtt_ms",
                          "kbps_in",
                          "kbps_out",
                          "entities_in_view",
                          "connect_ms",
                          "tester_tick_lag_ms",
                          "lost_entity_gap_ms",
                          "prediction_error_m",
                          "samples",
                          "impairment",
                          "server",
                          "tester",
                          "decode",
                          "thresholds",
                          "checks",
                          "verdict",
                          "failures",
                          "exit_code"}) {
    EXPECT_TRUE(d.contains(key)) << key;
  }
  EXPECT_FALSE(d.contains("capacity"));
  EXPECT_EQ(d["schema"], "steer-loadtest/1");
  EXPECT_EQ(d["config"]["server"], "127.0.0.1:7777");
  EXPECT_EQ(d["config"]["players"], 20);
  EXPECT_EQ(d["counts"]["connected"], 20);
  EXPECT_EQ(d["counts"]["snapshots"], 1600);
  for (const char* k : {"refused", "timed_out", "disconnected", "decode_failures", "connected_at_end"}) {
    EXPECT_TRUE(d["counts"].contains(k)) << k;
  }
  EXPECT_EQ(d["why"]["refused"], "server \"full\"\n");  // escaped and back
  for (const char* q : {"count", "mean", "p50", "p95", "p99", "max"}) {
    EXPECT_TRUE(d["snapshot_interval_ms"].contains(q)) << q;
  }
  EXPECT_DOUBLE_EQ(d["snapshot_interval_ms"]["p99"].get<double>(), 70.0);
  EXPECT_DOUBLE_EQ(d["snapshot_jitter_ms"]["max"].get<double>(), 2.0);
  EXPECT_TRUE(d["rtt_ms"]["mean"].is_null());  // NaN
  EXPECT_DOUBLE_EQ(d["server"]["tick_p99_ms"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(d["server"]["send_period_ms"].get<double>(), 50.0);
  EXPECT_DOUBLE_EQ(d["server"]["tick_rate_hz"].get<double>(), 30.0);
  EXPECT_DOUBLE_EQ(d["thresholds"]["max_tick_p99_ms"].get<double>(), 1e-6);
  EXPECT_TRUE(d["thresholds"]["max_stall_ms"].is_null());
  EXPECT_TRUE(d["thresholds"]["expressions"].is_array());
  ASSERT_EQ(d["checks"].size(), 1u);
  EXPECT_EQ(d["checks"][0]["name"], "max_tick_p99_ms");
  EXPECT_EQ(d["checks"][0]["expression"], "server.tick_p99_ms<=1e-06");
  EXPECT_EQ(d["checks"][0]["pass"], false);
  EXPECT_EQ(d["verdict"], "fail");
  EXPECT_EQ(d["failures"].size(), 1u);
  EXPECT_EQ(d["exit_code"], 1);
  EXPECT_EQ(d["interrupted"], false);
  EXPECT_TRUE(d["signal"].is_null());
  EXPECT_EQ(d["end"], "duration");
  EXPECT_TRUE(d["aborted"].is_null());
  EXPECT_DOUBLE_EQ(d["connected_fraction"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(d["held_s"].get<double>(), 3.9);
}

TEST(ReportTest, TheTestersCpuAndWhoDecodedWhole) {
  const Report r = sampleReport();
  const nlohmann::json d = nlohmann::json::parse(reportJson(r));
  EXPECT_DOUBLE_EQ(d["tester"]["cpu_s"].get<double>(), 2.1);
  EXPECT_DOUBLE_EQ(d["tester"]["user_s"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(d["tester"]["system_s"].get<double>(), 0.6);
  EXPECT_DOUBLE_EQ(d["tester"]["cores"].get<double>(), 0.5);  // 2.1 s over 4.2 s
  EXPECT_EQ(d["config"]["full_decode"], "16");
  EXPECT_EQ(d["decode"]["full_players"], 16);
  EXPECT_EQ(d["decode"]["light_players"], 4);
  const auto& only = d["decode"]["from_full_only"];
  for (const char* k :
       {"entities_in_view", "lost_entity_gap_ms", "counts.entities_lost", "counts.entities_vanished"}) {
    EXPECT_NE(std::find(only.begin(), only.end(), k), only.end()) << k;
  }
  const std::string table = reportTable(r);
  EXPECT_NE(table.find("over 4.2 s: 0.50 cores"), std::string::npos) << table;
  EXPECT_NE(table.find("16 players decode snapshots whole, 4 light (--full-decode 16)"), std::string::npos)
      << table;
  // A threshold on the tester's cores: a figure, judged at the end.
  const Check c = judge(expr("tester.cores<0.4"), reportJsonValue(r, false));
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(whenJudged(expr("tester.cores<0.4")), Judged::kAtEnd);
  // Every player decoding whole.
  Report all = sampleReport();
  all.options.fullDecode = kFullDecodeAll;
  all.counts.fullDecodePlayers = 20;
  all.counts.lightDecodePlayers = 0;
  EXPECT_NE(reportTable(all).find("every player decodes snapshots whole (--full-decode all)"),
            std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(reportJson(all))["config"]["full_decode"], "all");
  // Nothing elapsed: no cores.
  EXPECT_TRUE(nlohmann::json::parse(reportJson(Report{}))["tester"]["cores"].is_null());
}

TEST(ReportTest, EmptySeriesAreNullExceptBadEventsWhichAreZero) {
  const nlohmann::json d = nlohmann::json::parse(reportJson(Report{}));
  EXPECT_EQ(d["snapshot_interval_ms"]["count"], 0);
  EXPECT_TRUE(d["snapshot_interval_ms"]["p99"].is_null());
  EXPECT_TRUE(d["rtt_ms"]["max"].is_null());
  EXPECT_TRUE(d["server"]["send_period_ms"].is_null());
  for (const char* events : {"stall_ms", "extrapolation_ms", "lost_entity_gap_ms"}) {
    EXPECT_EQ(d[events]["count"], 0) << events;
    EXPECT_DOUBLE_EQ(d[events]["max"].get<double>(), 0.0) << events;
  }
}

TEST(ReportTest, AnInterruptedOrAbortedRunSaysSo) {
  Report r = sampleReport();
  r.end = EndReason::kSignal;
  r.signal = "SIGINT";
  nlohmann::json d = nlohmann::json::parse(reportJson(r));
  EXPECT_EQ(d["interrupted"], true);
  EXPECT_EQ(d["signal"], "SIGINT");
  EXPECT_EQ(d["end"], "signal");
  EXPECT_NE(reportTable(r).find("interrupted by SIGINT"), std::string::npos);

  r = sampleReport();
  r.end = EndReason::kAbortOnFail;
  r.aborted = Abort{3.0, judge(expr("rtt_ms.p99<1"), reportJsonValue(r, false))};
  d = nlohmann::json::parse(reportJson(r));
  EXPECT_EQ(d["interrupted"], false);
  EXPECT_EQ(d["end"], "abort_on_fail");
  EXPECT_DOUBLE_EQ(d["aborted"]["at_s"].get<double>(), 3.0);
  EXPECT_EQ(d["aborted"]["expression"], "rtt_ms.p99<1");
  EXPECT_DOUBLE_EQ(d["aborted"]["value"].get<double>(), 2.0);
  EXPECT_NE(d["aborted"]["failure"].get<std::string>().find("rtt_ms.p99 2 >= 1"), std::string::npos);
  EXPECT_NE(reportTable(r).find("aborted at 3.0 s"), std::string::npos);
}

TEST(ReportTest, CapacityStepsInTheJson) {
  Report r = sampleReport();
  CapacityResult c{5, 5, {}};
  CapacityStep held;
  held.players = 5;
  held.connectedAtEnd = 5;
  held.snapshotInterval = summarize({50, 67});
  held.snapshotJitter = summarize({1, 2});
  CapacityStep cut;
  cut.players = 10;
  cut.interrupted = true;
  c.steps = {held, cut};
  r.capacity = c;
  const nlohmann::json d = nlohmann::json::parse(reportJson(r));
  ASSERT_EQ(d["capacity"]["steps"].size(), 2u);
  EXPECT_EQ(d["capacity"]["highest_held"], 5);
  const auto& s0 = d["capacity"]["steps"][0];
  EXPECT_DOUBLE_EQ(s0["snapshot_interval_p99_ms"].get<double>(), 67.0);
  EXPECT_DOUBLE_EQ(s0["snapshot_jitter_p99_ms"].get<double>(), 2.0);
  EXPECT_TRUE(s0["tick_p99_ms"].is_null());
  EXPECT_EQ(s0["interrupted"], false);
  EXPECT_EQ(s0["verdict"], "pass");
  EXPECT_EQ(d["capacity"]["steps"][1]["interrupted"], true);
  EXPECT_TRUE(d["capacity"]["steps"][1]["snapshot_interval_p99_ms"].is_null());
  const std::string table = reportTable(r);
  EXPECT_NE(table.find("10 players: interrupted"), std::string::npos) << table;
  EXPECT_NE(table.find("highest count held: 5"), std::string::npos) << table;
}

TEST(ReportTest, SkeletonHasEveryFigureAndNoVerdict) {
  LoadOptions o;
  o.players = 7;
  o.findCapacity = true;
  const Json s = reportSkeleton(o);
  EXPECT_EQ(s["counts"]["players"], 7);
  EXPECT_TRUE(s.contains("rtt_ms"));
  EXPECT_TRUE(s.contains("snapshot_jitter_ms"));
  EXPECT_TRUE(s["server"].contains("tick_p99_ms"));
  EXPECT_FALSE(s.contains("verdict"));
  EXPECT_FALSE(s.contains("checks"));
}

TEST(ReportTest, TableShowsTheRowsAndTheVerdict) {
  const std::string t = reportTable(sampleReport());
  for (const char* s : {"snapshot interval (ms)", "in server ticks (ms)", "jitter (ms)", "stall (ms)",
                        "extrapolation (ms)", "rtt (ms)", "kbps in", "kbps out", "entities in view", "p50",
                        "p95", "p99", "max", "connected 20", "30 ticks/s, 20 snapshots/s", "tick p99 0.50 ms",
                        "max_tick_p99_ms (server.tick_p99_ms<=1e-06)", "FAIL", "verdict: FAIL"}) {
    EXPECT_NE(t.find(s), std::string::npos) << s << "\n" << t;
  }
}

}  // namespace
}  // namespace steerd::loadtest
