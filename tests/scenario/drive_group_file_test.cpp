// DRIVE_GROUP and catch_distance in scenario files: what they load into, and the errors that name
// the field when they are wrong.
#include <gtest/gtest.h>

#include <string>

#include "scenario_text.h"

namespace steerd {
namespace {

using namespace steerd::testing;

const std::string kPen = R"(
name: "pen"
bounds { min { x: 0 y: 0 } max { x: 100 y: 100 } }
waypoints { name: "pen" position { x: 50 y: 90 } }
archetypes {
  name: "sheep"
  limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 8 }
  behaviours { kind: EVADE_NEAREST target_archetype: "dog" range: 15 }
}
archetypes {
  name: "dog"
  limits { radius: 0.6 mass: 1 max_speed: 6 max_force: 16 }
  behaviours { kind: DRIVE_GROUP target_archetype: "sheep" waypoint: "pen" range: 18 stand_off: 22 }
}
archetypes {
  name: "wolf"
  limits { radius: 0.7 mass: 1 max_speed: 5 max_force: 14 }
  catch_distance: 1.5
  behaviours { kind: PURSUE_NEAREST target_archetype: "sheep" range: 40 }
}
spawns { archetype: "sheep" count: 10 min { x: 40 y: 20 } max { x: 60 y: 35 } }
spawns { archetype: "dog" count: 1 min { x: 48 y: 5 } max { x: 52 y: 8 } }
spawns { archetype: "wolf" count: 1 min { x: 5 y: 50 } max { x: 8 y: 55 } }
)";

std::string replaced(const std::string& from, const std::string& to) { return replacedIn(kPen, from, to); }

TEST(DriveGroupFile, LoadsIntoTheBehaviourAndTheArchetype) {
  const ScenarioLoad r = load(kPen);
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  ASSERT_NE(r.world, nullptr);
  const auto& archetypes = r.world->archetypes();
  ASSERT_EQ(archetypes[1].behaviours.size(), 1u);
  const BehaviourSpec& drive = archetypes[1].behaviours[0];
  EXPECT_EQ(drive.kind, BehaviourKind::kDriveGroup);
  EXPECT_EQ(drive.targetArchetype, 0);
  EXPECT_EQ(drive.secondArchetype, 0);  // the group's own centroid when second_archetype is left out
  EXPECT_EQ(drive.point.x, 50.0f);
  EXPECT_EQ(drive.point.y, 90.0f);
  EXPECT_EQ(drive.range, 18.0f);
  EXPECT_EQ(drive.standOff, 22.0f);
  EXPECT_EQ(archetypes[2].catchDistance, 1.5f);
  EXPECT_EQ(archetypes[0].catchDistance, 0.0f);  // default: never
  // The dog's group is measured every tick (its centroid and farthest member).
  r.world->step();
  const StepContext ctx = r.world->lastStepContext();
  ASSERT_NE(ctx.groups, nullptr);
  EXPECT_GE(ctx.groups->find(0, 0), 0);
}

TEST(DriveGroupFile, StandOffDefaultsAndSecondArchetypeIsNamed) {
  const ScenarioLoad r = load(replaced("range: 18 stand_off: 22", "range: 18 second_archetype: \"wolf\""));
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  const BehaviourSpec& drive = r.world->archetypes()[1].behaviours[0];
  EXPECT_EQ(drive.standOff, 20.0f);
  EXPECT_EQ(drive.secondArchetype, 2);
}

TEST(DriveGroupFile, WhatItNeedsIsNamedWhenMissingOrWrong) {
  expectError(replaced("waypoint: \"pen\" range: 18", "range: 18"),
              "archetypes[1] (\"dog\").behaviours[0].waypoint: no waypoint named \"\"");
  expectError(replaced("waypoint: \"pen\" range: 18", "waypoint: \"fold\" range: 18"),
              "archetypes[1] (\"dog\").behaviours[0].waypoint: no waypoint named \"fold\"");
  expectError(replaced("kind: DRIVE_GROUP target_archetype: \"sheep\"",
                       "kind: DRIVE_GROUP target_archetype: \"shep\""),
              "archetypes[1] (\"dog\").behaviours[0].target_archetype: no archetype named \"shep\"");
  expectError(replaced("range: 18 stand_off", "stand_off"),
              "archetypes[1] (\"dog\").behaviours[0].range: must be a finite number > 0, not 0");
  expectError(replaced("stand_off: 22", "stand_off: -3"),
              "archetypes[1] (\"dog\").behaviours[0].stand_off: must be a finite number >= 0, not -3");
  expectError(replaced("stand_off: 22", "stand_off: 22 second_archetype: \"goat\""),
              "archetypes[1] (\"dog\").behaviours[0].second_archetype: no archetype named \"goat\"");
  expectError(replaced("kind: DRIVE_GROUP", "kind: DRIVE_GROUP target: GROUP_CENTROID"),
              "archetypes[1] (\"dog\").behaviours[0].target: DRIVE_GROUP drives the whole group of "
              "target_archetype (leave target out), not GROUP_CENTROID");
}

TEST(DriveGroupFile, CatchDistanceMustBeFiniteAndNotNegative) {
  expectError(replaced("catch_distance: 1.5", "catch_distance: -1"),
              "archetypes[2] (\"wolf\").catch_distance: must be a finite number >= 0, not -1");
  expectError(replaced("catch_distance: 1.5", "catch_distance: nan"),
              "archetypes[2] (\"wolf\").catch_distance: must be a finite number >= 0, not nan");
  expectError(replaced("catch_distance: 1.5", "catch_distance: inf"),
              "archetypes[2] (\"wolf\").catch_distance");
}

// --agents repeats the world, but archetypes are shared: every copy's dog would drive one group.
TEST(DriveGroupFile, AFileThatDrivesAGroupIsNotTiled) {
  const ScenarioLoad r = loadScenarioText(kPen, "t.txtpb", {1, 1, 120}, true);
  EXPECT_EQ(r.world, nullptr);
  EXPECT_TRUE(mentions(r.errors, "(\"dog\").behaviours[0].kind", "DRIVE_GROUP's group would be one for all"));
  EXPECT_TRUE(mentions(r.errors, "(\"dog\").behaviours[0].waypoint", "--agents"));
}

// The shipped files check clean.
TEST(DriveGroupFile, TheShippedSheepdogAndGuardsFilesLoad) {
  for (const char* name : {"sheepdog.txtpb", "guards.txtpb"}) {
    const ScenarioLoad r = loadScenarioFile(std::string(STEERD_SCENARIOS_DIR) + "/" + name, {1, 1, 0}, false);
    EXPECT_TRUE(r.errors.empty()) << name << ": " << (r.errors.empty() ? "" : r.errors[0]);
  }
}

}  // namespace
}  // namespace steerd
