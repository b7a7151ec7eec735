// --log-format json: one object per line, UTC time, the message escaped; text lines in UTC too.
#include "app/logging.h"

#include <gtest/gtest.h>
#include <spdlog/details/log_msg.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <string>

namespace steerd {
namespace {

std::string formatted(const spdlog::details::log_msg& msg) {
  JsonLogFormatter f;
  spdlog::memory_buf_t out;
  f.format(msg, out);
  return std::string(out.data(), out.size());
}

TEST(JsonLog, OneObjectPerLineWithUtcTime) {
  // 2026-11-25 06:10:00.123 UTC.
  const auto when = std::chrono::system_clock::time_point(std::chrono::milliseconds(1795587000123));
  spdlog::details::log_msg msg(when, spdlog::source_loc{}, "steerd", spdlog::level::warn,
                               "client \"7\" said:\nhello\t\\");
  const std::string line = formatted(msg);
  ASSERT_FALSE(line.empty());
  EXPECT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1);  // the message's newline is escaped
  const auto j = nlohmann::json::parse(line);
  EXPECT_EQ(j.at("time"), "2026-11-25T06:10:00.123Z");
  EXPECT_EQ(j.at("level"), "warning");
  EXPECT_EQ(j.at("logger"), "steerd");
  EXPECT_EQ(j.at("message"), "client \"7\" said:\nhello\t\\");
  EXPECT_EQ(line.rfind("{\"time\":", 0), 0u);  // time first, for people reading it
}

TEST(JsonLog, InvalidUtf8IsReplacedNotThrown) {
  spdlog::details::log_msg msg(spdlog::source_loc{}, "steerd", spdlog::level::info, "bad \xff\xfe name");
  std::string line;
  ASSERT_NO_THROW(line = formatted(msg));
  const auto j = nlohmann::json::parse(line);
  EXPECT_EQ(j.at("message").get<std::string>().rfind("bad ", 0), 0u);
}

TEST(TextLog, PatternIsIso8601Utc) {
  EXPECT_EQ(std::string(kTextLogPattern).rfind("%Y-%m-%dT%H:%M:%S.%eZ ", 0), 0u);
}

}  // namespace
}  // namespace steerd
