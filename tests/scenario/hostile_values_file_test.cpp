// Scenario files an attacker writes (issue 17's sixth hole): a navmesh over a 20 km world at a
// small cell kept --check-scenario busy past 45 s, and huge finite values passed the check. Each is
// now an error naming the field, the limit and the file's figure, before anything is built.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>

#include "scenario_text.h"

namespace steerd {
namespace {

using testing::expectError;
using testing::replacedIn;

const std::string kGood = R"(
name: "hostile"
bounds { min { x: 0 y: 0 } max { x: 100 y: 100 } }
obstacles { center { x: 50 y: 50 } radius: 3 }
archetypes {
  name: "a"
  limits { radius: 0.5 mass: 1 max_speed: 2 max_force: 5 }
  behaviours { kind: WANDER weight: 1 }
}
spawns { archetype: "a" count: 3 min { x: 10 y: 10 } max { x: 20 y: 20 } }
)";

TEST(HostileValuesFile, TheGoodFileLoads) {
  const ScenarioLoad r = loadScenarioText(kGood, "t.txtpb", {1, 1, 0}, false);
  EXPECT_TRUE(r.errors.empty()) << r.errors[0];
}

TEST(HostileValuesFile, ANavmeshOverTwentyKilometresIsRefusedWithItsFigures) {
  const std::string text = replacedIn(replacedIn(kGood, "max { x: 100 y: 100 }", "max { x: 20000 y: 20000 }"),
                                      "spawns {", "navmesh { tile_size: 512 }\nspawns {");
  const ScenarioLoad r = loadScenarioText(text, "t.txtpb", {1, 1, 0}, false);
  ASSERT_FALSE(r.errors.empty());
  bool said = false;
  for (const auto& e : r.errors)
    said = said || (e.find("cells, over the limit of 50000000") != std::string::npos);
  EXPECT_TRUE(said) << r.errors[0];
}

// Issue 38: inside the cell and tile bounds, a 20 km world at 2.8 m cells (and tiles of 512 m)
// kept --check-scenario busy for 43 s. Its build is estimated first and refused with the figure.
TEST(HostileValuesFile, ANavmeshEstimatedPastItsTimeLimitIsRefusedQuicklyWithTheFigure) {
  const std::string text = replacedIn(replacedIn(kGood, "max { x: 100 y: 100 }", "max { x: 20000 y: 19000 }"),
                                      "spawns {", "navmesh { cell_size: 2.8 tile_size: 512 }\nspawns {");
  const auto t0 = std::chrono::steady_clock::now();
  const ScenarioLoad r = loadScenarioText(text, "t.txtpb", {1, 1, 0}, false);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(seconds, 1.0);
  ASSERT_EQ(r.errors.size(), 1u) << r.errors[0];
  EXPECT_NE(r.errors[0].find("t.txtpb: navmesh: the build is estimated at "), std::string::npos)
      << r.errors[0];
  EXPECT_NE(r.errors[0].find(" s (20000 x 19000 m at cell_size 2.80: "), std::string::npos) << r.errors[0];
  EXPECT_NE(r.errors[0].find("over the limit of 10 s: raise cell_size"), std::string::npos) << r.errors[0];
}

// Issue 38: the navmesh cache's key seals what reaches Detour; a key file others may read is said
// (naming it, with the chmod that fixes it), and the cache is neither read nor written meanwhile.
TEST(HostileValuesFile, ANavmeshCacheKeyOthersMayReadIsAWarningAndTheCacheIsLeftAlone) {
  namespace fs = std::filesystem;
  const std::string dir =
      (fs::temp_directory_path() / ("steerd-keymode-" + std::to_string(::getpid()))).string();
  fs::remove_all(dir);
  const std::string text = replacedIn(kGood, "spawns {", "navmesh { cell_size: 0.5 }\nspawns {");
  ScenarioLoad r = loadScenarioText(text, "t.txtpb", {1, 1, 0, dir}, false);
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  EXPECT_TRUE(r.warnings.empty()) << r.warnings[0];
  EXPECT_NE(r.summary.find("cached as"), std::string::npos) << r.summary;
  const std::string key = dir + "/navmesh-cache.key";
  fs::permissions(key, fs::perms::group_read | fs::perms::others_read, fs::perm_options::add);  // 0644
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir)) files += e.is_regular_file() ? 1 : 0;

  r = loadScenarioText(text, "t.txtpb", {1, 1, 0, dir}, false);
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find(key + ": mode 0644"), std::string::npos) << r.warnings[0];
  EXPECT_NE(r.warnings[0].find("chmod 600 " + key), std::string::npos) << r.warnings[0];
  EXPECT_NE(r.summary.find("navmesh built in"), std::string::npos) << r.summary;  // not from the cache
  std::size_t after = 0;
  for (const auto& e : fs::directory_iterator(dir)) after += e.is_regular_file() ? 1 : 0;
  EXPECT_EQ(after, files);
  fs::remove_all(dir);
}

// Found by the scenario fuzzer: a world 7.8e14 m tall has about 1.2e19 navmesh cells, and the
// message converted that count to a 64-bit integer (undefined past 9.2e18). Now printed whole.
TEST(HostileValuesFile, ANavmeshCellCountBeyondAnyIntegerIsPrintedWhole) {
  const std::string text = replacedIn(replacedIn(kGood, "max { x: 100 y: 100 }", "max { x: 1000 y: 1e15 }"),
                                      "spawns {", "navmesh { cell_size: 0.2 }\nspawns {");
  const ScenarioLoad r = loadScenarioText(text, "t.txtpb", {1, 1, 0}, false);
  std::string said;
  for (const auto& e : r.errors) {
    if (e.find("cells, over the limit") != std::string::npos) said = e;
  }
  ASSERT_FALSE(said.empty()) << (r.errors.empty() ? "no errors" : r.errors[0]);
  EXPECT_EQ(said.find('-'), std::string::npos) << said;  // no wrapped-around negative count
  EXPECT_NE(said.find(" is 24999999302248579072 cells"), std::string::npos) << said;
}

TEST(HostileValuesFile, HugeFiniteValuesAreRefusedByField) {
  expectError(replacedIn(kGood, "radius: 3", "radius: 1e10"), "obstacles[0].radius");
  expectError(replacedIn(kGood, "radius: 3", "radius: 30000"), "the largest world's side");
  expectError(replacedIn(kGood, "max_speed: 2", "max_speed: 1e9"), "limits.max_speed: at most 1e+06");
  expectError(replacedIn(kGood, "weight: 1", "weight: 1e30"), "behaviours[0].weight: at most");
  expectError(replacedIn(kGood, "center { x: 50 y: 50 }", "center { x: 5e7 y: 50 }"), "obstacles[0].center");
}

// Found by the scenario fuzzer: a spawn box of no width divided 0 by 0 into a column count.
// A box that is a line spawns along it; one that is a point spawns there.
TEST(HostileValuesFile, ASpawnBoxOfNoWidthOrHeightSpawnsAlongItsLine) {
  for (const char* box :
       {"min { x: 10 y: 10 } max { x: 10 y: 20 }", "min { x: 10 y: 10 } max { x: 20 y: 10 }",
        "min { x: 10 y: 10 } max { x: 10 y: 10 }"}) {
    const std::string text = replacedIn(kGood, "min { x: 10 y: 10 } max { x: 20 y: 20 }", box);
    const ScenarioLoad r = loadScenarioText(text, "t.txtpb", {1, 1, 0}, true);
    ASSERT_TRUE(r.errors.empty()) << box << ": " << r.errors[0];
    ASSERT_TRUE(r.world);
    ASSERT_EQ(r.world->agentCount(), 3u) << box;
    const AgentColumns& a = r.world->agents();
    for (std::size_t s = 0; s < a.size(); ++s) {
      EXPECT_TRUE(std::isfinite(a.px[s]) && std::isfinite(a.py[s])) << box;
      EXPECT_GE(a.px[s], 10.0f);
      EXPECT_LE(a.px[s], 20.0f);
      EXPECT_GE(a.py[s], 10.0f);
      EXPECT_LE(a.py[s], 20.0f);
    }
  }
}

// Found by the scenario fuzzer: the spawn spacing's grid turned a negative coordinate's cell
// into an unsigned integer (undefined). A world below zero spawns its agents inside it.
TEST(HostileValuesFile, AWorldBelowZeroSpawnsItsAgentsInside) {
  std::string text = replacedIn(kGood, "min { x: 0 y: 0 } max { x: 100 y: 100 }",
                                "min { x: -100 y: -100 } max { x: 0 y: 0 }");
  text = replacedIn(text, "center { x: 50 y: 50 }", "center { x: -50 y: -50 }");
  text = replacedIn(text, "count: 3 min { x: 10 y: 10 } max { x: 20 y: 20 }",
                    "count: 30 min { x: -99 y: -99 } max { x: -1 y: -1 }");
  const ScenarioLoad r = loadScenarioText(text, "t.txtpb", {1, 1, 0}, true);
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  ASSERT_EQ(r.world->agentCount(), 30u);
  const AgentColumns& a = r.world->agents();
  for (std::size_t s = 0; s < a.size(); ++s) {
    EXPECT_LT(a.px[s], 0.0f);
    EXPECT_LT(a.py[s], 0.0f);
    EXPECT_GT(a.px[s], -100.0f);
    EXPECT_GT(a.py[s], -100.0f);
  }
}

}  // namespace
}  // namespace steerd
