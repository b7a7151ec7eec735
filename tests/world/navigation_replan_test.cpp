// Replanning provoked (world/navigation.h): a walker on its corridor round a wall is carried 10 m
// off it and replans from where it is ("off course"); one held where it stands makes no progress,
// steps aside once, and then replans ("blocked"). Neither happens to a walker left alone.
#include <gtest/gtest.h>

#include "../nav/box_wall_mesh.h"
#include "world/world.h"

namespace steerd {
namespace {

// A 200 m field with a box wall from (110, 60) to (112, 140); the walker starts at (100, 100) and
// navigates to (150, 100), round one end of the wall.
std::unique_ptr<World> walkerWorld(AgentId& walker) {
  StaticGeometry geometry;
  geometry.bounds = {0, 0, 200, 200};
  geometry.navMesh = nav::testing::boxWallMesh();
  Archetype a;
  a.name = "walker";
  a.limits = {0.5f, 1.0f, 3.0f, 6.0f, 2.0f * steer::kPi};
  BehaviourSpec go;
  go.kind = BehaviourKind::kNavigate;
  go.navGoal = NavGoal::kPoint;
  go.point = {150, 100};
  a.behaviours = {go};
  auto world = std::make_unique<World>(std::move(geometry), std::vector<Archetype>{a}, WorldConfig{});
  walker = world->spawn(0, {100, 100});
  return world;
}

steer::Vec2 positionOf(const World& w, AgentId id) {
  const std::uint32_t s = w.slotOf(id);
  return {w.agents().px[s], w.agents().py[s]};
}

TEST(NavigationReplan, LeftAloneAWalkerNeitherReplansNorIsBlocked) {
  AgentId walker = 0;
  auto w = walkerWorld(walker);
  for (int t = 0; t < 30 * 60; ++t) w->step();  // about 100 m round the wall at 3 m/s
  EXPECT_EQ(w->navigation()->stats().replansOffCourse, 0u);
  EXPECT_EQ(w->navigation()->stats().replansBlocked, 0u);
  EXPECT_GE(w->navigation()->stats().goalsReached, 1u);
}

TEST(NavigationReplan, AWalkerCarriedOffItsCorridorReplansFromWhereItIs) {
  AgentId walker = 0;
  auto w = walkerWorld(walker);
  for (int t = 0; t < 60; ++t) w->step();  // on its way: a corridor round the wall's end
  const std::uint64_t served = w->navigation()->stats().planner.served;
  ASSERT_GE(served, 1u);
  const steer::Vec2 at = positionOf(*w, walker);
  w->setExternalState(walker, {at.x - 10.0f, at.y}, {0, 0});  // 10 m off its leg
  for (int t = 0; t < 5; ++t) w->step();
  EXPECT_EQ(w->navigation()->stats().replansOffCourse, 1u);
  EXPECT_GT(w->navigation()->stats().planner.served, served);
  // And it still gets there.
  for (int t = 0; t < 30 * 30 && w->navigation()->stats().goalsReached == 0; ++t) w->step();
  EXPECT_GE(w->navigation()->stats().goalsReached, 1u);
}

TEST(NavigationReplan, AWalkerHeldInPlaceStepsAsideThenReplansAsBlocked) {
  AgentId walker = 0;
  auto w = walkerWorld(walker);
  const steer::Vec2 start = positionOf(*w, walker);
  // Held where it started: 3 s without progress, a sidestep, 3 s more, then a new path.
  for (int t = 0; t < 30 * 5; ++t) {
    w->setExternalState(walker, start, {0, 0});
    w->step();
  }
  EXPECT_EQ(w->navigation()->stats().replansBlocked, 0u);  // only the sidestep so far
  for (int t = 0; t < 30 * 3; ++t) {
    w->setExternalState(walker, start, {0, 0});
    w->step();
  }
  EXPECT_GE(w->navigation()->stats().replansBlocked, 1u);
  EXPECT_EQ(w->navigation()->stats().replansOffCourse, 0u);
}

}  // namespace
}  // namespace steerd
