// The process series: /proc/self/stat parsed by field number, a command name with spaces and
// parentheses included, and a malformed text refused.
#include "net/process_metrics.h"

#include <gtest/gtest.h>

namespace steerd::net {
namespace {

// proc(5) fields 1..24: pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt
// cmajflt utime stime cutime cstime priority nice threads itrealvalue starttime vsize rss ...
constexpr const char* kStat =
    "4242 (steer d) (x)) S 1 4242 4242 0 -1 4194560 500 0 0 0 250 150 0 0 20 0 3 0 1000 "
    "123456789 2048 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";

TEST(ProcessMetrics, ParsesCpuMemoryAndStartTime) {
  const auto s = parseProcStat(kStat, 100.0, 4096.0, 1'700'000'000.0);
  ASSERT_TRUE(s.has_value());
  EXPECT_DOUBLE_EQ(s->cpuSeconds, 4.0);  // (250 + 150) / 100
  EXPECT_DOUBLE_EQ(s->virtualBytes, 123456789.0);
  EXPECT_DOUBLE_EQ(s->residentBytes, 2048.0 * 4096.0);
  EXPECT_DOUBLE_EQ(s->startTimeSeconds, 1'700'000'010.0);  // boot + 1000 / 100
}

TEST(ProcessMetrics, RefusesWhatIsNotAStatLine) {
  EXPECT_FALSE(parseProcStat("", 100, 4096, 0).has_value());
  EXPECT_FALSE(parseProcStat("42 (x) S 1 2 3", 100, 4096, 0).has_value());  // too few fields
  EXPECT_FALSE(
      parseProcStat("4242 (x) S 1 4242 4242 0 -1 4194560 500 0 0 0 a b 0 0 20 0 3 0 1000 1 2", 100, 4096, 0)
          .has_value());
  EXPECT_FALSE(parseProcStat(kStat, 0, 4096, 0).has_value());
}

TEST(ProcessMetrics, BootTimeFromProcStat) {
  EXPECT_EQ(parseBootTime("cpu  1 2 3\nintr 5\nbtime 1700000000\nprocesses 9\n"), 1'700'000'000.0);
  EXPECT_FALSE(parseBootTime("cpu 1\n").has_value());
  EXPECT_FALSE(parseBootTime("btime x\n").has_value());
}

TEST(ProcessMetrics, ThisProcessHasItsSeries) {
  const std::string text = processMetricsText();
  EXPECT_NE(text.find("process_cpu_seconds_total "), std::string::npos) << text;
  EXPECT_NE(text.find("process_resident_memory_bytes "), std::string::npos);
  EXPECT_NE(text.find("process_open_fds "), std::string::npos);
}

}  // namespace
}  // namespace steerd::net
