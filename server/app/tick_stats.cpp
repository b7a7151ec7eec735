#include "app/tick_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace steerd {

double TickStats::mean() const {
  if (samples_.empty()) return 0.0;
  return std::accumulate(samples_.begin(), samples_.end(), 0.0) / static_cast<double>(samples_.size());
}

double TickStats::percentile(double p) const {
  if (samples_.empty()) return 0.0;
  std::vector<double> s = samples_;
  // Nearest-rank: the smallest sample with at least p% of samples at or below it.
  const double rank = std::ceil(std::clamp(p, 0.0, 100.0) / 100.0 * static_cast<double>(s.size()));
  const std::size_t k = rank < 1.0 ? 0 : static_cast<std::size_t>(rank) - 1;
  std::nth_element(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(k), s.end());
  return s[k];
}

}  // namespace steerd
