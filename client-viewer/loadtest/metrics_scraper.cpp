#include "loadtest/metrics_scraper.h"

#include <httplib.h>

namespace steerd::loadtest {

std::optional<double> tickP99MsBetween(const ServerSample* earlier, const ServerSample& later) {
  std::optional<Histogram> window;
  if (earlier != nullptr) window = histogramDelta(later.tickSeconds, earlier->tickSeconds);
  const Histogram& h = window ? *window : later.tickSeconds;
  const auto q = histogramQuantile(h, 0.99);
  if (!q) return std::nullopt;
  return *q * 1000.0;
}

struct MetricsScraper::Impl {
  explicit Impl(const std::string& host, std::uint16_t port) : client(host, port) {
    client.set_connection_timeout(0, 500'000);  // 0.5 s
    client.set_read_timeout(2, 0);
    client.set_write_timeout(1, 0);
    client.set_keep_alive(false);
  }
  httplib::Client client;
};

MetricsScraper::MetricsScraper(std::string host, std::uint16_t port)
    : impl_(std::make_unique<Impl>(host, port)), host_(std::move(host)), port_(port) {}

MetricsScraper::~MetricsScraper() = default;

std::string MetricsScraper::address() const {
  const bool v6 = host_.find(':') != std::string::npos;
  return "http://" + (v6 ? "[" + host_ + "]" : host_) + ":" + std::to_string(port_) + "/metrics";
}

std::optional<ServerSample> MetricsScraper::scrape() {
  auto res = impl_->client.Get("/metrics");
  if (!res) {
    error_ = httplib::to_string(res.error());
    return std::nullopt;
  }
  if (res->status != 200) {
    error_ = "HTTP status " + std::to_string(res->status);
    return std::nullopt;
  }
  const MetricsText m = parseMetrics(res->body);
  auto it = m.histograms.find("steerd_tick_seconds");
  if (it == m.histograms.end()) {
    error_ = "no steerd_tick_seconds histogram in the answer (not a steerd server?)";
    return std::nullopt;
  }
  ServerSample s;
  s.tickSeconds = it->second;
  auto value = [&](const char* name) -> std::optional<double> {
    auto v = m.values.find(name);
    return v == m.values.end() ? std::nullopt : std::optional<double>(v->second);
  };
  s.clients = value("steerd_clients");
  s.lateTicks = value("steerd_late_ticks_total");
  s.ticks = value("steerd_ticks_total");
  s.agents = value("steerd_agents");
  error_.clear();
  return s;
}

}  // namespace steerd::loadtest
