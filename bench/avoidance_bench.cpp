// Micro-benches of the avoidance behaviours: obstacle avoidance (detection box), wall avoidance
// (three feelers), whiskers (ray casts with the corner fix) and collision avoidance (closest time
// of approach). The argument is how many obstacles / walls / other bodies each call sees; each call
// takes a different window of that many from a pool, as the world hands each agent the few its grid
// cells hold.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <span>
#include <vector>

#include "bench_common.h"
#include "steering/collision_avoidance.h"
#include "steering/obstacle_avoidance.h"
#include "steering/wall_avoidance.h"
#include "steering/whisker_avoidance.h"

namespace {

using steerbench::kPoolMask;
using steerbench::kPoolSize;

constexpr std::size_t kMaxWindow = 64;

struct Pools {
  std::vector<steer::Body> bodies = steerbench::makeBodies(kPoolSize, 11);
  std::vector<steer::CircleObstacle> obstacles = steerbench::makeObstacles(kPoolSize + kMaxWindow, 12);
  std::vector<steer::Kinematic> others = steerbench::makeKinematics(kPoolSize + kMaxWindow, 13);
};

const Pools& pools() {
  static const Pools p;
  return p;
}

std::size_t bodyIndex(std::size_t i) { return i & kPoolMask; }
std::size_t windowStart(std::size_t i) { return (i * 37 + 5) & kPoolMask; }

template <typename T>
std::span<const T> window(const std::vector<T>& pool, std::size_t i, std::size_t n) {
  return {pool.data() + windowStart(i), n};
}

std::size_t argCount(const benchmark::State& state) { return static_cast<std::size_t>(state.range(0)); }

void BM_ObstacleAvoidance(benchmark::State& state) {
  const Pools& p = pools();
  const std::size_t n = argCount(state);
  const steer::ObstacleAvoidanceParams params{.minDetectionLength = 3.0f};
  steerbench::cycle(state, [&](std::size_t i) {
    return steer::obstacleAvoidance(p.bodies[bodyIndex(i)], window(p.obstacles, i, n), params);
  });
}
BENCHMARK(BM_ObstacleAvoidance)->Arg(4)->Arg(32);

// Walls are the four sides of the pool's square plus random segments; every call sees all of them
// (walls near an agent do not vary as much as obstacles do), bodies vary.
void BM_WallAvoidance(benchmark::State& state) {
  const Pools& p = pools();
  const std::vector<steer::Wall> walls = steerbench::makeWalls(argCount(state), 14);
  const steer::WallAvoidanceParams params{.feelerLength = 4.0f};
  steerbench::cycle(
      state, [&](std::size_t i) { return steer::wallAvoidance(p.bodies[bodyIndex(i)], walls, params); });
}
BENCHMARK(BM_WallAvoidance)->Arg(4)->Arg(16);

// Three rays against `n` walls and `n` obstacles.
void BM_WhiskerAvoidance(benchmark::State& state) {
  const Pools& p = pools();
  const std::size_t n = argCount(state);
  const std::vector<steer::Wall> walls = steerbench::makeWalls(n, 15);
  const steer::WhiskerParams params{.rayLength = 4.0f};
  steerbench::cycle(state, [&](std::size_t i) {
    return steer::whiskerAvoidance(p.bodies[bodyIndex(i)], walls, window(p.obstacles, i, n), params);
  });
}
BENCHMARK(BM_WhiskerAvoidance)->Arg(4)->Arg(16);

void BM_CollisionAvoidance(benchmark::State& state) {
  const Pools& p = pools();
  const std::size_t n = argCount(state);
  steerbench::cycle(state, [&](std::size_t i) {
    return steer::collisionAvoidance(p.bodies[bodyIndex(i)], window(p.others, i, n));
  });
}
BENCHMARK(BM_CollisionAvoidance)->Arg(8)->Arg(32);

}  // namespace
