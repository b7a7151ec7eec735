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
#include "loadtest/series.h"
#include "loadtest/threshold.h"

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
  // Of the players started (less those churned out): decoding snapshots whole (--full-decode), and
  // light. The NPCs lost from view and the entities in view are from the first alone.
  std::uint64_t fullDecodePlayers = 0, lightDecodePlayers = 0;
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
  std::string error;                      // why not, when not
  std::optional<double> tickP99Ms;        // over the run
  bool tickSinceServerStart = false;      // the first scrape failed: p99 over the server's whole life
  std::optional<double> lateTicks;        // during the run
  std::optional<double> clientsAtEnd;     // steerd_clients before the players left
  double tickRateHz = 0, sendRateHz = 0;  // announced in Accept; 0: nobody connected
};

struct Verdict {
  bool pass = true;
  std::vector<Check> checks;
  std::vector<std::string> failures;  // human-readable, one per failed check
};

// --abort-on-fail: the check that stopped the run.
struct Abort {
  double atSeconds = 0;  // since the first player started
  Check check;
};

struct CapacityStep {
  std::uint64_t players = 0;
  std::uint64_t connectedAtEnd = 0;
  std::optional<double> tickP99Ms;
  Summary snapshotInterval, snapshotJitter, stall;
  bool interrupted = false;  // a signal ended the step: neither held nor broken
  Verdict verdict;
};

struct CapacityResult {
  std::uint64_t step = 0;
  std::uint64_t highestHeld = 0;  // 0: not even the first step held
  std::vector<CapacityStep> steps;
};

// How the run ended.
enum class EndReason : std::uint8_t { kDuration, kSignal, kAbortOnFail, kPlayersEnded };
const char* endReasonName(EndReason e);

struct Report {
  LoadOptions options;
  double elapsedSeconds = 0;  // first connect to the players leaving
  double rampSeconds = 0;
  double heldSeconds = 0;  // holding the players after the ramp (with --find-capacity: every step's hold)
  std::uint64_t threads = 1;
  double testerCpuSeconds = 0;  // the tester's process, user + system, over elapsedSeconds
  double testerUserSeconds = 0, testerSystemSeconds = 0;
  Counts counts;
  std::array<Summary, kSeriesCount> series{};
  ServerView server;
  Verdict verdict;
  EndReason end = EndReason::kDuration;
  std::string signal;  // "SIGINT" or "SIGTERM" when one ended the run early
  std::optional<Abort> aborted;
  std::optional<CapacityResult> capacity;
};

// The report as JSON, less the verdict (checks, verdict, failures, exit_code) when `withVerdict`
// is false: what the thresholds are judged on.
Json reportJsonValue(const Report& r, bool withVerdict = true);
// A report with nothing measured: every key there, for checking threshold paths before the run.
Json reportSkeleton(const LoadOptions& o);
// Every check of `t` on `report` (reportJsonValue), and "no player could connect" when
// counts.connected is 0.
Verdict evaluate(const Thresholds& t, const Json& report);
// 0: pass; 1: a threshold failed, or nobody connected (with --find-capacity: not even the first
// step held).
int exitCodeOf(const Report& r);
std::string reportJson(const Report& r);  // reportJsonValue, two-space indented, with a newline
std::string reportTable(const Report& r);

}  // namespace steerd::loadtest
