// Built-in scenarios: sizes, and the motion quality a watcher would judge them by.
#include "world/scenarios.h"

#include <gtest/gtest.h>

#include <cmath>

#include "analysis/motion_quality.h"
#include "load_scenario.h"

namespace steerd {
namespace {

TEST(Scenarios, UnknownNameGivesNull) { EXPECT_EQ(makeScenario("nope", {}), nullptr); }

TEST(Scenarios, CrowdHasExactlyTheAgentsAskedForAtOnePer25SquareMetres) {
  auto w = loadScenario("crowd", {1, 1, 2500});
  EXPECT_EQ(w->agentCount(), 2500u);
  const Bounds b = w->geometry().bounds;
  EXPECT_NEAR(b.width() * b.height() / 2500.0f, 25.0f, 0.01f);
}

TEST(Scenarios, DefaultTilesDistrictsToHoldAboutTheAgentsAskedFor) {
  EXPECT_EQ(loadScenario("default", {1, 1, 0})->agentCount(), 344u);
  auto big = loadScenario("default", {1, 1, 3440});
  EXPECT_EQ(big->agentCount(), 3440u);
  EXPECT_EQ(big->geometry().paths.size(), 20u);  // a patrol route and a track per district
}

TEST(Scenarios, EveryPatrolFollowsItsOwnDistrictsRoute) {
  auto w = loadScenario("default", {1, 1, 4 * 344});
  for (int i = 0; i < 90; ++i) w->step();
  const auto& a = w->agents();
  const auto& paths = w->geometry().paths;
  for (std::size_t s = 0; s < a.size(); ++s) {
    if (w->archetypes()[a.archetype[s]].name != "patrol") continue;
    const auto path = a.memory(s).assignedPath;
    ASSERT_GE(path, 0);
    // The waypoint it is heading for is on its own route, within the district it started in.
    const auto& wp = paths[path].points[a.memory(s).pathIndex];
    EXPECT_LT(std::hypot(wp.x - a.px[s], wp.y - a.py[s]), 120.0f);
  }
}

// What crowd-library users complain about, measured over 30 s of the default scenario: nobody
// ends up inside an obstacle or a wall, nobody is stuck short of its goal, and bodies do not sink
// deep into each other.
TEST(Scenarios, DefaultMotionQualityOverThirtySeconds) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    auto w = loadScenario("default", {seed, 2, 0});
    MotionQualityMonitor monitor(w->config().dt);
    for (int i = 0; i < 900; ++i) {
      w->step();
      monitor.observe(*w);
    }
    const MotionQuality q = monitor.summary();
    EXPECT_EQ(q.insideObstacleMax, 0u) << "seed " << seed;
    EXPECT_EQ(q.stuckMax, 0u) << "seed " << seed;
    EXPECT_LT(q.meanOverlap, 0.2) << "seed " << seed;
    EXPECT_LT(q.maxOverlap, 1.0) << "seed " << seed;
    EXPECT_LT(q.headingJitterDeg, 2.0) << "seed " << seed;
    EXPECT_GT(q.agentsWithGoal, 20u) << "seed " << seed;
  }
}

TEST(Scenarios, CrowdMotionQualityOverTenSeconds) {
  auto w = loadScenario("crowd", {1, 2, 5000});
  MotionQualityMonitor monitor(w->config().dt);
  for (int i = 0; i < 300; ++i) {
    w->step();
    monitor.observe(*w);
  }
  const MotionQuality q = monitor.summary();
  EXPECT_EQ(q.insideObstacleMax, 0u);
  EXPECT_LT(q.meanOverlap, 0.2);
  EXPECT_LT(q.maxOverlap, 1.0);
  EXPECT_LT(q.headingJitterDeg, 2.0);
}

}  // namespace
}  // namespace steerd

namespace steerd {
namespace {

TEST(FreeSpot, StepsOutOfRocksWallsAndBuildings) {
  StaticGeometry g;
  g.bounds = {0, 0, 100, 100};
  g.obstacles.push_back({{50, 50}, 4.0f});  // a rock on the centre
  // A building round (20, 20) (one-sided walls, clockwise: they face out), and a two-sided
  // fence through (80, 50).
  g.walls = {steer::makeWall({10, 10}, {10, 30}), steer::makeWall({10, 30}, {30, 30}),
             steer::makeWall({30, 30}, {30, 10}), steer::makeWall({30, 10}, {10, 10}),
             steer::makeWall({80, 40}, {80, 60}), steer::makeWall({80, 60}, {80, 40})};
  World w(g, {}, {});  // indexes the obstacles
  const StaticGeometry& geo = w.geometry();

  const steer::Vec2 open{70, 20};
  EXPECT_EQ(freeSpotNear(geo, open, 1.0f), open);  // already free: unchanged

  const steer::Vec2 outOfRock = freeSpotNear(geo, {50, 50}, 1.0f);
  EXPECT_GE(steer::distance(outOfRock, {50, 50}), 5.0f);
  EXPECT_LE(steer::distance(outOfRock, {50, 50}), 6.0f);  // the nearest ring that is clear

  const steer::Vec2 outOfRoom = freeSpotNear(geo, {20, 20}, 1.0f);
  // Outside the building, at least a body radius from its walls.
  EXPECT_TRUE(outOfRoom.x <= 9.01f || outOfRoom.x >= 30.99f || outOfRoom.y <= 9.01f || outOfRoom.y >= 30.99f)
      << outOfRoom.x << ", " << outOfRoom.y;

  const steer::Vec2 offFence = freeSpotNear(geo, {80, 50}, 1.0f);
  EXPECT_GE(std::abs(offFence.x - 80.0f), 1.0f);
  // Beside the fence is not inside anything: the two-sided fence counts once, not twice.
  EXPECT_EQ(freeSpotNear(geo, {85, 50}, 1.0f), (steer::Vec2{85, 50}));
}

}  // namespace
}  // namespace steerd
