// Scenario files: a good one builds the world it describes; every class of bad file gets a clear
// error naming the place (FILE:LINE:COL for syntax, the field path and value otherwise) and no
// world, never a crash.
#include "scenario/scenario_file.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "scenario_text.h"

namespace steerd {
namespace {

using namespace steerd::testing;

// A small valid scenario; tests break one thing at a time by replacing a piece of it.
const std::string kGood = R"(
name: "test"
bounds { min { x: 0 y: 0 } max { x: 100 y: 100 } }
obstacles { center { x: 50 y: 50 } radius: 3 }
walls { from { x: 10 y: 80 } to { x: 30 y: 80 } two_sided: true }
waypoints { name: "a" position { x: 10 y: 10 } }
waypoints { name: "b" position { x: 90 y: 10 } }
paths { name: "ab" waypoints: ["a", "b"] looped: true }
archetypes {
  name: "walker"
  limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 6 max_turn_rate_deg: 360 }
  behaviours { kind: OBSTACLE_AVOIDANCE weight: 4 }
  behaviours { kind: FOLLOW_PATH priority: 1 }
}
archetypes {
  name: "chaser"
  limits { radius: 0.6 mass: 1 max_speed: 4 max_force: 8 }
  behaviours { kind: PURSUE_NEAREST target_archetype: "walker" range: 40 }
}
spawns { archetype: "walker" count: 10 min { x: 5 y: 5 } max { x: 40 y: 30 } speed: 1 path: "ab" }
spawns { archetype: "chaser" count: 2 min { x: 60 y: 60 } max { x: 70 y: 70 } }
)";

std::string replaced(const std::string& from, const std::string& to) { return replacedIn(kGood, from, to); }

TEST(ScenarioFile, GoodFileBuildsTheWorldItDescribes) {
  const ScenarioLoad r = load(kGood);
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  ASSERT_NE(r.world, nullptr);
  EXPECT_EQ(r.world->agentCount(), 12u);
  EXPECT_EQ(r.world->archetypes().size(), 3u);      // the file's two and the player archetype
  EXPECT_EQ(r.world->geometry().walls.size(), 2u);  // two-sided: back to back
  EXPECT_EQ(r.world->geometry().paths.size(), 1u);
  EXPECT_NE(r.summary.find("12 agents"), std::string::npos);
  // Walkers follow the spawn group's path; the chaser targets walkers.
  const auto& a = r.world->agents();
  for (std::size_t s = 0; s < a.size(); ++s) {
    if (a.archetype[s] == 0) {
      EXPECT_EQ(a.memory(s).assignedPath, 0);
    }
  }
  EXPECT_EQ(r.world->archetypes()[1].behaviours[0].targetArchetype, 0);
  for (int i = 0; i < 30; ++i) r.world->step();
}

TEST(ScenarioFile, WeightAndProbabilityDefaultToOneButZeroMeansOff) {
  const ScenarioLoad r =
      load(replaced("behaviours { kind: FOLLOW_PATH priority: 1 }",
                    "behaviours { kind: FOLLOW_PATH priority: 1 weight: 0 probability: 0 }"));
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  const auto& walker = r.world->archetypes()[0].behaviours;
  ASSERT_EQ(walker.size(), 2u);
  EXPECT_EQ(walker[0].weight, 4.0f);  // OBSTACLE_AVOIDANCE weight: 4
  EXPECT_EQ(walker[0].probability, 1.0f);
  EXPECT_EQ(walker[1].weight, 0.0f);  // written as 0: off, not the default
  EXPECT_EQ(walker[1].probability, 0.0f);
  const ScenarioLoad d = load(kGood);
  EXPECT_EQ(d.world->archetypes()[0].behaviours[1].weight, 1.0f);  // left out: 1
}

const std::string kBrain = R"(
brains {
  archetype: "walker"
  initial_state: "calm"
  think_every_ticks: 3
  senses { name: "eyes" archetype: "chaser" range: 20 fov_deg: 120 }
  stats { name: "fear" initial: 10 max: 50 }
  states { name: "calm" initial_child: "stroll" transitions { to: "flee" when { sees: "eyes" } } }
  states { name: "stroll" parent: "calm" }
  states {
    name: "flee"
    behaviours { kind: EVADE_NEAREST target_archetype: "chaser" range: 30 }
    stat_rates { stat: "fear" per_second: 5 }
    transitions { to: "calm" when { all { of { not { seen_within { sense: "eyes" seconds: 2 } } } of { stat_under { stat: "fear" value: 40 } } } } }
  }
}
)";

TEST(ScenarioFile, BrainsCompileOntoTheirArchetype) {
  const ScenarioLoad r = load(kGood + kBrain);
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  const Archetype& walker = r.world->archetypes()[0];
  ASSERT_NE(walker.brain, nullptr);
  EXPECT_EQ(walker.brain->states.size(), 3u);
  EXPECT_EQ(walker.brain->thinkEvery, 3u);
  EXPECT_EQ(walker.brain->initial, 0);
  EXPECT_EQ(walker.brain->enterLeaf(walker.brain->initial), 1);  // calm -> stroll
  // stroll and calm have no behaviours: the archetype's; flee has its own.
  ASSERT_EQ(walker.stateBehaviours.size(), 3u);
  EXPECT_EQ(walker.stateBehaviours[1].size(), walker.behaviours.size());
  ASSERT_EQ(walker.stateBehaviours[2].size(), 1u);
  EXPECT_EQ(walker.stateBehaviours[2][0].kind, BehaviourKind::kEvadeNearest);
  EXPECT_EQ(r.world->brainStateOf(0), 1);  // spawned walkers start in stroll
  EXPECT_EQ(r.world->brainMemoryOf(0).stats[0], 10.0f);
  for (int i = 0; i < 60; ++i) r.world->step();
}

TEST(ScenarioFile, BrokenBrainsAreNamed) {
  auto broken = [](const std::string& from, const std::string& to) {
    std::string b = kBrain;
    const auto at = b.find(from);
    EXPECT_NE(at, std::string::npos) << "test bug: " << from;
    if (at != std::string::npos) b.replace(at, from.size(), to);
    return kGood + b;
  };
  expectError(broken("archetype: \"walker\"", "archetype: \"ghost\""), "no archetype named \"ghost\"");
  expectError(broken("initial_state: \"calm\"", "initial_state: \"sleep\""),
              "initial_state: no state named \"sleep\"");
  expectError(broken("to: \"flee\"", "to: \"fly\""), "transitions[0].to: no state named \"fly\"");
  expectError(broken("sees: \"eyes\"", "sees: \"ears\""), "no sense named \"ears\"");
  expectError(broken("stat: \"fear\" value", "stat: \"hunger\" value"), "no stat named \"hunger\"");
  expectError(broken("stat: \"fear\" per_second", "stat: \"joy\" per_second"), "no stat named \"joy\"");
  expectError(broken("parent: \"calm\"", "parent: \"stroll\""), "parent chain loops back");
  expectError(broken("initial_child: \"stroll\"", "initial_child: \"flee\""), "is not a child of");
  expectError(broken("when { sees: \"eyes\" }", "when { }"), "empty condition");
  expectError(broken("when { sees: \"eyes\" }", "when { chance_per_second: 2 }"), "must be in [0, 1]");
  expectError(broken("when { sees: \"eyes\" }", ""), "missing (a transition needs a condition)");
  expectError(broken("range: 20 fov_deg", "range: -1 fov_deg"), "senses[0].range");
  expectError(broken("initial: 10 max: 50", "initial: 60 max: 50"), "min <= initial <= max");
  expectError(broken("target_archetype: \"chaser\" range: 30", "target_archetype: \"nobody\" range: 30"),
              "states[2] (\"flee\").behaviours[0].target_archetype: no archetype named \"nobody\"");
  expectError(kGood + kBrain + kBrain, "a second brain for the same archetype");
}

TEST(ScenarioFile, SyntaxErrorReportsFileLineAndColumn) {
  expectError(replaced("radius: 3 }", "radius: 3 "), "t.txtpb:");
  const ScenarioLoad r =
      load("name: \"x\"\nbounds { min { x: 0 y: 0 } max { x: 1 y: 1 }\narchetypes { nme: \"a\" }\n");
  ASSERT_FALSE(r.errors.empty());
  EXPECT_EQ(r.errors[0].rfind("t.txtpb:3:", 0), 0u) << r.errors[0];  // line 3, the unknown field
}

TEST(ScenarioFile, UnknownBehaviourKindIsASyntaxErrorWithItsPlace) {
  expectError(replaced("kind: OBSTACLE_AVOIDANCE", "kind: OBSTACLE_AVOIDANCEE"), "t.txtpb:");
}

// proto3's enums are open: the text parser takes `kind: 99` (any number) where it would refuse
// `kind: WANDERR`. A number no value names is refused too, with the field's line:col, and never
// runs as some other value (a kind of 99 used to become WANDER).
TEST(ScenarioFile, EnumNumbersNoValueNamesAreRefusedWithTheirPlace) {
  const auto onlyError = [](const std::string& text) {
    const ScenarioLoad r = load(text);
    EXPECT_EQ(r.world, nullptr);
    EXPECT_EQ(r.errors.size(), 1u);
    return r.errors.empty() ? std::string("(no error)") : r.errors[0];
  };
  // Line 12, "  behaviours { kind: OBSTACLE_AVOIDANCE weight: 4 }": `kind` at column 16.
  std::string e = onlyError(replaced("kind: OBSTACLE_AVOIDANCE", "kind: 99"));
  EXPECT_EQ(e.rfind("t.txtpb:12:16: archetypes[0].behaviours[0].kind: 99 is no BehaviourKind (one of "
                    "BEHAVIOUR_UNSPECIFIED, WANDER, SEPARATION, ",
                    0),
            0u)
      << e;
  EXPECT_NE(e.find("LOOK_WHERE_GOING)"), std::string::npos) << e;
  // Line 16, "  name: \"chaser\" combiner: 17".
  e = onlyError(replaced("name: \"chaser\"", "name: \"chaser\" combiner: 17"));
  EXPECT_EQ(
      e.rfind("t.txtpb:16:18: archetypes[1].combiner: 17 is no Combiner (one of COMBINER_UNSPECIFIED, ", 0),
      0u)
      << e;
  // Line 18, the chaser's PURSUE_NEAREST, a negative number.
  e = onlyError(replaced("range: 40 }", "range: 40 target: -3 }"));
  EXPECT_EQ(e.rfind("t.txtpb:18:74: archetypes[1].behaviours[0].target: -3 is no TargetKind (one of NEAREST, "
                    "GROUP_LEADER, GROUP_CENTROID, FETCH_ORDER)",
                    0),
            0u)
      << e;
  // Deeper (a brain state's behaviour), and every one in the file, not only the first.
  const std::string deep = replaced("kind: OBSTACLE_AVOIDANCE", "kind: 27") +
                           "brains { archetype: \"chaser\" states { name: \"s\"\n"
                           "  behaviours { kind: ARRIVE deceleration: 5 keep_to: 3 waypoint: \"a\" } } }\n";
  const ScenarioLoad r = load(deep);
  EXPECT_EQ(r.world, nullptr);
  ASSERT_EQ(r.errors.size(), 3u) << r.errors[0];
  EXPECT_EQ(r.errors[0].rfind("t.txtpb:12:16: archetypes[0].behaviours[0].kind: 27 is no BehaviourKind", 0),
            0u)
      << r.errors[0];
  EXPECT_EQ(
      r.errors[1].rfind("t.txtpb:23:29: brains[0].states[0].behaviours[0].deceleration: 5 is no "
                        "Deceleration (one of DECELERATION_NORMAL, DECELERATION_SLOW, DECELERATION_FAST)",
                        0),
      0u)
      << r.errors[1];
  EXPECT_EQ(r.errors[2].rfind("t.txtpb:23:45: brains[0].states[0].behaviours[0].keep_to: 3 is no Side", 0),
            0u)
      << r.errors[2];
  // A number a value names is that value.
  const ScenarioLoad named = load(replaced("kind: OBSTACLE_AVOIDANCE", "kind: 5"));
  ASSERT_TRUE(named.errors.empty()) << named.errors[0];
  EXPECT_EQ(named.world->archetypes()[0].behaviours[0].kind, BehaviourKind::kObstacleAvoidance);
}

TEST(ScenarioFile, UnknownArchetypeNamesAreNamed) {
  expectError(replaced("target_archetype: \"walker\"", "target_archetype: \"walkr\""),
              "archetypes[1] (\"chaser\").behaviours[0].target_archetype: no archetype named \"walkr\"");
  expectError(replaced("spawns { archetype: \"chaser\"", "spawns { archetype: \"nobody\""),
              "spawns[1].archetype: no archetype named \"nobody\"");
}

TEST(ScenarioFile, DanglingWaypointsAndPathsAreNamed) {
  expectError(replaced("waypoints: [\"a\", \"b\"]", "waypoints: [\"a\", \"c\"]"),
              "paths[0] (\"ab\").waypoints[1]: no waypoint named \"c\"");
  expectError(replaced("path: \"ab\" }", "path: \"ba\" }"), "spawns[0].path: no path named \"ba\"");
}

TEST(ScenarioFile, InterposeAndCollisionAvoidanceNeedWhatTheyUse) {
  expectError(replaced("behaviours { kind: PURSUE_NEAREST target_archetype: \"walker\" range: 40 }",
                       "behaviours { kind: INTERPOSE_NEAREST target_archetype: \"walker\" second_archetype: "
                       "\"ghost\" range: 40 }"),
              "behaviours[0].second_archetype: no archetype named \"ghost\"");
  expectError(replaced("behaviours { kind: PURSUE_NEAREST target_archetype: \"walker\" range: 40 }",
                       "behaviours { kind: COLLISION_AVOIDANCE }"),
              "behaviours[0].range: must be a finite number > 0, not 0");
  expectError(replaced("behaviours { kind: PURSUE_NEAREST target_archetype: \"walker\" range: 40 }",
                       "behaviours { kind: OFFSET_PURSUIT_NEAREST target_archetype: \"walker\" range: 40 "
                       "offset { x: nan y: 1 } }"),
              "behaviours[0].offset: not a finite point");
}

TEST(ScenarioFile, PathWithFewerThanTwoPointsIsRefused) {
  expectError(replaced("waypoints: [\"a\", \"b\"]", "waypoints: [\"a\"]"),
              "a path needs at least two waypoints");
}

TEST(ScenarioFile, FollowPathWithoutAnyPathIsRefused) {
  expectError(replaced(" speed: 1 path: \"ab\" }", " speed: 1 }"), "behaviours[1].path: empty");
}

TEST(ScenarioFile, NegativeOrNaNLimitsAreNamedWithTheirValue) {
  expectError(replaced("radius: 0.5 mass: 1", "radius: -0.5 mass: 1"),
              "archetypes[0] (\"walker\").limits.radius: must be a finite number > 0, not -0.5");
  expectError(replaced("max_speed: 3", "max_speed: nan"),
              "limits.max_speed: must be a finite number >= 0, not nan");
  expectError(replaced("max_force: 8", "max_force: inf"), "limits.max_force");
  expectError(replaced("radius: 3 }", "radius: 0 }"), "obstacles[0].radius");
}

TEST(ScenarioFile, SpawnsOutsideTheWorldAreRefused) {
  expectError(replaced("max { x: 40 y: 30 }", "max { x: 140 y: 30 }"),
              "spawns[0]: the spawn box lies outside the world bounds");
  expectError(replaced("count: 10", "count: 0"), "spawns[0].count: must be at least 1");
  expectError(replaced("count: 10", "count: 4000000000"), "at most 4000000 agents");
}

TEST(ScenarioFile, BadBoundsAndGeometryAreRefused) {
  expectError(replaced("max { x: 100 y: 100 }", "max { x: 0 y: 100 }"),
              "bounds: max must be greater than min");
  expectError(replaced("max { x: 100 y: 100 }", "max { x: 100000 y: 100 }"), "bounds: at most 20000 m");
  expectError(replaced("to { x: 30 y: 80 }", "to { x: 10 y: 80 }"), "walls[0]: has zero length");
  expectError(replaced("center { x: 50 y: 50 }", "center { x: 500 y: 50 }"), "obstacles[0].center: outside");
}

TEST(ScenarioFile, DuplicateNamesAndMissingPiecesAreRefused) {
  expectError(replaced("name: \"chaser\"", "name: \"walker\""), "duplicate archetype \"walker\"");
  expectError(replaced("waypoints { name: \"b\"", "waypoints { name: \"a\""), "duplicate waypoint \"a\"");
  expectError("name: \"empty\"\nbounds { min { x: 0 y: 0 } max { x: 10 y: 10 } }\n",
              "at least one archetype");
  expectError(replaced("behaviours { kind: FOLLOW_PATH priority: 1 }", "behaviours { priority: 1 }"),
              "behaviours[1].kind: missing");
}

TEST(ScenarioFile, EveryErrorIsReportedNotJustTheFirst) {
  std::string text = replaced("radius: 0.5 mass: 1", "radius: -1 mass: -1");
  const ScenarioLoad r = load(text);
  EXPECT_GE(r.errors.size(), 2u);
}

TEST(ScenarioFile, MissingFileAndGarbageAreErrorsNotCrashes) {
  const ScenarioLoad missing = loadScenarioFile("/nonexistent/steerd.txtpb", {}, true);
  ASSERT_EQ(missing.errors.size(), 1u);
  EXPECT_NE(missing.errors[0].find("cannot open"), std::string::npos);
  expectError(std::string("\x01\x02\xff garbage {{{", 14), "t.txtpb:1:");
  expectError("", "at least one archetype");
}

TEST(ScenarioFile, CheckOnlyValidatesWithoutBuilding) {
  const ScenarioLoad r = loadScenarioText(kGood, "t.txtpb", {}, false);
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(r.world, nullptr);
  EXPECT_FALSE(r.summary.empty());
}

TEST(ScenarioFile, OpenScenarioPrefersBuiltInNames) {
  const ScenarioLoad r = openScenario("default", {1, 1, 0});
  ASSERT_NE(r.world, nullptr);
  EXPECT_EQ(r.world->agentCount(), 344u);
}

// ---- Navigation: boxes, the navmesh block, NAVIGATE.

// A 60 x 40 m yard split by a wall of boxes with a gap at the top; a walker navigates to "far".
const std::string kNav = R"(
name: "nav"
bounds { min { x: 0 y: 0 } max { x: 60 y: 40 } }
boxes { center { x: 30 y: 15 } half_size { x: 1 y: 15 } }
waypoints { name: "far" position { x: 55 y: 5 } }
waypoints { name: "near" position { x: 5 y: 35 } }
paths { name: "tour" waypoints: ["far", "near"] looped: true }
navmesh { tile_size: 32 }
archetypes {
  name: "walker"
  limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 10 max_turn_rate_deg: 540 }
  behaviours { kind: WALL_AVOIDANCE weight: 2 }
  behaviours { kind: NAVIGATE waypoint: "far" priority: 1 }
}
spawns { archetype: "walker" count: 3 min { x: 3 y: 3 } max { x: 8 y: 8 } }
)";

std::string navReplaced(const std::string& from, const std::string& to) { return replacedIn(kNav, from, to); }

TEST(ScenarioFileNav, NavigatorsWalkRoundTheBoxesToTheirWaypoint) {
  ScenarioLoad r = load(kNav);
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  ASSERT_NE(r.world, nullptr);
  World& w = *r.world;
  ASSERT_NE(w.navigation(), nullptr);
  EXPECT_FALSE(w.geometry().navPolygons.empty());
  EXPECT_EQ(w.geometry().walls.size(), 4u);  // the box, as four outward walls
  EXPECT_NE(r.summary.find("navmesh built"), std::string::npos) << r.summary;
  // The straight line crosses the box; the walkers go up through the gap and arrive.
  float highest = 0.0f;
  for (int t = 0; t < 60 * 30; ++t) {
    w.step();
    for (std::size_t s = 0; s < w.agentCount(); ++s) {
      highest = std::max(highest, w.agents().py[s]);
      const float x = w.agents().px[s], y = w.agents().py[s];
      EXPECT_FALSE(x > 29.0f && x < 31.0f && y < 30.0f) << "inside the box at tick " << t;
    }
  }
  EXPECT_GT(highest, 30.0f);
  for (std::size_t s = 0; s < w.agentCount(); ++s) {
    EXPECT_LT(std::hypot(w.agents().px[s] - 55.0f, w.agents().py[s] - 5.0f), 2.5f)
        << "agent " << w.agents().id[s];
  }
  EXPECT_EQ(w.navigation()->stats().failed, 0u);
}

TEST(ScenarioFileNav, AnOpenPathEndsAtItsLastWaypointAndTheWalkerStays) {
  // "tour" made open: far, then near; after near there is nothing more to ask for.
  std::string text = navReplaced("looped: true", "looped: false");
  const std::string navigate = "behaviours { kind: NAVIGATE waypoint: \"far\" priority: 1 }";
  text.replace(text.find(navigate), navigate.size(),
               "behaviours { kind: NAVIGATE path: \"tour\" priority: 1 }");
  ScenarioLoad r = load(text);
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  World& w = *r.world;
  for (int t = 0; t < 90 * 30; ++t) w.step();
  const std::uint64_t served = w.navigation()->stats().planner.served;
  for (int t = 0; t < 60; ++t) w.step();
  EXPECT_EQ(w.navigation()->stats().planner.served, served)
      << "paths asked for after the end of an open path";
  for (std::size_t s = 0; s < w.agentCount(); ++s) {
    EXPECT_LT(std::hypot(w.agents().px[s] - 5.0f, w.agents().py[s] - 35.0f), 3.0f)
        << "agent " << w.agents().id[s];
  }
}

TEST(ScenarioFileNav, NavigateWithoutANavmeshIsRefused) {
  expectError(navReplaced("navmesh { tile_size: 32 }", ""),
              "archetypes[0] (\"walker\").behaviours[1]: NAVIGATE needs a navmesh { } block");
}

TEST(ScenarioFileNav, NavigateToAMissingWaypointOrPathIsNamed) {
  expectError(navReplaced("waypoint: \"far\"", "waypoint: \"faraway\""),
              "behaviours[1].waypoint: no waypoint named \"faraway\"");
  expectError(navReplaced("waypoint: \"far\"", "path: \"tourr\""),
              "behaviours[1].path: no path named \"tourr\"");
}

TEST(ScenarioFileNav, UnreachableGoalIsRefused) {
  // Close the gap: "far" is on the other side of a wall with no way round.
  expectError(navReplaced("half_size { x: 1 y: 15 }", "half_size { x: 1 y: 25 }"),
              "unreachable goal: waypoint \"far\" cannot be reached from spawns[0]");
  // Along a path, the waypoint that cannot be reached is the one named.
  std::string alongPath = navReplaced("half_size { x: 1 y: 15 }", "half_size { x: 1 y: 25 }");
  const std::string navigate = "behaviours { kind: NAVIGATE waypoint: \"far\" priority: 1 }";
  alongPath.replace(alongPath.find(navigate), navigate.size(),
                    "behaviours { kind: NAVIGATE path: \"tour\" priority: 1 }");
  expectError(alongPath, "path (\"tour\").waypoints[0]: unreachable goal: waypoint \"far\"");
}

TEST(ScenarioFileNav, GoalOffTheWalkableAreaIsRefused) {
  // "far" in the middle of a 10 m building.
  expectError(
      navReplaced("position { x: 55 y: 5 }",
                  "position { x: 45 y: 25 } }\nboxes { center { x: 45 y: 25 } half_size { x: 5 y: 5 }"),
      "waypoint \"far\" is not on the walkable area");
}

TEST(ScenarioFileNav, SpawnsOutsideTheWalkableAreaAreRefused) {
  // Walkable ground only on the right half: the spawn box on the left holds none.
  expectError(navReplaced("navmesh { tile_size: 32 }",
                          "navmesh { tile_size: 32 walkable { points { x: 32 y: 0 } points { x: 60 y: 0 } "
                          "points { x: 60 y: 40 } points { x: 32 y: 40 } } }"),
              "spawns[0]: the spawn box (3, 3) - (8, 8) holds no walkable ground");
}

TEST(ScenarioFileNav, BadNavmeshSettingsAndShapesAreNamed) {
  expectError(navReplaced("navmesh { tile_size: 32 }", "navmesh { tile_size: 32 cell_size: -1 }"),
              "navmesh.cell_size: must be a finite number >= 0, not -1");
  expectError(navReplaced("navmesh { tile_size: 32 }",
                          "navmesh { blocking { points { x: 1 y: 1 } points { x: 2 y: 2 } } }"),
              "navmesh.blocking[0]: needs at least 3 points, has 2");
  expectError(
      navReplaced(
          "navmesh { tile_size: 32 }",
          "navmesh { areas { name: \"mud\" cost: 0 polygon { points { x: 1 y: 1 } points { x: 5 y: 1 } "
          "points { x: 5 y: 5 } } } }"),
      "navmesh.areas[0] (\"mud\").cost: 0.000000 (must be > 0)");
  expectError(navReplaced("half_size { x: 1 y: 15 }", "half_size { x: 0 y: 15 }"),
              "boxes[0].half_size.x: must be a finite number > 0, not 0");
  expectError(
      navReplaced("navmesh { tile_size: 32 }", "navmesh { links { from { x: nan y: 1 } to { x: 3 y: 3 } } }"),
      "navmesh.links[0].from: not a finite point");
}

TEST(ScenarioFileNav, SameGeometryLoadsFromTheCache) {
  const std::string dir = ::testing::TempDir() + "steerd-navcache-file-" + std::to_string(::getpid());
  ScenarioOptions options(1, 1, 0, dir);
  const ScenarioLoad first = loadScenarioText(kNav, "t.txtpb", options, false);
  ASSERT_TRUE(first.errors.empty());
  EXPECT_NE(first.summary.find("cached as"), std::string::npos) << first.summary;
  const ScenarioLoad second = loadScenarioText(kNav, "t.txtpb", options, true);
  ASSERT_TRUE(second.errors.empty());
  EXPECT_NE(second.summary.find("navmesh from cache"), std::string::npos) << second.summary;
  ASSERT_NE(second.world, nullptr);
  // A change to the geometry misses the cache.
  const ScenarioLoad moved = loadScenarioText(navReplaced("center { x: 30 y: 15 }", "center { x: 31 y: 15 }"),
                                              "t.txtpb", options, false);
  EXPECT_NE(moved.summary.find("navmesh built"), std::string::npos) << moved.summary;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace steerd

namespace steerd {
namespace {

TEST(ScenarioFile, ContactPassesReachTheWorldAndAreBounded) {
  const ScenarioLoad good = loadScenarioText(kGood + "contact_passes: 3\n", "t.txtpb", {}, true);
  ASSERT_TRUE(good.errors.empty()) << good.errors.front();
  EXPECT_EQ(good.world->config().contactPasses, 3);
  const ScenarioLoad bad = loadScenarioText(kGood + "contact_passes: 9\n", "t.txtpb", {}, false);
  ASSERT_EQ(bad.errors.size(), 1u);
  EXPECT_NE(bad.errors[0].find("contact_passes: at most 8, not 9"), std::string::npos) << bad.errors[0];
}

}  // namespace
}  // namespace steerd
