// Simulated network trouble for one direction of one player's traffic: each datagram is dropped
// with probability `loss`, or delayed by latency +- jitter (uniform, never below 0). The
// decisions come from a generator seeded by (seed, player, direction) alone, so the same seed
// drops the same datagrams of the same player in every run.
#pragma once

#include <chrono>
#include <cstdint>

namespace steerd::loadtest {

struct ImpairmentConfig {
  double loss = 0.0;       // probability, [0, 1]
  double latencyMs = 0.0;  // one way, added to each direction
  double jitterMs = 0.0;   // +- around latencyMs

  bool active() const { return loss > 0.0 || latencyMs > 0.0 || jitterMs > 0.0; }
};

enum class Direction : std::uint8_t { kToServer = 0, kToClient = 1 };

// SplitMix64: a small, fast generator whose output is fixed by its seed on every platform (the
// standard distributions are not).
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  double uniform();  // [0, 1), 53 bits
 private:
  std::uint64_t state_;
};

// A seed for stream `stream` of generator family `family` under the run's seed.
std::uint64_t mixSeed(std::uint64_t seed, std::uint64_t family, std::uint64_t stream);

class Impairment {
 public:
  struct Verdict {
    bool drop = false;
    std::chrono::nanoseconds delay{0};
  };

  Impairment(const ImpairmentConfig& config, std::uint64_t seed, std::uint64_t player, Direction direction);

  // The fate of the next datagram. Draws the same numbers whatever the config, so changing the
  // latency does not change which datagrams are dropped.
  Verdict next();

  const ImpairmentConfig& config() const { return config_; }

 private:
  ImpairmentConfig config_;
  SplitMix64 rng_;
};

}  // namespace steerd::loadtest
