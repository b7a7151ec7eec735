// The built-in default is the shipped file compiled in; --agents repeats a file's world side by
// side; a file may name the built-in "player" without defining it; spawn groups that share ground
// do not start bodies on top of each other.
#include "scenario/scenario_tile.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "scenario/default_scenario.h"
#include "scenario/scenario_file.h"
#include "scenario_text.h"

namespace steerd {
namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

using steerd::testing::mentions;

std::uint64_t hashAfter(ScenarioLoad load, int ticks) {
  EXPECT_TRUE(load.errors.empty()) << (load.errors.empty() ? "" : load.errors.front());
  if (!load.world) return 0;
  for (int i = 0; i < ticks; ++i) load.world->step();
  return load.world->stateHash();
}

TEST(DefaultScenario, TheCompiledInTextIsTheShippedFile) {
  EXPECT_EQ(std::string(defaultScenarioText()), readFile(STEERD_SCENARIOS_DIR "/default.txtpb"));
}

TEST(DefaultScenario, ByNameAndByPathGiveTheSameWorld) {
  const ScenarioOptions o{3, 2, 0};
  EXPECT_EQ(hashAfter(openScenario("default", o), 60),
            hashAfter(openScenario(STEERD_SCENARIOS_DIR "/default.txtpb", o), 60));
}

TEST(DefaultScenario, ChecksLikeAnyFile) {
  const ScenarioLoad r = loadScenarioFile("default", {}, false);
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(r.world, nullptr);
  EXPECT_NE(r.summary.find("344 agents"), std::string::npos) << r.summary;
}

TEST(Tiling, CopiesNeededForAboutTheAgentsAskedFor) {
  EXPECT_EQ(tilesFor(0, 344), 1u);    // not asked
  EXPECT_EQ(tilesFor(100, 344), 1u);  // fewer than the file: the file as it is
  EXPECT_EQ(tilesFor(3440, 344), 10u);
  EXPECT_EQ(tilesFor(3600, 344), 10u);  // nearest
  EXPECT_EQ(tilesFor(10, 0), 1u);
}

TEST(Tiling, DefaultRepeatsItsDistrictWithItsOwnRoutes) {
  const ScenarioLoad r = openScenario("default", {1, 1, 4 * 344});
  ASSERT_TRUE(r.errors.empty()) << r.errors.front();
  const World& w = *r.world;
  EXPECT_EQ(w.agentCount(), 4u * 344u);
  EXPECT_FLOAT_EQ(w.geometry().bounds.maxX, 480.0f);
  EXPECT_FLOAT_EQ(w.geometry().bounds.maxY, 480.0f);
  EXPECT_EQ(w.geometry().obstacles.size(), 4u * 28u);
  ASSERT_EQ(w.geometry().paths.size(), 8u);
  // Each copy's patrol route is the first one moved by whole districts.
  const auto& first = w.geometry().paths[0].points;
  const auto& fourth = w.geometry().paths[6].points;
  ASSERT_EQ(first.size(), fourth.size());
  EXPECT_FLOAT_EQ(fourth[0].x - first[0].x, 240.0f);
  EXPECT_FLOAT_EQ(fourth[0].y - first[0].y, 240.0f);
  EXPECT_NE(r.summary.find("4 copies"), std::string::npos) << r.summary;
}

TEST(Tiling, ATiledWorldIsTheSameForAnyThreadCount) {
  EXPECT_EQ(hashAfter(openScenario("default", {5, 1, 1400}), 60),
            hashAfter(openScenario("default", {5, 3, 1400}), 60));
}

TEST(Tiling, AFileWhoseBehavioursNameOneWaypointIsRefused) {
  const ScenarioLoad r = openScenario(STEERD_SCENARIOS_DIR "/ranch.txtpb", {1, 1, 500});
  EXPECT_EQ(r.world, nullptr);
  EXPECT_TRUE(mentions(r.errors, "(\"cow\").behaviours[7].waypoint", "--agents")) << r.errors.size();
  EXPECT_TRUE(mentions(r.errors, "(\"cowboy\").behaviours[3].path", "\"ring\""));
  // Its groups would be shared by every copy: the boss's centroid target and its fetch orders.
  EXPECT_TRUE(mentions(r.errors, ".target", "GROUP_CENTROID would be one for all the copies"));
  EXPECT_TRUE(mentions(r.errors, ".orders", "fetch orders go by archetype"));
}

TEST(Tiling, MoreCopiesThanTheLimitsAllowAreRefused) {
  const ScenarioLoad r = openScenario("default", {1, 1, 4'000'000});
  EXPECT_EQ(r.world, nullptr);
  EXPECT_TRUE(mentions(r.errors, "--agents", "more than the limits"));
}

const std::string kNavYard = R"(
name: "nav-yard"
bounds { min { x: 0 y: 0 } max { x: 40 y: 30 } }
boxes { center { x: 20 y: 15 } half_size { x: 3 y: 3 } }
navmesh { cell_size: 0.5 }
archetypes {
  name: "walker"
  limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 6 }
  behaviours { kind: NAVIGATE }
}
spawns { archetype: "walker" count: 10 min { x: 2 y: 2 } max { x: 10 y: 28 } }
)";

TEST(Tiling, ANavmeshCoversEveryCopy) {
  const ScenarioLoad r = loadScenarioText(kNavYard, "nav-yard.txtpb", {1, 1, 40, ""}, true);
  ASSERT_TRUE(r.errors.empty()) << r.errors.front();
  const World& w = *r.world;
  ASSERT_NE(w.geometry().navMesh, nullptr);
  EXPECT_EQ(w.agentCount(), 40u);
  // Inside each copy's box there is no ground; beside it there is.
  for (const steer::Vec2 origin : {steer::Vec2{0, 0}, {40, 0}, {0, 30}, {40, 30}}) {
    EXPECT_FALSE(w.geometry().navMesh->nearest(origin + steer::Vec2{20, 15}, 0.05f));
    EXPECT_TRUE(w.geometry().navMesh->nearest(origin + steer::Vec2{10, 15}, 0.05f));
  }
}

TEST(BuiltinPlayer, AFileMayTargetPlayersWithoutDefiningThem) {
  const std::string text = R"(
name: "p"
bounds { min { x: 0 y: 0 } max { x: 50 y: 50 } }
archetypes {
  name: "guard"
  limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 6 }
  behaviours { kind: PURSUE_NEAREST target_archetype: "player" range: 20 }
}
spawns { archetype: "guard" count: 3 min { x: 5 y: 5 } max { x: 10 y: 10 } }
)";
  const ScenarioLoad r = loadScenarioText(text, "p.txtpb", {}, true);
  ASSERT_TRUE(r.errors.empty()) << r.errors.front();
  const std::int32_t player = r.world->archetypeIndex("player");
  ASSERT_GE(player, 0);
  EXPECT_EQ(r.world->archetypes()[0].behaviours[0].targetArchetype, player);
}

TEST(BuiltinPlayer, TheBuiltInPlayerCannotHaveABrain) {
  const std::string text = R"(
name: "p"
bounds { min { x: 0 y: 0 } max { x: 50 y: 50 } }
archetypes { name: "guard" limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 6 } }
brains { archetype: "player" initial_state: "s" states { name: "s" } }
)";
  const ScenarioLoad r = loadScenarioText(text, "p.txtpb", {}, true);
  EXPECT_EQ(r.world, nullptr);
  EXPECT_TRUE(mentions(r.errors, "brains[0].archetype", "built-in archetype of connected clients"));
}

TEST(Spawns, GroupsSharingGroundDoNotStartOnTopOfEachOther) {
  const std::string text = R"(
name: "s"
bounds { min { x: 0 y: 0 } max { x: 50 y: 50 } }
archetypes { name: "a" limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 6 } }
archetypes { name: "b" limits { radius: 0.9 mass: 1 max_speed: 3 max_force: 6 } }
spawns { archetype: "a" count: 20 min { x: 10 y: 10 } max { x: 30 y: 30 } }
spawns { archetype: "b" count: 20 min { x: 10 y: 10 } max { x: 30 y: 30 } }
spawns { archetype: "a" count: 20 min { x: 10 y: 10 } max { x: 30 y: 30 } }
)";
  const ScenarioLoad r = loadScenarioText(text, "s.txtpb", {}, true);
  ASSERT_TRUE(r.errors.empty()) << r.errors.front();
  const auto& a = r.world->agents();
  ASSERT_EQ(a.size(), 60u);
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = i + 1; j < a.size(); ++j) {
      const float ri = r.world->archetypes()[a.archetype[i]].limits.radius;
      const float rj = r.world->archetypes()[a.archetype[j]].limits.radius;
      EXPECT_GE(std::hypot(a.px[i] - a.px[j], a.py[i] - a.py[j]), ri + rj) << i << " " << j;
    }
  }
}

}  // namespace
}  // namespace steerd
