// Which HTTP connections to close, and when: the cap (the oldest idle goes first), the request
// deadline and the idle timeout of HttpLimits. Pure and on the caller's clock, so it is tested on
// simulated time; HttpEndpoint does the closing.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "net/http_limits.h"

namespace steerd::net {

class HttpConnectionTable {
 public:
  enum class Why { kCap, kDeadline, kIdle };
  struct Closing {
    std::uint64_t id;
    Why why;
  };

  explicit HttpConnectionTable(const HttpLimits& limits) : limits_(limits) {}

  // A new connection, idle until its first byte. When the table was full, returns the one to close
  // to make room (the oldest idle, else the oldest request in flight), already forgotten here.
  std::optional<Closing> open(std::uint64_t id, std::int64_t nowNs);
  // The first byte of a request arrived: its deadline starts.
  void requestStarted(std::uint64_t id, std::int64_t nowNs);
  // Its answer is written: idle again.
  void requestDone(std::uint64_t id, std::int64_t nowNs);
  void close(std::uint64_t id) { connections_.erase(id); }
  // Those past their deadline or idle timeout at `nowNs`, forgotten here.
  std::vector<Closing> expired(std::int64_t nowNs);

  std::size_t size() const { return connections_.size(); }

 private:
  struct Entry {
    bool busy = false;         // a request in flight
    std::int64_t sinceNs = 0;  // its first byte, or when the connection went idle
  };
  HttpLimits limits_;
  std::map<std::uint64_t, Entry> connections_;  // by id: ids grow, so the oldest come first
};

}  // namespace steerd::net
