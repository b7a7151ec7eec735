#include "net/address_sessions.h"

namespace steerd::net {

std::optional<std::string> AddressSessions::keyOf(const asio::ip::address& address) {
  asio::ip::address a = address;
  if (a.is_v6() && a.to_v6().is_v4_mapped()) a = asio::ip::make_address_v4(asio::ip::v4_mapped, a.to_v6());
  if (a.is_loopback()) return std::nullopt;
  if (a.is_v4()) {
    const auto b = a.to_v4().to_bytes();
    return std::string(b.begin(), b.end());
  }
  const auto b = a.to_v6().to_bytes();
  return std::string(b.begin(), b.begin() + 8);
}

bool AddressSessions::full(const asio::ip::udp::endpoint& from) const {
  if (cap_ == 0) return false;
  const auto key = keyOf(from.address());
  if (!key) return false;
  const auto it = sessions_.find(*key);
  return it != sessions_.end() && it->second >= cap_;
}

void AddressSessions::add(const asio::ip::udp::endpoint& from) {
  if (const auto key = keyOf(from.address())) ++sessions_[*key];
}

void AddressSessions::remove(const asio::ip::udp::endpoint& from) {
  const auto key = keyOf(from.address());
  if (!key) return;
  const auto it = sessions_.find(*key);
  if (it == sessions_.end()) return;
  if (--it->second == 0) sessions_.erase(it);
}

}  // namespace steerd::net
