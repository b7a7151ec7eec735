// Doors in the headless report: each of the world's doors (world_changes.h) measured as a gate
// across its opening, with how long it was shut, crossings while shut (there should be none),
// the paths it made walkers plan again, the longest any walker stayed within 5 m of it, and how
// soon after it last opened the first walker came through.
#pragma once

#include <string>
#include <vector>

#include "analysis/gate_meter.h"

namespace steerd {

class DoorMeter {
 public:
  static constexpr float kNearRadius = 5.0f;  // m: "held near a door"

  explicit DoorMeter(const World& world);
  // After each step.
  void observe(const World& world);
  // One line per door: "door gate: 212 crossings, shut 20.0 s (2 changes), 0 crossings while
  // shut, 140 replans caused, longest wait 8.3 s, first crossing 1.2 s after it opened".
  std::string format(const World& world) const;
  const GateMeter& gates() const { return gates_; }
  std::uint64_t crossingsWhileShut(std::size_t door) const { return whileShut_[door]; }
  // Seconds from the last opening to the first crossing after it (-1: never opened, or no crossing).
  double firstCrossingAfterOpen(std::size_t door) const { return firstAfterOpen_[door]; }

 private:
  GateMeter gates_;
  double dt_;
  std::uint64_t ticks_ = 0;
  std::vector<std::uint64_t> whileShut_;
  std::vector<bool> wasOpen_;
  std::vector<std::int64_t> openedTick_;  // -1: not opened during the run
  std::vector<double> firstAfterOpen_;
  std::vector<std::uint64_t> lastTotal_;
};

}  // namespace steerd
