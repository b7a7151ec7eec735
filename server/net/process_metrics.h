// The process's own series for /metrics, under the names every Prometheus client library uses
// (process_cpu_seconds_total, process_resident_memory_bytes, process_open_fds, ...), read from
// /proc at scrape time.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace steerd::net {

struct ProcessStats {
  double cpuSeconds = 0;  // user + system
  double residentBytes = 0;
  double virtualBytes = 0;
  double startTimeSeconds = 0;  // since the Unix epoch
};

// Parses the text of /proc/self/stat (the command name in parentheses may hold spaces and
// parentheses itself); nullopt when it is not that shape.
std::optional<ProcessStats> parseProcStat(std::string_view text, double ticksPerSecond, double pageBytes,
                                          double bootTimeSeconds);

// The `btime` line of /proc/stat: the boot time, seconds since the epoch; nullopt without one.
std::optional<double> parseBootTime(std::string_view procStat);

// Prometheus text for this process; "" where /proc cannot be read (then no process series).
std::string processMetricsText();

}  // namespace steerd::net
