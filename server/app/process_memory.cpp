#include "app/process_memory.h"

#include <charconv>
#include <fstream>
#include <sstream>
#include <string_view>

namespace steerd {

namespace {

// The value of a "Name:   1234 kB" line, in bytes.
std::optional<std::uint64_t> kilobytesLine(const std::string& status, const std::string& name) {
  const std::size_t at = status.find("\n" + name + ":");
  const std::size_t start = status.rfind(name + ":", 0) == 0 ? 0 : (at == std::string::npos ? at : at + 1);
  if (start == std::string::npos) return std::nullopt;
  std::size_t p = start + name.size() + 1;
  while (p < status.size() && (status[p] == ' ' || status[p] == '\t')) ++p;
  std::uint64_t kb = 0;
  const char* first = status.data() + p;
  const char* last = status.data() + status.size();
  const auto [end, error] = std::from_chars(first, last, kb);
  if (error != std::errc() || end == first || kb > (UINT64_MAX >> 10)) return std::nullopt;
  if (std::string_view(end, static_cast<std::size_t>(last - end)).rfind(" kB", 0) != 0) return std::nullopt;
  return kb << 10;
}

}  // namespace

std::optional<ProcessMemory> parseProcessMemory(const std::string& status) {
  const auto rss = kilobytesLine(status, "VmRSS"), peak = kilobytesLine(status, "VmHWM");
  if (!rss || !peak) return std::nullopt;
  return ProcessMemory{*rss, *peak};
}

std::optional<ProcessMemory> processMemory() {
  std::ifstream in("/proc/self/status");
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return parseProcessMemory(text.str());
}

}  // namespace steerd
