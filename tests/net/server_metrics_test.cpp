// /metrics' text: histograms in base units, the build's labels, health and readiness gauges.
#include "net/server_metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace steerd::net {
namespace {

constexpr std::int64_t kSecond = 1'000'000'000;

TEST(Histogram, CumulativeBucketsSumAndCountInBaseUnits) {
  Histogram h({0.01, 0.1, 1.0});
  h.observe(0.005);
  h.observe(0.05);
  h.observe(0.05);
  h.observe(5.0);
  h.observe(std::numeric_limits<double>::quiet_NaN());  // ignored: it would poison _sum
  const std::string text = h.render("x_seconds", "help");
  EXPECT_NE(text.find("# TYPE x_seconds histogram\n"), std::string::npos);
  EXPECT_NE(text.find("x_seconds_bucket{le=\"0.01\"} 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("x_seconds_bucket{le=\"0.1\"} 3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("x_seconds_bucket{le=\"1\"} 3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("x_seconds_bucket{le=\"+Inf\"} 4\n"), std::string::npos) << text;
  EXPECT_NE(text.find("x_seconds_sum 5.105\n"), std::string::npos) << text;
  EXPECT_NE(text.find("x_seconds_count 4\n"), std::string::npos) << text;
  EXPECT_EQ(h.count(), 4u);
}

TEST(Histogram, AValueOnABoundCountsInThatBucket) {
  Histogram h({0.0, 0.5});
  h.observe(0.0);
  h.observe(0.5);
  const std::string text = h.render("r", "help");
  EXPECT_NE(text.find("r_bucket{le=\"0\"} 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("r_bucket{le=\"0.5\"} 2\n"), std::string::npos) << text;
}

TEST(ServerMetrics, RenderHasBuildInfoLimitsAndNoRatiosSinceStart) {
  ServerMetrics m;
  m.build = {"1.2.3", "gcc 12.2.0"};
  m.maxClients = 64;
  m.tickBudgetSeconds = 1.0 / 30.0;
  m.tickSeconds.observe(0.004);
  const std::string text = m.render(10 * kSecond, "process_open_fds 7\n");
  EXPECT_NE(text.find("steerd_build_info{version=\"1.2.3\",compiler=\"gcc 12.2.0\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("steerd_max_clients 64\n"), std::string::npos);
  EXPECT_NE(text.find("steerd_tick_budget_seconds 0.0333"), std::string::npos);
  EXPECT_NE(text.find("steerd_tick_seconds_bucket{le=\"0.004\"} 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("# TYPE steerd_client_rtt_seconds histogram\n"), std::string::npos);
  EXPECT_NE(text.find("# TYPE steerd_client_loss_ratio histogram\n"), std::string::npos);
  EXPECT_NE(text.find("process_open_fds 7\n"), std::string::npos);
  // Gone: names not in base units, and a since-start ratio that PromQL computes from the counters.
  EXPECT_EQ(text.find("_ms"), std::string::npos);
  EXPECT_EQ(text.find("_percent"), std::string::npos);
  EXPECT_EQ(text.find("bytes_per_entity"), std::string::npos);
}

TEST(ServerMetrics, EverySeriesHasHelpAndTypeAndCountersEndInTotal) {
  ServerMetrics m;
  const std::string text = m.render(kSecond);
  std::size_t at = 0, helps = 0, types = 0;
  while (at < text.size()) {
    const auto end = text.find('\n', at);
    const std::string line = text.substr(at, end - at);
    if (line.rfind("# HELP ", 0) == 0) ++helps;
    if (line.rfind("# TYPE ", 0) == 0) {
      ++types;
      const std::string name = line.substr(7, line.find(' ', 7) - 7);
      EXPECT_EQ(name.rfind("steerd_", 0), 0u) << name;
      if (line.find(" counter") != std::string::npos) {
        EXPECT_TRUE(name.ends_with("_total")) << name;
      }
    }
    at = end + 1;
  }
  EXPECT_EQ(helps, types);
  EXPECT_GT(types, 30u);
}

TEST(ServerMetrics, HealthyWhileTicksComplete) {
  ServerMetrics m;
  m.stallSeconds = 1.0;
  EXPECT_TRUE(m.healthy(5 * kSecond));  // before the first tick: starting, not stalled
  m.lastTickSteadyNs = 5 * kSecond;
  EXPECT_TRUE(m.healthy(5 * kSecond + kSecond / 2));
  EXPECT_FALSE(m.healthy(7 * kSecond));
  EXPECT_NE(m.render(7 * kSecond).find("steerd_healthy 0\n"), std::string::npos);
}

TEST(ServerMetrics, ReadyOnlyWhileAcceptingTickingAndNotFull) {
  ServerMetrics m;
  m.stallSeconds = 1.0;
  m.maxClients = 2;
  m.lastTickSteadyNs = kSecond;
  EXPECT_NE(m.notReadyReason(kSecond).find("not accepting"), std::string::npos);
  m.awaitingMatch = true;
  EXPECT_NE(m.notReadyReason(kSecond).find("waiting for allocation"), std::string::npos);
  m.awaitingMatch = false;
  m.accepting = true;
  EXPECT_EQ(m.notReadyReason(kSecond), "");
  EXPECT_NE(m.render(kSecond).find("steerd_ready 1\n"), std::string::npos);
  m.clients = 2;
  EXPECT_NE(m.notReadyReason(kSecond).find("full: 2 of 2"), std::string::npos);
  m.clients = 1;
  EXPECT_NE(m.notReadyReason(3 * kSecond).find("stalled"), std::string::npos);
  EXPECT_NE(m.render(3 * kSecond).find("steerd_ready 0\n"), std::string::npos);
}

}  // namespace
}  // namespace steerd::net
