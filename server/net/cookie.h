// Stateless connect challenge (DESIGN.md "Networking"): the cookie is a MAC, under a key the
// server draws at start-up, of the client's address and a 10-second time bucket. The server keeps
// nothing per unverified client; a client proves it receives at its address by echoing the cookie.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace steerd::net {

class CookieJar {
 public:
  static constexpr std::uint64_t kBucketSeconds = 10;
  CookieJar();  // draws a random key (libsodium)

  // `address` is the client's IP address bytes and port, as the socket saw them.
  std::string make(std::string_view address, std::uint64_t nowSeconds) const;
  // Valid for the current and the previous bucket (10-20 s).
  bool check(std::string_view cookie, std::string_view address, std::uint64_t nowSeconds) const;

 private:
  std::string macFor(std::string_view address, std::uint64_t bucket) const;
  std::array<unsigned char, 32> key_{};
};

}  // namespace steerd::net
