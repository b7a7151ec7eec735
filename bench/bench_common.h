// Shared fixtures for the steering micro-benches: pools of pre-generated random inputs.
//
// Every bench cycles through a pool (kPoolSize entries, a power of two) instead of calling a
// behaviour on one fixed body, so the compiler cannot hoist the work out of the timed loop and the
// branch predictor sees a realistic mix of cases. Pools are generated once, deterministically, with
// the library's own Rng.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "steering/body.h"
#include "steering/random.h"
#include "steering/vec2.h"
#include "steering/world_view.h"

namespace steerbench {

inline constexpr std::size_t kPoolSize = 1024;
inline constexpr std::size_t kPoolMask = kPoolSize - 1;
// Side of the square (m) the pools are scattered over: small enough that obstacles, walls and
// neighbours are often within reach of a body, as they are for the world's pre-filtered spans.
inline constexpr float kExtent = 24.0f;

inline float uniformIn(steer::Rng& rng, float lo, float hi) { return lo + (hi - lo) * rng.uniform(); }

inline steer::Vec2 randomPoint(steer::Rng& rng, float extent = kExtent) {
  const float x = uniformIn(rng, 0.0f, extent);
  const float y = uniformIn(rng, 0.0f, extent);
  return {x, y};
}

inline steer::Vec2 randomVelocity(steer::Rng& rng, float maxSpeed) {
  const float angle = uniformIn(rng, -steer::kPi, steer::kPi);
  const float speed = uniformIn(rng, 0.0f, maxSpeed);
  return steer::fromAngle(angle) * speed;
}

inline std::vector<steer::Body> makeBodies(std::size_t n, std::uint64_t seed) {
  steer::Rng rng(steer::mix64(seed));
  std::vector<steer::Body> bodies(n);
  for (steer::Body& b : bodies) {
    b.limits = {0.5f, 1.0f, 3.0f, 8.0f, 2.0f * steer::kPi};
    b.position = randomPoint(rng);
    b.velocity = randomVelocity(rng, b.limits.maxSpeed);
    b.heading = steer::normalizedOr(b.velocity, steer::fromAngle(uniformIn(rng, -steer::kPi, steer::kPi)));
    b.orientation = steer::toAngle(b.heading);
  }
  return bodies;
}

inline std::vector<steer::Kinematic> makeKinematics(std::size_t n, std::uint64_t seed) {
  std::vector<steer::Kinematic> out;
  out.reserve(n);
  for (const steer::Body& b : makeBodies(n, seed)) out.push_back(steer::kinematicOf(b));
  return out;
}

inline std::vector<steer::Vec2> makePoints(std::size_t n, std::uint64_t seed) {
  steer::Rng rng(steer::mix64(seed));
  std::vector<steer::Vec2> points(n);
  for (steer::Vec2& p : points) p = randomPoint(rng);
  return points;
}

inline std::vector<steer::CircleObstacle> makeObstacles(std::size_t n, std::uint64_t seed) {
  steer::Rng rng(steer::mix64(seed));
  std::vector<steer::CircleObstacle> obstacles(n);
  for (steer::CircleObstacle& o : obstacles) {
    o.center = randomPoint(rng);
    o.radius = uniformIn(rng, 0.5f, 2.0f);
  }
  return obstacles;
}

// The four sides of the kExtent square facing inwards, then random segments (each facing the
// side makeWall() gives it).
inline std::vector<steer::Wall> makeWalls(std::size_t n, std::uint64_t seed) {
  steer::Rng rng(steer::mix64(seed));
  std::vector<steer::Wall> walls;
  walls.reserve(n);
  const steer::Vec2 corners[4] = {{0, 0}, {kExtent, 0}, {kExtent, kExtent}, {0, kExtent}};
  for (std::size_t i = 0; i < 4 && walls.size() < n; ++i) {
    walls.push_back(steer::makeWall(corners[i], corners[(i + 1) % 4]));
  }
  while (walls.size() < n) {
    const steer::Vec2 from = randomPoint(rng);
    const steer::Vec2 to = from + steer::fromAngle(uniformIn(rng, -steer::kPi, steer::kPi)) * 4.0f;
    walls.push_back(steer::makeWall(from, to));
  }
  return walls;
}

// Runs fn(i) for i = 0, 1, 2, ... (the caller masks it into its pools), keeps each result alive,
// and reports one item per call.
template <typename Fn>
void cycle(benchmark::State& state, Fn&& fn) {
  std::size_t i = 0;
  for (auto _ : state) {
    auto out = fn(i);
    benchmark::DoNotOptimize(out);
    ++i;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

}  // namespace steerbench
