#include "net/http_connection_table.h"

namespace steerd::net {

std::optional<HttpConnectionTable::Closing> HttpConnectionTable::open(std::uint64_t id, std::int64_t nowNs) {
  std::optional<Closing> victim;
  if (limits_.maxConnections > 0 && connections_.size() >= limits_.maxConnections) {
    // Oldest idle first (it costs its owner least); else the request that has been longest in
    // flight, which is the nearest its deadline anyway.
    auto pick = connections_.end();
    for (auto it = connections_.begin(); it != connections_.end(); ++it) {
      if (!it->second.busy && (pick == connections_.end() || it->second.sinceNs < pick->second.sinceNs))
        pick = it;
    }
    if (pick == connections_.end()) {
      for (auto it = connections_.begin(); it != connections_.end(); ++it)
        if (pick == connections_.end() || it->second.sinceNs < pick->second.sinceNs) pick = it;
    }
    victim = Closing{pick->first, Why::kCap};
    connections_.erase(pick);
  }
  connections_[id] = Entry{false, nowNs};
  return victim;
}

void HttpConnectionTable::requestStarted(std::uint64_t id, std::int64_t nowNs) {
  auto it = connections_.find(id);
  if (it == connections_.end() || it->second.busy) return;
  it->second = Entry{true, nowNs};
}

void HttpConnectionTable::requestDone(std::uint64_t id, std::int64_t nowNs) {
  auto it = connections_.find(id);
  if (it != connections_.end()) it->second = Entry{false, nowNs};
}

std::vector<HttpConnectionTable::Closing> HttpConnectionTable::expired(std::int64_t nowNs) {
  std::vector<Closing> out;
  for (auto it = connections_.begin(); it != connections_.end();) {
    const Entry& e = it->second;
    const std::int64_t limit = e.busy ? limits_.requestDeadlineNs : limits_.idleTimeoutNs;
    if (nowNs - e.sinceNs >= limit) {
      out.push_back({it->first, e.busy ? Why::kDeadline : Why::kIdle});
      it = connections_.erase(it);
    } else {
      ++it;
    }
  }
  return out;
}

}  // namespace steerd::net
