#include "app/logging.h"

#include <fmt/chrono.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <memory>

namespace steerd {

void JsonLogFormatter::format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) {
  const auto since = msg.time.time_since_epoch();
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(since);
  const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(since - seconds).count();
  const std::time_t t = static_cast<std::time_t>(seconds.count());
  std::tm utc{};
  gmtime_r(&t, &utc);
  nlohmann::ordered_json line;  // keys in this order: time first, for people reading it
  line["time"] = fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:03}Z", utc, millis);
  const auto level = spdlog::level::to_string_view(msg.level);
  line["level"] = std::string(level.data(), level.size());
  line["logger"] = std::string(msg.logger_name.data(), msg.logger_name.size());
  line["message"] = std::string(msg.payload.data(), msg.payload.size());
  const std::string text = line.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  dest.append(text.data(), text.data() + text.size());
  dest.push_back('\n');
}

std::unique_ptr<spdlog::formatter> JsonLogFormatter::clone() const {
  return std::make_unique<JsonLogFormatter>();
}

void setUpLogging(const std::string& level, const std::string& format) {
  auto logger = spdlog::get("steerd");
  if (!logger) logger = spdlog::stderr_color_mt("steerd");
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::from_str(level));
  if (format == "json") {
    spdlog::set_formatter(std::make_unique<JsonLogFormatter>());
  } else {
    spdlog::set_pattern(kTextLogPattern, spdlog::pattern_time_type::utc);
  }
}

}  // namespace steerd
