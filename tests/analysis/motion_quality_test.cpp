#include "analysis/motion_quality.h"

#include <gtest/gtest.h>

#include "world/scenarios.h"

namespace steerd {
namespace {

Archetype idle() {
  Archetype a;
  a.name = "idle";
  a.limits = {0.5f, 1.0f, 2.0f, 4.0f, 2.0f * steer::kPi};
  return a;
}

TEST(MotionQuality, CountsAnOverlappingPairAndItsDepth) {
  StaticGeometry g;
  World w(g, {idle()}, {});
  w.spawn(0, {50, 50});
  w.spawn(0, {50.5f, 50});  // radii 0.5 + 0.5, 0.5 apart: overlap 0.5 = 1.0 r
  MotionQualityMonitor m(w.config().dt);
  w.step();
  m.observe(w);
  const MotionQuality q = m.summary();
  EXPECT_EQ(q.overlappingPairs, 1u);
  EXPECT_NEAR(q.maxOverlap, 1.0, 1e-4);
}

TEST(MotionQuality, AgentFarFromGoalThatDoesNotMoveIsStuck) {
  StaticGeometry g;
  g.bounds = {0, 0, 100, 100};
  // A walker pinned against a wall between it and its goal.
  g.walls.push_back(steer::makeWall({60, 20}, {60, 80}));  // left normal points to -x, towards the walker
  Archetype a = idle();
  BehaviourSpec arrive;
  arrive.kind = BehaviourKind::kArriveAt;
  arrive.point = {90, 50};
  a.behaviours = {arrive};
  World w(g, {a}, {});
  w.spawn(0, {56, 50});
  MotionQualityMonitor m(w.config().dt);
  for (int i = 0; i < 30 * 9; ++i) {
    w.step();
    m.observe(w);
  }
  const MotionQuality q = m.summary();
  EXPECT_EQ(q.agentsWithGoal, 1u);
  EXPECT_EQ(q.stuckFinal, 1u);
}

}  // namespace
}  // namespace steerd
