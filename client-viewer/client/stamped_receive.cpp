#include "client/stamped_receive.h"

#include <cerrno>
#include <chrono>
#include <cstring>

#ifdef __linux__
#include <sys/socket.h>
#include <sys/uio.h>
#endif

namespace steerd::client {

bool enableReceiveStamps(asio::ip::udp::socket& socket) {
#ifdef SO_TIMESTAMPNS
  const int on = 1;
  return socket.is_open() &&
         ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on) == 0;
#else
  (void)socket;
  return false;
#endif
}

std::optional<StampedDatagram> receiveStamped(asio::ip::udp::socket& socket, std::span<std::uint8_t> buffer,
                                              asio::ip::udp::endpoint& from, bool& error) {
  error = false;
#ifdef SO_TIMESTAMPNS
  iovec iov{buffer.data(), buffer.size()};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec))];
  msghdr msg{};
  msg.msg_name = from.data();
  msg.msg_namelen = static_cast<socklen_t>(from.capacity());
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  const ssize_t got = ::recvmsg(socket.native_handle(), &msg, MSG_DONTWAIT);
  if (got < 0) {
    error = errno != EAGAIN && errno != EWOULDBLOCK;
    return std::nullopt;
  }
  from.resize(msg.msg_namelen);
  StampedDatagram d{std::min(static_cast<std::size_t>(got), buffer.size()), Clock::now()};
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_TIMESTAMPNS) continue;
    timespec ts;
    std::memcpy(&ts, CMSG_DATA(c), sizeof ts);
    const auto stamped = std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
    const auto waited = std::chrono::system_clock::now().time_since_epoch() - stamped;
    if (waited > std::chrono::nanoseconds(0) && waited < std::chrono::seconds(1))
      d.arrival -= std::chrono::duration_cast<Clock::duration>(waited);
  }
  return d;
#else
  std::error_code ec;
  const std::size_t n = socket.receive_from(asio::buffer(buffer.data(), buffer.size()), from, 0, ec);
  if (ec) {
    error = ec != asio::error::would_block && ec != asio::error::try_again;
    return std::nullopt;
  }
  return StampedDatagram{n, Clock::now()};
#endif
}

}  // namespace steerd::client
