// steerd's logger: stderr, UTC timestamps, as text lines or as one JSON object per line.
#pragma once

#include <string>

#include <spdlog/formatter.h>

namespace steerd {

// One JSON object per line: {"time":"2026-11-25T06:10:00.123Z","level":"info","logger":"steerd",
// "message":"..."}; the message escaped as JSON (invalid UTF-8 replaced, never thrown on).
class JsonLogFormatter final : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override;
  std::unique_ptr<spdlog::formatter> clone() const override;
};

// The text pattern: ISO 8601 UTC with a Z, the level, the message.
inline constexpr const char* kTextLogPattern = "%Y-%m-%dT%H:%M:%S.%eZ %^%l%$ %v";

// Makes a stderr logger named "steerd" the default one, at `level`, in `format` ("text" or "json").
void setUpLogging(const std::string& level, const std::string& format);

}  // namespace steerd
