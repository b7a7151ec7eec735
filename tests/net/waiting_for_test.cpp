// The inspector's "waiting for" (net::waitingFor, DebugInfo.waiting_for): the shut door a walker
// waits at, the obstacle it is held up by, and nothing once the way is clear.
#include <gtest/gtest.h>

#include "../scenario/scenario_text.h"
#include "net/debug_info.h"
#include "world/agent_inspect.h"

namespace steerd {
namespace {

// A 1 m wall at x 20 between two rooms, its one opening (y 9 to 12) a door; one walker 3 m west
// of it, bound for the far side.
const char* kDoorway = R"(
name: "doorway"
bounds { min { x: 0 y: 0 } max { x: 40 y: 20 } }
boxes { center { x: 20 y: 4.5 } half_size { x: 0.5 y: 4.5 } }
boxes { center { x: 20 y: 16 } half_size { x: 0.5 y: 4 } }
doors { name: "door" from { x: 20 y: 9 } to { x: 20 y: 12 } }
waypoints { name: "far" position { x: 35 y: 10.5 } }
navmesh { agent_radius: 0.5 cell_size: 0.25 }
archetypes {
  name: "walker"
  limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 30 max_turn_rate_deg: 540 }
  behaviours { kind: WALL_AVOIDANCE weight: 2 priority: 0 }
  behaviours { kind: NAVIGATE waypoint: "far" weight: 1 priority: 2 range: 1 }
}
spawns { archetype: "walker" count: 1 min { x: 16.5 y: 10.5 } max { x: 16.5 y: 10.5 } }
)";

std::string waitingOf(const World& world, AgentId id) {
  return net::waitingFor(world, id, inspectAgent(world, id));
}

TEST(WaitingFor, AWalkerAtAShutDoorWaitsForItAndNotOnceItOpens) {
  ScenarioLoad load = testing::load(kDoorway);
  ASSERT_TRUE(load.errors.empty()) << load.errors[0];
  World& world = *load.world;
  const AgentId walker = 0;
  world.step();
  EXPECT_EQ(waitingOf(world, walker), "") << "the door is open";
  world.applyChange(WorldChange::setDoor(0, false));
  for (int t = 0; t < 30; ++t) world.step();
  EXPECT_EQ(waitingOf(world, walker), "door door");
  EXPECT_EQ(net::debugInfoOf(world, walker, {}).waiting_for(), "door door");
  world.applyChange(WorldChange::setDoor(0, true));
  for (int t = 0; t < 30; ++t) world.step();
  EXPECT_EQ(waitingOf(world, walker), "");
}

TEST(WaitingFor, AWalkerHeldUpByABoxInTheDoorwayNamesIt) {
  ScenarioLoad load = testing::load(kDoorway);
  ASSERT_TRUE(load.errors.empty()) << load.errors[0];
  World& world = *load.world;
  WorldChange add = WorldChange::add(ObstacleShape{{22.0f, 10.5f}, 0.0f, {1.0f, 3.0f}, 0.0f, {}});
  add.obstacle.name = "crate";
  ASSERT_EQ(world.applyChange(add), 1u);
  for (int t = 0; t < 180; ++t) world.step();
  EXPECT_EQ(waitingOf(world, 0), "obstacle 1 (crate)");
  world.applyChange(WorldChange::remove(1));
  for (int t = 0; t < 30; ++t) world.step();
  EXPECT_EQ(waitingOf(world, 0), "");
}

}  // namespace
}  // namespace steerd
