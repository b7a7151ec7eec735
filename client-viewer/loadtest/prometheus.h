// Reading the server's /metrics (Prometheus text format 0.0.4): plain samples by name, and
// histograms (NAME_bucket{le="..."}, NAME_sum, NAME_count) with the quantile estimate that
// Prometheus's histogram_quantile() makes.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace steerd::loadtest {

struct Histogram {
  std::vector<std::pair<double, double>> buckets;  // (upper bound, cumulative count), ascending; +Inf last
  double sum = 0.0;
  double count = 0.0;

  double total() const { return buckets.empty() ? count : buckets.back().second; }
};

struct MetricsText {
  std::map<std::string, double> values;  // samples without labels, by name
  std::map<std::string, Histogram> histograms;
};

// Parses the text; lines it cannot read are skipped and counted in `badLines` (when given).
MetricsText parseMetrics(std::string_view text, std::size_t* badLines = nullptr);

// later - earlier, bucket by bucket: the observations made between two scrapes. nullopt when the
// bucket bounds differ or a count went down (the server restarted).
std::optional<Histogram> histogramDelta(const Histogram& later, const Histogram& earlier);

// The q-quantile (0..1), interpolating linearly inside the bucket it falls in (from 0 for the
// first bucket), in the unit of the bounds. A rank in the +Inf bucket gives the highest finite
// bound. nullopt for an empty histogram.
std::optional<double> histogramQuantile(const Histogram& h, double q);

}  // namespace steerd::loadtest
