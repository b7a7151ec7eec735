// Per-agent random streams. There is no shared generator anywhere: a stream is a pure function
// of (world seed, agent id, tick), so the same world comes out for any thread count and any order
// in which agents are processed.
#pragma once

#include <cstdint>

namespace steer {

// SplitMix64 finaliser (Steele, Lea, Flood 2014): a bijective mixer with full avalanche.
constexpr std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

class Rng {
 public:
  constexpr explicit Rng(std::uint64_t state) : state_(state) {}
  // The stream of one agent on one tick.
  static constexpr Rng forAgent(std::uint64_t worldSeed, std::uint64_t agentId, std::uint64_t tick) {
    return Rng(mix64(mix64(worldSeed ^ 0x9e3779b97f4a7c15ULL) ^ mix64(agentId + 0x632be59bd9b4e019ULL) ^
                     (tick * 0xd1b54a32d192ed03ULL)));
  }

  constexpr std::uint64_t nextU64() {
    state_ += 0x9e3779b97f4a7c15ULL;
    return mix64(state_);
  }
  // Uniform in [0, 1).
  constexpr float uniform() { return static_cast<float>(nextU64() >> 40) * (1.0f / 16777216.0f); }
  // Uniform in [-1, 1): Buckland's RandomClamped.
  constexpr float clamped() { return 2.0f * uniform() - 1.0f; }

 private:
  std::uint64_t state_;
};

}  // namespace steer
