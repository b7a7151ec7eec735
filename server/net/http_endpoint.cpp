#include "net/http_endpoint.h"

#include <httplib.h>

#include <chrono>
#include <stdexcept>
#include <thread>

namespace steerd::net {

HttpEndpoint::HttpEndpoint(const std::string& bind, std::uint16_t port, const ServerMetrics& metrics,
                           double stallSeconds)
    : metrics_(metrics), stallSeconds_(stallSeconds), server_(std::make_unique<httplib::Server>()) {
  server_->Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
    res.set_content(metrics_.render(), "text/plain; version=0.0.4");
  });
  server_->Get("/healthz", [this](const httplib::Request&, httplib::Response& res) {
    const auto now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::steady_clock::now().time_since_epoch())
                         .count();
    const std::int64_t last = metrics_.lastTickSteadyNs.load(std::memory_order_relaxed);
    const double age = last == 0 ? 0.0 : static_cast<double>(now - last) / 1e9;
    const std::uint64_t tick = metrics_.lastTick.load(std::memory_order_relaxed);
    if (age > stallSeconds_) {
      res.status = 503;
      res.set_content(
          "stalled: no tick for " + std::to_string(age) + " s (last tick " + std::to_string(tick) + ")\n",
          "text/plain");
      return;
    }
    res.set_content("ok tick " + std::to_string(tick) + "\n", "text/plain");
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
