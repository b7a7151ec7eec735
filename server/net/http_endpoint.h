// The operator's window: HTTP GET /metrics (Prometheus text), /healthz and /readyz on their own
// port and thread, so a scrape never delays a tick. One Asio thread serves every connection, with
// the limits of HttpLimits: slow, idle or oversized clients are cut off by deadline, cap and size,
// so a probe is answered within its timeout whatever else is connected, and stop() never waits on
// a client.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <unordered_map>

#include <asio.hpp>

#include "net/http_connection_table.h"
#include "net/http_limits.h"
#include "net/http_request_reader.h"
#include "net/server_metrics.h"

namespace steerd::net {

struct HttpResponse {
  int status = 200;
  std::string contentType = "text/plain";
  std::string body;
};

// What the operator's endpoints answer to `head` (404, 405 for other paths and methods).
// `extraMetrics` is appended to /metrics (the HTTP port's own series).
HttpResponse answerOperatorRequest(const ServerMetrics& metrics, const HttpRequestHead& head,
                                   std::int64_t nowSteadyNs, const std::string& extraMetrics);

// The bytes of an HTTP/1.1 response (HEAD: the headers only).
std::string formatHttpResponse(const HttpResponse& r, bool keepAlive, bool headOnly);

class HttpEndpoint {
 public:
  // Binds `bind`:`port` (0: the system picks); throws std::runtime_error when it cannot.
  // /healthz answers 200 while ticks keep completing (the last within metrics.stallSeconds), else
  // 503; /readyz answers 200 while a new player would be admitted (metrics.notReadyReason), else 503.
  HttpEndpoint(const std::string& bind, std::uint16_t port, const ServerMetrics& metrics,
               const HttpLimits& limits = {});
  ~HttpEndpoint();
  HttpEndpoint(const HttpEndpoint&) = delete;
  HttpEndpoint& operator=(const HttpEndpoint&) = delete;

  std::uint16_t port() const { return port_; }
  // Closes every connection and the port at once; never waits on a client. Safe to call twice.
  void stop();

 private:
  struct Connection {
    explicit Connection(asio::io_context& io, const HttpLimits& limits) : socket(io), reader(limits) {}
    asio::ip::tcp::socket socket;
    HttpRequestReader reader;
    std::uint64_t id = 0;
    std::uint32_t requests = 0;
    std::array<char, 4096> readBuffer{};
    std::string unread;  // bytes read past the request being answered (pipelined requests)
    std::string out;
  };
  using ConnectionPtr = std::shared_ptr<Connection>;

  void accept();
  void read(const ConnectionPtr& c);
  void consume(const ConnectionPtr& c, const char* data, std::size_t size);
  void respond(const ConnectionPtr& c, const HttpResponse& response, bool keepAlive, bool headOnly);
  void close(std::uint64_t id);
  void sweep();
  std::string ownMetrics() const;

  const ServerMetrics& metrics_;
  HttpLimits limits_;
  asio::io_context io_;
  asio::ip::tcp::acceptor acceptor_;
  asio::steady_timer sweepTimer_;
  HttpConnectionTable table_;
  std::unordered_map<std::uint64_t, ConnectionPtr> connections_;
  std::uint64_t nextId_ = 1;
  // Touched by the serving thread only.
  std::uint64_t requests_ = 0, refused_ = 0, closedCap_ = 0, closedDeadline_ = 0, closedIdle_ = 0;
  std::uint16_t port_ = 0;
  std::thread thread_;
};

}  // namespace steerd::net
