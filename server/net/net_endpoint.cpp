#include "net/net_endpoint.h"

#include <chrono>

#include "world/thread_pool.h"

namespace steerd::net {

NetEndpoint::NetEndpoint(const NetConfig& config, ServerMetrics& metrics)
    : socket_(io_),
      housekeepingTimer_(io_),
      protocol_(config, metrics, [this](std::span<const std::uint8_t> datagram, const Address& to) {
        std::error_code ec;  // a send that fails is a datagram lost, which the protocol survives
        socket_.send_to(asio::buffer(datagram.data(), datagram.size()), to, 0, ec);
        return !ec;
      }) {
  std::error_code ec;
  const auto address = asio::ip::make_address(config.bind, ec);
  if (ec) throw std::system_error(ec, "bad --bind address '" + config.bind + "'");
  const Address local(address, config.port);
  socket_.open(local.protocol());
  socket_.bind(local, ec);
  if (ec) throw std::system_error(ec, "cannot bind UDP " + config.bind + ":" + std::to_string(config.port));
  // Room for bursts of input from many clients between two wake-ups of the thread.
  socket_.set_option(asio::socket_base::receive_buffer_size(4 << 20), ec);
  socket_.set_option(asio::socket_base::send_buffer_size(4 << 20), ec);
  port_ = socket_.local_endpoint().port();
}

NetEndpoint::~NetEndpoint() { stop(); }

void NetEndpoint::start() {
  receive();
  housekeeping();
  thread_ = std::thread([this] {
    nameThisThread("steerd-net");
    io_.run();
  });
}

void NetEndpoint::stop() {
  if (stopped_) return;
  stopped_ = true;
  if (thread_.joinable()) {
    asio::post(io_, [this] {
      protocol_.shutdown(NetTime::now());
      io_.stop();
    });
    thread_.join();
  }
}

void NetEndpoint::setScene(const std::vector<wire::Scene>& parts) {
  asio::post(io_, [this, datagrams = NetProtocol::sceneDatagrams(parts)]() mutable {
    protocol_.setSceneDatagrams(std::move(datagrams));
  });
}

void NetEndpoint::setSceneChanges(std::shared_ptr<const wire::SceneChangeLog> log) {
  asio::post(io_, [this, log = std::move(log)]() mutable { protocol_.setSceneChangeLog(std::move(log)); });
}

void NetEndpoint::send(std::vector<OutDatagram>& batch) {
  if (batch.empty()) return;
  protocol_.send(batch);
  if (!flushPosted_.exchange(true)) {
    asio::post(io_, [this] {
      flushPosted_.store(false);
      protocol_.flushOutgoing(NetTime::now());
    });
  }
}

void NetEndpoint::receive() {
  socket_.async_receive_from(asio::buffer(buffer_), from_, [this](const std::error_code& ec, std::size_t n) {
    if (ec == asio::error::operation_aborted) return;
    if (!ec) protocol_.onDatagram(std::span<const std::uint8_t>(buffer_.data(), n), from_, NetTime::now());
    receive();
  });
}

void NetEndpoint::housekeeping() {
  protocol_.update(NetTime::now());
  housekeepingTimer_.expires_after(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(NetProtocol::kUpdateSeconds)));
  housekeepingTimer_.async_wait([this](const std::error_code& ec) {
    if (!ec) housekeeping();
  });
}

}  // namespace steerd::net
