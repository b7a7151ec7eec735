#include "app/fixed_timestep.h"

#include <cmath>

namespace steerd {

FixedTimestep::Plan FixedTimestep::advance(double elapsedSeconds) {
  if (!(elapsedSeconds > 0.0)) elapsedSeconds = 0.0;
  accumulator_ += elapsedSeconds;
  Plan plan;
  const double due = std::floor(accumulator_ / dt_);
  if (due < 1.0) return plan;
  accumulator_ -= due * dt_;
  if (due > static_cast<double>(maxCatchUp_)) {
    plan.ticks = maxCatchUp_;
    plan.dropped = static_cast<std::uint64_t>(due) - static_cast<std::uint64_t>(maxCatchUp_);
  } else {
    plan.ticks = static_cast<int>(due);
  }
  plan.late = plan.ticks > 1 ? static_cast<std::uint64_t>(plan.ticks - 1) : 0;
  return plan;
}

}  // namespace steerd
