#include "loadtest/percentiles.h"

#include <algorithm>
#include <cmath>

namespace steerd::loadtest {

double percentileOfSorted(std::span<const double> sorted, double p) {
  if (sorted.empty()) return 0.0;
  if (!(p > 0.0)) return sorted.front();
  if (p >= 100.0) return sorted.back();
  const double rank = std::ceil(p / 100.0 * static_cast<double>(sorted.size()));
  const auto i = static_cast<std::size_t>(std::max(rank, 1.0)) - 1;
  return sorted[std::min(i, sorted.size() - 1)];
}

Summary summarize(std::vector<double> values) {
  std::erase_if(values, [](double v) { return !std::isfinite(v); });
  Summary s;
  s.count = values.size();
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  double sum = 0.0;
  for (double v : values) sum += v;
  s.mean = sum / static_cast<double>(values.size());
  s.p50 = percentileOfSorted(values, 50.0);
  s.p95 = percentileOfSorted(values, 95.0);
  s.p99 = percentileOfSorted(values, 99.0);
  s.max = values.back();
  return s;
}

}  // namespace steerd::loadtest
