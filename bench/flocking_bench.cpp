// Micro-benches of the group behaviours over an already-filtered neighbour span of 8 or 32 bodies
// (the world gathers neighbours with its grid; these time only the behaviour), plus the per-pair
// neighbourhood test the gathering applies. Each call takes a different window of the pool.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <span>
#include <vector>

#include "bench_common.h"
#include "steering/flocking.h"
#include "steering/neighbours.h"

namespace {

using steerbench::kPoolMask;
using steerbench::kPoolSize;

constexpr std::size_t kMaxNeighbours = 64;

struct Pools {
  std::vector<steer::Body> bodies = steerbench::makeBodies(kPoolSize, 21);
  std::vector<steer::Kinematic> others = steerbench::makeKinematics(kPoolSize + kMaxNeighbours, 22);
};

const Pools& pools() {
  static const Pools p;
  return p;
}

std::size_t bodyIndex(std::size_t i) { return i & kPoolMask; }

std::span<const steer::Kinematic> neighbours(const Pools& p, std::size_t i, std::size_t n) {
  return {p.others.data() + ((i * 37 + 5) & kPoolMask), n};
}

template <typename Behaviour>
void runGroup(benchmark::State& state, Behaviour&& behaviour) {
  const Pools& p = pools();
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  steerbench::cycle(state,
                    [&](std::size_t i) { return behaviour(p.bodies[bodyIndex(i)], neighbours(p, i, n)); });
}

void BM_Separation(benchmark::State& state) {
  runGroup(state, [](const steer::Body& b, std::span<const steer::Kinematic> ns) {
    return steer::separation(b, ns);
  });
}
BENCHMARK(BM_Separation)->Arg(8)->Arg(32);

void BM_SeparationInverseSquare(benchmark::State& state) {
  const steer::SeparationParams params{.falloff = steer::SeparationFalloff::kInverseSquare};
  runGroup(state, [&](const steer::Body& b, std::span<const steer::Kinematic> ns) {
    return steer::separation(b, ns, params);
  });
}
BENCHMARK(BM_SeparationInverseSquare)->Arg(8)->Arg(32);

void BM_Alignment(benchmark::State& state) {
  runGroup(state, [](const steer::Body& b, std::span<const steer::Kinematic> ns) {
    return steer::alignment(b, ns);
  });
}
BENCHMARK(BM_Alignment)->Arg(8)->Arg(32);

void BM_Cohesion(benchmark::State& state) {
  runGroup(state,
           [](const steer::Body& b, std::span<const steer::Kinematic> ns) { return steer::cohesion(b, ns); });
}
BENCHMARK(BM_Cohesion)->Arg(8)->Arg(32);

void BM_Flock(benchmark::State& state) {
  steer::FlockParams params;
  params.separationWeight = 2.0f;
  params.cohesionWeight = 0.5f;
  runGroup(state, [&](const steer::Body& b, std::span<const steer::Kinematic> ns) {
    return steer::flock(b, ns, params);
  });
}
BENCHMARK(BM_Flock)->Arg(8)->Arg(32);

void BM_KinematicFlock(benchmark::State& state) {
  steer::KinematicFlockParams params;
  params.minSpeed = 0.5f;
  params.maxSpeed = 3.0f;
  runGroup(state, [&](const steer::Body& b, std::span<const steer::Kinematic> ns) {
    return steer::kinematicFlock(b, ns, params);
  });
}
BENCHMARK(BM_KinematicFlock)->Arg(8)->Arg(32);

// The radius + field-of-view filter over n candidates (counts how many pass, so nothing is dead).
void BM_NeighbourFilter(benchmark::State& state) {
  const float cosHalfFov = steer::cosHalfFovFromDegrees(270.0f);
  runGroup(state, [&](const steer::Body& b, std::span<const steer::Kinematic> ns) {
    int count = 0;
    for (const steer::Kinematic& k : ns) count += steer::inNeighbourhood(b, k, 8.0f, cosHalfFov) ? 1 : 0;
    return count;
  });
}
BENCHMARK(BM_NeighbourFilter)->Arg(8)->Arg(32);

}  // namespace
