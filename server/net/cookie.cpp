#include "net/cookie.h"

#include <sodium.h>

#include <stdexcept>

namespace steerd::net {

CookieJar::CookieJar() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
  static_assert(sizeof key_ == crypto_auth_KEYBYTES);
  randombytes_buf(key_.data(), key_.size());
}

std::string CookieJar::macFor(std::string_view address, std::uint64_t bucket) const {
  std::string message(address);
  for (int i = 0; i < 8; ++i) message.push_back(static_cast<char>(bucket >> (8 * i)));
  std::string mac(crypto_auth_BYTES, '\0');
  crypto_auth(reinterpret_cast<unsigned char*>(mac.data()),
              reinterpret_cast<const unsigned char*>(message.data()), message.size(), key_.data());
  return mac;
}

std::string CookieJar::make(std::string_view address, std::uint64_t nowSeconds) const {
  return macFor(address, nowSeconds / kBucketSeconds);
}

bool CookieJar::check(std::string_view cookie, std::string_view address, std::uint64_t nowSeconds) const {
  if (cookie.size() != crypto_auth_BYTES) return false;
  const std::uint64_t bucket = nowSeconds / kBucketSeconds;
  for (std::uint64_t b : {bucket, bucket - 1}) {
    const std::string mac = macFor(address, b);
    if (sodium_memcmp(mac.data(), cookie.data(), mac.size()) == 0) return true;
  }
  return false;
}

}  // namespace steerd::net
