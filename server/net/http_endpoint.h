// The operator's window: HTTP GET /metrics (Prometheus text), /healthz and /readyz on their own port and
// thread (cpp-httplib), so a scrape never delays a tick.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "net/server_metrics.h"

namespace httplib {
class Server;
}

namespace steerd::net {

class HttpEndpoint {
 public:
  // Binds `bind`:`port` (0: the system picks); throws std::runtime_error when it cannot.
  // /healthz answers 200 while ticks keep completing (the last within metrics.stallSeconds), else
  // 503; /readyz answers 200 while a new player would be admitted (metrics.notReadyReason), else 503.
  HttpEndpoint(const std::string& bind, std::uint16_t port, const ServerMetrics& metrics);
  ~HttpEndpoint();
  HttpEndpoint(const HttpEndpoint&) = delete;
  HttpEndpoint& operator=(const HttpEndpoint&) = delete;

  std::uint16_t port() const { return port_; }
  void stop();

 private:
  const ServerMetrics& metrics_;
  std::unique_ptr<httplib::Server> server_;
  std::uint16_t port_ = 0;
  std::thread thread_;
};

}  // namespace steerd::net
