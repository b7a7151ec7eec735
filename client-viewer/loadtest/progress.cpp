#include "loadtest/progress.h"

#include <cstdio>

#include "loadtest/percentiles.h"

namespace steerd::loadtest {

std::string progressLine(const Window& w, const ProgressInfo& info) {
  char buf[512];
  const Summary interval = summarize(w.values[kSnapshotInterval]);
  const Summary jitter = summarize(w.values[kSnapshotJitter]);
  const Summary stalls = summarize(w.values[kStall]);
  const Summary lag = summarize(w.values[kTickLag]);
  std::string tick = "server tick p99 ";
  if (info.tickP99Ms) {
    std::snprintf(buf, sizeof buf, "%.2f ms", *info.tickP99Ms);
    tick += buf;
  } else {
    tick += "n/a";
  }
  if (info.serverClients) {
    std::snprintf(buf, sizeof buf, ", %.0f clients", *info.serverClients);
    tick += buf;
  }
  std::snprintf(
      buf, sizeof buf,
      "[%6.1f s] players %zu/%zu connected %zu (connecting %zu, churned %zu) | kbps in %.1f out %.1f "
      "per player | snapshot interval p99 %s, jitter p99 %s | stalls %zu | %s | tester lag p99 %.1f ms",
      info.elapsedSeconds, w.players, info.target, w.connected, w.handshaking, w.churned, w.kbpsIn, w.kbpsOut,
      interval.count ? (std::to_string(static_cast<int>(interval.p99 + 0.5)) + " ms").c_str() : "n/a",
      jitter.count ? (std::to_string(static_cast<int>(jitter.p99 + 0.5)) + " ms").c_str() : "n/a",
      stalls.count, tick.c_str(), lag.p99);
  return buf;
}

}  // namespace steerd::loadtest
