// Heights on a level that has them: each agent's ground height reaches the wire states and the
// snapshots (delta coded); a flat world's snapshots carry none.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "net/client_view.h"
#include "scenario/scenario_file.h"
#include "world/agent_heights.h"

namespace steerd::net {
namespace {

// A 30 x 20 m floor and a 10 x 10 m platform 2 m up, joined by a ramp (OBJ, y up): walkers
// spawned on the platform and on the floor.
std::unique_ptr<World> rampWorld(unsigned threads = 1) {
  // A folder of this process's own: ctest runs the tests of this file in parallel processes, and
  // one writing the file while another reads it failed once.
  const auto dir = std::filesystem::temp_directory_path() /
                   ("steerd_level_heights_" + std::to_string(::getpid()) + "_" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "ramp.obj") << "o floor\n"
                                     "v 0 0 0\nv 0 0 20\nv 20 0 20\nv 20 0 0\nf 1 2 3 4\n"
                                     "v 20 0 0\nv 20 0 10\nv 30 0 10\nv 30 0 0\nf 5 6 7 8\n"
                                     "o platform\n"
                                     "v 20 2 10\nv 20 2 20\nv 30 2 20\nv 30 2 10\nf 9 10 11 12\n"
                                     "o ramp\n"
                                     "v 14 0 10\nv 14 0 14\nv 20 2 14\nv 20 2 10\nf 13 14 15 16\n";
  // World y is the file's -z: the platform is at y -20..-10, x 20..30.
  const std::string text = R"(
    name: "ramp"
    level { path: "ramp.obj" }
    navmesh { agent_radius: 0.5 }
    archetypes { name: "walker" limits { radius: 0.5 mass: 1 max_speed: 2 max_force: 10 }
                 behaviours { kind: NAVIGATE weight: 1 } }
    spawns { archetype: "walker" count: 10 min { x: 22 y: -19 } max { x: 29 y: -12 } }
    spawns { archetype: "walker" count: 10 min { x: 2 y: -18 } max { x: 10 y: -2 } }
  )";
  ScenarioLoad load = loadScenarioText(text, "ramp.txtpb", {1, threads, 0}, true, dir.string());
  EXPECT_TRUE(load.errors.empty()) << (load.errors.empty() ? "" : load.errors[0]);
  return std::move(load.world);
}

TEST(LevelHeights, EachAgentsHeightIsTheGroundUnderIt) {
  auto w = rampWorld();
  ASSERT_NE(w, nullptr);
  AgentHeights heights;
  heights.update(*w);
  ASSERT_TRUE(heights.active());
  const AgentColumns& a = w->agents();
  int high = 0, low = 0;
  for (std::size_t s = 0; s < a.size(); ++s) {
    const float h = heights.of(a.id[s]);
    if (a.px[s] > 21.0f && a.py[s] < -11.0f) {
      EXPECT_NEAR(h, 2.0f, 0.2f);  // on the platform
      ++high;
    } else if (a.px[s] < 12.0f) {
      EXPECT_NEAR(h, 0.0f, 0.2f);
      ++low;
    }
  }
  EXPECT_EQ(high, 10);
  EXPECT_EQ(low, 10);
  // The same after they walk (the cached polygon is checked, not trusted).
  for (int t = 0; t < 150; ++t) w->step();
  heights.update(*w);
  for (std::size_t s = 0; s < a.size(); ++s) {
    const nav::NavPoint on = w->geometry().navMesh->nearest({a.px[s], a.py[s]}, 1.0f);
    ASSERT_TRUE(on);
    EXPECT_NEAR(heights.of(a.id[s]), on.height, 0.05f);
  }
}

TEST(LevelHeights, SnapshotsCarryThemAndAFlatWorldsDoNot) {
  auto w = rampWorld();
  ASSERT_NE(w, nullptr);
  AgentHeights heights;
  heights.update(*w);
  std::vector<wire::EntityState> states;
  wireStatesOf(*w, states, &heights);
  int raised = 0;
  for (const auto& e : states) raised += e.z > 50;  // 1.6 m and up, in 1/32 m
  EXPECT_EQ(raised, 10);
  ClientView view(1, 0);
  InterestConfig interest;
  SnapshotStats stats;
  const ViewFrame frame{states, w->indexCapacity(), 5, nullptr, true};
  const auto parts = view.build(frame, {}, interest, stats);
  ASSERT_FALSE(parts.empty());
  int newHeights = 0;
  for (const auto& p : parts) newHeights += p.new_height_size();
  EXPECT_EQ(newHeights, static_cast<int>(states.size()));

  // The default scenario is flat: no heights, no height bytes.
  ScenarioLoad flat = loadScenarioFile("default", {1, 1, 0}, true);
  ASSERT_TRUE(flat.world);
  AgentHeights none;
  none.update(*flat.world);
  EXPECT_FALSE(none.active());
  std::vector<wire::EntityState> flatStates;
  wireStatesOf(*flat.world, flatStates, &none);
  for (const auto& e : flatStates) ASSERT_EQ(e.z, 0);
  ClientView flatView(1, 0);
  const ViewFrame flatFrame{flatStates, flat.world->indexCapacity(), 5, nullptr, none.active()};
  for (const auto& p : flatView.build(flatFrame, {}, interest, stats)) {
    EXPECT_EQ(p.new_height_size(), 0);
    EXPECT_EQ(p.height_size(), 0);
  }
}

TEST(LevelHeights, TheSameHeightsForOneAndFourThreads) {
  auto one = rampWorld(1), four = rampWorld(4);
  ASSERT_TRUE(one && four);
  for (int t = 0; t < 90; ++t) one->step(), four->step();
  EXPECT_EQ(one->stateHash(), four->stateHash());
  AgentHeights h1, h4;
  h1.update(*one);
  h4.update(*four);
  std::vector<wire::EntityState> s1, s4;
  wireStatesOf(*one, s1, &h1);
  wireStatesOf(*four, s4, &h4);
  EXPECT_EQ(s1, s4);
}

}  // namespace
}  // namespace steerd::net
