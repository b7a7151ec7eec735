// Doors and schedules in scenario files (issue 40), and the two shipped scenarios built on them:
// a door shut leaves paths at once with no rebuild and moves bodies out of its doorway; a
// schedule's changes happen at their ticks; the castle gate and the market cart hold their
// outcomes; both are the same world for any thread count. Bad doors and schedules are errors
// naming the field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "analysis/door_meter.h"
#include "analysis/motion_quality.h"
#include "nav/path_planner.h"
#include "scenario/scenario_file.h"
#include "scenario_text.h"
#include "steering/polygon.h"

namespace steerd {
namespace {

// Two 20 m rooms, a 1 m wall between them with one 3 m opening at y 9-12, and a door in it.
const char* kRooms = R"(
name: "rooms"
bounds { min { x: 0 y: 0 } max { x: 40 y: 20 } }
boxes { center { x: 20 y: 4.5 } half_size { x: 0.5 y: 4.5 } }
boxes { center { x: 20 y: 16 } half_size { x: 0.5 y: 4 } }
doors { name: "door" from { x: 20 y: 9 } to { x: 20 y: 12 } }
waypoints { name: "w" position { x: 5 y: 10 } }
waypoints { name: "e" position { x: 35 y: 10 } }
paths { name: "across" waypoints: ["w", "e"] looped: true }
navmesh { agent_radius: 0.5 cell_size: 0.25 }
archetypes {
  name: "walker"
  limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 30 max_turn_rate_deg: 540 }
  path_seek_distance: 1.0
  behaviours { kind: WALL_AVOIDANCE weight: 2 priority: 0 }
  behaviours { kind: SEPARATION weight: 2 priority: 1 }
  behaviours { kind: NAVIGATE path: "across" weight: 1 priority: 2 range: 2 }
}
)";

std::unique_ptr<World> rooms(const std::string& extra = {}) {
  ScenarioLoad load = testing::load(std::string(kRooms) + extra);
  for (const auto& e : load.errors) ADD_FAILURE() << e;
  return std::move(load.world);
}

WorldChange doorChange(bool open) { return WorldChange::setDoor(0, open); }

TEST(WorldChangesFile, AShutDoorIsLeftOutOfPathsAtOnceWithNoRebuild) {
  auto world = rooms();
  ASSERT_NE(world, nullptr);
  nav::NavMesh& mesh = *world->geometry().navMesh;
  const std::uint8_t area = world->doors()[0].area;
  ASSERT_GT(mesh.areaPolygonCount(area), 0u);
  nav::PathPlanner planner(mesh);
  const nav::PathResult open = planner.findNow({5, 10}, {35, 10});
  ASSERT_TRUE(open.found);
  EXPECT_FALSE(open.partial);
  const dtMeshTile* tileBefore = mesh.detour().getTile(0);
  const std::size_t polygonsBefore = mesh.polygonCount();

  world->applyChange(doorChange(false));
  const nav::PathResult shut = planner.findNow({5, 10}, {35, 10});
  EXPECT_TRUE(shut.partial) << "the only way east is through the door";
  EXPECT_FALSE(mesh.areaPassable(area));
  // Nothing was rebuilt: the same tile, the same polygons.
  EXPECT_EQ(mesh.detour().getTile(0), tileBefore);
  EXPECT_EQ(mesh.polygonCount(), polygonsBefore);

  world->applyChange(doorChange(true));
  const nav::PathResult again = planner.findNow({5, 10}, {35, 10});
  EXPECT_FALSE(again.partial);
}

TEST(WorldChangesFile, ShuttingADoorMovesBodiesOutOfTheDoorwayAndStopsOthers) {
  auto world = rooms();
  ASSERT_NE(world, nullptr);
  const AgentId inDoor = world->spawn(0, {20.2f, 10.5f});
  world->applyChange(doorChange(false));
  world->step();
  const float x = world->agents().px[world->slotOf(inDoor)];
  // Out by the nearer face (x 20.5), a radius beyond it, never through a jamb into the wall.
  EXPECT_GE(x, 20.5f + 0.5f - 0.05f);
  // Walls stand across the doorway now: a walker sent at it from the west stays west.
  const AgentId west = world->spawn(0, {17.0f, 10.5f}, {3.0f, 0.0f});
  for (int t = 0; t < 90; ++t) world->step();
  EXPECT_LT(world->agents().px[world->slotOf(west)], 19.5f + 0.05f);
  EXPECT_EQ(world->doorFigures()[0].toggles, 1u);
  EXPECT_EQ(world->doorFigures()[0].closedTicks, 91u);
}

TEST(WorldChangesFile, WalkersWhosePathsRanThroughAShutDoorPlanAgain) {
  auto world = rooms(R"(
archetypes {
  name: "eastward"
  limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 30 max_turn_rate_deg: 540 }
  behaviours { kind: SEPARATION weight: 2 priority: 1 }
  behaviours { kind: NAVIGATE waypoint: "e" weight: 1 priority: 2 range: 2 }
}
spawns { archetype: "eastward" count: 10 min { x: 2 y: 2 } max { x: 8 y: 18 } }
)");
  ASSERT_NE(world, nullptr);
  for (int t = 0; t < 30; ++t) world->step();  // paths planned, through the door
  world->applyChange(doorChange(false));
  world->step();
  EXPECT_EQ(world->doorFigures()[0].replans, 10u);
  world->step();
  EXPECT_EQ(world->navigation()->stats().replansWorldChange, 10u);
  world->applyChange(doorChange(true));
  world->step();
  EXPECT_EQ(world->doorFigures()[0].replans, 20u) << "opened: everyone with a goal plans again";
}

TEST(WorldChangesFile, ScheduledChangesHappenAtTheirTicks) {
  auto world = rooms(R"(
schedule { at_s: 1 close_door: "door" }
schedule { at_s: 2 add_obstacle { name: "crate" center { x: 10 y: 5 } half_size { x: 1 y: 1 } } }
schedule { at_s: 2 add_obstacle { name: "ball" radius: 0.5 path: "across" speed: 3 } }
schedule { at_s: 3 remove_obstacle: "crate" }
schedule { at_s: 3 open_door: "door" }
)");
  ASSERT_NE(world, nullptr);
  for (int t = 0; t < 30; ++t) world->step();  // ticks 0-29
  EXPECT_TRUE(world->doors()[0].open);
  world->step();  // tick 30 = 1 s
  EXPECT_FALSE(world->doors()[0].open);
  for (int t = 0; t < 31; ++t) world->step();  // through tick 61
  ASSERT_EQ(world->liveObstacles().size(), 2u);
  EXPECT_EQ(world->liveObstacles()[0].name, "crate");
  EXPECT_EQ(world->liveObstacles()[0].id, 1u);
  // The ball started at the path's first point (5, 10) and rolls east at 3 m/s.
  EXPECT_NEAR(world->liveObstacles()[1].shape.center.x, 5.0f + 3.0f * 2.0f / 30.0f, 1e-3f);
  std::size_t walls = 0;
  for (const auto& w : world->geometry().walls) walls += (w.from.x == 11.0f || w.from.x == 9.0f) ? 1 : 0;
  EXPECT_GE(walls, 2u) << "the crate's walls are in the geometry";
  for (int t = 0; t < 30; ++t) world->step();  // through tick 91 (3 s = tick 90)
  ASSERT_EQ(world->liveObstacles().size(), 1u);
  EXPECT_EQ(world->liveObstacles()[0].name, "ball");
  EXPECT_TRUE(world->doors()[0].open);
  EXPECT_EQ(world->doorFigures()[0].closedTicks, 60u);
}

TEST(WorldChangesFile, BrainsReadWhetherADoorIsOpen) {
  auto world = rooms(R"(
doors { name: "back" from { x: 4 y: 4 } to { x: 8 y: 4 } thickness: 2 closed: true }
brains {
  archetype: "walker"
  initial_state: "waiting"
  think_every_ticks: 1
  states { name: "waiting" transitions { to: "through" when { door_open: "door" } } }
  states { name: "through" transitions { to: "waiting" when { door_shut: "door" } } }
}
)");
  ASSERT_NE(world, nullptr);
  const AgentId a = world->spawn(0, {5.0f, 10.0f});
  world->step();
  world->step();
  EXPECT_EQ(world->brainStateOf(a), 1) << "the door starts open";
  world->applyChange(doorChange(false));
  world->step();
  world->step();
  EXPECT_EQ(world->brainStateOf(a), 0);
}

TEST(WorldChangesFile, BadDoorsAndSchedulesNameTheField) {
  using testing::expectError;
  const std::string good = kRooms;
  expectError(good + "doors { name: \"door\" from { x: 1 y: 1 } to { x: 2 y: 1 } }", "doors[1].name");
  expectError(good + "doors { name: \"d2\" from { x: 1 y: 1 } to { x: 1 y: 1 } }",
              "doors[1].to: the same point");
  expectError(good + "doors { name: \"d2\" from { x: 1 y: 1 } to { x: 2 y: 1 } thickness: nan }",
              "doors[1].thickness");
  expectError(
      good +
          "brains { archetype: \"walker\" initial_state: \"a\" states { name: \"a\" transitions { to: \"a\" "
          "when { door_open: \"gate\" } } } }",
      ".door_open: no door named \"gate\"");
  expectError(good + "schedule { at_s: 1 close_door: \"gate\" }",
              "schedule[0].close_door: no door named \"gate\"");
  expectError(good + "schedule { at_s: -1 open_door: \"door\" }", "schedule[0].at_s");
  expectError(good + "schedule { at_s: inf open_door: \"door\" }", "schedule[0].at_s");
  expectError(good + "schedule { at_s: 1 }", "schedule[0]: no change in it");
  expectError(good + "schedule { at_s: 1 remove_obstacle: \"crate\" }", "schedule[0].remove_obstacle");
  // Removed before it is added (by time, whatever the file's order).
  expectError(good +
                  "schedule { at_s: 5 add_obstacle { name: \"c\" radius: 1 center { x: 5 y: 5 } } }\n"
                  "schedule { at_s: 2 remove_obstacle: \"c\" }",
              "schedule[1].remove_obstacle");
  expectError(good + "schedule { add_obstacle { radius: nan center { x: 5 y: 5 } } }",
              "schedule[0].add_obstacle.radius");
  expectError(good + "schedule { add_obstacle { radius: 1e9 center { x: 5 y: 5 } } }", "too large");
  expectError(good + "schedule { add_obstacle { radius: 1 center { x: 500 y: 5 } } }",
              "outside the world's bounds");
  expectError(good + "schedule { add_obstacle { center { x: 5 y: 5 } half_size { x: 0 y: 1 } } }",
              "schedule[0].add_obstacle.half_size");
  expectError(good +
                  "schedule { add_obstacle { center { x: 5 y: 5 } points { x: 0 y: 0 } points { x: 2 y: 2 } "
                  "points { x: 2 y: 0 } points { x: 0 y: 2 } } }",
              "schedule[0].add_obstacle.points: edges 0 and 2 cross (not a simple polygon)");
  expectError(
      good + "schedule { add_obstacle { center { x: 5 y: 5 } points { x: 0 y: 0 } points { x: 2 y: 2 } } }",
      "schedule[0].add_obstacle.points: needs at least 3 points");
  expectError(good + "schedule { add_obstacle { radius: 1 path: \"nowhere\" speed: 1 } }",
              "schedule[0].add_obstacle.path: no path named");
  expectError(good + "schedule { add_obstacle { radius: 1 path: \"across\" } }",
              "schedule[0].add_obstacle.speed");
  expectError(good + "schedule { add_obstacle { radius: 1 center { x: 5 y: 5 } speed: 2 } }",
              "only an obstacle on a path moves");
  expectError(good + "schedule { add_obstacle { radius: 1 path: \"across\" speed: 1 carve: true } }",
              "schedule[0].add_obstacle.carve: an obstacle on a path moves");
  expectError(good +
                  "schedule { add_obstacle { name: \"a\" radius: 1 center { x: 5 y: 5 } } }\n"
                  "schedule { add_obstacle { name: \"a\" radius: 1 center { x: 6 y: 5 } } }",
              "schedule[1].add_obstacle.name");
  // A door in a wall's solid part covers no ground: it would cut no path.
  expectError(testing::replacedIn(good, "from { x: 20 y: 9 } to { x: 20 y: 12 }",
                                  "from { x: 20 y: 1 } to { x: 20 y: 4 }"),
              "covers no walkable ground");
}

// A polygon from a schedule: its corners turn with angle_deg about its centre, and a wedge driven
// along a path keeps its shape.
TEST(WorldChangesFile, ScheduledPolygonsTurnAndMoveWithTheirCentre) {
  auto world = rooms(R"(
schedule { add_obstacle { name: "wedge" center { x: 10 y: 5 } angle_deg: 90
  points { x: 0 y: 0 } points { x: 2 y: 0 } points { x: 0 y: 1 } } }
schedule { add_obstacle { name: "plough" path: "across" speed: 3
  points { x: -1 y: -1 } points { x: 1 y: 0 } points { x: -1 y: 1 } } }
)");
  ASSERT_NE(world, nullptr);
  world->step();
  ASSERT_EQ(world->liveObstacles().size(), 2u);
  const nav::Polygon wedge = obstacleOutline(world->liveObstacles()[0].shape);
  ASSERT_EQ(wedge.size(), 3u);
  EXPECT_NEAR(wedge[1].x, 10.0f, 1e-4f) << "(2, 0) turned a quarter is (0, 2)";
  EXPECT_NEAR(wedge[1].y, 7.0f, 1e-4f);
  for (int t = 0; t < 30; ++t) world->step();
  const LiveObstacle& plough = world->liveObstacles()[1];
  const nav::Polygon outline = obstacleOutline(plough.shape);
  ASSERT_EQ(outline.size(), 3u);
  EXPECT_NEAR(outline[1].x - plough.shape.center.x, 1.0f, 1e-4f);
  EXPECT_GT(plough.shape.center.x, 5.0f + 2.5f) << "it moved along the path";
}

// Two rooms with no opening at all, joined by a ladder over the wall: a navmesh link, and a door
// on it (a drawbridge, a portcullis) opened and shut like any door, with no rectangle to wall.
const char* kLadder = R"(
name: "ladder"
bounds { min { x: 0 y: 0 } max { x: 40 y: 20 } }
boxes { center { x: 20 y: 10 } half_size { x: 0.5 y: 10 } }
navmesh {
  agent_radius: 0.5 cell_size: 0.25
  links { name: "ladder" from { x: 18 y: 10 } to { x: 22 y: 10 } radius: 0.6 }
}
doors { name: "bridge" link: "ladder" }
archetypes {
  name: "walker"
  limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 30 max_turn_rate_deg: 540 }
  behaviours { kind: NAVIGATE weight: 1 priority: 2 range: 2 }
}
)";

TEST(WorldChangesFile, ADoorOnALinkShutsTheLinkOutOfPathsAndWallsNothing) {
  ScenarioLoad load = testing::load(kLadder);
  ASSERT_TRUE(load.errors.empty()) << load.errors[0];
  World& world = *load.world;
  ASSERT_EQ(world.doors().size(), 1u);
  const Door& door = world.doors()[0];
  EXPECT_TRUE(door.link);
  EXPECT_FLOAT_EQ(door.from.x, 18.0f);
  EXPECT_FLOAT_EQ(door.thickness, 1.2f) << "the link's width";
  nav::NavMesh& mesh = *world.geometry().navMesh;
  EXPECT_EQ(mesh.areaPolygonCount(door.area), 1u) << "the link's own polygon";
  nav::PathPlanner planner(mesh);
  ASSERT_FALSE(planner.findNow({5, 10}, {35, 10}).partial) << "over the ladder";
  const std::size_t walls = world.geometry().walls.size();

  world.applyChange(doorChange(false));
  world.step();
  EXPECT_TRUE(planner.findNow({5, 10}, {35, 10}).partial) << "the ladder was the only way";
  EXPECT_EQ(world.geometry().walls.size(), walls) << "a link has no doorway to wall";
  world.applyChange(doorChange(true));
  world.step();
  EXPECT_FALSE(planner.findNow({5, 10}, {35, 10}).partial);
}

TEST(WorldChangesFile, BadLinkDoorsNameTheField) {
  using testing::expectError;
  const std::string good = kLadder;
  expectError(testing::replacedIn(good, "link: \"ladder\"", "link: \"rope\""),
              "doors[0].link: no navmesh link named \"rope\"");
  expectError(testing::replacedIn(good, "link: \"ladder\"", "link: \"ladder\" thickness: 2"),
              "doors[0].link: a link's door takes its ends");
  expectError(good + "doors { name: \"second\" link: \"ladder\" }", "doors[1].link: a second door on link");
  expectError(testing::replacedIn(
                  good, "radius: 0.6 }",
                  "radius: 0.6 }\n  links { name: \"ladder\" from { x: 18 y: 5 } to { x: 22 y: 5 } }"),
              "navmesh.links[1].name: a second link named");
}

// An open 40 m x 20 m field in 10 m tiles: a barricade that carves is built into the tiles under
// it only, paths go round it, and taken away, straight again.
const char* kField = R"(
name: "field"
bounds { min { x: 0 y: 0 } max { x: 40 y: 20 } }
navmesh { agent_radius: 0.5 cell_size: 0.25 tile_size: 10 }
archetypes {
  name: "walker"
  limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 30 max_turn_rate_deg: 540 }
  behaviours { kind: NAVIGATE weight: 1 priority: 2 range: 2 }
}
)";

float highestCorner(const nav::PathResult& r) {
  float y = -1.0f;
  for (const auto& c : r.corners) y = std::max(y, c.y);
  return y;
}

TEST(WorldChangesFile, ACarvingBarricadeRebuildsItsTilesOnlyAndPathsGoRound) {
  ScenarioLoad load = testing::load(kField);
  ASSERT_TRUE(load.errors.empty()) << load.errors[0];
  World& world = *load.world;
  nav::NavMesh& mesh = *world.geometry().navMesh;
  ASSERT_EQ(mesh.layout().tilesX * mesh.layout().tilesY, 8);
  {
    nav::PathPlanner planner(mesh);
    const nav::PathResult straight = planner.findNow({5, 5}, {35, 5});
    ASSERT_TRUE(straight.found);
    EXPECT_EQ(straight.corners.size(), 1u) << "nothing in the way";
  }
  // A wall of a barricade across x = 20 from y = 0 to 14 (tiles x 1-2, y 0-1: four of eight).
  WorldChange add = WorldChange::add(ObstacleShape{});
  add.obstacle.shape.center = {20.0f, 7.0f};
  add.obstacle.shape.halfSize = {0.5f, 7.0f};
  add.obstacle.carve = true;
  const std::uint32_t id = world.applyChange(add);
  EXPECT_EQ(world.tilesWaiting(), 4u);
  world.step();
  EXPECT_EQ(world.tilesCarved(), 1u) << "a tile a tick";
  for (int t = 0; t < 3; ++t) world.step();
  EXPECT_EQ(world.tilesCarved(), 4u);
  EXPECT_EQ(world.tilesWaiting(), 0u);
  EXPECT_EQ(world.lastCarveError(), "");
  {
    nav::PathPlanner planner(mesh);
    const nav::PathResult round = planner.findNow({5, 5}, {35, 5});
    ASSERT_TRUE(round.found);
    EXPECT_FALSE(round.partial);
    EXPECT_GT(highestCorner(round), 14.0f) << "round the barricade's end";
  }
  world.applyChange(WorldChange::remove(id));
  for (int t = 0; t < 4; ++t) world.step();
  EXPECT_EQ(world.tilesCarved(), 8u);
  nav::PathPlanner planner(mesh);
  EXPECT_EQ(planner.findNow({5, 5}, {35, 5}).corners.size(), 1u) << "straight again";
}

TEST(WorldChangesFile, WalkersGoRoundABarricadeThatCarves) {
  ScenarioLoad load = testing::load(std::string(kField) + R"(
waypoints { name: "east" position { x: 35 y: 5 } }
archetypes {
  name: "eastward"
  limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 30 max_turn_rate_deg: 540 }
  path_seek_distance: 1.0
  behaviours { kind: WALL_AVOIDANCE weight: 2 priority: 0 }
  behaviours { kind: NAVIGATE waypoint: "east" weight: 1 priority: 2 range: 2 }
}
spawns { archetype: "eastward" count: 5 min { x: 2 y: 2 } max { x: 6 y: 8 } }
schedule { at_s: 0.5 add_obstacle { name: "barricade" center { x: 20 y: 7 } half_size { x: 0.5 y: 7 } carve: true } }
)");
  ASSERT_TRUE(load.errors.empty()) << load.errors[0];
  World& world = *load.world;
  for (int t = 0; t < 30 * 30; ++t) world.step();
  std::size_t arrived = 0;
  for (std::size_t s = 0; s < world.agentCount(); ++s)
    arrived += std::hypot(world.agents().px[s] - 35.0f, world.agents().py[s] - 5.0f) < 3.0f ? 1 : 0;
  EXPECT_EQ(arrived, 5u) << "all five went round the barricade in 30 s";
}

// The castle gate (scenarios/castle-gate.txtpb): shut from 20 s to 40 s while 500 walk.
TEST(WorldChangesFile, CastleGateNobodyCrossesShutAndFlowResumesSoonAfterItOpens) {
  ScenarioLoad load = loadScenarioFile(std::string(STEERD_SCENARIOS_DIR) + "/castle-gate.txtpb",
                                       ScenarioOptions(1, 2, 0), true);
  ASSERT_TRUE(load.errors.empty()) << load.errors[0];
  World& world = *load.world;
  DoorMeter doors(world);
  ReportGate postern = load.gates.at(0);
  GateMeter posternMeter({postern}, world.config().dt);
  std::uint64_t crossedBefore = 0, posternBefore = 0, posternShut = 0;
  for (int t = 0; t < 1800; ++t) {
    world.step();
    doors.observe(world);
    posternMeter.observe(world);
    const auto& g = doors.gates().figures()[0];
    const auto& p = posternMeter.figures()[0];
    if (t == 599) {
      crossedBefore = g.fromLeft + g.fromRight;
      posternBefore = p.fromLeft + p.fromRight;
    }
    if (t == 1199) posternShut = p.fromLeft + p.fromRight - posternBefore;
  }
  const auto& g = doors.gates().figures()[0];
  std::printf(
      "castle-gate: %llu through the gate before it shut, %llu in all; %llu through the postern "
      "while it was shut; first through %.1f s after it opened; %llu replans\n",
      static_cast<unsigned long long>(crossedBefore),
      static_cast<unsigned long long>(g.fromLeft + g.fromRight), static_cast<unsigned long long>(posternShut),
      doors.firstCrossingAfterOpen(0), static_cast<unsigned long long>(world.doorFigures()[0].replans));
  EXPECT_GT(crossedBefore, 20u);
  EXPECT_EQ(doors.crossingsWhileShut(0), 0u) << "nobody crosses a shut gate";
  EXPECT_GT(posternShut, 20u) << "the long way round takes them while the gate is shut";
  EXPECT_GE(doors.firstCrossingAfterOpen(0), 0.0);
  EXPECT_LE(doors.firstCrossingAfterOpen(0), 5.0) << "flow through the gate resumes within 5 s";
  EXPECT_GT(g.fromLeft + g.fromRight, crossedBefore + 20u);
  EXPECT_EQ(world.doorFigures()[0].closedTicks, 600u);
  EXPECT_GT(world.doorFigures()[0].replans, 0u);
}

// The market cart (scenarios/market-cart.txtpb): a kinematic obstacle through 300 shoppers.
TEST(WorldChangesFile, MarketCartNobodyEndsInsideItAndNobodyIsLeftStuck) {
  ScenarioLoad load = loadScenarioFile(std::string(STEERD_SCENARIOS_DIR) + "/market-cart.txtpb",
                                       ScenarioOptions(1, 2, 0), true);
  ASSERT_TRUE(load.errors.empty()) << load.errors[0];
  World& world = *load.world;
  MotionQualityMonitor monitor(world.config().dt);
  float cartTravel = 0.0f;
  steer::Vec2 last{};
  std::uint64_t insideCartMax = 0;
  for (int t = 0; t < 1800; ++t) {
    world.step();
    monitor.observe(world);
    for (const LiveObstacle& o : world.liveObstacles()) {
      if (o.name != "cart") continue;
      if (t > 70) cartTravel += steer::distance(o.shape.center, last);
      last = o.shape.center;
      std::uint64_t inside = 0;
      for (std::size_t s = 0; s < world.agentCount(); ++s) {
        const float d =
            std::hypot(world.agents().px[s] - o.shape.center.x, world.agents().py[s] - o.shape.center.y);
        inside += d < o.shape.radius + 0.4f * 0.9f ? 1 : 0;
      }
      insideCartMax = std::max(insideCartMax, inside);
    }
  }
  const MotionQuality q = monitor.summary();
  std::printf(
      "market-cart: cart travelled %.1f m; most bodies inside it on a tick %llu; inside obstacles or "
      "walls: max %llu, end %llu; stuck: max %llu, end %llu\n",
      cartTravel, static_cast<unsigned long long>(insideCartMax),
      static_cast<unsigned long long>(q.insideObstacleMax),
      static_cast<unsigned long long>(q.insideObstacleFinal), static_cast<unsigned long long>(q.stuckMax),
      static_cast<unsigned long long>(q.stuckFinal));
  EXPECT_GT(cartTravel, 80.0f) << "the cart went round";
  EXPECT_EQ(world.liveObstacles().size(), 2u)
      << "the barrow was removed at 40 s; the cart and the stall stay";
  EXPECT_GT(world.tilesCarved(), 0u) << "the L-shaped stall carved its tiles";
  for (const LiveObstacle& o : world.liveObstacles()) {
    if (o.name != "corner_stall") continue;
    const nav::Polygon outline = obstacleOutline(o.shape);
    for (std::size_t s = 0; s < world.agentCount(); ++s)
      EXPECT_FALSE(steer::insidePolygon({world.agents().px[s], world.agents().py[s]}, outline))
          << "slot " << s;
  }
  EXPECT_EQ(insideCartMax, 0u);
  EXPECT_EQ(q.insideObstacleFinal, 0u);
  EXPECT_EQ(q.stuckFinal, 0u);
}

// Both scenarios: the same world for 1, 2 and 4 threads, past their changes.
TEST(WorldChangesFile, ScheduledScenariosAreTheSameWorldForAnyThreadCount) {
  for (const char* name : {"castle-gate.txtpb", "market-cart.txtpb"}) {
    std::uint64_t hashes[3] = {};
    const unsigned threads[3] = {1, 2, 4};
    for (int i = 0; i < 3; ++i) {
      ScenarioLoad load = loadScenarioFile(std::string(STEERD_SCENARIOS_DIR) + "/" + name,
                                           ScenarioOptions(3, threads[i], 0), true);
      ASSERT_TRUE(load.errors.empty()) << load.errors[0];
      for (int t = 0; t < 1300; ++t) load.world->step();  // past 40 s: the gate shut and opened
      hashes[i] = load.world->stateHash();
    }
    EXPECT_EQ(hashes[0], hashes[1]) << name;
    EXPECT_EQ(hashes[0], hashes[2]) << name;
  }
}

}  // namespace
}  // namespace steerd
