// Snapshot intervals and their jitter, per player.
//
// Each complete snapshot newer than any before (the client's onSnapshot hook, with its arrival
// time) closes a pair with the previous one the player received: the arrival interval (what the
// player felt), the same pair's interval in server time (tick difference / tick rate: the
// server's send spacing, plus whatever snapshots were lost or superseded in between), and the
// jitter, |arrival interval - server-time interval|.
//
// The server sends on tick boundaries: at 30 Hz ticks and 20 snapshots/s it sends on two ticks
// of three, so the arrival intervals alternate 33 and 67 ms while the send period is 50 ms. The
// jitter is measured against each pair's own tick spacing, not the mean period, so that cadence
// does not read as jitter; what is left is the network's and the two processes' scheduling.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

namespace steerd::loadtest {

struct SnapshotGap {
  double intervalMs = 0;      // arrival to arrival
  double tickIntervalMs = 0;  // server time between the two snapshots
  double jitterMs = 0;        // |intervalMs - tickIntervalMs|
};

class SnapshotIntervalMeter {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  struct Observation {
    bool newer = false;              // newer than any before: the player's view moves on
    std::optional<SnapshotGap> gap;  // from the previous newer one; none for the first
  };

  // A complete snapshot of server tick `tick` arrived at `arrival`; `tickRateHz` is the server's
  // (Accept). One not newer than any before changes nothing.
  Observation observe(std::uint32_t tick, TimePoint arrival, double tickRateHz);

 private:
  bool have_ = false;
  std::uint32_t newestTick_ = 0;
  TimePoint lastArrival_{};
};

}  // namespace steerd::loadtest
