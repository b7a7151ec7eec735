// The operator's HTTP port on 127.0.0.1: /metrics with the process series, /healthz for liveness
// and /readyz for readiness, each turning 503 with the reason.
#include "net/http_endpoint.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <string>

namespace steerd::net {
namespace {

std::int64_t steadyNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

TEST(HttpEndpoint, MetricsHealthAndReadiness) {
  ServerMetrics metrics;
  metrics.stallSeconds = 3600.0;
  metrics.maxClients = 1;
  HttpEndpoint http("127.0.0.1", 0, metrics);
  httplib::Client client("127.0.0.1", http.port());
  client.set_read_timeout(30, 0);

  auto metricsPage = client.Get("/metrics");
  ASSERT_TRUE(metricsPage);
  EXPECT_EQ(metricsPage->status, 200);
  EXPECT_NE(metricsPage->body.find("steerd_tick_seconds_bucket"), std::string::npos);
  EXPECT_NE(metricsPage->body.find("process_resident_memory_bytes"), std::string::npos);

  // Before the game port listens: alive, not ready.
  auto health = client.Get("/healthz");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  auto ready = client.Get("/readyz");
  ASSERT_TRUE(ready);
  EXPECT_EQ(ready->status, 503);
  EXPECT_NE(ready->body.find("not accepting"), std::string::npos) << ready->body;

  metrics.accepting = true;
  metrics.lastTickSteadyNs = steadyNowNs();
  ready = client.Get("/readyz");
  ASSERT_TRUE(ready);
  EXPECT_EQ(ready->status, 200) << ready->body;
  EXPECT_NE(ready->body.find("0 of 1 clients"), std::string::npos) << ready->body;

  metrics.clients = 1;  // full
  ready = client.Get("/readyz");
  ASSERT_TRUE(ready);
  EXPECT_EQ(ready->status, 503);
  EXPECT_NE(ready->body.find("full"), std::string::npos) << ready->body;

  // A tick an hour and more ago: stalled, so neither alive nor ready.
  metrics.lastTickSteadyNs = steadyNowNs() - std::int64_t{3700} * 1'000'000'000;
  health = client.Get("/healthz");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 503);
  EXPECT_NE(health->body.find("stalled"), std::string::npos) << health->body;
  http.stop();
}

}  // namespace
}  // namespace steerd::net
