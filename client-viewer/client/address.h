// Text forms users type for where a server is: HOST:PORT, [IPv6]:PORT.
#pragma once

#include <cstdint>
#include <string>

namespace steerd::client {

// Splits "host:port" or "[v6 address]:port"; returns an error message (empty on success).
std::string splitHostPort(const std::string& text, std::string& host, std::uint16_t& port);

}  // namespace steerd::client
