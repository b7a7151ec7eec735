// Command-line options of steer-loadtest.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "client/address.h"

#include "loadtest/impairment.h"
#include "loadtest/movement.h"

namespace steerd::loadtest {

// Pass/fail limits; unset ones are not checked.
struct Thresholds {
  std::optional<double> maxTickP99Ms;              // server tick p99, from /metrics
  std::optional<double> maxStallMs;                // longest interpolation stall of any player
  std::optional<double> maxSnapshotIntervalP99Ms;  // p99 time between complete snapshots
  std::optional<double> minConnectedFraction;      // players connected at the end / players

  bool any() const { return maxTickP99Ms || maxStallMs || maxSnapshotIntervalP99Ms || minConnectedFraction; }
};

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
  std::string tokenFile;
  std::string metricsHost;  // default: the server's host
  std::uint16_t metricsPort = 9100;
  std::uint64_t seed = 1;
  unsigned threads = 1;
  double viewRateHz = 10.0;  // samples of each player's interpolated view per second
  Thresholds thresholds;
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
