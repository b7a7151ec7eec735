#include "client/address.h"

#include <charconv>
#include <system_error>

namespace steerd::client {

std::string splitHostPort(const std::string& text, std::string& host, std::uint16_t& port) {
  std::string h, p;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ':') {
      return "expected [ADDRESS]:PORT, got '" + text + "'";
    }
    h = text.substr(1, close - 1);
    p = text.substr(close + 2);
  } else {
    const auto colon = text.rfind(':');
    if (colon == std::string::npos) return "expected HOST:PORT, got '" + text + "'";
    h = text.substr(0, colon);
    p = text.substr(colon + 1);
    if (h.find(':') != std::string::npos)
      return "write an IPv6 address as [ADDRESS]:PORT, got '" + text + "'";
  }
  if (h.empty()) return "no host in '" + text + "'";
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), value);
  if (p.empty() || ec != std::errc{} || end != p.data() + p.size() || value == 0 || value > 65535) {
    return "port must be 1..65535, got '" + p + "'";
  }
  host = h;
  port = static_cast<std::uint16_t>(value);
  return {};
}

}  // namespace steerd::client
