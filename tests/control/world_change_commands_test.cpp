// The control API's doors, areas and obstacles (handlers/world_changes.cpp): each error names the
// field and changes nothing; what succeeds reaches the world, with the obstacle ids the game gets
// back; a thousand commands in one tick cost one rebuild at the next tick's start.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "control/control.h"
#include "scenario/scenario_file.h"
#include "steering/polygon.h"

namespace steerd::control {
namespace {

const char* kScenario = R"(
name: "world-change-commands"
bounds { min { x: 0 y: 0 } max { x: 40 y: 20 } }
boxes { center { x: 20 y: 4.5 } half_size { x: 0.5 y: 4.5 } }
boxes { center { x: 20 y: 16 } half_size { x: 0.5 y: 4 } }
doors { name: "door" from { x: 20 y: 9 } to { x: 20 y: 12 } }
navmesh { agent_radius: 0.5 areas { name: "mud" polygon { points { x: 2 y: 2 } points { x: 8 y: 2 } points { x: 8 y: 8 } points { x: 2 y: 8 } } cost: 3 } }
archetypes {
  name: "walker"
  limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 30 max_turn_rate_deg: 540 }
  behaviours { kind: WANDER weight: 1 priority: 1 }
}
)";

struct Rig {
  std::unique_ptr<World> world;
  std::unique_ptr<Controller> ctl;
  SubscriberId me = 0;
  Rig() {
    ScenarioLoad load = loadScenarioText(kScenario, "world-change-commands.txtpb", {1, 1, 0}, true);
    EXPECT_TRUE(load.errors.empty()) << (load.errors.empty() ? "" : load.errors[0]);
    world = std::move(load.world);
    ctl = std::make_unique<Controller>(*world);
    me = ctl->addSubscriber({});
  }
  CommandResult run(const Command& c) { return ctl->apply(me, c); }
  // Refused, and the world's doors and obstacles are as they were.
  std::string error(const Command& c) {
    const std::size_t obstacles = world->liveObstacles().size();
    const bool open = world->doors()[0].open;
    const CommandResult r = run(c);
    EXPECT_EQ(r.status(), STATUS_ERROR);
    EXPECT_EQ(world->liveObstacles().size(), obstacles);
    EXPECT_EQ(world->doors()[0].open, open);
    return r.error();
  }
};

const float kNan = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

TEST(WorldChangeCommands, DoorsByNameOpenAndShut) {
  Rig rig;
  EXPECT_EQ(rig.error(setDoor("gate", false)), "set_door.door: no door \"gate\" in the scenario");
  EXPECT_EQ(rig.run(setDoor("door", false)).status(), STATUS_OK);
  EXPECT_FALSE(rig.world->doors()[0].open);
  EXPECT_FALSE(rig.world->geometry().navMesh->areaPassable(rig.world->doors()[0].area));
  EXPECT_EQ(rig.run(setDoor("door", true)).status(), STATUS_OK);
  EXPECT_TRUE(rig.world->doors()[0].open);
  EXPECT_EQ(rig.world->doorFigures()[0].toggles, 2u);
}

TEST(WorldChangeCommands, AreasSwitchOffAndChangeCost) {
  Rig rig;
  const nav::NavMesh& mesh = *rig.world->geometry().navMesh;
  EXPECT_EQ(rig.error(setArea("swamp", true)), "set_area.area: no navmesh area \"swamp\" in the scenario");
  EXPECT_EQ(rig.error(setArea("mud", false, kNan)),
            "set_area.cost: must be finite and > 0 (0: unchanged), got nan");
  EXPECT_EQ(rig.error(setArea("mud", false, -1.0f)).rfind("set_area.cost", 0), 0u);
  EXPECT_FLOAT_EQ(mesh.areaCost(1), 3.0f);
  EXPECT_EQ(rig.run(setArea("mud", false, 0.5f)).status(), STATUS_OK);
  EXPECT_FLOAT_EQ(mesh.areaCost(1), 0.5f);
  EXPECT_TRUE(mesh.areaPassable(1));
  EXPECT_EQ(rig.run(setArea("mud", true)).status(), STATUS_OK);
  EXPECT_FALSE(mesh.areaPassable(1));
  EXPECT_FLOAT_EQ(mesh.areaCost(1), 0.5f) << "0: the cost unchanged";
}

TEST(WorldChangeCommands, ObstaclesAreCheckedFieldByField) {
  Rig rig;
  EXPECT_EQ(rig.error(addCircleObstacle(kNan, 5, 1)), "add_obstacle.position: not a finite point");
  EXPECT_EQ(rig.error(addCircleObstacle(5, kInf, 1)), "add_obstacle.position: not a finite point");
  EXPECT_EQ(rig.error(addCircleObstacle(50, 5, 1)), "add_obstacle.position: outside the world's bounds");
  EXPECT_EQ(rig.error(addCircleObstacle(5, 5, kNan)), "add_obstacle.radius: sizes and angle must be finite");
  EXPECT_EQ(rig.error(addCircleObstacle(5, 5, 1e9f)), "add_obstacle.radius: too large (at most 50 m)");
  EXPECT_EQ(rig.error(addCircleObstacle(5, 5, -1)), "add_obstacle.radius: negative");
  EXPECT_EQ(rig.error(addBoxObstacle(5, 5, 0, 1)),
            "add_obstacle.half_size: a box needs both half sizes > 0 (or give a radius for a circle, "
            "points for a polygon)");
  EXPECT_EQ(rig.error(addBoxObstacle(5, 5, 1, 1, kInf)),
            "add_obstacle.radius: sizes and angle must be finite");
  Command none;
  none.mutable_add_obstacle();
  EXPECT_EQ(rig.error(none), "add_obstacle.position: missing");
  EXPECT_EQ(rig.error(moveObstacle(7, 5, 5)), "move_obstacle.obstacle: no live obstacle 7");
  EXPECT_EQ(rig.error(removeObstacle(7)), "remove_obstacle.obstacle: no live obstacle 7");
  EXPECT_EQ(rig.world->sceneVersion(), 0u);
}

// An L, counter-clockwise round its centre: arms 2 m wide, the notch (-1, -1)..(3, 3) open.
const std::vector<std::pair<float, float>> kEll{{-3, -3}, {3, -3}, {3, -1}, {-1, -1}, {-1, 3}, {-3, 3}};

TEST(WorldChangeCommands, PolygonsAreCheckedFieldByField) {
  Rig rig;
  EXPECT_EQ(rig.error(addPolygonObstacle(30, 10, {{0, 0}, {1, 0}})),
            "add_obstacle.points: needs at least 3 points, has 2");
  EXPECT_EQ(rig.error(addPolygonObstacle(30, 10, {{0, 0}, {2, 2}, {2, 0}, {0, 2}})),
            "add_obstacle.points: edges 0 and 2 cross (not a simple polygon)");
  EXPECT_EQ(rig.error(addPolygonObstacle(30, 10, {{0, 0}, {kNan, 0}, {0, 1}})),
            "add_obstacle.points: a point is not finite");
  EXPECT_EQ(rig.error(addPolygonObstacle(30, 10, {{0, 0}, {1, 0}, {1, 0}, {0, 1}})),
            "add_obstacle.points: points 1 and next are the same");
  EXPECT_EQ(rig.error(addPolygonObstacle(30, 10, {{0, 0}, {60, 0}, {0, 1}})),
            "add_obstacle.points: a corner too far from position (at most 50 m)");
  EXPECT_EQ(rig.error(addPolygonObstacle(30, 10, kEll, kInf)),
            "add_obstacle.radius: sizes and angle must be finite");
  Command withRadius = addPolygonObstacle(30, 10, kEll);
  withRadius.mutable_add_obstacle()->set_radius(1.0f);
  EXPECT_EQ(rig.error(withRadius), "add_obstacle.points: a polygon has no radius or half_size");
  // A circle of 65 corners is one too many; a hostile million is refused without reading them all.
  for (const int n : {65, 1000000}) {
    std::vector<std::pair<float, float>> round;
    for (int i = 0; i < n; ++i) {
      const float a = 6.2831853f * static_cast<float>(i) / static_cast<float>(n);
      round.push_back({2.0f * std::cos(a), 2.0f * std::sin(a)});
    }
    EXPECT_EQ(rig.error(addPolygonObstacle(30, 10, round)),
              "add_obstacle.points: at most 64, has " + std::to_string(n));
  }
  EXPECT_EQ(rig.world->sceneVersion(), 0u);
}

// Given clockwise, kept counter-clockwise; its outline is six walls facing out; a body in an arm
// is moved out by the nearest side, one in the notch is left where it is.
TEST(WorldChangeCommands, AConcavePolygonWallsItsOutlineAndPushesOnlyWhatIsInside) {
  Rig rig;
  const std::size_t walls = rig.world->geometry().walls.size();
  const AgentId inArm = rig.world->spawn(0, {27.5f, 10.0f});  // 0.5 m inside the west side
  const AgentId inNotch = rig.world->spawn(0, {32.0f, 12.0f});
  const std::vector<std::pair<float, float>> clockwise(kEll.rbegin(), kEll.rend());
  const CommandResult r = rig.run(addPolygonObstacle(30, 10, clockwise));
  ASSERT_EQ(r.status(), STATUS_OK) << r.error();
  rig.world->step();
  const LiveObstacle* o = rig.world->liveObstacle(r.obstacle());
  ASSERT_NE(o, nullptr);
  EXPECT_GT(steer::signedArea2(o->shape.points), 0.0f);
  EXPECT_EQ(rig.world->geometry().walls.size(), walls + 6);
  const nav::Polygon outline = obstacleOutline(o->shape);
  const auto& a = rig.world->agents();
  const steer::Vec2 arm{a.px[rig.world->slotOf(inArm)], a.py[rig.world->slotOf(inArm)]};
  EXPECT_FALSE(steer::insidePolygon(arm, outline));
  EXPECT_LT(arm.x, 27.0f - 0.5f + 0.1f) << "out by the west side, the nearest";
  const steer::Vec2 notch{a.px[rig.world->slotOf(inNotch)], a.py[rig.world->slotOf(inNotch)]};
  EXPECT_LT(steer::distance(notch, {32.0f, 12.0f}), 0.2f) << "the notch is outside the polygon";
}

// Carved, the navmesh loses the L's arms but keeps its notch: a triangle fan, not the hull.
TEST(WorldChangeCommands, ACarvingPolygonCutsItsOwnShapeOutOfTheNavmesh) {
  Rig rig;
  ASSERT_EQ(rig.run(addPolygonObstacle(30, 10, kEll, 0, true)).status(), STATUS_OK);
  for (int i = 0; i < 200 && rig.world->tilesWaiting() > 0; ++i) rig.world->step();
  ASSERT_EQ(rig.world->tilesWaiting(), 0u);
  EXPECT_TRUE(rig.world->lastCarveError().empty()) << rig.world->lastCarveError();
  const nav::NavMesh& mesh = *rig.world->geometry().navMesh;
  for (const steer::Vec2 inside : {steer::Vec2{28, 12}, steer::Vec2{32, 8}, steer::Vec2{28, 8}}) {
    const nav::NavPoint p = mesh.nearest(inside, 3.0f);
    ASSERT_TRUE(p);
    EXPECT_GT(steer::distance(p.position, inside), 0.9f) << inside.x << ", " << inside.y;
  }
  const nav::NavPoint notch = mesh.nearest({32, 12}, 3.0f);
  ASSERT_TRUE(notch);
  EXPECT_LT(steer::distance(notch.position, {32, 12}), 0.05f);
}

TEST(WorldChangeCommands, ObstaclesGetIdsMoveAndGo) {
  Rig rig;
  const CommandResult a = rig.run(addCircleObstacle(5, 5, 1));
  const CommandResult b = rig.run(addBoxObstacle(30, 10, 2, 1, 45));
  ASSERT_EQ(a.status(), STATUS_OK) << a.error();
  ASSERT_EQ(b.status(), STATUS_OK) << b.error();
  EXPECT_EQ(a.obstacle(), 1u);
  EXPECT_EQ(b.obstacle(), 2u);
  EXPECT_EQ(rig.error(moveObstacle(1, kNan, 5)), "move_obstacle.position: not a finite point");
  EXPECT_EQ(rig.run(moveObstacle(1, 6, 7)).obstacle(), 1u);
  rig.world->step();
  ASSERT_EQ(rig.world->geometry().obstacles.size(), 1u);
  EXPECT_EQ(rig.world->geometry().obstacles[0].center.x, 6.0f);
  EXPECT_EQ(rig.world->geometry().obstacles[0].center.y, 7.0f);
  EXPECT_EQ(rig.world->sceneVersion(), 1u);
  EXPECT_EQ(rig.run(removeObstacle(1)).status(), STATUS_OK);
  EXPECT_EQ(rig.error(removeObstacle(1)), "remove_obstacle.obstacle: no live obstacle 1");
  rig.world->step();
  EXPECT_TRUE(rig.world->geometry().obstacles.empty());
  // Ids are never reused.
  EXPECT_EQ(rig.run(addCircleObstacle(5, 5, 1)).obstacle(), 3u);
}

TEST(WorldChangeCommands, ACarvingObstacleQueuesItsTilesAndNeedsANavmesh) {
  Rig rig;
  ASSERT_EQ(rig.run(addBoxObstacle(30, 10, 2, 1, 0, true)).status(), STATUS_OK);
  EXPECT_GT(rig.world->tilesWaiting(), 0u);
  rig.world->step();
  EXPECT_GT(rig.world->tilesCarved(), 0u);
  ScenarioLoad bare = loadScenarioText(
      "name: \"bare\" bounds { min { x: 0 y: 0 } max { x: 40 y: 20 } }\n"
      "archetypes { name: \"walker\" limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 30 "
      "max_turn_rate_deg: 540 } "
      "behaviours { kind: WANDER } }",
      "bare.txtpb", {1, 1, 0}, true);
  ASSERT_TRUE(bare.errors.empty()) << bare.errors[0];
  Controller ctl(*bare.world);
  const CommandResult r = ctl.apply(ctl.addSubscriber({}), addCircleObstacle(5, 5, 1, true));
  EXPECT_EQ(r.error(), "add_obstacle.carve: the scenario has no navmesh to carve");
  EXPECT_TRUE(bare.world->liveObstacles().empty());
}

// A MoveTo goal in the east room, the only door shut on the way: the walker's path is replanned
// and finds only part of the way, which is a path_failed event with the goal's position; opened,
// it arrives.
TEST(WorldChangeCommands, AGoalBehindAShutDoorFailsThenArrivesOnceItOpens) {
  const std::string text = std::string(kScenario) + R"(
archetypes {
  name: "navigator"
  limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 30 max_turn_rate_deg: 540 }
  behaviours { kind: NAVIGATE weight: 1 priority: 1 range: 1 }
}
)";
  ScenarioLoad load = loadScenarioText(text, "door-goal.txtpb", {1, 1, 0}, true);
  ASSERT_TRUE(load.errors.empty()) << load.errors[0];
  World& world = *load.world;
  Controller ctl(world);
  std::vector<Event> events;
  const SubscriberId me = ctl.addSubscriber({.onEvent = [&](const Event& e) { events.push_back(e); }});
  ASSERT_EQ(ctl.subscribe(me, {}), "");
  const auto tick = [&](int n) {
    for (int i = 0; i < n; ++i) {
      ctl.applyPending();
      world.step();
      ctl.afterTick();
    }
  };
  const CommandResult spawned = ctl.apply(me, spawnAt("navigator", 10, 10));
  ASSERT_EQ(spawned.status(), STATUS_OK) << spawned.error();
  ASSERT_EQ(ctl.apply(me, moveTo(spawned.agent(), 30, 10)).status(), STATUS_OK);
  ASSERT_EQ(ctl.apply(me, setDoor("door", false)).status(), STATUS_OK);
  tick(30 * 3);
  std::size_t failed = 0, arrived = 0;
  for (const Event& e : events) {
    if (e.kind() == EVENT_PATH_FAILED) {
      ++failed;
      EXPECT_EQ(e.position().x(), 30.0f);
    }
  }
  EXPECT_GE(failed, 1u);
  ASSERT_EQ(ctl.apply(me, setDoor("door", true)).status(), STATUS_OK);
  tick(30 * 20);
  for (const Event& e : events) arrived += e.kind() == EVENT_ARRIVED ? 1 : 0;
  EXPECT_EQ(arrived, 1u);
}

TEST(WorldChangeCommands, ABodyUnderANewBoxIsMovedOutOfIt) {
  Rig rig;
  const AgentId id = rig.world->spawn(0, {30.2f, 10.0f});
  ASSERT_EQ(rig.run(addBoxObstacle(30, 10, 2, 1)).status(), STATUS_OK);
  rig.world->step();
  const std::uint32_t s = rig.world->slotOf(id);
  const float y = rig.world->agents().py[s];
  EXPECT_TRUE(y >= 11.0f + 0.5f - 0.05f || y <= 9.0f - 0.5f + 0.05f) << "y " << y;
}

TEST(WorldChangeCommands, LiveObstaclesAreBoundedAndAFloodCostsOneRebuild) {
  Rig rig;
  for (std::size_t i = 0; i < kMaxLiveObstacles; ++i) {
    const float x = 1.0f + static_cast<float>(i % 38), y = 1.0f + static_cast<float>(i / 38) * 0.5f;
    ASSERT_EQ(rig.run(addCircleObstacle(x, y, 0.2f)).status(), STATUS_OK) << i;
  }
  EXPECT_EQ(rig.error(addCircleObstacle(5, 5, 1)),
            "add_obstacle: the world holds 1024 obstacles already (remove some first)");
  rig.world->step();
  EXPECT_EQ(rig.world->sceneVersion(), 1u) << "one tick's changes are one change of the scene";
  EXPECT_EQ(rig.world->geometry().obstacles.size(), kMaxLiveObstacles);
}

}  // namespace
}  // namespace steerd::control
