// What /metrics exposes. Written by the simulation and network threads with relaxed atomics
// (counters only ever grow; a scrape may see one a little ahead of another, never torn), read by
// the HTTP thread. Per-client summaries change rarely and sit behind a mutex.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "proto/packet.h"

namespace steerd::net {

using Counter = std::atomic<std::uint64_t>;

// Tick duration histogram with fixed bucket bounds (ms), Prometheus style (cumulative on output).
class TickHistogram {
 public:
  static constexpr std::array<double, 12> kBoundsMs = {0.25, 0.5, 1, 2, 4, 8, 12, 16, 25, 33, 50, 100};
  void observe(double ms);
  std::string render(const char* name, const char* help) const;

 private:
  std::array<Counter, kBoundsMs.size() + 1> buckets_{};
  Counter count_{0};
  std::atomic<double> sumMs_{0.0};
};

struct ClientSummary {
  std::uint32_t clientId = 0;
  double rttMs = 0;
  double lossPercent = 0;
};

struct ServerMetrics {
  Counter packetsIn{0}, packetsOut{0}, bytesIn{0}, bytesOut{0};
  std::array<Counter, static_cast<std::size_t>(wire::DropReason::kCount)> drops{};
  Counter connects{0}, disconnects{0}, timeouts{0}, refusals{0};
  Counter sessionsReplaced{0};  // a connection with a token whose client id held a session took it
  Counter inputsApplied{0}, inputsClamped{0};
  Counter inputsSkipped{0};  // intent inputs never received, passed over after the gap wait
  Counter snapshotsSent{0}, snapshotParts{0}, snapshotBytes{0}, snapshotEntities{0};
  Counter sceneParts{0}, sceneBytes{0};  // static scene parts sent on request
  Counter debugInfos{0}, debugBytes{0};  // DebugInfo datagrams (--allow-debug)
  // The control channel (docs/CONTROL.md).
  Counter commandsApplied{0}, commandsRejected{0};  // results ok / error
  Counter controlEvents{0};                         // events queued for control clients
  Counter controlEventsDropped{0};                  // over a client's rate or queue (EVENT_OVERFLOW)
  Counter controlBytes{0};                          // ControlReply datagram bytes sent
  Counter controlResends{0};                        // results and events sent again (not acknowledged)
  Counter lateTicks{0}, ticks{0};
  std::atomic<std::uint64_t> agents{0}, clients{0};
  std::atomic<std::int64_t> lastTickSteadyNs{0};  // steady_clock time of the last completed tick
  std::atomic<std::uint64_t> lastTick{0};
  TickHistogram tickMs;      // the whole tick: inputs, step, snapshots
  TickHistogram snapshotMs;  // the snapshot part of it (all clients)

  void drop(wire::DropReason r) {
    drops[static_cast<std::size_t>(r)].fetch_add(1, std::memory_order_relaxed);
  }
  void setClientSummaries(std::vector<ClientSummary> s);
  std::vector<ClientSummary> clientSummaries() const;

  // Prometheus text exposition format, version 0.0.4.
  std::string render() const;

 private:
  mutable std::mutex summariesMutex_;
  std::vector<ClientSummary> summaries_;
};

}  // namespace steerd::net
