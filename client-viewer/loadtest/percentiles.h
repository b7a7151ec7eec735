// Summaries of measured values: count, mean, and nearest-rank percentiles (p50, p95, p99, max).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace steerd::loadtest {

struct Summary {
  std::size_t count = 0;
  double mean = 0.0;
  double p50 = 0.0, p95 = 0.0, p99 = 0.0, max = 0.0;  // 0 when count is 0
};

// The nearest-rank percentile of ascending `sorted`: the smallest value with at least p percent of
// the values at or below it (p in [0, 100]; p = 0 gives the smallest). 0 for an empty span.
double percentileOfSorted(std::span<const double> sorted, double p);

// Sorts `values` (taken by value) and summarises them. Non-finite values are left out.
Summary summarize(std::vector<double> values);

}  // namespace steerd::loadtest
