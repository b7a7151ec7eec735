#include "loadtest/token_file.h"

#include <fstream>
#include <string_view>

namespace steerd::loadtest {

namespace {
int digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

bool hexToBytes(std::string_view hex, std::string& out) {
  out.clear();
  if (hex.size() % 2 != 0) return false;
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int hi = digit(hex[i]), lo = digit(hex[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return true;
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
