// Scenarios generated in code rather than read from a file: `crowd`, the benchmark crowd, whose
// size (--agents) shapes the world. The built-in `default` is a scenario file compiled into the
// binary (server/app/default_scenario.h). Also the spawning helpers scenario files use.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "steering/random.h"
#include "world/world.h"

namespace steerd {

struct ScenarioOptions {
  ScenarioOptions() = default;
  ScenarioOptions(std::uint64_t seed_, unsigned threads_, std::size_t agents_, std::string navCacheDir_ = {})
      : seed(seed_), threads(threads_), agents(agents_), navCacheDir(std::move(navCacheDir_)) {}
  std::uint64_t seed = 1;
  unsigned threads = 1;
  std::size_t agents = 0;   // 0: the scenario's own size; crowd: exact; a file: tiled to about this many
  std::string navCacheDir;  // where built navmeshes are cached (empty: build every time)
  // A level file run directly (steerd --level; server/scenario/scenario_level.h): what the file
  // cannot say. 0 and empty: the defaults.
  float levelScale = 0.0f;
  std::string levelUp, levelWalkable, levelBlocking;
  float levelMetresPerTile = 0.0f;
};

// Spawning helpers, shared with scenario files. `g` must be indexed (a World's geometry is).
bool insideObstacle(const StaticGeometry& g, steer::Vec2 p, float pad);
// The nearest point to `p` (searching outwards in rings 1 m apart) where a body of radius `pad`
// is inside the bounds, clear of every obstacle and wall, and in front of the nearest one-sided
// wall (not inside a building, not outside a pen); `p` itself if nothing is found.
steer::Vec2 freeSpotNear(const StaticGeometry& g, steer::Vec2 p, float pad);
// `count` points on a jittered lattice filling the box [lo, hi], re-drawn (a few times, within their
// lattice cell) when they fall within `pad` of an obstacle.
std::vector<steer::Vec2> latticePoints(const StaticGeometry& g, steer::Rng& rng, std::size_t count,
                                       steer::Vec2 lo, steer::Vec2 hi, float pad);
steer::Vec2 randomVelocity(steer::Rng& rng, float speed);

// Names accepted by makeScenario() (the generated ones; see scenarioNames() for all built-ins).
std::vector<std::string> builtinScenarioNames();

// Builds a world; nullptr when `name` is not a built-in scenario.
std::unique_ptr<World> makeScenario(std::string_view name, const ScenarioOptions& options);

// crowd: `agents` boids (default 10,000) with flocking (separation all round; alignment and
// cohesion in a 270-degree field of view) + wander + obstacle avoidance, at about one agent per
// 25 m^2 in a square world dotted with circle obstacles.
std::unique_ptr<World> makeCrowdScenario(const ScenarioOptions& options);

}  // namespace steerd
