// Receiving a datagram with the time the kernel received it (Linux SO_TIMESTAMPNS), so that a
// client's arrival times (snapshot intervals, RTT, interpolation) measure the network and the
// server, not how late its process got round to reading: a load tester's thousand players share
// one thread on a busy box. Elsewhere, and when the kernel gives no stamp, arrival is the time
// of reading.
#pragma once

#include <asio/ip/udp.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "client/clock_sync.h"

namespace steerd::client {

// Asks the kernel to stamp the socket's datagrams; false where it cannot (then receiveStamped
// gives reading times).
bool enableReceiveStamps(asio::ip::udp::socket& socket);

struct StampedDatagram {
  std::size_t bytes = 0;  // into the buffer (at most its size)
  TimePoint arrival;      // steady clock
};

// One queued datagram into `buffer` and `from`, without blocking. Its arrival: now, less how long
// it waited in the socket (the stamp is wall-clock time, so only the wait crosses clocks; a
// missing stamp, or a wait under 0 or over a second, counts as none). Nothing queued: nullopt;
// an error other than that sets `error`.
std::optional<StampedDatagram> receiveStamped(asio::ip::udp::socket& socket, std::span<std::uint8_t> buffer,
                                              asio::ip::udp::endpoint& from, bool& error);

}  // namespace steerd::client
