#include "proto/hex.h"

#include <sodium.h>

namespace steerd::wire {

// libsodium's hex codec: constant-time, which matters for the token keys that pass through here.
std::string toHex(std::string_view bytes) {
  std::string out(bytes.size() * 2 + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  out.pop_back();  // the terminating NUL
  return out;
}

std::optional<std::string> fromHex(std::string_view hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  std::string out(hex.size() / 2, '\0');
  std::size_t length = 0;
  const char* end = nullptr;
  // No characters to ignore; parsing stops at the first one that is not a hex digit.
  if (sodium_hex2bin(reinterpret_cast<unsigned char*>(out.data()), out.size(), hex.data(), hex.size(),
                     nullptr, &length, &end) != 0 ||
      end != hex.data() + hex.size() || length != out.size()) {
    return std::nullopt;
  }
  return out;
}

}  // namespace steerd::wire
