// What the operator's HTTP port (/metrics, /healthz, /readyz) allows one client, so that no number
// of slow, idle or oversized connections keeps a probe from an answer (docs/OPERATIONS.md).
#pragma once

#include <cstddef>
#include <cstdint>

namespace steerd::net {

struct HttpLimits {
  // Connections open at once. At the cap a new one closes the oldest idle connection, else the
  // oldest one still sending its request: a flood only ever holds the port for newer arrivals.
  std::size_t maxConnections = 32;
  // A request's head must arrive, and its answer be written, within this long of its first byte:
  // a deadline for the whole request, not a per-read timeout that a trickle of bytes keeps resetting.
  std::int64_t requestDeadlineNs = 5'000'000'000;
  // A kept-alive connection with no request in flight is closed after this long (Prometheus scrapes
  // every 15 to 30 s and reconnects when it must).
  std::int64_t idleTimeoutNs = 30'000'000'000;
  std::size_t maxHeadBytes = 8192;  // request line and headers; more: 431
  std::size_t maxUrlBytes = 2048;   // more: 414
  std::size_t maxBodyBytes = 4096;  // the endpoints take no body; a bigger one: 413, never buffered
  std::uint32_t maxRequestsPerConnection = 1000;
};

}  // namespace steerd::net
