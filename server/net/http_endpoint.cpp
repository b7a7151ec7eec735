#include "net/http_endpoint.h"

#include "net/process_metrics.h"

#include <fmt/format.h>
#include <httplib.h>

#include <chrono>
#include <stdexcept>
#include <thread>

namespace steerd::net {

namespace {

std::int64_t steadyNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

HttpEndpoint::HttpEndpoint(const std::string& bind, std::uint16_t port, const ServerMetrics& metrics)
    : metrics_(metrics), server_(std::make_unique<httplib::Server>()) {
  server_->Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
    res.set_content(metrics_.render(steadyNowNs(), processMetricsText()), "text/plain; version=0.0.4");
  });
  // Liveness: is the tick loop alive? (Kubernetes restarts the pod when not.)
  server_->Get("/healthz", [this](const httplib::Request&, httplib::Response& res) {
    const std::int64_t now = steadyNowNs();
    const std::uint64_t tick = metrics_.lastTick.load(std::memory_order_relaxed);
    if (!metrics_.healthy(now)) {
      res.status = 503;
      res.set_content(
          fmt::format("stalled: no tick for {:.3f} s (last tick {})\n", metrics_.secondsSinceTick(now), tick),
          "text/plain");
      return;
    }
    res.set_content("ok tick " + std::to_string(tick) + "\n", "text/plain");
  });
  // Readiness: would a new player be admitted now? (Not while starting, stopping, stalled or full.)
  server_->Get("/readyz", [this](const httplib::Request&, httplib::Response& res) {
    const std::string why = metrics_.notReadyReason(steadyNowNs());
    if (!why.empty()) {
      res.status = 503;
      res.set_content("not ready: " + why + "\n", "text/plain");
      return;
    }
    res.set_content(fmt::format("ready: {} of {} clients\n", metrics_.clients.load(std::memory_order_relaxed),
                                metrics_.maxClients.load(std::memory_order_relaxed)),
                    "text/plain");
  });
  const int bound =
      port == 0 ? server_->bind_to_any_port(bind) : (server_->bind_to_port(bind, port) ? port : -1);
  if (bound <= 0) {
    throw std::runtime_error("cannot bind the metrics port " + bind + ":" + std::to_string(port) +
                             " (in use? try --metrics-port)");
  }
  port_ = static_cast<std::uint16_t>(bound);
  thread_ = std::thread([this] { server_->listen_after_bind(); });
}

HttpEndpoint::~HttpEndpoint() { stop(); }

void HttpEndpoint::stop() {
  if (thread_.joinable()) {
    // cpp-httplib's stop() does nothing until the listening thread has started its loop, which
    // then runs for ever: a stop right after start (an early exit on a bad flag) must wait for it.
    for (int i = 0; i < 5000 && !server_->is_running(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    server_->stop();
    thread_.join();
  }
}

}  // namespace steerd::net
