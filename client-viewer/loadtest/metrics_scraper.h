// Fetches the server's /metrics over HTTP (short timeouts; a load test must not hang on it) and
// keeps what the report needs: the tick-time histogram and a few gauges and counters.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "loadtest/prometheus.h"

namespace steerd::loadtest {

struct ServerSample {
  Histogram tickSeconds;  // steerd_tick_seconds, cumulative since the server started
  std::optional<double> clients, lateTicks, ticks, agents;
};

// The server's tick p99 in milliseconds between two samples (or over `later` alone, since the
// server started, when `earlier` is missing or does not match). nullopt with no ticks.
std::optional<double> tickP99MsBetween(const ServerSample* earlier, const ServerSample& later);

class MetricsScraper {
 public:
  MetricsScraper(std::string host, std::uint16_t port);
  ~MetricsScraper();

  // One GET /metrics. nullopt when unreachable, not 200, or without steerd_tick_seconds;
  // lastError() says why.
  std::optional<ServerSample> scrape();
  const std::string& lastError() const { return error_; }
  std::string address() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string host_;
  std::uint16_t port_;
  std::string error_;
};

}  // namespace steerd::loadtest
