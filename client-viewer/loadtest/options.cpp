#include "loadtest/options.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include "loadtest/report.h"

namespace steerd::loadtest {

std::vector<ThresholdExpr> Thresholds::checks() const {
  std::vector<ThresholdExpr> out;
  auto flag = [](const char* name, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", v);
    return std::string("--") + name + " " + buf;
  };
  if (maxTickP99Ms) {
    out.push_back(namedThreshold("max_tick_p99_ms", flag("max-tick-p99-ms", *maxTickP99Ms),
                                 "server.tick_p99_ms", CompareOp::kLessEqual, *maxTickP99Ms));
  }
  if (maxStallMs) {
    out.push_back(namedThreshold("max_stall_ms", flag("max-stall-ms", *maxStallMs), "stall_ms.max",
                                 CompareOp::kLessEqual, *maxStallMs));
  }
  if (maxSnapshotIntervalP99Ms) {
    out.push_back(namedThreshold(
        "max_snapshot_interval_p99_ms", flag("max-snapshot-interval-p99-ms", *maxSnapshotIntervalP99Ms),
        "snapshot_interval_ms.p99", CompareOp::kLessEqual, *maxSnapshotIntervalP99Ms));
  }
  if (minConnectedFraction) {
    out.push_back(namedThreshold("min_connected_fraction",
                                 flag("min-connected-fraction", *minConnectedFraction), "connected_fraction",
                                 CompareOp::kGreaterEqual, *minConnectedFraction));
  }
  out.insert(out.end(), expressions.begin(), expressions.end());
  return out;
}

std::optional<std::size_t> parseFullDecode(std::string_view text, std::string& error) {
  if (text == "all") return kFullDecodeAll;
  std::size_t n = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, n);
  if (text.empty() || ec != std::errc() || ptr != end || n > 100'000) {
    error = "expected a number of players from 0 to 100000, or 'all'; got '" + std::string(text) + "'";
    return std::nullopt;
  }
  return n;
}

std::string fullDecodeText(std::size_t fullDecode) {
  return fullDecode == kFullDecodeAll ? std::string("all") : std::to_string(fullDecode);
}

Thresholds capacityDefaults() {
  Thresholds t;
  t.minConnectedFraction = 1.0;
  t.maxSnapshotIntervalP99Ms = 150.0;
  return t;
}

std::optional<int> parseLoadOptions(int argc, const char* const* argv, LoadOptions& out) {
  CLI::App app{
      "steer-loadtest: simulated players against a steerd server, through the client library, with a "
      "report and a verdict.\nExit: 0 pass, 1 a threshold failed or nobody could connect, 2 usage error."};
  app.option_defaults()->always_capture_default();
  std::string pattern = patternName(out.pattern);
  double maxTick = 0, maxStall = 0, maxInterval = 0, minConnected = 0;
  app.add_option("--server", out.server, "steerd's UDP address, HOST:PORT")->required();
  app.add_option("--players", out.players, "Simulated players")
      ->required()
      ->check(CLI::Range(std::size_t{1}, std::size_t{100'000}))
      ->default_str("");
  app.add_option("--duration", out.durationSeconds,
                 "Seconds to hold every player connected after the ramp (with --find-capacity: per step)")
      ->required()
      ->check(CLI::Range(0.1, 86'400.0))
      ->default_str("");
  app.add_option("--ramp", out.rampPerSecond, "Players started per second (0: all at once)")
      ->check(CLI::Range(0.0, 1e6));
  app.add_option("--churn-per-second", out.churnPerSecond,
                 "While holding, players per second that leave (say Disconnect) and are replaced by new "
                 "ones; each time a connected player chosen at random (from --seed)")
      ->check(CLI::Range(0.0, 1e4));
  app.add_option("--loss", out.impairment.loss,
                 "Simulated loss: probability of dropping each datagram, each way")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--latency", out.impairment.latencyMs, "Simulated one-way delay, ms, added each way")
      ->check(CLI::Range(0.0, 10'000.0));
  app.add_option("--jitter", out.impairment.jitterMs, "Simulated delay variation, +- ms (uniform)")
      ->check(CLI::Range(0.0, 10'000.0));
  app.add_option("--pattern", pattern, "How players move")
      ->check(CLI::IsMember({"walk", "orbit", "chase", "flee"}));
  app.add_option("--report", out.reportFile, "Write the report as JSON to this file");
  app.add_option("--out", out.seriesFile,
                 "Write one JSON object per line to this file once a second (players, snapshots/s, snapshot "
                 "interval and jitter, RTT, server tick p99), flushed each line");
  app.add_option(
         "--token", out.tokenFile,
         "File of connect tokens in hex (steerd --issue-token), one per line; player i uses line i mod n")
      ->check(CLI::ExistingFile);
  std::string metrics;
  app.add_option("--metrics", metrics,
                 "steerd's metrics HTTP address, HOST:PORT (default: server host, port 9100)");
  app.add_option("--seed", out.seed, "Seed of movement and simulated loss/latency (same seed, same drops)");
  app.add_option("--threads", out.threads, "Threads running the players' shared io_context")
      ->check(CLI::Range(1u, 64u));
  app.add_option("--view-rate", out.viewRateHz,
                 "Samples of each player's interpolated view per second (stalls, extrapolation, chase/flee "
                 "targets); at most the input rate, 30")
      ->check(CLI::Range(1.0, 30.0));
  std::string fullDecode;
  auto* fullDecodeOption =
      app.add_option("--full-decode", fullDecode,
                     "Players that decode every snapshot whole (positions: NPCs lost from view, entities in "
                     "view, chase/flee targets), N or 'all'; the others read only what acknowledging needs "
                     "(light: timed and sampled the same, far cheaper). Default 16, all with --pattern chase "
                     "or flee")
          ->default_str("16");
  auto* tick = app.add_option("--max-tick-p99-ms", maxTick,
                              "Fail if the server's tick p99 exceeds this, ms (server.tick_p99_ms<=X)")
                   ->check(CLI::PositiveNumber)
                   ->default_str("");
  auto* stall = app.add_option("--max-stall-ms", maxStall,
                               "Fail if any interpolation stall lasts longer, ms (stall_ms.max<=X)")
                    ->check(CLI::NonNegativeNumber)
                    ->default_str("");
  auto* interval =
      app.add_option(
             "--max-snapshot-interval-p99-ms", maxInterval,
             "Fail if the p99 time between consecutive complete snapshots a player receives exceeds this, ms "
             "(snapshot_interval_ms.p99<=X)")
          ->check(CLI::PositiveNumber)
          ->default_str("");
  auto* connected = app.add_option("--min-connected-fraction", minConnected,
                                   "Fail if fewer than this fraction of the players are connected at the end "
                                   "(connected_fraction>=X)")
                        ->check(CLI::Range(0.0, 1.0));
  std::vector<std::string> thresholdTexts;
  app.add_option("--threshold", thresholdTexts,
                 "Fail unless PATH OP NUMBER holds, PATH a number in the report (dotted: rtt_ms.p99, "
                 "snapshot_jitter_ms.p99, connected_fraction, server.tick_p99_ms, counts.disconnected), OP "
                 "< <= > >=; repeatable, e.g. --threshold 'rtt_ms.p99<80'")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->default_str("");
  app.add_flag("--abort-on-fail", out.abortOnFail,
               "Stop the run as soon as a threshold that can be judged while running fails (checked once a "
               "second on the running figures); the report says which");
  app.add_flag(
      "--find-capacity", out.findCapacity,
      "Add players in steps of --capacity-step (up to --players), holding each step --duration s, until a "
      "threshold breaks; report the highest count held (defaults: --min-connected-fraction 1, "
      "--max-snapshot-interval-p99-ms 150 when no threshold is given)");
  auto* step = app.add_option("--capacity-step", out.capacityStep, "Players added per --find-capacity step")
                   ->check(CLI::Range(std::size_t{1}, std::size_t{100'000}));
  app.add_flag("--quiet", out.quiet, "No progress lines on stderr");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  auto usage = [](const std::string& message) {
    std::fprintf(stderr, "%s\nRun with --help for more information.\n", message.c_str());
    return 2;
  };
  // CLI11's range checks let NaN through (every comparison with NaN is false).
  const std::pair<const char*, double> numbers[] = {{"--duration", out.durationSeconds},
                                                    {"--ramp", out.rampPerSecond},
                                                    {"--churn-per-second", out.churnPerSecond},
                                                    {"--loss", out.impairment.loss},
                                                    {"--latency", out.impairment.latencyMs},
                                                    {"--jitter", out.impairment.jitterMs},
                                                    {"--view-rate", out.viewRateHz},
                                                    {"--max-tick-p99-ms", maxTick},
                                                    {"--max-stall-ms", maxStall},
                                                    {"--max-snapshot-interval-p99-ms", maxInterval},
                                                    {"--min-connected-fraction", minConnected}};
  for (const auto& [name, value] : numbers) {
    if (!std::isfinite(value)) return usage(std::string(name) + " must be a finite number");
  }
  if (const std::string e = splitHostPort(out.server, out.serverHost, out.serverPort); !e.empty()) {
    return usage("--server: " + e);
  }
  out.metricsHost = out.serverHost;
  if (!metrics.empty()) {
    if (const std::string e = splitHostPort(metrics, out.metricsHost, out.metricsPort); !e.empty()) {
      return usage("--metrics: " + e);
    }
  }
  out.pattern = *patternFromName(pattern);
  if (fullDecodeOption->count() > 0) {
    std::string error;
    const auto n = parseFullDecode(fullDecode, error);
    if (!n) return usage("--full-decode: " + error);
    out.fullDecode = *n;
  } else if (out.pattern == Pattern::kChase || out.pattern == Pattern::kFlee) {
    out.fullDecode = kFullDecodeAll;  // every player steers by the NPCs it sees
  }
  if (tick->count() > 0) out.thresholds.maxTickP99Ms = maxTick;
  if (stall->count() > 0) out.thresholds.maxStallMs = maxStall;
  if (interval->count() > 0) out.thresholds.maxSnapshotIntervalP99Ms = maxInterval;
  if (connected->count() > 0) out.thresholds.minConnectedFraction = minConnected;
  for (const std::string& text : thresholdTexts) {
    std::string error;
    auto e = parseThreshold(text, error);
    if (!e) return usage("--threshold '" + text + "': " + error);
    out.thresholds.expressions.push_back(std::move(*e));
  }
  if (out.findCapacity && !out.thresholds.any()) out.thresholds = capacityDefaults();
  if (step->count() == 0) out.capacityStep = std::min(out.capacityStep, out.players);
  if (out.findCapacity && out.capacityStep > out.players) {
    return usage("--capacity-step (" + std::to_string(out.capacityStep) + ") is more than --players (" +
                 std::to_string(out.players) + ")");
  }
  // Every path must name a figure the report has.
  if (!out.thresholds.expressions.empty()) {
    const Json skeleton = reportSkeleton(out);
    for (const ThresholdExpr& e : out.thresholds.expressions) {
      if (const std::string why = checkThresholdPath(e, skeleton); !why.empty()) {
        return usage(e.source + ": " + why);
      }
    }
  }
  if (out.abortOnFail && !out.thresholds.any()) {
    return usage(
        "--abort-on-fail: no threshold to judge (give --threshold or one of the --max-*/--min-* flags)");
  }
  if (!out.seriesFile.empty() && out.seriesFile == out.reportFile) {
    return usage("--out and --report name the same file (" + out.seriesFile + ")");
  }
  return std::nullopt;
}

}  // namespace steerd::loadtest
