// The fixed-timestep accumulator (Glenn Fiedler's "Fix your timestep"), apart from any clock so it
// can be tested with made-up time.
//
// Real time is added to an accumulator; each whole tick period in it is one tick to run. When the
// server falls behind, the extra ticks run back to back (they are "late"), but never more than
// maxCatchUp per wake-up: the rest of the backlog is dropped and counted, so a slow tick cannot
// start a spiral of death in which catching up makes the server ever later.
#pragma once

#include <cstdint>

namespace steerd {

class FixedTimestep {
 public:
  struct Plan {
    int ticks = 0;              // ticks to run now
    std::uint64_t late = 0;     // of those, how many are behind schedule
    std::uint64_t dropped = 0;  // ticks skipped to stay real-time
  };

  FixedTimestep(double tickSeconds, int maxCatchUp) : dt_(tickSeconds), maxCatchUp_(maxCatchUp) {}

  // elapsedSeconds: real time since the previous call (negative or NaN counts as 0).
  Plan advance(double elapsedSeconds);
  // Seconds until the next tick is due.
  double untilNextTick() const { return dt_ - accumulator_; }
  double tickSeconds() const { return dt_; }

 private:
  double dt_;
  int maxCatchUp_;
  double accumulator_ = 0.0;
};

}  // namespace steerd
