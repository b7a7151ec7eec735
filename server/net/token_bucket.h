// A token bucket: holds up to `capacity` tokens, gains `perSecond` a second, and each take()
// spends one when there is one. What the server answers on request (scene parts) goes through
// one per client, so a request cannot make the server send more than that rate.
#pragma once

#include <algorithm>
#include <chrono>

namespace steerd::net {

class TokenBucket {
 public:
  using Clock = std::chrono::steady_clock;

  TokenBucket(double capacity, double perSecond)
      : capacity_(capacity), perSecond_(perSecond), tokens_(capacity) {}

  // Spends a token at `now`; false (nothing spent) when the bucket is empty.
  bool take(Clock::time_point now) {
    if (last_ != Clock::time_point{} && now > last_) {
      tokens_ =
          std::min(capacity_, tokens_ + std::chrono::duration<double>(now - last_).count() * perSecond_);
    }
    if (now > last_) last_ = now;
    if (tokens_ < 1.0) return false;
    tokens_ -= 1.0;
    return true;
  }

 private:
  double capacity_;
  double perSecond_;
  double tokens_;
  Clock::time_point last_{};
};

}  // namespace steerd::net
