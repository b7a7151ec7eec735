// What /metrics exposes. Written by the simulation and network threads with relaxed atomics
// (counters only ever grow; a scrape may see one a little ahead of another, never torn), read by
// the HTTP thread. Per-client summaries change rarely and sit behind a mutex.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "proto/packet.h"

namespace steerd::net {

using Counter = std::atomic<std::uint64_t>;

// A Prometheus histogram with fixed upper bounds in base units (seconds, ratios); cumulative on
// output. observe() may be called from any thread.
class Histogram {
 public:
  explicit Histogram(std::vector<double> bounds);
  void observe(double value);
  std::string render(const char* name, const char* help) const;
  std::uint64_t count() const { return count_.load(std::memory_order_relaxed); }
  double sum() const { return sum_.load(std::memory_order_relaxed); }

 private:
  std::vector<double> bounds_;
  std::unique_ptr<Counter[]> buckets_;  // bounds_.size() + 1 (the last is +Inf)
  Counter count_{0};
  std::atomic<double> sum_{0.0};
};

// Bucket bounds, seconds: tick and snapshot-build times (the 30 Hz budget is 0.033).
inline std::vector<double> tickBoundsSeconds() {
  return {0.00025, 0.0005, 0.001, 0.002, 0.004, 0.008, 0.012, 0.016, 0.025, 0.033, 0.05, 0.1};
}
// A client's smoothed round-trip time, seconds.
inline std::vector<double> rttBoundsSeconds() {
  return {0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0};
}
// A client's snapshot loss over one second, a ratio.
inline std::vector<double> lossBounds() { return {0.0, 0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5}; }

struct ClientSummary {
  std::uint32_t clientId = 0;
  double rttMs = 0;
  double lossRatio = 0;  // snapshots unacknowledged over those sent, since the client connected
};

// What /metrics says about the binary (steerd_build_info's labels).
struct BuildLabels {
  std::string version;
  std::string compiler;
};

struct ServerMetrics {
  Counter packetsIn{0}, packetsOut{0}, bytesIn{0}, bytesOut{0};
  std::array<Counter, static_cast<std::size_t>(wire::DropReason::kCount)> drops{};
  Counter connects{0}, disconnects{0}, timeouts{0}, refusals{0};
  Counter sessionsReplaced{0};    // a connection with a token whose client id held a session took it
  Counter refusalsPerAddress{0};  // refused: the address held --max-clients-per-address sessions
  Counter inputsApplied{0}, inputsClamped{0};
  Counter inputsSkipped{0};    // intent inputs never received, passed over after the gap wait
  Counter inputsOverReach{0};  // position inputs farther than the bank allows: clamped to it
  Counter inputsBlocked{0};    // position inputs through or into the scene: refused
  Counter snapshotsSent{0}, snapshotParts{0}, snapshotBytes{0}, snapshotEntities{0};
  Counter snapshotRoundsDeferred{0};     // ticks whose snapshots waited: the last round was still being built
  Counter sceneParts{0}, sceneBytes{0};  // static scene parts sent on request
  Counter sceneChangePages{0}, sceneChangeBytes{0};  // pages of scene changes sent on request
  Counter debugInfos{0}, debugBytes{0};              // DebugInfo datagrams (--allow-debug)
  // The control channel (docs/CONTROL.md).
  Counter commandsApplied{0}, commandsRejected{0};  // results ok / error
  Counter controlEvents{0};                         // events queued for control clients
  Counter controlEventsDropped{0};                  // over a client's rate or queue (EVENT_OVERFLOW)
  Counter controlBytes{0};                          // ControlReply datagram bytes sent
  Counter controlResends{0};                        // results and events sent again (not acknowledged)
  // Commands that waited past a tick boundary, their client's or the tick's budget spent; and those
  // refused because their client's queue held its bound (also in commandsRejected).
  Counter commandsDeferred{0}, commandsQueueFull{0};
  Counter lateTicks{0}, ticks{0};
  std::atomic<std::uint64_t> agents{0}, clients{0};
  std::atomic<std::int64_t> lastTickSteadyNs{0};  // steady_clock time of the last completed tick
  std::atomic<std::uint64_t> lastTick{0};
  Histogram tickSeconds{tickBoundsSeconds()};      // the whole tick on the simulation thread
  Histogram snapshotSeconds{tickBoundsSeconds()};  // one round of snapshots (every due client)
  // Once a second for each connected client (NetProtocol::update): its smoothed RTT, and the share
  // of the snapshots it was sent in that second that it never acknowledged.
  Histogram clientRttSeconds{rttBoundsSeconds()};
  Histogram clientLossRatio{lossBounds()};
  // Set once at start-up: the limits alerts compare against.
  std::atomic<std::uint64_t> maxClients{0};
  std::atomic<double> tickBudgetSeconds{0.0};  // 1 / tick rate
  double stallSeconds = 1.0;  // healthy while a tick completed within this long (set before serving)
  // Accepting players: set once the game port listens, cleared when the server starts to stop.
  std::atomic<bool> accepting{false};
  std::atomic<bool> awaitingMatch{false};  // an Agones server before its allocation (refusing players)
  BuildLabels build;

  // steady_clock nanoseconds since the last completed tick; 0 before the first.
  double secondsSinceTick(std::int64_t nowSteadyNs) const;
  bool healthy(std::int64_t nowSteadyNs) const { return secondsSinceTick(nowSteadyNs) <= stallSeconds; }
  // "" when ready for players, else why not (stalled, not listening yet, stopping, full).
  std::string notReadyReason(std::int64_t nowSteadyNs) const;

  void drop(wire::DropReason r) {
    drops[static_cast<std::size_t>(r)].fetch_add(1, std::memory_order_relaxed);
  }
  void setClientSummaries(std::vector<ClientSummary> s);
  std::vector<ClientSummary> clientSummaries() const;

  // Prometheus text exposition format, version 0.0.4: the server's own series, then the process's
  // (`processText`, from process_metrics.h) as given.
  std::string render(std::int64_t nowSteadyNs, const std::string& processText = {}) const;

 private:
  mutable std::mutex summariesMutex_;
  std::vector<ClientSummary> summaries_;
};

}  // namespace steerd::net
