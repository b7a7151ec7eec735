// Thresholds as expressions: parsing, paths checked against the report's keys, when each can be
// judged while the run goes on, and judging on a report.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "loadtest/options.h"
#include "loadtest/report.h"
#include "loadtest/threshold.h"

namespace steerd::loadtest {
namespace {

ThresholdExpr parsed(const std::string& text) {
  std::string error;
  auto e = parseThreshold(text, error);
  EXPECT_TRUE(e) << text << ": " << error;
  return e ? *e : ThresholdExpr{};
}

std::string parseError(const std::string& text) {
  std::string error;
  const auto e = parseThreshold(text, error);
  EXPECT_FALSE(e) << text;
  EXPECT_FALSE(error.empty()) << text;
  return error;
}

TEST(ThresholdParseTest, EveryOperatorWithOrWithoutSpaces) {
  const ThresholdExpr a = parsed("rtt_ms.p99<80");
  EXPECT_EQ(a.path, "rtt_ms.p99");
  EXPECT_EQ(a.keys, (std::vector<std::string>{"rtt_ms", "p99"}));
  EXPECT_EQ(a.op, CompareOp::kLess);
  EXPECT_DOUBLE_EQ(a.limit, 80);
  EXPECT_EQ(a.text, "rtt_ms.p99<80");
  EXPECT_EQ(a.name, "rtt_ms.p99<80");
  EXPECT_EQ(a.source, "--threshold 'rtt_ms.p99<80'");

  const ThresholdExpr b = parsed("  server.tick_p99_ms <= 16.5 ");
  EXPECT_EQ(b.path, "server.tick_p99_ms");
  EXPECT_EQ(b.op, CompareOp::kLessEqual);
  EXPECT_DOUBLE_EQ(b.limit, 16.5);
  EXPECT_EQ(b.text, "server.tick_p99_ms<=16.5");

  const ThresholdExpr c = parsed("connected_fraction>0.99");
  EXPECT_EQ(c.keys, std::vector<std::string>{"connected_fraction"});
  EXPECT_EQ(c.op, CompareOp::kGreater);

  const ThresholdExpr d = parsed("counts.snapshots >= 1e3");
  EXPECT_EQ(d.op, CompareOp::kGreaterEqual);
  EXPECT_DOUBLE_EQ(d.limit, 1000);

  EXPECT_DOUBLE_EQ(parsed("kbps_in.mean>-2.5").limit, -2.5);
}

TEST(ThresholdParseTest, MalformedExpressionsSayWhy) {
  EXPECT_NE(parseError("rtt_ms.p99").find("< <= > >="), std::string::npos);
  EXPECT_NE(parseError("rtt_ms.p99=80").find("< <= > >="), std::string::npos);
  EXPECT_NE(parseError("rtt_ms.p99<=>80").find("one comparison"), std::string::npos);
  EXPECT_NE(parseError("rtt_ms.p99<<80").find("one comparison"), std::string::npos);
  EXPECT_NE(parseError("rtt_ms.p99==80").find("< <= > >="), std::string::npos);
  EXPECT_NE(parseError("<80").find("no path"), std::string::npos);
  EXPECT_NE(parseError("rtt_ms..p99<80").find("not a path"), std::string::npos);
  EXPECT_NE(parseError("rtt_ms.p99.<80").find("not a path"), std::string::npos);
  EXPECT_NE(parseError("rtt-ms.p99<80").find("not a path"), std::string::npos);
  EXPECT_NE(parseError("rtt ms<80").find("not a path"), std::string::npos);
  EXPECT_NE(parseError("rtt_ms.p99<").find("no number"), std::string::npos);
  EXPECT_NE(parseError("rtt_ms.p99<abc").find("'abc' is not a number"), std::string::npos);
  EXPECT_NE(parseError("rtt_ms.p99<80ms").find("not a number"), std::string::npos);
  EXPECT_NE(parseError("rtt_ms.p99<8 0").find("not a number"), std::string::npos);
  EXPECT_NE(parseError("rtt_ms.p99<nan").find("finite"), std::string::npos);
  EXPECT_NE(parseError("rtt_ms.p99<inf").find("finite"), std::string::npos);
  parseError("");
}

TEST(ThresholdParseTest, NamedChecksOfTheFourFlags) {
  Thresholds t;
  t.maxTickP99Ms = 16;
  t.maxStallMs = 250;
  t.maxSnapshotIntervalP99Ms = 120;
  t.minConnectedFraction = 0.99;
  t.expressions.push_back(parsed("rtt_ms.p99<80"));
  const auto checks = t.checks();
  ASSERT_EQ(checks.size(), 5u);
  EXPECT_EQ(checks[0].name, "max_tick_p99_ms");
  EXPECT_EQ(checks[0].text, "server.tick_p99_ms<=16");
  EXPECT_EQ(checks[0].source, "--max-tick-p99-ms 16");
  EXPECT_EQ(checks[1].name, "max_stall_ms");
  EXPECT_EQ(checks[1].text, "stall_ms.max<=250");
  EXPECT_EQ(checks[2].name, "max_snapshot_interval_p99_ms");
  EXPECT_EQ(checks[2].text, "snapshot_interval_ms.p99<=120");
  EXPECT_EQ(checks[3].name, "min_connected_fraction");
  EXPECT_EQ(checks[3].text, "connected_fraction>=0.99");
  EXPECT_EQ(checks[4].name, "rtt_ms.p99<80");
  EXPECT_TRUE(t.any());
  EXPECT_FALSE(Thresholds{}.any());
}

TEST(ThresholdPathTest, FiguresOfTheReportAreKnown) {
  LoadOptions o;
  o.players = 5;
  const Json skeleton = reportSkeleton(o);
  for (const char* ok : {"rtt_ms.p99<1", "snapshot_interval_ms.p99<1", "snapshot_jitter_ms.p99<1",
                         "snapshot_tick_interval_ms.max<1", "connected_fraction>1", "server.tick_p99_ms<1",
                         "server.late_ticks<1", "counts.disconnected<1", "samples.stalled<1", "elapsed_s>1",
                         "tester.cpu_s<1", "prediction_error_m.p99<1", "stall_ms.count<1"}) {
    EXPECT_EQ(checkThresholdPath(parsed(ok), skeleton), "") << ok;
  }
}

TEST(ThresholdPathTest, UnknownPathsNameWhatIsThere) {
  LoadOptions o;
  o.players = 5;
  const Json skeleton = reportSkeleton(o);
  const std::string nope = checkThresholdPath(parsed("nope.p99<1"), skeleton);
  EXPECT_NE(nope.find("no figure 'nope'"), std::string::npos) << nope;
  EXPECT_NE(nope.find("rtt_ms"), std::string::npos) << nope;
  EXPECT_EQ(nope.find("config"), std::string::npos) << nope;  // not offered: not a figure
  const std::string p98 = checkThresholdPath(parsed("rtt_ms.p98<1"), skeleton);
  EXPECT_NE(p98.find("no 'p98' in 'rtt_ms'"), std::string::npos) << p98;
  EXPECT_NE(p98.find("p99"), std::string::npos) << p98;
  EXPECT_NE(checkThresholdPath(parsed("rtt_ms<1"), skeleton).find("is a group"), std::string::npos);
  EXPECT_NE(checkThresholdPath(parsed("rtt_ms.p99.x<1"), skeleton).find("single figure"), std::string::npos);
  EXPECT_NE(checkThresholdPath(parsed("server.error<1"), skeleton).find("not a number"), std::string::npos);
  EXPECT_NE(checkThresholdPath(parsed("server.metrics_reachable>0"), skeleton).find("not a number"),
            std::string::npos);
  for (const char* notFigure : {"config.players>1", "thresholds.max_stall_ms<1", "exit_code<1", "verdict<1",
                                "capacity.highest_held>1", "aborted.value<1", "interrupted<1"}) {
    EXPECT_NE(checkThresholdPath(parsed(notFigure), skeleton).find("not a figure"), std::string::npos)
        << notFigure;
  }
}

TEST(ThresholdWhenTest, GrowingFiguresAnyTimeLevelsOnceHeldTheRestAtTheEnd) {
  EXPECT_EQ(whenJudged(parsed("stall_ms.max<250")), Judged::kAnyTime);
  EXPECT_EQ(whenJudged(parsed("stall_ms.count<=3")), Judged::kAnyTime);
  EXPECT_EQ(whenJudged(parsed("counts.disconnected<1")), Judged::kAnyTime);
  EXPECT_EQ(whenJudged(parsed("counts.decode_failures<10")), Judged::kAnyTime);
  EXPECT_EQ(whenJudged(parsed("server.late_ticks<5")), Judged::kAnyTime);
  EXPECT_EQ(whenJudged(parsed("impairment.dropped_to_client<5")), Judged::kAnyTime);
  // A lower bound on a growing figure may still be met later.
  EXPECT_EQ(whenJudged(parsed("counts.snapshots>1000")), Judged::kAtEnd);
  EXPECT_EQ(whenJudged(parsed("stall_ms.max>=0")), Judged::kAtEnd);
  // Levels: either way, once the players are held.
  EXPECT_EQ(whenJudged(parsed("rtt_ms.p99<80")), Judged::kOnceHeld);
  EXPECT_EQ(whenJudged(parsed("snapshot_jitter_ms.p50<5")), Judged::kOnceHeld);
  EXPECT_EQ(whenJudged(parsed("kbps_in.mean>10")), Judged::kOnceHeld);
  EXPECT_EQ(whenJudged(parsed("connected_fraction>=0.99")), Judged::kOnceHeld);
  EXPECT_EQ(whenJudged(parsed("counts.connected_at_end>=5")), Judged::kOnceHeld);
  EXPECT_EQ(whenJudged(parsed("server.tick_p99_ms<16")), Judged::kOnceHeld);
  // Only at the end.
  EXPECT_EQ(whenJudged(parsed("elapsed_s>10")), Judged::kAtEnd);
  EXPECT_EQ(whenJudged(parsed("tester.cpu_s<10")), Judged::kAtEnd);
  EXPECT_EQ(whenJudged(parsed("server.clients_at_end>=5")), Judged::kAtEnd);
  EXPECT_EQ(whenJudged(parsed("counts.still_connecting<1")), Judged::kAtEnd);
}

TEST(ThresholdJudgeTest, ComparesTheValueAtThePath) {
  const Json report = Json::parse(R"({"rtt_ms": {"count": 3, "p99": 80.0}, "connected_fraction": 0.9,
                                      "counts": {"disconnected": 0}, "stall_ms": {"count": 0, "max": 0}})");
  Check c = judge(parsed("rtt_ms.p99<80"), report);
  EXPECT_FALSE(c.pass);
  EXPECT_DOUBLE_EQ(*c.value, 80);
  EXPECT_DOUBLE_EQ(c.limit, 80);
  EXPECT_EQ(c.failure, "rtt_ms.p99 80 >= 80 (--threshold 'rtt_ms.p99<80')");
  EXPECT_TRUE(judge(parsed("rtt_ms.p99<=80"), report).pass);
  EXPECT_TRUE(judge(parsed("connected_fraction>0.5"), report).pass);
  c = judge(parsed("connected_fraction>=0.95"), report);
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.failure, "connected_fraction 0.9 < 0.95 (--threshold 'connected_fraction>=0.95')");
  EXPECT_TRUE(judge(parsed("counts.disconnected<1"), report).pass);
  EXPECT_TRUE(judge(parsed("stall_ms.max<=250"), report).pass);
  EXPECT_FALSE(judge(parsed("stall_ms.max>0"), report).pass);
}

TEST(ThresholdJudgeTest, WhatIsNotMeasuredFails) {
  Json report = Json::parse(R"({"rtt_ms": {"count": 0, "p99": null},
                                "server": {"metrics_reachable": false, "tick_p99_ms": null}})");
  Check c = judge(parsed("rtt_ms.p99<80"), report);
  EXPECT_FALSE(c.pass);
  EXPECT_FALSE(c.value);
  EXPECT_NE(c.failure.find("rtt_ms.p99 unknown: not measured"), std::string::npos) << c.failure;
  c = judge(parsed("server.tick_p99_ms<16"), report);
  EXPECT_FALSE(c.pass);
  EXPECT_NE(c.failure.find("unreachable"), std::string::npos) << c.failure;
  report["server"]["metrics_reachable"] = true;
  EXPECT_NE(judge(parsed("server.tick_p99_ms<16"), report).failure.find("not measured"), std::string::npos);
  EXPECT_FALSE(judge(parsed("missing.figure<1"), report).pass);
}

TEST(ThresholdJudgeTest, NumberAtFollowsThePath) {
  const Json j = Json::parse(R"({"a": {"b": {"c": 2.5}, "s": "x", "n": null}})");
  EXPECT_DOUBLE_EQ(*numberAt(j, {"a", "b", "c"}), 2.5);
  EXPECT_FALSE(numberAt(j, {"a", "b"}));
  EXPECT_FALSE(numberAt(j, {"a", "s"}));
  EXPECT_FALSE(numberAt(j, {"a", "n"}));
  EXPECT_FALSE(numberAt(j, {"a", "b", "c", "d"}));
  EXPECT_FALSE(numberAt(j, {"z"}));
  EXPECT_TRUE(compare(1, CompareOp::kLess, 2));
  EXPECT_FALSE(compare(2, CompareOp::kLess, 2));
  EXPECT_TRUE(compare(2, CompareOp::kLessEqual, 2));
  EXPECT_TRUE(compare(3, CompareOp::kGreater, 2));
  EXPECT_FALSE(compare(2, CompareOp::kGreater, 2));
  EXPECT_TRUE(compare(2, CompareOp::kGreaterEqual, 2));
}

}  // namespace
}  // namespace steerd::loadtest
