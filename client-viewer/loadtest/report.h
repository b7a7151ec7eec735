// The load test's result: what was run, what the players felt (percentiles per series), counts,
// the server's tick p99, the thresholds and the verdict; written as a table and as JSON.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loadtest/options.h"
#include "loadtest/percentiles.h"
#include "loadtest/player.h"  // Series

namespace steerd::loadtest {

struct Counts {
  std::uint64_t players = 0;         // asked for
  std::uint64_t started = 0;         // connect() called
  std::uint64_t connected = 0;       // reached Accept at some point
  std::uint64_t connectedAtEnd = 0;  // still connected when the run ended
  std::uint64_t refused = 0;
  std::uint64_t timedOut = 0;              // handshake unanswered, or the server went silent
  std::uint64_t timedOutAfterConnect = 0;  // of which the server went silent
  std::uint64_t disconnected = 0;          // by the server
  std::uint64_t failed = 0;                // local error (sockets)
  std::uint64_t stillConnecting = 0;       // handshake not finished when the run ended
  std::uint64_t decodeFailures = 0;
  std::uint64_t predictionCorrections = 0;  // intent mode: reconciles that moved a prediction
  std::uint64_t snapshots = 0;              // complete snapshots received
  std::uint64_t snapshotParts = 0;
  std::uint64_t snapshotsAbandoned = 0;
  std::uint64_t sendFailures = 0;
  std::uint64_t bytesIn = 0, bytesOut = 0;
  std::uint64_t relayDroppedToServer = 0, relayDroppedToClient = 0;
  std::uint64_t relayForwardedToServer = 0, relayForwardedToClient = 0;
  std::array<std::uint64_t, 5> samples{};  // by client::SampleKind
  std::uint64_t churned = 0;               // players that left before the end and were replaced
  // NPCs gone from a player's view while well inside its interest area (view_loss.h): seen again
  // later (lost), or not within 5 s (vanished: despawned, or lost for good).
  std::uint64_t entitiesLost = 0, entitiesVanished = 0;
  std::uint64_t entitiesLostJoining = 0, entitiesVanishedJoining = 0;  // of which in a player's first 2 s
  // An example message per outcome, to say why.
  std::string refusedExample, timedOutExample, disconnectedExample, failedExample;
};

struct ServerView {
  std::string address;  // of /metrics
  bool reachable = false;
  std::string error;                   // why not, when not
  std::optional<double> tickP99Ms;     // over the run
  bool tickSinceServerStart = false;   // the first scrape failed: p99 over the server's whole life
  std::optional<double> lateTicks;     // during the run
  std::optional<double> clientsAtEnd;  // steerd_clients before the players left
};

struct Check {
  std::string name;  // the flag, without dashes
  double limit = 0;
  std::optional<double> value;  // nullopt: not measurable
  bool pass = false;
};

struct Verdict {
  bool pass = true;
  std::vector<Check> checks;
  std::vector<std::string> failures;  // human-readable, one per failed check
};

// What the thresholds are checked against.
struct Measured {
  std::uint64_t players = 0, connected = 0, connectedAtEnd = 0;
  std::optional<double> tickP99Ms;
  Summary snapshotInterval;
  Summary stall;
  bool serverReachable = false;
};

Verdict evaluate(const Thresholds& t, const Measured& m);

struct CapacityStep {
  std::uint64_t players = 0;
  Measured measured;
  Verdict verdict;
};

struct CapacityResult {
  std::uint64_t step = 0;
  std::uint64_t highestHeld = 0;  // 0: not even the first step held
  std::vector<CapacityStep> steps;
};

struct Report {
  LoadOptions options;
  double elapsedSeconds = 0;  // first connect to the players leaving
  double rampSeconds = 0;
  std::uint64_t threads = 1;
  double testerCpuSeconds = 0;
  Counts counts;
  std::array<Summary, kSeriesCount> series{};
  ServerView server;
  Verdict verdict;
  std::optional<CapacityResult> capacity;
};

Measured measuredOf(const Report& r);
// 0: pass; 1: a threshold failed, or nobody connected (with --find-capacity: not even the first
// step held).
int exitCodeOf(const Report& r);
std::string reportJson(const Report& r);
std::string reportTable(const Report& r);

}  // namespace steerd::loadtest
