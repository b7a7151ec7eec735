// steer-loadtest's flags: good ones parsed, bad ones refused with exit 2, NaN included.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "loadtest/options.h"
#include "loadtest/token_file.h"

namespace steerd::loadtest {
namespace {

std::optional<int> parse(std::vector<std::string> args, LoadOptions& out) {
  args.insert(args.begin(), "steer-loadtest");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return parseLoadOptions(static_cast<int>(argv.size()), argv.data(), out);
}

TEST(LoadOptionsTest, ParsesEverything) {
  LoadOptions o;
  const auto code = parse({"--server",
                           "10.0.0.5:7000",
                           "--players",
                           "1000",
                           "--duration",
                           "20",
                           "--ramp",
                           "50",
                           "--loss",
                           "0.02",
                           "--latency",
                           "40",
                           "--jitter",
                           "10",
                           "--pattern",
                           "flee",
                           "--seed",
                           "9",
                           "--threads",
                           "2",
                           "--max-tick-p99-ms",
                           "16",
                           "--max-stall-ms",
                           "250",
                           "--max-snapshot-interval-p99-ms",
                           "120",
                           "--min-connected-fraction",
                           "0.99",
                           "--quiet",
                           "--report",
                           "out.json",
                           "--view-rate",
                           "30"},
                          o);
  ASSERT_FALSE(code) << *code;
  EXPECT_EQ(o.serverHost, "10.0.0.5");
  EXPECT_EQ(o.serverPort, 7000);
  EXPECT_EQ(o.players, 1000u);
  EXPECT_DOUBLE_EQ(o.durationSeconds, 20);
  EXPECT_DOUBLE_EQ(o.rampPerSecond, 50);
  EXPECT_DOUBLE_EQ(o.impairment.loss, 0.02);
  EXPECT_DOUBLE_EQ(o.impairment.latencyMs, 40);
  EXPECT_DOUBLE_EQ(o.impairment.jitterMs, 10);
  EXPECT_EQ(o.pattern, Pattern::kFlee);
  EXPECT_EQ(o.seed, 9u);
  EXPECT_EQ(o.threads, 2u);
  EXPECT_DOUBLE_EQ(*o.thresholds.maxTickP99Ms, 16);
  EXPECT_DOUBLE_EQ(*o.thresholds.maxStallMs, 250);
  EXPECT_DOUBLE_EQ(*o.thresholds.maxSnapshotIntervalP99Ms, 120);
  EXPECT_DOUBLE_EQ(*o.thresholds.minConnectedFraction, 0.99);
  EXPECT_TRUE(o.quiet);
  EXPECT_EQ(o.reportFile, "out.json");
  EXPECT_DOUBLE_EQ(o.viewRateHz, 30);
  // Metrics: the server's host on port 9100 unless told.
  EXPECT_EQ(o.metricsHost, "10.0.0.5");
  EXPECT_EQ(o.metricsPort, 9100);
}

TEST(LoadOptionsTest, DefaultsAndMetricsOverride) {
  LoadOptions o;
  ASSERT_FALSE(parse(
      {"--server", "[::1]:7777", "--players", "5", "--duration", "1", "--metrics", "127.0.0.1:9200"}, o));
  EXPECT_EQ(o.serverHost, "::1");
  EXPECT_EQ(o.serverPort, 7777);
  EXPECT_EQ(o.metricsHost, "127.0.0.1");
  EXPECT_EQ(o.metricsPort, 9200);
  EXPECT_FALSE(o.thresholds.any());  // none unless asked
  EXPECT_EQ(o.pattern, Pattern::kWalk);
  EXPECT_FALSE(o.findCapacity);
  EXPECT_FALSE(o.impairment.active());
}

TEST(LoadOptionsTest, FullDecodeDefaultsCountsAndAll) {
  LoadOptions o;
  ASSERT_FALSE(parse({"--server", "h:1", "--players", "1000", "--duration", "1"}, o));
  EXPECT_EQ(o.fullDecode, kDefaultFullDecode);  // walk: a few players decode whole
  EXPECT_EQ(o.fullDecode, 16u);
  EXPECT_TRUE(o.decodesFully(0));
  EXPECT_TRUE(o.decodesFully(15));
  EXPECT_FALSE(o.decodesFully(16));
  EXPECT_FALSE(o.decodesFully(999));
  // Chase and flee steer by the NPCs each player sees: every player decodes unless told.
  for (const char* pattern : {"chase", "flee"}) {
    LoadOptions c;
    ASSERT_FALSE(parse({"--server", "h:1", "--players", "50", "--duration", "1", "--pattern", pattern}, c));
    EXPECT_EQ(c.fullDecode, kFullDecodeAll) << pattern;
    EXPECT_TRUE(c.decodesFully(49)) << pattern;
  }
  LoadOptions told;
  ASSERT_FALSE(parse(
      {"--server", "h:1", "--players", "50", "--duration", "1", "--pattern", "chase", "--full-decode", "4"},
      told));
  EXPECT_EQ(told.fullDecode, 4u);
  EXPECT_FALSE(told.decodesFully(4));
  LoadOptions all;
  ASSERT_FALSE(parse({"--server", "h:1", "--players", "50", "--duration", "1", "--full-decode", "all"}, all));
  EXPECT_EQ(all.fullDecode, kFullDecodeAll);
  EXPECT_TRUE(all.decodesFully(10'000));
  EXPECT_EQ(fullDecodeText(all.fullDecode), "all");
  LoadOptions none;
  ASSERT_FALSE(parse({"--server", "h:1", "--players", "50", "--duration", "1", "--full-decode", "0"}, none));
  EXPECT_EQ(none.fullDecode, 0u);
  EXPECT_FALSE(none.decodesFully(0));
  EXPECT_EQ(fullDecodeText(none.fullDecode), "0");
}

TEST(LoadOptionsTest, BadFullDecodeSaysWhatItTakes) {
  for (const char* bad :
       {"-1", "abc", "", "1e3", "3.5", "16x", " 16", "100001", "ALL", "99999999999999999999999"}) {
    LoadOptions o;
    testing::internal::CaptureStderr();
    testing::internal::CaptureStdout();
    const auto code =
        parse({"--server", "h:1", "--players", "5", "--duration", "1", "--full-decode", bad}, o);
    const std::string err = testing::internal::GetCapturedStderr() + testing::internal::GetCapturedStdout();
    ASSERT_TRUE(code) << bad;
    EXPECT_EQ(*code, 2) << bad;
    EXPECT_NE(err.find("--full-decode"), std::string::npos) << bad << ": " << err;
  }
  std::string error;
  EXPECT_FALSE(parseFullDecode("-1", error));
  EXPECT_NE(error.find("'all'"), std::string::npos) << error;
  EXPECT_NE(error.find("'-1'"), std::string::npos) << error;
  EXPECT_EQ(parseFullDecode("all", error), kFullDecodeAll);
  EXPECT_EQ(parseFullDecode("100000", error), 100'000u);
}

TEST(LoadOptionsTest, FindCapacityHasDefaultThresholdsAndAStep) {
  LoadOptions o;
  ASSERT_FALSE(parse({"--server", "h:1", "--players", "30", "--duration", "2", "--find-capacity"}, o));
  EXPECT_TRUE(o.findCapacity);
  EXPECT_EQ(o.capacityStep, 30u);  // the default 50, capped at --players
  EXPECT_DOUBLE_EQ(*o.thresholds.minConnectedFraction, 1.0);
  EXPECT_DOUBLE_EQ(*o.thresholds.maxSnapshotIntervalP99Ms, 150.0);
  LoadOptions p;
  ASSERT_FALSE(parse({"--server", "h:1", "--players", "300", "--duration", "2", "--find-capacity",
                      "--capacity-step", "25", "--max-tick-p99-ms", "10"},
                     p));
  EXPECT_EQ(p.capacityStep, 25u);
  EXPECT_TRUE(p.thresholds.maxTickP99Ms);
  EXPECT_FALSE(p.thresholds.minConnectedFraction);  // given thresholds replace the defaults
}

TEST(LoadOptionsTest, BadFlagsExitTwo) {
  const std::vector<std::vector<std::string>> bad = {
      {"--players", "5", "--duration", "1"},                           // no --server
      {"--server", "localhost", "--players", "5", "--duration", "1"},  // no port
      {"--server", "h:0", "--players", "5", "--duration", "1"},        // port 0
      {"--server", "h:70000", "--players", "5", "--duration", "1"},    // port too big
      {"--server", "h:12x", "--players", "5", "--duration", "1"},      // not a number
      {"--server", "h:1", "--players", "0", "--duration", "1"},        // no players
      {"--server", "h:1", "--players", "abc", "--duration", "1"},      // not a number
      {"--server", "h:1", "--players", "5"},                           // no duration
      {"--server", "h:1", "--players", "5", "--duration", "nan"},      // NaN
      {"--server", "h:1", "--players", "5", "--duration", "1", "--loss", "nan"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--loss", "1.5"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--latency", "-1"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--jitter", "nan"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--ramp", "nan"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--pattern", "run"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--threads", "0"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--max-tick-p99-ms", "nan"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--max-tick-p99-ms", "0"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--max-stall-ms", "nan"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--max-snapshot-interval-p99-ms", "-5"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--min-connected-fraction", "1.1"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--min-connected-fraction", "nan"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--metrics", "nope"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--token", "/nonexistent/tokens"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--find-capacity", "--capacity-step", "6"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--view-rate", "0"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--bogus"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--threshold", "nope.p99<1"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--threshold", "rtt_ms.p99=1"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--threshold", "rtt_ms.p99<nan"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--threshold"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--abort-on-fail"},
      {"--server", "h:1", "--players", "5", "--duration", "1", "--out", "x.json", "--report", "x.json"},
  };
  for (const auto& args : bad) {
    LoadOptions o;
    testing::internal::CaptureStderr();
    testing::internal::CaptureStdout();
    const auto code = parse(args, o);
    const std::string err = testing::internal::GetCapturedStderr() + testing::internal::GetCapturedStdout();
    std::string joined;
    for (const auto& a : args) joined += a + " ";
    ASSERT_TRUE(code) << joined;
    EXPECT_EQ(*code, 2) << joined;
    EXPECT_FALSE(err.empty()) << joined;
  }
}

TEST(LoadOptionsTest, ThresholdExpressionsOutAndAbortOnFail) {
  LoadOptions o;
  ASSERT_FALSE(parse(
      {"--server", "h:1", "--players", "5", "--duration", "1", "--threshold", "rtt_ms.p99<80", "--threshold",
       "snapshot_jitter_ms.p99 <= 10", "--max-stall-ms", "250", "--abort-on-fail", "--out", "series.jsonl"},
      o));
  ASSERT_EQ(o.thresholds.expressions.size(), 2u);
  EXPECT_EQ(o.thresholds.expressions[0].text, "rtt_ms.p99<80");
  EXPECT_EQ(o.thresholds.expressions[1].text, "snapshot_jitter_ms.p99<=10");
  EXPECT_EQ(o.thresholds.expressions[1].source, "--threshold 'snapshot_jitter_ms.p99 <= 10'");
  const auto checks = o.thresholds.checks();
  ASSERT_EQ(checks.size(), 3u);
  EXPECT_EQ(checks[0].name, "max_stall_ms");
  EXPECT_TRUE(o.abortOnFail);
  EXPECT_EQ(o.seriesFile, "series.jsonl");
  // Expressions count as thresholds: --find-capacity keeps them instead of its defaults.
  LoadOptions c;
  ASSERT_FALSE(parse({"--server", "h:1", "--players", "10", "--duration", "1", "--find-capacity",
                      "--threshold", "rtt_ms.p99<80"},
                     c));
  EXPECT_FALSE(c.thresholds.minConnectedFraction);
  EXPECT_EQ(c.thresholds.checks().size(), 1u);
}

TEST(LoadOptionsTest, BadThresholdsNameTheExpressionAndWhy) {
  const std::pair<const char*, const char*> cases[] = {
      {"nope.p99<1", "no figure 'nope'"},
      {"rtt_ms.p98<1", "no 'p98' in 'rtt_ms'"},
      {"rtt_ms<1", "is a group"},
      {"rtt_ms.p99==1", "< <= > >="},
      {"rtt_ms.p99<fast", "'fast' is not a number"},
      {"config.players>1", "not a figure"},
  };
  for (const auto& [text, why] : cases) {
    LoadOptions o;
    testing::internal::CaptureStderr();
    const auto code = parse({"--server", "h:1", "--players", "5", "--duration", "1", "--threshold", text}, o);
    const std::string err = testing::internal::GetCapturedStderr();
    ASSERT_TRUE(code) << text;
    EXPECT_EQ(*code, 2) << text;
    EXPECT_NE(err.find(std::string("--threshold '") + text + "'"), std::string::npos) << err;
    EXPECT_NE(err.find(why), std::string::npos) << err;
  }
}

TEST(LoadOptionsTest, HelpExitsZero) {
  LoadOptions o;
  testing::internal::CaptureStdout();
  const auto code = parse({"--help"}, o);
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(code);
  EXPECT_EQ(*code, 0);
  for (const char* flag : {"--find-capacity", "--threshold", "--abort-on-fail", "--out"}) {
    EXPECT_NE(out.find(flag), std::string::npos) << flag;
  }
}

TEST(TokenFileTest, ReadsHexTokensOnePerLine) {
  const std::string path = testing::TempDir() + "loadtest_tokens.txt";
  {
    std::ofstream f(path);
    f << "0a0B ff\n";  // a space inside: not hex
  }
  std::vector<std::string> tokens;
  std::string error;
  EXPECT_FALSE(readTokenFile(path, tokens, error));
  EXPECT_NE(error.find(":1:"), std::string::npos) << error;
  {
    std::ofstream f(path);
    f << "  0a0Bff  \n\n00\r\n";
  }
  ASSERT_TRUE(readTokenFile(path, tokens, error)) << error;
  ASSERT_EQ(tokens.size(), 2u);
  EXPECT_EQ(tokens[0], std::string("\x0a\x0b\xff", 3));
  EXPECT_EQ(tokens[1], std::string("\0", 1));
  {
    std::ofstream f(path);
    f << "\n";
  }
  EXPECT_FALSE(readTokenFile(path, tokens, error));
  std::remove(path.c_str());
  std::string bytes;
  EXPECT_FALSE(hexToBytes("abc", bytes));
  EXPECT_FALSE(hexToBytes("zz", bytes));
}

}  // namespace
}  // namespace steerd::loadtest
