// An archetype's lod_distances from a scenario file: three ascending distances, or the defaults.
#include <gtest/gtest.h>

#include <string>

#include "scenario_text.h"

namespace steerd {
namespace {

using namespace steerd::testing;

std::string walkers(const std::string& lod) {
  return R"(
name: "lod"
bounds { min { x: 0 y: 0 } max { x: 100 y: 100 } }
archetypes {
  name: "walker"
  limits { radius: 0.5 mass: 1 max_speed: 2 max_force: 5 }
  )" + lod +
         R"(
  behaviours { kind: WANDER }
}
spawns { archetype: "walker" count: 3 min { x: 10 y: 10 } max { x: 90 y: 90 } }
)";
}

TEST(LevelOfDetailFile, DistancesAreReadOrDefaulted) {
  ScenarioLoad given = load(walkers("lod_distances: [10, 20, 30]"));
  ASSERT_TRUE(given.world) << (given.errors.empty() ? "" : given.errors[0]);
  EXPECT_EQ(given.world->archetypes()[0].lodDistances[0], 10.0f);
  EXPECT_EQ(given.world->archetypes()[0].lodDistances[2], 30.0f);
  ScenarioLoad left = load(walkers(""));
  ASSERT_TRUE(left.world);
  EXPECT_EQ(left.world->archetypes()[0].lodDistances[1], Archetype{}.lodDistances[1]);
}

TEST(LevelOfDetailFile, BadDistancesAreRefused) {
  expectError(walkers("lod_distances: [10, 20]"), "lod_distances");
  expectError(walkers("lod_distances: [30, 20, 40]"), "in that order");
  expectError(walkers("lod_distances: [0, 20, 40]"), "lod_distances");
  expectError(walkers("lod_distances: [10, 20, inf]"), "lod_distances");
}

}  // namespace
}  // namespace steerd
