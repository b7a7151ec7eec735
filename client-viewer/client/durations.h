// Seconds from options into the clock's duration, safely: a negative or non-finite number is
// zero, and anything is at most 1e6 s (a duration_cast of inf would be undefined).
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>

#include "client/clock_sync.h"

namespace steerd::client {

inline Clock::duration toDuration(std::chrono::duration<double> s) {
  if (!std::isfinite(s.count()) || s.count() < 0) return Clock::duration::zero();
  return std::chrono::duration_cast<Clock::duration>(std::min(s, std::chrono::duration<double>(1e6)));
}

}  // namespace steerd::client
