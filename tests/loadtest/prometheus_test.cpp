// Reading steerd's /metrics text: the tick histogram, plain values, and quantiles as Prometheus's
// histogram_quantile() computes them.
#include <gtest/gtest.h>

#include <cmath>

#include "loadtest/metrics_scraper.h"
#include "loadtest/prometheus.h"

namespace steerd::loadtest {
namespace {

// As server/net/server_metrics.cpp renders it (abridged), with a labelled counter in between.
constexpr const char* kSample = R"(# HELP steerd_tick_seconds Duration of one simulation tick, seconds.
# TYPE steerd_tick_seconds histogram
steerd_tick_seconds_bucket{le="0.00025"} 0
steerd_tick_seconds_bucket{le="0.0005"} 100
steerd_tick_seconds_bucket{le="0.001"} 900
steerd_tick_seconds_bucket{le="0.002"} 980
steerd_tick_seconds_bucket{le="0.004"} 990
steerd_tick_seconds_bucket{le="0.008"} 1000
steerd_tick_seconds_bucket{le="+Inf"} 1000
steerd_tick_seconds_sum 0.85
steerd_tick_seconds_count 1000
# HELP steerd_ticks_total Simulation ticks run.
# TYPE steerd_ticks_total counter
steerd_ticks_total 1000
steerd_late_ticks_total 3
steerd_clients 20
steerd_dropped_packets_total{reason="truncated"} 5
steerd_client_rtt_ms{quantile="0.5"} 0.2
steerd_snapshot_bytes_per_entity 1.82
this line is not a sample
)";

TEST(PrometheusTest, ParsesTheTickHistogramAndPlainValues) {
  std::size_t bad = 0;
  const MetricsText m = parseMetrics(kSample, &bad);
  EXPECT_EQ(bad, 1u);
  ASSERT_EQ(m.histograms.count("steerd_tick_seconds"), 1u);
  const Histogram& h = m.histograms.at("steerd_tick_seconds");
  ASSERT_EQ(h.buckets.size(), 7u);
  EXPECT_DOUBLE_EQ(h.buckets[0].first, 0.00025);
  EXPECT_DOUBLE_EQ(h.buckets[2].second, 900);
  EXPECT_TRUE(std::isinf(h.buckets.back().first));
  EXPECT_DOUBLE_EQ(h.total(), 1000);
  EXPECT_DOUBLE_EQ(h.count, 1000);
  EXPECT_DOUBLE_EQ(h.sum, 0.85);
  EXPECT_DOUBLE_EQ(m.values.at("steerd_ticks_total"), 1000);
  EXPECT_DOUBLE_EQ(m.values.at("steerd_late_ticks_total"), 3);
  EXPECT_DOUBLE_EQ(m.values.at("steerd_clients"), 20);
  EXPECT_DOUBLE_EQ(m.values.at("steerd_snapshot_bytes_per_entity"), 1.82);
  EXPECT_EQ(m.values.count("steerd_dropped_packets_total"), 0u);  // labelled: not a plain value
}

TEST(PrometheusTest, QuantilesInterpolateInsideTheBucket) {
  const Histogram h = parseMetrics(kSample).histograms.at("steerd_tick_seconds");
  // p50: rank 500, in (0.0005, 0.001] holding 800 (from 100): 0.0005 + 0.0005 * 400/800.
  EXPECT_NEAR(*histogramQuantile(h, 0.5), 0.00075, 1e-12);
  // p99: rank 990, the upper edge of (0.002, 0.004].
  EXPECT_NEAR(*histogramQuantile(h, 0.99), 0.004, 1e-12);
  // p99.5: rank 995, half way into (0.004, 0.008].
  EXPECT_NEAR(*histogramQuantile(h, 0.995), 0.006, 1e-12);
  // p5: rank 50 in the first non-empty bucket (0.00025, 0.0005].
  EXPECT_NEAR(*histogramQuantile(h, 0.05), 0.000375, 1e-12);
  // In milliseconds, as the report gives it.
  ServerSample later;
  later.tickSeconds = h;
  EXPECT_NEAR(*tickP99MsBetween(nullptr, later), 4.0, 1e-9);
}

TEST(PrometheusTest, RankInTheInfBucketGivesTheHighestFiniteBound) {
  const MetricsText m = parseMetrics(
      "t_bucket{le=\"0.01\"} 1\n"
      "t_bucket{le=\"0.1\"} 2\n"
      "t_bucket{le=\"+Inf\"} 10\n");
  EXPECT_DOUBLE_EQ(*histogramQuantile(m.histograms.at("t"), 0.99), 0.1);
  EXPECT_DOUBLE_EQ(m.histograms.at("t").count, 10);  // no _count line: the +Inf bucket
}

TEST(PrometheusTest, EmptyHistogramHasNoQuantile) {
  const MetricsText m = parseMetrics("t_bucket{le=\"1\"} 0\nt_bucket{le=\"+Inf\"} 0\n");
  EXPECT_FALSE(histogramQuantile(m.histograms.at("t"), 0.99));
  EXPECT_FALSE(histogramQuantile(Histogram{}, 0.5));
}

TEST(PrometheusTest, DeltaBetweenTwoScrapesIsTheWindow) {
  const Histogram before = parseMetrics(kSample).histograms.at("steerd_tick_seconds");
  // 100 more ticks, all of them slow (between 4 and 8 ms).
  const Histogram after = parseMetrics(
                              "steerd_tick_seconds_bucket{le=\"0.00025\"} 0\n"
                              "steerd_tick_seconds_bucket{le=\"0.0005\"} 100\n"
                              "steerd_tick_seconds_bucket{le=\"0.001\"} 900\n"
                              "steerd_tick_seconds_bucket{le=\"0.002\"} 980\n"
                              "steerd_tick_seconds_bucket{le=\"0.004\"} 990\n"
                              "steerd_tick_seconds_bucket{le=\"0.008\"} 1100\n"
                              "steerd_tick_seconds_bucket{le=\"+Inf\"} 1100\n"
                              "steerd_tick_seconds_sum 1.45\n"
                              "steerd_tick_seconds_count 1100\n")
                              .histograms.at("steerd_tick_seconds");
  const auto d = histogramDelta(after, before);
  ASSERT_TRUE(d);
  EXPECT_DOUBLE_EQ(d->total(), 100);
  EXPECT_NEAR(d->sum, 0.6, 1e-12);
  EXPECT_NEAR(*histogramQuantile(*d, 0.5), 0.006, 1e-12);
  ServerSample a, b;
  a.tickSeconds = before;
  b.tickSeconds = after;
  EXPECT_NEAR(*tickP99MsBetween(&a, b), 7.96, 1e-9);
  // A server restart (counts going down) or other buckets: no delta; the later one alone is used.
  EXPECT_FALSE(histogramDelta(before, after));
  Histogram other = after;
  other.buckets.pop_back();
  EXPECT_FALSE(histogramDelta(other, before));
  EXPECT_NEAR(*tickP99MsBetween(&b, a), 4.0, 1e-9);
}

TEST(PrometheusTest, TimestampsEscapesAndOddSpacing) {
  const MetricsText m = parseMetrics(
      "a_total 5 1700000000000\n"
      "  b   7  \r\n"
      "c{path=\"x\\\"y\",le=\"0.5\"} 1\n"
      "h_bucket{path=\"a,b\",le=\"0.5\"} 3\n"
      "h_bucket{path=\"a,b\",le=\"+Inf\"} 4\n"
      "nan_value NaN\n"
      "broken{le=\"1\" 4\n");
  EXPECT_DOUBLE_EQ(m.values.at("a_total"), 5);
  EXPECT_DOUBLE_EQ(m.values.at("b"), 7);
  ASSERT_EQ(m.histograms.count("h"), 1u);
  EXPECT_DOUBLE_EQ(m.histograms.at("h").buckets[0].first, 0.5);
  EXPECT_DOUBLE_EQ(m.histograms.at("h").total(), 4);
  EXPECT_TRUE(std::isnan(m.values.at("nan_value")));
  EXPECT_EQ(m.values.count("broken"), 0u);
}

}  // namespace
}  // namespace steerd::loadtest
