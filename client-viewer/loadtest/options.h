// Command-line options of steer-loadtest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/address.h"

#include "loadtest/impairment.h"
#include "loadtest/movement.h"
#include "loadtest/threshold.h"

namespace steerd::loadtest {

// Pass/fail limits; unset ones are not checked. The four named ones are the same as expressions
// (threshold.h): --max-tick-p99-ms X is server.tick_p99_ms<=X, --max-stall-ms X stall_ms.max<=X,
// --max-snapshot-interval-p99-ms X snapshot_interval_ms.p99<=X, --min-connected-fraction X
// connected_fraction>=X.
struct Thresholds {
  std::optional<double> maxTickP99Ms;              // server tick p99, from /metrics
  std::optional<double> maxStallMs;                // longest interpolation stall of any player
  std::optional<double> maxSnapshotIntervalP99Ms;  // p99 time between consecutive complete snapshots
  std::optional<double> minConnectedFraction;      // players connected at the end / players
  std::vector<ThresholdExpr> expressions;          // --threshold, in the order given

  bool any() const {
    return maxTickP99Ms || maxStallMs || maxSnapshotIntervalP99Ms || minConnectedFraction ||
           !expressions.empty();
  }
  // Every check: the four named ones that are set, then the expressions.
  std::vector<ThresholdExpr> checks() const;
};

// --full-decode: how many players decode every snapshot whole.
inline constexpr std::size_t kFullDecodeAll = static_cast<std::size_t>(-1);  // every player
inline constexpr std::size_t kDefaultFullDecode = 16;                        // with --pattern walk or orbit

// "all" or a count of players (0 or more, decimal): kFullDecodeAll or the count; nullopt, with
// `error` saying why, otherwise.
std::optional<std::size_t> parseFullDecode(std::string_view text, std::string& error);
// "all" or the count.
std::string fullDecodeText(std::size_t fullDecode);

struct LoadOptions {
  std::string server;  // HOST:PORT as given
  std::string serverHost;
  std::uint16_t serverPort = 0;
  std::size_t players = 0;
  double durationSeconds = 0.0;
  double rampPerSecond = 100.0;  // players started per second; 0: all at once
  double churnPerSecond = 0.0;   // while holding: players per second that leave and are replaced
  ImpairmentConfig impairment;
  Pattern pattern = Pattern::kWalk;
  std::string reportFile;
  std::string seriesFile;  // --out: one JSON object per line, once a second
  std::string tokenFile;
  std::string metricsHost;  // default: the server's host
  std::uint16_t metricsPort = 9100;
  std::uint64_t seed = 1;
  unsigned threads = 1;
  double viewRateHz = 10.0;  // samples of each player's interpolated view per second
  // Players (the first started; a churned one's replacement takes its place) that decode every
  // snapshot whole: the positions the NPCs lost from view, entities in view and chase and flee
  // targets come from. The others read snapshots light (client::ClientOptions::decodeEntities
  // false): acknowledged, timed and sampled the same, with no positions; a light player with
  // --pattern chase or flee walks. kFullDecodeAll: every player. Default kDefaultFullDecode, all
  // with --pattern chase or flee.
  std::size_t fullDecode = kDefaultFullDecode;
  bool decodesFully(std::size_t startedIndex) const {
    return fullDecode == kFullDecodeAll || startedIndex < fullDecode;
  }
  Thresholds thresholds;
  bool abortOnFail = false;  // stop as soon as a check that can be judged while running fails
  bool findCapacity = false;
  std::size_t capacityStep = 50;
  bool quiet = false;
};

// Default limits --find-capacity uses when none is given: everybody admitted and snapshots on time.
Thresholds capacityDefaults();

using client::splitHostPort;  // HOST:PORT or [IPv6]:PORT

// Parses argv. On --help or a bad flag prints to stdout/stderr and returns the exit code (0 for
// --help, 2 for usage errors); otherwise fills `out` and returns nullopt.
std::optional<int> parseLoadOptions(int argc, const char* const* argv, LoadOptions& out);

}  // namespace steerd::loadtest
