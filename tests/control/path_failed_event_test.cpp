// EVENT_PATH_FAILED (control.proto) in a field with a closed pen of thin walls: a MoveTo into the
// pen from outside is refused when given; a walker carried out of the pen after its goal inside
// was given reports the failure with the goal's position; a reachable goal is no failure. (Before
// wall strips were at least a navmesh cell wide, these walls were missing from the mesh.)
#include <gtest/gtest.h>

#include "control/control.h"
#include "scenario/scenario_file.h"

namespace steerd::control {
namespace {

// A 100 m field with a walled pen (40-60 x 40-60, no gate): its inside is an island of the mesh.
const char* kScenario = R"(
name: "pen"
bounds { min { x: 0 y: 0 } max { x: 100 y: 100 } }
walls { from { x: 40 y: 40 } to { x: 60 y: 40 } two_sided: true }
walls { from { x: 60 y: 40 } to { x: 60 y: 60 } two_sided: true }
walls { from { x: 60 y: 60 } to { x: 40 y: 60 } two_sided: true }
walls { from { x: 40 y: 60 } to { x: 40 y: 40 } two_sided: true }
navmesh { agent_radius: 0.5 cell_size: 0.5 }
archetypes {
  name: "walker"
  limits { radius: 0.5 mass: 1 max_speed: 4 max_force: 20 max_turn_rate_deg: 360 }
  behaviours { kind: NAVIGATE weight: 1 priority: 1 range: 2 }
}
)";

struct Rig {
  std::unique_ptr<World> world;
  std::unique_ptr<Controller> ctl;
  std::vector<Event> events;
  SubscriberId me = 0;

  Rig() {
    ScenarioLoad load = loadScenarioText(kScenario, "pen.txtpb", {1, 1, 0}, true);
    EXPECT_TRUE(load.errors.empty()) << (load.errors.empty() ? "" : load.errors[0]);
    world = std::move(load.world);
    ctl = std::make_unique<Controller>(*world);
    me = ctl->addSubscriber({.onEvent = [this](const Event& e) { events.push_back(e); }});
    EXPECT_EQ(ctl->subscribe(me, {}), "");  // every kind
  }
  void tick(int n) {
    for (int i = 0; i < n; ++i) {
      ctl->applyPending();
      world->step();
      ctl->afterTick();
    }
  }
  std::size_t count(EventKind kind) const {
    std::size_t n = 0;
    for (const Event& e : events) n += e.kind() == kind ? 1 : 0;
    return n;
  }
};

TEST(PathFailedEvent, AGoalInsideAClosedPenIsRefusedFromOutside) {
  Rig rig;
  ASSERT_NE(rig.world->navigation(), nullptr);
  const CommandResult spawned = rig.ctl->apply(rig.me, spawnAt("walker", 10, 10));
  ASSERT_EQ(spawned.status(), STATUS_OK) << spawned.error();
  const CommandResult moved = rig.ctl->apply(rig.me, moveTo(spawned.agent(), 50, 50));
  EXPECT_EQ(moved.status(), STATUS_ERROR);
  EXPECT_EQ(moved.error().rfind("move_to.position: not reachable", 0), 0u) << moved.error();
}

// Given inside the pen, then carried out of it (the island it was on is left behind): the planner
// finds no way back, and the failure is an event with the goal's position.
TEST(PathFailedEvent, AWalkerCarriedOffItsGoalsIslandReportsIt) {
  Rig rig;
  const CommandResult spawned = rig.ctl->apply(rig.me, spawnAt("walker", 45, 45));
  ASSERT_EQ(spawned.status(), STATUS_OK) << spawned.error();
  const CommandResult moved = rig.ctl->apply(rig.me, moveTo(spawned.agent(), 55, 55));
  ASSERT_EQ(moved.status(), STATUS_OK) << moved.error();
  rig.world->setExternalState(spawned.agent(), {10, 10}, {0, 0});
  rig.tick(30 * 5);
  ASSERT_GE(rig.count(EVENT_PATH_FAILED), 1u);
  for (const Event& e : rig.events) {
    if (e.kind() != EVENT_PATH_FAILED) continue;
    EXPECT_EQ(e.agent(), spawned.agent());
    EXPECT_FLOAT_EQ(e.position().x(), 55.0f);
    EXPECT_FLOAT_EQ(e.position().y(), 55.0f);
  }
  EXPECT_EQ(rig.count(EVENT_ARRIVED), 0u);
}

TEST(PathFailedEvent, AReachableGoalIsNotAFailure) {
  Rig rig;
  const CommandResult spawned = rig.ctl->apply(rig.me, spawnAt("walker", 10, 10));
  ASSERT_EQ(spawned.status(), STATUS_OK) << spawned.error();
  ASSERT_EQ(rig.ctl->apply(rig.me, moveTo(spawned.agent(), 90, 90)).status(), STATUS_OK);
  rig.tick(30 * 40);
  EXPECT_EQ(rig.count(EVENT_PATH_FAILED), 0u);
  EXPECT_EQ(rig.count(EVENT_ARRIVED), 1u);
}

}  // namespace
}  // namespace steerd::control
