#include "loadtest/impairment.h"

#include <algorithm>
#include <cmath>

namespace steerd::loadtest {

std::uint64_t SplitMix64::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double SplitMix64::uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

std::uint64_t mixSeed(std::uint64_t seed, std::uint64_t family, std::uint64_t stream) {
  SplitMix64 a(seed ^ (family * 0xD1B54A32D192ED03ull));
  SplitMix64 b(a.next() ^ (stream * 0x8CB92BA72F3D8DD7ull));
  return b.next();
}

Impairment::Impairment(const ImpairmentConfig& config, std::uint64_t seed, std::uint64_t player,
                       Direction direction)
    : config_(config), rng_(mixSeed(seed, 1 + static_cast<std::uint64_t>(direction), player)) {}

Impairment::Verdict Impairment::next() {
  const double u = rng_.uniform();
  const double v = rng_.uniform();
  Verdict out;
  out.drop = u < config_.loss;
  double ms = config_.latencyMs + config_.jitterMs * (2.0 * v - 1.0);
  if (!std::isfinite(ms)) ms = 0.0;
  ms = std::clamp(ms, 0.0, 3.6e6);
  out.delay = std::chrono::nanoseconds(static_cast<std::int64_t>(std::llround(ms * 1e6)));
  return out;
}

}  // namespace steerd::loadtest
