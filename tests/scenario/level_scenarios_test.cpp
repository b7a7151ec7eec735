// The sample levels (scenarios/level-*.txtpb over scenarios/levels/, made by
// scripts/make-sample-levels.py): walkers reach goals across a game's own level, nobody ends in a
// wall or off the walkable area, and the world is the same for any thread count.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>

#include "analysis/motion_quality.h"
#include "scenario/scenario_file.h"

namespace steerd {
namespace {

std::unique_ptr<World> level(const std::string& name, unsigned threads = 2, std::uint64_t seed = 1) {
  ScenarioLoad load =
      loadScenarioFile(std::string(STEERD_SCENARIOS_DIR) + "/" + name, {seed, threads, 0}, true);
  EXPECT_TRUE(load.errors.empty()) << load.errors[0];
  return std::move(load.world);
}

// Agents farther than their radius from the navmesh: off the level's walkable ground.
std::size_t offTheLevel(const World& w) {
  std::size_t off = 0;
  const AgentColumns& a = w.agents();
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!w.geometry().navMesh->nearest({a.px[i], a.py[i]}, a.radius[i] + 0.1f)) ++off;
  return off;
}

struct Outcome {
  std::uint64_t goals = 0;
  MotionQuality quality;
  std::size_t off = 0;
};

Outcome run(World& w, int seconds, const std::function<void(const World&)>& each = {}) {
  MotionQualityMonitor monitor(w.config().dt);
  for (int t = 0; t < seconds * 30; ++t) {
    w.step();
    monitor.observe(w);
    if (each) each(w);
  }
  Outcome o{w.navigation()->stats().goalsReached, monitor.summary(), offTheLevel(w)};
  std::printf("goals %llu, inside at worst %llu, stuck at worst %llu, off %zu\n",
              static_cast<unsigned long long>(o.goals),
              static_cast<unsigned long long>(o.quality.insideObstacleMax),
              static_cast<unsigned long long>(o.quality.stuckMax), o.off);
  return o;
}

// The glTF town: walkers cross the river by the bridge and climb the road to the terrace 3 m up.
TEST(LevelScenario, TownWalkersCrossTheBridgeAndClimbToTheTerrace) {
  auto w = level("level-town.txtpb");
  ASSERT_NE(w, nullptr);
  ASSERT_TRUE(w->geometry().navMesh->sloped());
  const AgentColumns& start = w->agents();
  std::vector<std::uint8_t> sides(start.size(), 0);  // bit 0: west of the river, bit 1: east of it
  std::vector<float> highest(start.size(), 0.0f);
  const Outcome o = run(*w, 60, [&](const World& now) {
    const AgentColumns& a = now.agents();
    for (std::size_t i = 0; i < a.size() && i < sides.size(); ++i) {
      const std::uint32_t id = a.id[i];
      if (id >= sides.size()) continue;
      if (a.px[i] < 37.0f) sides[id] |= 1;
      if (a.px[i] > 43.0f) sides[id] |= 2;
      const nav::NavPoint on = now.geometry().navMesh->nearest({a.px[i], a.py[i]}, 1.0f);
      if (on) highest[id] = std::max(highest[id], on.height);
    }
  });
  int crossed = 0, climbed = 0;
  for (std::size_t i = 0; i < sides.size(); ++i) {
    crossed += sides[i] == 3;
    climbed += highest[i] > 2.8f;
  }
  std::printf("town: %d walkers crossed the river, %d stood on the terrace\n", crossed, climbed);
  EXPECT_GT(o.goals, 200u);  // measured 338 (seed 1)
  EXPECT_GT(crossed, 30);    // measured 60 walkers (190 crossings at the bridge)
  EXPECT_GT(climbed, 60);
  EXPECT_EQ(o.quality.insideObstacleFinal, 0u);
  EXPECT_EQ(o.off, 0u);
  EXPECT_LE(o.quality.stuckMax, 8u);
}

// The OBJ building: walkers go room to room through 1.6 m doors.
TEST(LevelScenario, BuildingWalkersGoRoomToRoom) {
  auto w = level("level-building.txtpb");
  ASSERT_NE(w, nullptr);
  const Outcome o = run(*w, 60);
  EXPECT_GT(o.goals, 40u);  // measured 68 (seed 1)
  EXPECT_EQ(o.quality.insideObstacleFinal, 0u);
  EXPECT_EQ(o.off, 0u);
  EXPECT_EQ(w->navigation()->stats().failed, 0u);
}

// The Tiled yard: the map's spawn points place the walkers, its tiles' collision shapes block.
TEST(LevelScenario, YardWalkersSpawnFromTheMapAndPassTheGate) {
  auto w = level("level-yard.txtpb");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->agentCount(), 80u);  // two spawn objects of 40
  const Outcome o = run(*w, 60);
  EXPECT_GT(o.goals, 120u);  // measured 196 (seed 1)
  EXPECT_EQ(o.quality.insideObstacleFinal, 0u);
  EXPECT_EQ(o.off, 0u);
}

// More walkers than the town's ground holds apart: they start crowded on the ground, never in the
// void between its parts (the spawn's last resort once was "the nearest ground within 20 m").
TEST(LevelScenario, AnOverpackedLevelStillSpawnsEveryoneOnItsGround) {
  LevelRunOptions run;
  run.agents = 4000;
  run.blocking = "house*";
  ScenarioLoad load =
      loadLevelFile(std::string(STEERD_SCENARIOS_DIR) + "/levels/town.gltf", run, {1, 2, 4000}, true);
  ASSERT_TRUE(load.world) << (load.errors.empty() ? "" : load.errors[0]);
  EXPECT_EQ(load.world->agentCount(), 4000u);
  EXPECT_EQ(offTheLevel(*load.world), 0u);
  for (int t = 0; t < 150; ++t) load.world->step();
  EXPECT_EQ(offTheLevel(*load.world), 0u);
}

// The level { } block's settings: out of range or NaN is an error naming the field; a setting for
// the other kind of file is a warning; a missing or unknown file is an error naming it.
TEST(LevelScenario, BadLevelSettingsAndFilesAreRefusedNamingThem) {
  const std::string levels = std::string(STEERD_SCENARIOS_DIR) + "/levels";
  const auto check = [&](const std::string& level) {
    return loadScenarioText("name: \"t\" level { " + level + " }", "t.txtpb", {1, 1, 0}, false, levels);
  };
  for (const std::string bad :
       {"walkable_climb: nan", "agent_height: -1", "walkable_slope_deg: 95", "scale: inf"}) {
    const ScenarioLoad r = check("path: \"building.obj\" " + bad);
    ASSERT_FALSE(r.errors.empty()) << bad;
    const std::string field = bad.substr(0, bad.find(':'));
    EXPECT_NE(r.errors[0].find("level." + field), std::string::npos) << r.errors[0];
  }
  const ScenarioLoad tiled = loadScenarioText(
      "name: \"t\" level { path: \"yard.tmx\" scale: 2 } "
      "archetypes { name: \"walker\" limits { radius: 0.5 mass: 1 max_speed: 1 max_force: 1 } }",
      "t.txtpb", {1, 1, 0}, false, levels);
  EXPECT_TRUE(tiled.errors.empty()) << tiled.errors[0];
  ASSERT_FALSE(tiled.warnings.empty());
  EXPECT_NE(tiled.warnings[0].find("level.scale"), std::string::npos) << tiled.warnings[0];
  const ScenarioLoad missing = check("path: \"nope.glb\"");
  ASSERT_FALSE(missing.errors.empty());
  EXPECT_NE(missing.errors[0].find("nope.glb"), std::string::npos) << missing.errors[0];
  const ScenarioLoad unknown = check("path: \"building.fbx\"");
  ASSERT_FALSE(unknown.errors.empty());
  EXPECT_NE(unknown.errors[0].find("not a level file"), std::string::npos) << unknown.errors[0];
}

TEST(LevelScenario, EachLevelIsTheSameForOneTwoAndFourThreads) {
  for (const char* name : {"level-town.txtpb", "level-building.txtpb", "level-yard.txtpb"}) {
    std::uint64_t hashes[3];
    const unsigned threads[3] = {1, 2, 4};
    for (int i = 0; i < 3; ++i) {
      auto w = level(name, threads[i], 3);
      ASSERT_NE(w, nullptr);
      for (int t = 0; t < 300; ++t) w->step();
      hashes[i] = w->stateHash();
    }
    EXPECT_EQ(hashes[0], hashes[1]) << name;
    EXPECT_EQ(hashes[0], hashes[2]) << name;
  }
}

}  // namespace
}  // namespace steerd
