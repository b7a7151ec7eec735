// Tick durations over a window, for the status line: mean, p99, and late ticks.
#pragma once

#include <cstdint>
#include <vector>

namespace steerd {

class TickStats {
 public:
  void add(double ms) { samples_.push_back(ms); }
  void addLate(std::uint64_t n = 1) { late_ += n; }
  std::size_t count() const { return samples_.size(); }
  double mean() const;
  double percentile(double p) const;  // p in [0, 100]; 0 when empty
  std::uint64_t late() const { return late_; }
  void reset() {
    samples_.clear();
    late_ = 0;
  }

 private:
  std::vector<double> samples_;
  std::uint64_t late_ = 0;
};

}  // namespace steerd
