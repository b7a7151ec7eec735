#include "loadtest/snapshot_timing.h"

#include <cmath>

namespace steerd::loadtest {

SnapshotIntervalMeter::Observation SnapshotIntervalMeter::observe(std::uint32_t tick, TimePoint arrival,
                                                                  double tickRateHz) {
  Observation o;
  if (have_ && tick <= newestTick_) return o;
  o.newer = true;
  if (have_) {
    SnapshotGap g;
    g.intervalMs = std::chrono::duration<double, std::milli>(arrival - lastArrival_).count();
    const double rate = tickRateHz > 0 ? tickRateHz : 30.0;
    g.tickIntervalMs = static_cast<double>(tick - newestTick_) * 1000.0 / rate;
    g.jitterMs = std::abs(g.intervalMs - g.tickIntervalMs);
    o.gap = g;
  }
  have_ = true;
  newestTick_ = tick;
  lastArrival_ = arrival;
  return o;
}

}  // namespace steerd::loadtest
