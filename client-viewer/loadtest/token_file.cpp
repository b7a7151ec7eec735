#include "loadtest/token_file.h"

#include "proto/hex.h"

#include <fstream>
#include <string_view>

namespace steerd::loadtest {

bool hexToBytes(std::string_view hex, std::string& out) {
  auto decoded = wire::fromHex(hex);
  out = decoded ? std::move(*decoded) : std::string{};
  return decoded.has_value();
}

bool readTokenFile(const std::string& path, std::vector<std::string>& tokens, std::string& error) {
  std::ifstream in(path);
  if (!in) {
    error = path + ": cannot open";
    return false;
  }
  tokens.clear();
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    std::string_view s = line;
    while (!s.empty() && std::string_view(" \t\r").find(s.front()) != std::string_view::npos)
      s.remove_prefix(1);
    while (!s.empty() && std::string_view(" \t\r").find(s.back()) != std::string_view::npos)
      s.remove_suffix(1);
    if (s.empty()) continue;
    std::string bytes;
    if (!hexToBytes(s, bytes)) {
      error = path + ":" + std::to_string(n) + ": not a hex token (as steerd --issue-token prints them)";
      return false;
    }
    tokens.push_back(std::move(bytes));
  }
  if (tokens.empty()) {
    error = path + ": no token in the file";
    return false;
  }
  return true;
}

}  // namespace steerd::loadtest
