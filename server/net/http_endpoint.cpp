#include "net/http_endpoint.h"

#include "net/process_metrics.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <stdexcept>

namespace steerd::net {

namespace {

std::int64_t steadyNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

const char* statusText(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 413:
      return "Content Too Large";
    case 414:
      return "URI Too Long";
    case 431:
      return "Request Header Fields Too Large";
    case 503:
      return "Service Unavailable";
    default:
      return "Error";
  }
}

constexpr auto kSweepEvery = std::chrono::milliseconds(100);

}  // namespace

HttpResponse answerOperatorRequest(const ServerMetrics& metrics, const HttpRequestHead& head,
                                   std::int64_t now, const std::string& extraMetrics) {
  const bool known = head.path == "/metrics" || head.path == "/healthz" || head.path == "/readyz";
  if (!known) return {404, "text/plain", "not found: try /metrics, /healthz or /readyz\n"};
  if (head.method != "GET" && head.method != "HEAD")
    return {405, "text/plain", head.method + " not allowed: GET or HEAD\n"};
  if (head.path == "/metrics")
    return {200, "text/plain; version=0.0.4", metrics.render(now, processMetricsText()) + extraMetrics};
  if (head.path == "/healthz") {
    // Liveness: is the tick loop alive? (Kubernetes restarts the pod when not.)
    const std::uint64_t tick = metrics.lastTick.load(std::memory_order_relaxed);
    if (!metrics.healthy(now))
      return {
          503, "text/plain",
          fmt::format("stalled: no tick for {:.3f} s (last tick {})\n", metrics.secondsSinceTick(now), tick)};
    return {200, "text/plain", "ok tick " + std::to_string(tick) + "\n"};
  }
  // Readiness: would a new player be admitted now? (Not while starting, stopping, stalled or full.)
  const std::string why = metrics.notReadyReason(now);
  if (!why.empty()) return {503, "text/plain", "not ready: " + why + "\n"};
  return {200, "text/plain",
          fmt::format("ready: {} of {} clients\n", metrics.clients.load(std::memory_order_relaxed),
                      metrics.maxClients.load(std::memory_order_relaxed))};
}

std::string formatHttpResponse(const HttpResponse& r, bool keepAlive, bool headOnly) {
  std::string out = fmt::format("HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n", r.status,
                                statusText(r.status), r.contentType, r.body.size());
  if (r.status == 405) out += "Allow: GET, HEAD\r\n";
  out += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n";
  if (!headOnly) out += r.body;
  return out;
}

HttpEndpoint::HttpEndpoint(const std::string& bind, std::uint16_t port, const ServerMetrics& metrics,
                           const HttpLimits& limits)
    : metrics_(metrics), limits_(limits), acceptor_(io_), sweepTimer_(io_), table_(limits) {
  try {
    asio::ip::tcp::resolver resolver(io_);
    const auto endpoint =
        resolver
            .resolve(bind, std::to_string(port),
                     asio::ip::resolver_base::passive | asio::ip::resolver_base::numeric_service)
            .begin()
            ->endpoint();
    acceptor_.open(endpoint.protocol());
    acceptor_.set_option(asio::ip::tcp::acceptor::reuse_address(true));
    acceptor_.bind(endpoint);
    acceptor_.listen();
  } catch (const std::system_error& e) {
    throw std::runtime_error("cannot bind the metrics port " + bind + ":" + std::to_string(port) + " (" +
                             e.what() + "; in use? try --metrics-port)");
  }
  port_ = acceptor_.local_endpoint().port();
  accept();
  sweep();
  thread_ = std::thread([this] {
    try {
      io_.run();
    } catch (const std::exception& e) {
      // The port is dead from here on: /healthz stops answering and an orchestrator restarts us.
      spdlog::error("metrics port: {}", e.what());
    }
  });
}

HttpEndpoint::~HttpEndpoint() { stop(); }

void HttpEndpoint::stop() {
  io_.stop();  // run() returns after the handler in progress, if any: a client is never waited on
  if (thread_.joinable()) thread_.join();
  asio::error_code ignored;
  acceptor_.close(ignored);
  for (auto& [id, c] : connections_) c->socket.close(ignored);
  connections_.clear();
}

void HttpEndpoint::accept() {
  auto c = std::make_shared<Connection>(io_, limits_);
  acceptor_.async_accept(c->socket, [this, c](const asio::error_code& ec) {
    if (ec == asio::error::operation_aborted) return;
    if (!ec) {
      c->id = nextId_++;
      if (auto victim = table_.open(c->id, steadyNowNs())) {
        ++closedCap_;
        close(victim->id);
      }
      connections_.emplace(c->id, c);
      asio::error_code ignored;
      c->socket.set_option(asio::ip::tcp::no_delay(true), ignored);
      read(c);
    }
    // Out of descriptors and the like: keep accepting; the cap and deadlines free some.
    accept();
  });
}

void HttpEndpoint::read(const ConnectionPtr& c) {
  c->socket.async_read_some(asio::buffer(c->readBuffer),
                            [this, c](const asio::error_code& ec, std::size_t n) {
                              if (!connections_.count(c->id))
                                return;  // closed meanwhile (cap, deadline, stop)
                              if (ec) {
                                close(c->id);
                                return;
                              }
                              if (!c->reader.started()) table_.requestStarted(c->id, steadyNowNs());
                              consume(c, c->readBuffer.data(), n);
                            });
}

void HttpEndpoint::consume(const ConnectionPtr& c, const char* data, std::size_t size) {
  std::size_t used = 0;
  switch (c->reader.feed(data, size, used)) {
    case HttpRequestReader::State::kNeedMore:
      read(c);
      return;
    case HttpRequestReader::State::kRefused:
      ++refused_;
      respond(c, {c->reader.refusalStatus(), "text/plain", c->reader.refusalReason() + "\n"}, false, false);
      return;
    case HttpRequestReader::State::kComplete: {
      c->unread.assign(data + used, size - used);
      ++requests_;
      ++c->requests;
      const HttpRequestHead& head = c->reader.request();
      const bool keepAlive = head.keepAlive && c->requests < limits_.maxRequestsPerConnection;
      respond(c, answerOperatorRequest(metrics_, head, steadyNowNs(), ownMetrics()), keepAlive,
              head.method == "HEAD");
      return;
    }
  }
}

void HttpEndpoint::respond(const ConnectionPtr& c, const HttpResponse& response, bool keepAlive,
                           bool headOnly) {
  c->out = formatHttpResponse(response, keepAlive, headOnly);
  asio::async_write(c->socket, asio::buffer(c->out),
                    [this, c, keepAlive](const asio::error_code& ec, std::size_t) {
                      if (!connections_.count(c->id)) return;
                      if (ec || !keepAlive) {
                        close(c->id);
                        return;
                      }
                      table_.requestDone(c->id, steadyNowNs());
                      c->reader.next();
                      if (c->unread.empty()) {
                        read(c);
                        return;
                      }
                      const std::string pipelined = std::move(c->unread);  // consume() refills c->unread
                      c->unread.clear();
                      table_.requestStarted(c->id, steadyNowNs());
                      consume(c, pipelined.data(), pipelined.size());
                    });
}

void HttpEndpoint::close(std::uint64_t id) {
  table_.close(id);
  auto it = connections_.find(id);
  if (it == connections_.end()) return;
  asio::error_code ignored;
  it->second->socket.close(ignored);
  connections_.erase(it);
}

void HttpEndpoint::sweep() {
  for (const auto& closing : table_.expired(steadyNowNs())) {
    ++(closing.why == HttpConnectionTable::Why::kDeadline ? closedDeadline_ : closedIdle_);
    close(closing.id);
  }
  sweepTimer_.expires_after(kSweepEvery);
  sweepTimer_.async_wait([this](const asio::error_code& ec) {
    if (!ec) sweep();
  });
}

std::string HttpEndpoint::ownMetrics() const {
  return fmt::format(
      "# HELP steerd_http_requests_total Requests answered on the metrics port.\n"
      "# TYPE steerd_http_requests_total counter\n"
      "steerd_http_requests_total {}\n"
      "# HELP steerd_http_refused_total Requests on the metrics port refused for their form or size "
      "(400, 413, 414, 431).\n"
      "# TYPE steerd_http_refused_total counter\n"
      "steerd_http_refused_total {}\n"
      "# HELP steerd_http_closed_total Metrics-port connections closed by the server: at the connection cap, "
      "past the request deadline, or idle.\n"
      "# TYPE steerd_http_closed_total counter\n"
      "steerd_http_closed_total{{reason=\"cap\"}} {}\n"
      "steerd_http_closed_total{{reason=\"deadline\"}} {}\n"
      "steerd_http_closed_total{{reason=\"idle\"}} {}\n"
      "# HELP steerd_http_connections Connections open on the metrics port.\n"
      "# TYPE steerd_http_connections gauge\n"
      "steerd_http_connections {}\n",
      requests_, refused_, closedCap_, closedDeadline_, closedIdle_, connections_.size());
}

}  // namespace steerd::net
