// Scenario files an attacker writes (issue 17's sixth hole): a navmesh over a 20 km world at a
// small cell kept --check-scenario busy past 45 s, and huge finite values passed the check. Each is
// now an error naming the field, the limit and the file's figure, before anything is built.
#include <gtest/gtest.h>

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

TEST(HostileValuesFile, HugeFiniteValuesAreRefusedByField) {
  expectError(replacedIn(kGood, "radius: 3", "radius: 1e10"), "obstacles[0].radius");
  expectError(replacedIn(kGood, "radius: 3", "radius: 30000"), "the largest world's side");
  expectError(replacedIn(kGood, "max_speed: 2", "max_speed: 1e9"), "limits.max_speed: at most 1e+06");
  expectError(replacedIn(kGood, "weight: 1", "weight: 1e30"), "behaviours[0].weight: at most");
  expectError(replacedIn(kGood, "center { x: 50 y: 50 }", "center { x: 5e7 y: 50 }"), "obstacles[0].center");
}

}  // namespace
}  // namespace steerd
