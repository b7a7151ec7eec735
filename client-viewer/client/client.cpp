#include "client/client.h"

#include <array>

#include "client/stamped_receive.h"

namespace steerd::client {

using udp = asio::ip::udp;

struct Client::Socket : std::enable_shared_from_this<Socket> {
  Socket(asio::io_context& io, udp::endpoint to)
      : strand(asio::make_strand(io)), socket(strand), server(to) {}

  std::error_code open() {
    std::error_code ec;
    socket.open(server.protocol(), ec);
    if (!ec) socket.bind(udp::endpoint(server.protocol(), 0), ec);
    if (!ec) socket.non_blocking(true, ec);
    // Arrival times as the kernel stamped them, where it can (without, the time of reading).
    if (!ec) enableReceiveStamps(socket);
    return ec;
  }

  bool send(std::span<const std::uint8_t> datagram) {
    if (!socket.is_open()) return false;
    std::error_code ec;
    socket.send_to(asio::buffer(datagram.data(), datagram.size()), server, 0, ec);
    return !ec;
  }

  void startReceiving() {
    if (receiving || owner == nullptr || !socket.is_open()) return;
    receiving = true;
    receive();
  }

  void receive() {
    socket.async_wait(udp::socket::wait_read,
                      [self = shared_from_this()](const std::error_code& ec) { self->onReadable(ec); });
  }

  // Readable: every queued datagram (up to 65), each with its arrival.
  void onReadable(const std::error_code& ec) {
    if (owner == nullptr || ec == asio::error::operation_aborted) {
      receiving = false;
      return;
    }
    if (ec) {
      owner->countReceiveError();
    } else {
      for (int i = 0; i < 65 && owner != nullptr; ++i) {
        bool error = false;
        const std::optional<StampedDatagram> d = receiveStamped(socket, rx, from, error);
        if (error) owner->countReceiveError();
        if (!d) break;
        if (from == server) {
          owner->onDatagram(std::span<const std::uint8_t>(rx.data(), d->bytes), d->arrival);
        } else {
          owner->countForeignDatagram(d->bytes);
        }
      }
    }
    if (owner == nullptr) {
      receiving = false;
      return;
    }
    receive();
  }

  Executor strand;
  udp::socket socket;
  udp::endpoint server, from;
  std::array<std::uint8_t, 2048> rx{};  // over kMaxDatagramBytes, so oversized datagrams are seen as such
  ClientProtocol* owner = nullptr;      // null once the Client is gone
  bool receiving = false;
};

Client::Client(asio::io_context& io, ClientOptions options)
    : ClientProtocol(options, [this](std::span<const std::uint8_t> d) { return socket_->send(d); }),
      socket_(std::make_shared<Socket>(io, options.server)) {
  if (const std::error_code ec = socket_->open()) {
    fail("cannot open a UDP socket: " + ec.message());
    return;
  }
  socket_->owner = this;
}

Client::~Client() {
  socket_->owner = nullptr;
  std::error_code ec;
  socket_->socket.close(ec);
}

void Client::start() { socket_->startReceiving(); }

asio::ip::udp::endpoint Client::localEndpoint() const {
  std::error_code ec;
  return socket_->socket.local_endpoint(ec);
}

Client::Executor Client::executor() const { return socket_->strand; }

}  // namespace steerd::client
