// A token bucket: holds up to `capacity` tokens, gains `perSecond` a second, and each take()
// spends one when there is one. What the server answers on request (scene parts) goes through
// one per client, so a request cannot make the server send more than that rate.
#pragma once

#include <algorithm>
#include <cstdint>

namespace steerd::net {

class TokenBucket {
 public:
  TokenBucket(double capacity, double perSecond)
      : capacity_(capacity), perSecond_(perSecond), tokens_(capacity) {}

  // Spends a token at `nowNs` (a steady clock, ns; the caller's, so tests use made-up time); false
  // (nothing spent) when the bucket is empty.
  bool take(std::int64_t nowNs) {
    if (started_ && nowNs > lastNs_) {
      tokens_ = std::min(capacity_, tokens_ + static_cast<double>(nowNs - lastNs_) / 1e9 * perSecond_);
    }
    if (!started_ || nowNs > lastNs_) lastNs_ = nowNs;
    started_ = true;
    if (tokens_ < 1.0) return false;
    tokens_ -= 1.0;
    return true;
  }

 private:
  double capacity_;
  double perSecond_;
  double tokens_;
  std::int64_t lastNs_ = 0;
  bool started_ = false;
};

}  // namespace steerd::net
