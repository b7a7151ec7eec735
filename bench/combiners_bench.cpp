// Micro-benches of the five combiners over five behaviours, in four forms:
//   weighted    WeightedBehaviour with outputs taken from a pool: the combiner's own cost.
//   lazy        LazyBehaviour whose callables return the same pooled outputs: the combiner plus
//               its indirect calls.
//   eager_real  five real behaviours (obstacle and wall avoidance, separation, cohesion, seek)
//               all evaluated, then combined as WeightedBehaviour: what a caller pays without laziness.
//   lazy_real   the same five as LazyBehaviour: the early-out combiners skip what they do not need.
// Pooled outputs mimic a crowd agent: the avoidance-like first behaviour is non-zero a quarter of
// the time, the second half the time, the rest always; so priority-based combiners stop at varying
// depths. Names: BM_Combine/<combiner>/<form>.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bench_common.h"
#include "steering/combiners.h"
#include "steering/flocking.h"
#include "steering/obstacle_avoidance.h"
#include "steering/seek.h"
#include "steering/wall_avoidance.h"

namespace {

using steerbench::kPoolMask;
using steerbench::kPoolSize;

constexpr std::size_t kBehaviours = 5;
using OutputSet = std::array<steer::SteeringOutput, kBehaviours>;

enum class Combiner { kWeightedBlend, kPrioritised, kRunningSum, kDithered, kPriorityGroups };

struct Pools {
  std::vector<OutputSet> outputs;
  std::vector<steer::Body> bodies = steerbench::makeBodies(kPoolSize, 31);
  std::vector<steer::Vec2> targets = steerbench::makePoints(kPoolSize, 32);
  std::vector<steer::CircleObstacle> obstacles = steerbench::makeObstacles(kPoolSize + 8, 33);
  std::vector<steer::Kinematic> others = steerbench::makeKinematics(kPoolSize + 8, 34);
  std::vector<steer::Wall> walls = steerbench::makeWalls(4, 35);

  Pools() {
    steer::Rng rng(steer::mix64(30));
    const float chanceNonZero[kBehaviours] = {0.25f, 0.5f, 1.0f, 1.0f, 1.0f};
    outputs.resize(kPoolSize);
    for (OutputSet& set : outputs) {
      for (std::size_t b = 0; b < kBehaviours; ++b) {
        const bool on = rng.uniform() < chanceNonZero[b];
        const steer::Vec2 v = steerbench::randomVelocity(rng, 6.0f);
        const float angular = steerbench::uniformIn(rng, -1.0f, 1.0f);
        set[b] = on ? steer::SteeringOutput{v, angular} : steer::SteeringOutput{};
      }
    }
  }
};

const Pools& pools() {
  static const Pools p;
  return p;
}

// Priorities: one group each, except priorityGroups, which gets groups {0, 1} {2, 3} {4}.
constexpr int priorityOf(Combiner c, std::size_t b) {
  return c == Combiner::kPriorityGroups ? static_cast<int>(b / 2) : static_cast<int>(b);
}
constexpr float kWeights[kBehaviours] = {4.0f, 2.0f, 1.0f, 0.5f, 1.0f};
constexpr float kProbabilities[kBehaviours] = {0.9f, 0.8f, 0.5f, 0.5f, 1.0f};
const steer::CombineLimits kLimits{8.0f, 4.0f * steer::kPi, steer::kEpsilon};

template <Combiner C, typename B>
steer::SteeringOutput combine(std::span<const B> behaviours, steer::Rng& rng) {
  if constexpr (C == Combiner::kWeightedBlend) return steer::weightedBlend(behaviours, kLimits);
  if constexpr (C == Combiner::kPrioritised) return steer::prioritised(behaviours, kLimits);
  if constexpr (C == Combiner::kRunningSum) return steer::runningSum(behaviours, kLimits);
  if constexpr (C == Combiner::kDithered) return steer::dithered(behaviours, kLimits, rng);
  if constexpr (C == Combiner::kPriorityGroups) return steer::priorityGroups(behaviours, kLimits);
}

template <Combiner C>
std::array<steer::WeightedBehaviour, kBehaviours> weighted(const OutputSet& outputs) {
  std::array<steer::WeightedBehaviour, kBehaviours> out;
  for (std::size_t b = 0; b < kBehaviours; ++b) {
    out[b] = {outputs[b], kWeights[b], priorityOf(C, b), kProbabilities[b]};
  }
  return out;
}

template <Combiner C>
void BM_Weighted(benchmark::State& state) {
  const Pools& p = pools();
  steer::Rng rng(1);
  steerbench::cycle(state, [&](std::size_t i) {
    const auto behaviours = weighted<C>(p.outputs[i & kPoolMask]);
    return combine<C>(std::span<const steer::WeightedBehaviour>(behaviours), rng);
  });
}

template <Combiner C>
void BM_LazyPooled(benchmark::State& state) {
  const Pools& p = pools();
  steer::Rng rng(1);
  std::size_t k = 0;
  auto b0 = [&] { return p.outputs[k][0]; };
  auto b1 = [&] { return p.outputs[k][1]; };
  auto b2 = [&] { return p.outputs[k][2]; };
  auto b3 = [&] { return p.outputs[k][3]; };
  auto b4 = [&] { return p.outputs[k][4]; };
  const std::array<steer::LazyBehaviour, kBehaviours> behaviours = {{
      {b0, kWeights[0], priorityOf(C, 0), kProbabilities[0]},
      {b1, kWeights[1], priorityOf(C, 1), kProbabilities[1]},
      {b2, kWeights[2], priorityOf(C, 2), kProbabilities[2]},
      {b3, kWeights[3], priorityOf(C, 3), kProbabilities[3]},
      {b4, kWeights[4], priorityOf(C, 4), kProbabilities[4]},
  }};
  steerbench::cycle(state, [&](std::size_t i) {
    k = i & kPoolMask;
    return combine<C>(std::span<const steer::LazyBehaviour>(behaviours), rng);
  });
}

// The five real behaviours for call i, as callables over (body, its windows of the pools).
struct RealBehaviours {
  const Pools& p;
  std::size_t body = 0;
  std::size_t window = 0;

  const steer::Body& b() const { return p.bodies[body]; }
  std::span<const steer::CircleObstacle> obstacles() const { return {p.obstacles.data() + window, 4}; }
  std::span<const steer::Kinematic> neighbours() const { return {p.others.data() + window, 8}; }

  void select(std::size_t i) {
    body = i & kPoolMask;
    window = (i * 37 + 5) & kPoolMask;
  }
  steer::SteeringOutput avoidObstacles() const {
    return steer::obstacleAvoidance(b(), obstacles(), {.minDetectionLength = 3.0f});
  }
  steer::SteeringOutput avoidWalls() const {
    return steer::wallAvoidance(b(), p.walls, {.feelerLength = 3.0f});
  }
  steer::SteeringOutput separate() const { return steer::separation(b(), neighbours()); }
  steer::SteeringOutput cohere() const { return steer::cohesion(b(), neighbours()); }
  steer::SteeringOutput seekTarget() const { return steer::seek(b(), p.targets[window]); }
};

template <Combiner C>
void BM_EagerReal(benchmark::State& state) {
  RealBehaviours real{pools()};
  steer::Rng rng(1);
  steerbench::cycle(state, [&](std::size_t i) {
    real.select(i);
    const OutputSet outputs = {real.avoidObstacles(), real.avoidWalls(), real.separate(), real.cohere(),
                               real.seekTarget()};
    const auto behaviours = weighted<C>(outputs);
    return combine<C>(std::span<const steer::WeightedBehaviour>(behaviours), rng);
  });
}

template <Combiner C>
void BM_LazyReal(benchmark::State& state) {
  RealBehaviours real{pools()};
  steer::Rng rng(1);
  auto b0 = [&] { return real.avoidObstacles(); };
  auto b1 = [&] { return real.avoidWalls(); };
  auto b2 = [&] { return real.separate(); };
  auto b3 = [&] { return real.cohere(); };
  auto b4 = [&] { return real.seekTarget(); };
  const std::array<steer::LazyBehaviour, kBehaviours> behaviours = {{
      {b0, kWeights[0], priorityOf(C, 0), kProbabilities[0]},
      {b1, kWeights[1], priorityOf(C, 1), kProbabilities[1]},
      {b2, kWeights[2], priorityOf(C, 2), kProbabilities[2]},
      {b3, kWeights[3], priorityOf(C, 3), kProbabilities[3]},
      {b4, kWeights[4], priorityOf(C, 4), kProbabilities[4]},
  }};
  steerbench::cycle(state, [&](std::size_t i) {
    real.select(i);
    return combine<C>(std::span<const steer::LazyBehaviour>(behaviours), rng);
  });
}

template <Combiner C>
void registerCombiner(const std::string& name) {
  const std::string prefix = "BM_Combine/" + name + "/";
  benchmark::RegisterBenchmark((prefix + "weighted").c_str(), BM_Weighted<C>);
  benchmark::RegisterBenchmark((prefix + "lazy").c_str(), BM_LazyPooled<C>);
  benchmark::RegisterBenchmark((prefix + "eager_real").c_str(), BM_EagerReal<C>);
  benchmark::RegisterBenchmark((prefix + "lazy_real").c_str(), BM_LazyReal<C>);
}

[[maybe_unused]] const bool kRegistered = [] {
  registerCombiner<Combiner::kWeightedBlend>("weightedBlend");
  registerCombiner<Combiner::kPrioritised>("prioritised");
  registerCombiner<Combiner::kRunningSum>("runningSum");
  registerCombiner<Combiner::kDithered>("dithered");
  registerCombiner<Combiner::kPriorityGroups>("priorityGroups");
  return true;
}();

}  // namespace
