// Log lines about remote peers (refusals, timeouts) go through this so that a flood of bad
// clients cannot fill the disk: at most `perSecond` lines a second, then one line saying how many
// were suppressed.
#pragma once

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdint>
#include <string>

namespace steerd::net {

class RateLimitedLog {
 public:
  explicit RateLimitedLog(int perSecond = 10) : perSecond_(perSecond) {}

  template <class... Args>
  void info(spdlog::format_string_t<Args...> fmt, Args&&... args) {
    if (allow()) spdlog::info(fmt, std::forward<Args>(args)...);
  }
  template <class... Args>
  void warn(spdlog::format_string_t<Args...> fmt, Args&&... args) {
    if (allow()) spdlog::warn(fmt, std::forward<Args>(args)...);
  }

 private:
  bool allow() {
    const auto now = std::chrono::steady_clock::now();
    if (now - windowStart_ >= std::chrono::seconds(1)) {
      if (suppressed_ > 0)
        spdlog::warn("({} log lines about clients suppressed in the last second)", suppressed_);
      windowStart_ = now;
      used_ = 0;
      suppressed_ = 0;
    }
    if (used_ < perSecond_) {
      ++used_;
      return true;
    }
    ++suppressed_;
    return false;
  }

  int perSecond_;
  int used_ = 0;
  std::uint64_t suppressed_ = 0;
  std::chrono::steady_clock::time_point windowStart_{};
};

}  // namespace steerd::net
