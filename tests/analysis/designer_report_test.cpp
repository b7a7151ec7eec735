// The headless report's designer figures: time in each brain state and the transitions, agents of
// each archetype in a region of the scenario file, and expectations judged at their time (a run
// too short leaves a file's unjudged, and fails one given on the command line). Bad regions and
// expectations get field-named errors; bad --expect text a clear one.
#include "analysis/designer_report.h"

#include <gtest/gtest.h>

#include "../scenario/scenario_text.h"

namespace steerd {
namespace {

using namespace steerd::testing;

TEST(DesignerReport, PolygonsCountWhatIsInsideConcaveToo) {
  const std::vector<steer::Vec2> square{{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  EXPECT_TRUE(insidePolygon({5, 5}, square));
  EXPECT_FALSE(insidePolygon({11, 5}, square));
  // An L: the notch (7, 7) is outside.
  const std::vector<steer::Vec2> ell{{0, 0}, {10, 0}, {10, 4}, {4, 4}, {4, 10}, {0, 10}};
  EXPECT_TRUE(insidePolygon({2, 8}, ell));
  EXPECT_TRUE(insidePolygon({8, 2}, ell));
  EXPECT_FALSE(insidePolygon({7, 7}, ell));
}

TEST(DesignerReport, ExpectationTextIsParsedOrRefusedClearly) {
  ReportExpectation e;
  EXPECT_EQ(parseExpectation("pen:sheep>=0.9@120", e), "");
  EXPECT_EQ(e.region, "pen");
  EXPECT_EQ(e.archetype, "sheep");
  EXPECT_FLOAT_EQ(e.atLeast, 0.9f);
  EXPECT_DOUBLE_EQ(e.afterSeconds, 120.0);
  for (const char* bad : {"pen", "pen:sheep", "pen:sheep>=2@1", "pen:sheep>=nan@1", "pen:sheep>=0.5@-1",
                          "pen:sheep>=0.5@", ":sheep>=0.5@1", "pen:>=0.5@1", "pen:sheep>=0.5@1e300"}) {
    ReportExpectation x;
    EXPECT_NE(parseExpectation(bad, x), "") << bad;
  }
}

// Walkers arrive in a box; a brain switches them from "go" to "rest" once there.
const std::string kPen = R"(
name: "pen"
bounds { min { x: 0 y: 0 } max { x: 100 y: 100 } }
waypoints { name: "in" position { x: 80 y: 80 } }
regions { name: "box" points { x: 70 y: 70 } points { x: 90 y: 70 } points { x: 90 y: 90 } points { x: 70 y: 90 } }
archetypes {
  name: "walker"
  limits { radius: 0.4 mass: 1 max_speed: 4 max_force: 10 max_turn_rate_deg: 720 }
  behaviours { kind: SEPARATION weight: 2 }
  behaviours { kind: ARRIVE waypoint: "in" priority: 1 }
}
archetypes { name: "post" limits { radius: 0.5 mass: 1 max_speed: 0 max_force: 0 } }
spawns { archetype: "walker" count: 8 min { x: 10 y: 10 } max { x: 20 y: 20 } }
spawns { archetype: "post" count: 2 min { x: 50 y: 10 } max { x: 52 y: 12 } }
)";

TEST(DesignerReport, RegionsCountAgentsAndExpectationsAreJudgedAtTheirTime) {
  ScenarioLoad r =
      load(kPen + R"(expect { region: "box" archetype: "walker" at_least: 0.75 after_seconds: 30 })");
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  ASSERT_EQ(r.regions.size(), 1u);
  ASSERT_EQ(r.expectations.size(), 1u);
  World& w = *r.world;
  std::vector<ReportExpectation> expectations = r.expectations;
  expectations.push_back({"box", "post", 0.5f, 5.0, true});       // never: the posts stay out
  expectations.push_back({"box", "walker", 1.0f, 900.0, false});  // a file's, past the run
  DesignerReport report(w, r.regions, expectations);
  for (int t = 0; t < 40 * 30; ++t) {
    w.step();
    report.observe(w);
  }
  const std::string text = report.format(w);
  EXPECT_NE(text.find("region box: walker 8 of 8 at the end"), std::string::npos) << text;
  EXPECT_NE(text.find("expect box:walker>=0.75@30 s: met (8 of 8, 100 %)"), std::string::npos) << text;
  EXPECT_NE(text.find("expect box:post>=0.5@5 s: NOT MET (0 of 2, 0 %)"), std::string::npos) << text;
  EXPECT_NE(text.find("expect box:walker>=1@900 s: not judged (the run ended at 40.0 s, before it)"),
            std::string::npos)
      << text;
  EXPECT_FALSE(report.expectationsMet());  // the posts'
  DesignerReport good(w, r.regions,
                      {{"box", "walker", 0.75f, 0.0, true}, {"box", "walker", 1.0f, 900.0, false}});
  good.observe(w);
  EXPECT_TRUE(good.expectationsMet());  // judged and met; the unjudged one is a file's
  DesignerReport early(w, r.regions, {{"box", "walker", 0.75f, 900.0, true}});
  early.observe(w);
  EXPECT_FALSE(early.expectationsMet());  // --expect past the end of the run: not met
}

TEST(DesignerReport, BrainStatesTimeAndTransitions) {
  // guards.txtpb: with a player put in front of a guard it goes from patrol to chase.
  ScenarioLoad r = loadScenarioFile(std::string(STEERD_SCENARIOS_DIR) + "/guards.txtpb", {1, 1, 0}, true);
  ASSERT_TRUE(r.world);
  World& w = *r.world;
  DesignerReport report(w, {}, {});
  int guard = -1, player = -1;
  for (std::size_t i = 0; i < w.archetypes().size(); ++i) {
    if (w.archetypes()[i].name == "guard") guard = static_cast<int>(i);
    if (w.archetypes()[i].name == "player") player = static_cast<int>(i);
  }
  for (int t = 0; t < 30; ++t) {  // a second of patrol first: the change is seen happen
    w.step();
    report.observe(w);
  }
  std::uint32_t g = 0;
  while (static_cast<int>(w.agents().archetype[g]) != guard) ++g;
  const steer::Vec2 ahead{w.agents().px[g] + 8.0f * w.agents().hx[g],
                          w.agents().py[g] + 8.0f * w.agents().hy[g]};
  w.spawnExternal(static_cast<ArchetypeIndex>(player), ahead);
  for (int t = 0; t < 300; ++t) {
    w.step();
    report.observe(w);
  }
  const std::string text = report.format(w);
  EXPECT_NE(text.find("brain guard: time in state patrol"), std::string::npos) << text;
  EXPECT_NE(text.find(" chase "), std::string::npos) << text;
  EXPECT_NE(text.find("transitions patrol->chase 1"), std::string::npos) << text;
  EXPECT_NE(text.find("brain civilian:"), std::string::npos) << text;
}

TEST(DesignerReport, BadRegionsAndExpectationsAreRefusedByField) {
  expectError(
      kPen + R"(regions { name: "box" points { x: 1 y: 1 } points { x: 2 y: 2 } points { x: 3 y: 1 } })",
      "regions[1].name: a second region named \"box\"");
  expectError(kPen + R"(regions { name: "thin" points { x: 1 y: 1 } points { x: 2 y: 2 } })",
              "regions[1].points: a region needs 3 to 1024 points, not 2");
  expectError(kPen + R"(expect { region: "barn" archetype: "walker" at_least: 0.5 })",
              "expect[0].region: no region named \"barn\"");
  expectError(kPen + R"(expect { region: "box" archetype: "sheep" at_least: 0.5 })",
              "expect[0].archetype: no archetype named \"sheep\"");
  expectError(kPen + R"(expect { region: "box" archetype: "walker" at_least: 1.5 })",
              "expect[0].at_least: a share from 0 to 1, not 1.5");
  expectError(kPen + R"(expect { region: "box" archetype: "walker" at_least: 0.5 after_seconds: -1 })",
              "expect[0].after_seconds: must be a finite number >= 0");
}

}  // namespace
}  // namespace steerd
