// Micro-benches of the single-target behaviours: seek, flee, arrive, pursue, evade, offset
// pursuit, interpose, hide, wander and path following. One call per item; inputs cycle through
// pools of pre-generated bodies (bench_common.h).
#include <benchmark/benchmark.h>

#include <vector>

#include "bench_common.h"
#include "steering/arrive.h"
#include "steering/hide.h"
#include "steering/interpose.h"
#include "steering/offset_pursuit.h"
#include "steering/path_following.h"
#include "steering/pursue.h"
#include "steering/seek.h"
#include "steering/wander.h"

namespace {

using steerbench::kPoolMask;
using steerbench::kPoolSize;

struct Pools {
  std::vector<steer::Body> bodies = steerbench::makeBodies(kPoolSize, 1);
  std::vector<steer::Kinematic> others = steerbench::makeKinematics(kPoolSize, 2);
  std::vector<steer::Vec2> targets = steerbench::makePoints(kPoolSize, 3);
  std::vector<steer::CircleObstacle> obstacles = steerbench::makeObstacles(8, 4);
};

const Pools& pools() {
  static const Pools p;
  return p;
}

// Indices into two pools that do not move in lockstep, so pairs vary too.
std::size_t a(std::size_t i) { return i & kPoolMask; }
std::size_t b(std::size_t i) { return (i * 7 + 13) & kPoolMask; }
std::size_t c(std::size_t i) { return (i * 31 + 101) & kPoolMask; }

void BM_Seek(benchmark::State& state) {
  const Pools& p = pools();
  steerbench::cycle(state, [&](std::size_t i) { return steer::seek(p.bodies[a(i)], p.targets[b(i)]); });
}
BENCHMARK(BM_Seek);

void BM_Flee(benchmark::State& state) {
  const Pools& p = pools();
  const steer::FleeParams params{.panicDistance = 10.0f};
  steerbench::cycle(state,
                    [&](std::size_t i) { return steer::flee(p.bodies[a(i)], p.targets[b(i)], params); });
}
BENCHMARK(BM_Flee);

void BM_Arrive(benchmark::State& state) {
  const Pools& p = pools();
  steerbench::cycle(state, [&](std::size_t i) { return steer::arrive(p.bodies[a(i)], p.targets[b(i)]); });
}
BENCHMARK(BM_Arrive);

void BM_ArriveMillington(benchmark::State& state) {
  const Pools& p = pools();
  steerbench::cycle(state,
                    [&](std::size_t i) { return steer::arriveMillington(p.bodies[a(i)], p.targets[b(i)]); });
}
BENCHMARK(BM_ArriveMillington);

void BM_Pursue(benchmark::State& state) {
  const Pools& p = pools();
  const steer::PursueParams params{.maxPrediction = 2.0f};
  steerbench::cycle(state,
                    [&](std::size_t i) { return steer::pursue(p.bodies[a(i)], p.others[b(i)], params); });
}
BENCHMARK(BM_Pursue);

void BM_Evade(benchmark::State& state) {
  const Pools& p = pools();
  const steer::EvadeParams params{.maxPrediction = 2.0f, .threatRange = 12.0f};
  steerbench::cycle(state,
                    [&](std::size_t i) { return steer::evade(p.bodies[a(i)], p.others[b(i)], params); });
}
BENCHMARK(BM_Evade);

void BM_OffsetPursuit(benchmark::State& state) {
  const Pools& p = pools();
  const steer::Vec2 offsets[4] = {{-2.0f, 1.5f}, {-2.0f, -1.5f}, {-4.0f, 3.0f}, {-4.0f, -3.0f}};
  steerbench::cycle(state, [&](std::size_t i) {
    return steer::offsetPursuit(p.bodies[a(i)], p.others[b(i)], offsets[i & 3]);
  });
}
BENCHMARK(BM_OffsetPursuit);

void BM_Interpose(benchmark::State& state) {
  const Pools& p = pools();
  steerbench::cycle(
      state, [&](std::size_t i) { return steer::interpose(p.bodies[a(i)], p.others[b(i)], p.others[c(i)]); });
}
BENCHMARK(BM_Interpose);

// Nearest hiding spot among 8 obstacles, then arrive.
void BM_Hide(benchmark::State& state) {
  const Pools& p = pools();
  steerbench::cycle(state,
                    [&](std::size_t i) { return steer::hide(p.bodies[a(i)], p.others[b(i)], p.obstacles); });
}
BENCHMARK(BM_Hide);

// Reynolds' wander with per-body memory (target and random stream) carried from call to call.
void BM_Wander(benchmark::State& state) {
  const Pools& p = pools();
  std::vector<steer::Rng> rngs;
  std::vector<steer::Vec2> wanderTargets;
  rngs.reserve(kPoolSize);
  wanderTargets.reserve(kPoolSize);
  for (std::size_t k = 0; k < kPoolSize; ++k) {
    rngs.push_back(steer::Rng::forAgent(1, k, 0));
    wanderTargets.push_back(steer::initialWanderTarget(rngs.back(), 1.2f));
  }
  const float dt = 1.0f / 30.0f;
  steerbench::cycle(state, [&](std::size_t i) {
    const std::size_t k = a(i);
    const steer::WanderResult r = steer::wander(p.bodies[k], wanderTargets[k], dt, rngs[k]);
    wanderTargets[k] = r.target;
    return r.steering;
  });
}
BENCHMARK(BM_Wander);

void BM_WanderJittery(benchmark::State& state) {
  const Pools& p = pools();
  steer::Rng rng(42);
  steerbench::cycle(state, [&](std::size_t i) { return steer::wanderJittery(p.bodies[a(i)], rng); });
}
BENCHMARK(BM_WanderJittery);

// A looped 16-point path round the pool's square, with per-body waypoint indices carried along.
// The bodies do not move, so most calls seek; a body near a waypoint advances.
void BM_FollowPath(benchmark::State& state) {
  const Pools& p = pools();
  std::vector<steer::Vec2> points;
  for (int k = 0; k < 16; ++k) {
    const float angle = 2.0f * steer::kPi * static_cast<float>(k) / 16.0f;
    points.push_back(steer::Vec2{12.0f, 12.0f} + steer::fromAngle(angle) * 9.0f);
  }
  const steer::PathView path{points, true};
  std::vector<int> indices(kPoolSize);
  for (std::size_t k = 0; k < kPoolSize; ++k) {
    indices[k] = steer::closestWaypointIndex(path, p.bodies[k].position);
  }
  const steer::PathFollowParams params{.seekDistance = 2.0f};
  steerbench::cycle(state, [&](std::size_t i) {
    const std::size_t k = a(i);
    const steer::PathFollowResult r = steer::followPath(p.bodies[k], path, indices[k], params);
    indices[k] = r.index;
    return r.steering;
  });
}
BENCHMARK(BM_FollowPath);

// Finding where to join a path: one segment scan per call.
void BM_ClosestWaypoint(benchmark::State& state) {
  const Pools& p = pools();
  std::vector<steer::Vec2> points = steerbench::makePoints(16, 5);
  const steer::PathView path{points, true};
  steerbench::cycle(
      state, [&](std::size_t i) { return steer::closestWaypointIndex(path, p.bodies[a(i)].position); });
}
BENCHMARK(BM_ClosestWaypoint);

}  // namespace
