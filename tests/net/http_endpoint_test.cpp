// The operator's HTTP port on 127.0.0.1: /metrics with the process series, /healthz for liveness
// and /readyz for readiness, each turning 503 with the reason.
#include "net/http_endpoint.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <asio.hpp>

#include <chrono>
#include <string>
#include <vector>

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

// A raw client: what a hostile one sends is not what httplib would.
asio::ip::tcp::socket connectRaw(asio::io_context& io, std::uint16_t port) {
  asio::ip::tcp::socket s(io);
  s.connect({asio::ip::make_address("127.0.0.1"), port});
  return s;
}

// Reads until the server closes the connection (or resets it): everything it sent.
std::string readToClose(asio::ip::tcp::socket& s) {
  std::string all;
  std::array<char, 4096> buf{};
  asio::error_code ec;
  for (;;) {
    const std::size_t n = s.read_some(asio::buffer(buf), ec);
    if (ec) return all;
    all.append(buf.data(), n);
  }
}

TEST(HttpEndpoint, ProbesAreAnsweredWhileSlowConnectionsFillTheCap) {
  ServerMetrics metrics;
  metrics.stallSeconds = 3600.0;
  HttpLimits limits;
  limits.maxConnections = 4;
  HttpEndpoint http("127.0.0.1", 0, metrics, limits);
  asio::io_context io;
  std::vector<asio::ip::tcp::socket> slow;
  for (int i = 0; i < 8; ++i) {
    slow.push_back(connectRaw(io, http.port()));
    asio::write(slow.back(), asio::buffer(std::string("GET /metrics HTTP/1.1\r\nX-a: b\r\n")));
  }
  httplib::Client client("127.0.0.1", http.port());
  client.set_read_timeout(30, 0);
  for (int i = 0; i < 3; ++i) {
    auto health = client.Get("/healthz");
    ASSERT_TRUE(health) << i;
    EXPECT_EQ(health->status, 200);
  }
  auto page = client.Get("/metrics");
  ASSERT_TRUE(page);
  // The four oldest slow connections went to make room (more, if the server saw all 8 first).
  EXPECT_NE(page->body.find("steerd_http_closed_total{reason=\"cap\"} "), std::string::npos);
  EXPECT_EQ(page->body.find("steerd_http_closed_total{reason=\"cap\"} 0\n"), std::string::npos) << page->body;
  // The oldest slow connection was closed by the server.
  EXPECT_EQ(readToClose(slow.front()), "");
  http.stop();  // with slow connections still open: returns at once
}

TEST(HttpEndpoint, ARequestPastItsDeadlineIsClosed) {
  ServerMetrics metrics;
  HttpLimits limits;
  limits.requestDeadlineNs = 200'000'000;
  HttpEndpoint http("127.0.0.1", 0, metrics, limits);
  asio::io_context io;
  auto s = connectRaw(io, http.port());
  asio::write(s, asio::buffer(std::string("GET /healthz HTTP/1.1\r\n")));  // and never the rest
  EXPECT_EQ(readToClose(s), "");  // returns only because the server closes it
}

TEST(HttpEndpoint, AHugeBodyIsRefusedWith413AndNeverBuffered) {
  ServerMetrics metrics;
  HttpEndpoint http("127.0.0.1", 0, metrics);
  asio::io_context io;
  auto s = connectRaw(io, http.port());
  asio::write(
      s, asio::buffer(std::string("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 209715200\r\n\r\n")));
  const std::string answer = readToClose(s);
  EXPECT_EQ(answer.rfind("HTTP/1.1 413 ", 0), 0u) << answer;
  EXPECT_NE(answer.find("Connection: close"), std::string::npos) << answer;
}

TEST(HttpEndpoint, OtherPathsAndMethodsAreRefusedHeadHasNoBody) {
  ServerMetrics metrics;
  metrics.stallSeconds = 3600.0;
  HttpEndpoint http("127.0.0.1", 0, metrics);
  httplib::Client client("127.0.0.1", http.port());
  client.set_read_timeout(30, 0);
  auto missing = client.Get("/nothing");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);
  auto post = client.Post("/metrics", "x", "text/plain");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->status, 405);
  EXPECT_EQ(post->get_header_value("Allow"), "GET, HEAD");
  auto head = client.Head("/healthz");
  ASSERT_TRUE(head);
  EXPECT_EQ(head->status, 200);
  EXPECT_TRUE(head->body.empty());
}

TEST(HttpEndpoint, PipelinedRequestsAreAnsweredInOrder) {
  ServerMetrics metrics;
  metrics.stallSeconds = 3600.0;
  HttpEndpoint http("127.0.0.1", 0, metrics);
  asio::io_context io;
  auto s = connectRaw(io, http.port());
  asio::write(s, asio::buffer(std::string("GET /nothing HTTP/1.1\r\n\r\nGET /healthz HTTP/1.1\r\nConnection: "
                                          "close\r\n\r\n")));
  const std::string answer = readToClose(s);
  const auto first = answer.find("HTTP/1.1 404");
  const auto second = answer.find("HTTP/1.1 200");
  ASSERT_NE(first, std::string::npos) << answer;
  ASSERT_NE(second, std::string::npos) << answer;
  EXPECT_LT(first, second);
}

}  // namespace
}  // namespace steerd::net
