// The connection's figures over time: loss from gaps in the server's sequence numbers over the
// last 256 (a datagram late but inside the window still counts as received), and kilobits in and
// out and whole snapshots a second, over the last full second. Time is a parameter.
#pragma once

#include <bitset>
#include <cstdint>

#include "client/clock_sync.h"

namespace steerd::client {

class LossWindow {
 public:
  static constexpr std::uint16_t kWindow = 256;
  void add(std::uint16_t sequence);
  double percent() const;

 private:
  std::bitset<kWindow> got_;
  std::uint16_t newest_ = 0;
  std::uint32_t span_ = 0;
  bool any_ = false;
};

class RateWindow {
 public:
  // Totals since the start; the rates move on once a second has passed since the last move.
  void update(TimePoint now, std::uint64_t bytesIn, std::uint64_t bytesOut, std::uint64_t snapshots);
  void start(TimePoint now) { start_ = now; }
  double kbpsIn() const { return kbpsIn_; }
  double kbpsOut() const { return kbpsOut_; }
  double snapshotsPerSecond() const { return snapshotsPerSecond_; }

 private:
  TimePoint start_{};
  std::uint64_t bytesIn_ = 0, bytesOut_ = 0, snapshots_ = 0;  // at start_
  double kbpsIn_ = 0, kbpsOut_ = 0, snapshotsPerSecond_ = 0;
};

}  // namespace steerd::client
