#include "net/process_metrics.h"

#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace steerd::net {

namespace {

std::string readFile(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::optional<double> number(std::string_view token) {
  double v = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
  if (ec != std::errc{} || end != token.data() + token.size()) return std::nullopt;
  return v;
}

void series(std::string& out, const char* name, const char* type, const char* help, double v) {
  out += fmt::format("# HELP {} {}\n# TYPE {} {}\n{} {}\n", name, help, name, type, name, v);
}

}  // namespace

std::optional<ProcessStats> parseProcStat(std::string_view text, double ticksPerSecond, double pageBytes,
                                          double bootTimeSeconds) {
  const auto close = text.rfind(')');
  if (close == std::string_view::npos || ticksPerSecond <= 0) return std::nullopt;
  // After the command: field 3 (state) onwards, separated by single spaces.
  std::vector<std::string_view> fields;
  std::string_view rest = text.substr(close + 1);
  while (!rest.empty()) {
    const auto start = rest.find_first_not_of(" \n");
    if (start == std::string_view::npos) break;
    rest.remove_prefix(start);
    const auto end = rest.find_first_of(" \n");
    fields.push_back(rest.substr(0, end));
    rest.remove_prefix(end == std::string_view::npos ? rest.size() : end);
  }
  // proc(5): utime 14, stime 15, starttime 22, vsize 23, rss 24 (fields[0] is field 3).
  if (fields.size() < 22) return std::nullopt;
  const auto utime = number(fields[11]), stime = number(fields[12]), start = number(fields[19]),
             vsize = number(fields[20]), rss = number(fields[21]);
  if (!utime || !stime || !start || !vsize || !rss) return std::nullopt;
  ProcessStats s;
  s.cpuSeconds = (*utime + *stime) / ticksPerSecond;
  s.virtualBytes = *vsize;
  s.residentBytes = *rss * pageBytes;
  s.startTimeSeconds = bootTimeSeconds + *start / ticksPerSecond;
  return s;
}

std::optional<double> parseBootTime(std::string_view procStat) {
  std::size_t at = 0;
  while (at < procStat.size()) {
    const auto end = procStat.find('\n', at);
    const std::string_view line = procStat.substr(at, end == std::string_view::npos ? end : end - at);
    if (line.substr(0, 6) == "btime ") return number(line.substr(6));
    if (end == std::string_view::npos) break;
    at = end + 1;
  }
  return std::nullopt;
}

std::string processMetricsText() {
  const auto boot = parseBootTime(readFile("/proc/stat"));
  const auto stats = parseProcStat(readFile("/proc/self/stat"), static_cast<double>(sysconf(_SC_CLK_TCK)),
                                   static_cast<double>(sysconf(_SC_PAGESIZE)), boot.value_or(0.0));
  if (!stats) return {};
  std::string out;
  series(out, "process_cpu_seconds_total", "counter", "User and system CPU time spent, seconds.",
         stats->cpuSeconds);
  series(out, "process_resident_memory_bytes", "gauge", "Resident memory size, bytes.", stats->residentBytes);
  series(out, "process_virtual_memory_bytes", "gauge", "Virtual memory size, bytes.", stats->virtualBytes);
  if (boot) {
    series(out, "process_start_time_seconds", "gauge",
           "Start time of the process since the Unix epoch, seconds.", stats->startTimeSeconds);
  }
  std::error_code ec;
  std::size_t fds = 0;
  for (std::filesystem::directory_iterator it("/proc/self/fd", ec), end; !ec && it != end; it.increment(ec))
    ++fds;
  if (!ec) series(out, "process_open_fds", "gauge", "Open file descriptors.", static_cast<double>(fds));
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    series(out, "process_max_fds", "gauge", "Limit on open file descriptors.",
           static_cast<double>(limit.rlim_cur));
  }
  return out;
}

}  // namespace steerd::net
