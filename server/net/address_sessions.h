// How many sessions each source address holds, for --max-clients-per-address: without a cap one
// machine could take every client slot. An address is an IPv4 address or an IPv6 /64 (one host is
// usually given a whole /64, so its addresses are one address here). Loopback is not counted: only
// this machine can send from it (the kernel drops loopback sources arriving from outside), and a
// load tester or a relay on the machine puts every one of its clients there.
#pragma once

#include <asio/ip/udp.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>

namespace steerd::net {

class AddressSessions {
 public:
  // 0: no cap.
  explicit AddressSessions(std::size_t cap) : cap_(cap) {}

  // Whether a new session from `from` would be over the cap.
  bool full(const asio::ip::udp::endpoint& from) const;
  void add(const asio::ip::udp::endpoint& from);
  void remove(const asio::ip::udp::endpoint& from);
  std::size_t cap() const { return cap_; }

  // The address sessions are counted under (4 bytes, or an IPv6 /64's 8); none for loopback.
  static std::optional<std::string> keyOf(const asio::ip::address& address);

 private:
  std::size_t cap_;
  std::unordered_map<std::string, std::size_t> sessions_;  // by keyOf; entries above 0 only
};

}  // namespace steerd::net
