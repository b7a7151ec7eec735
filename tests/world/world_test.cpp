#include "world/world.h"

#include <gtest/gtest.h>

#include <cmath>

#include "world/motion_quality.h"
#include "world/scenarios.h"

namespace steerd {
namespace {

using steer::Vec2;

Archetype walker(std::vector<BehaviourSpec> behaviours) {
  Archetype a;
  a.name = "walker";
  a.limits = {0.5f, 1.0f, 2.0f, 4.0f, 2.0f * steer::kPi};
  a.behaviours = std::move(behaviours);
  return a;
}

BehaviourSpec arriveAt(Vec2 p) {
  BehaviourSpec s;
  s.kind = BehaviourKind::kArriveAt;
  s.point = p;
  return s;
}

TEST(World, SpawnGivesDenseIdsAndSlots) {
  StaticGeometry g;
  World w(g, {walker({})}, {});
  EXPECT_EQ(w.spawn(0, {1, 1}), 0u);
  EXPECT_EQ(w.spawn(0, {2, 2}), 1u);
  EXPECT_EQ(w.agentCount(), 2u);
  EXPECT_THROW(w.spawn(3, {1, 1}), std::out_of_range);
}

TEST(World, NoArchetypesIsAnError) { EXPECT_THROW(World(StaticGeometry{}, {}, {}), std::invalid_argument); }

TEST(World, ArriveReachesItsPointAndStops) {
  StaticGeometry g;
  World w(g, {walker({arriveAt({60, 50})})}, {});
  const AgentId id = w.spawn(0, {40, 50});
  for (int i = 0; i < 600; ++i) w.step();
  const auto& a = w.agents();
  const auto s = w.slotOf(id);
  EXPECT_NEAR(a.px[s], 60.0f, 0.1f);
  EXPECT_NEAR(a.py[s], 50.0f, 0.1f);
  EXPECT_LT(std::hypot(a.vx[s], a.vy[s]), 0.05f);
}

TEST(World, SlotOfIdFollowsTheSort) {
  auto w = makeScenario("default", {1, 1, 0});
  for (int i = 0; i < 5; ++i) w->step();
  const auto& a = w->agents();
  for (AgentId id = 0; id < a.size(); ++id) ASSERT_EQ(a.id[w->slotOf(id)], id);
}

TEST(World, AgentsStayInsideBoundsAndFinite) {
  auto w = makeScenario("default", {3, 2, 0});
  const Bounds b = w->geometry().bounds;
  for (int i = 0; i < 300; ++i) w->step();
  const auto& a = w->agents();
  for (std::size_t s = 0; s < a.size(); ++s) {
    ASSERT_TRUE(std::isfinite(a.px[s]) && std::isfinite(a.py[s]) && std::isfinite(a.vx[s]) &&
                std::isfinite(a.vy[s]));
    ASSERT_GE(a.px[s], b.minX);
    ASSERT_LE(a.px[s], b.maxX);
    ASSERT_GE(a.py[s], b.minY);
    ASSERT_LE(a.py[s], b.maxY);
  }
}

TEST(World, BodiesAreNeverLeftInsideObstacles) {
  // A walker aimed straight through an obstacle, without avoidance: the contact projection
  // keeps it out anyway.
  StaticGeometry g;
  g.bounds = {0, 0, 100, 100};
  g.obstacles.push_back({{50, 50}, 5});
  World w(g, {walker({arriveAt({80, 50})})}, {});
  const AgentId id = w.spawn(0, {20, 50});
  MotionQualityMonitor monitor(w.config().dt);
  for (int i = 0; i < 300; ++i) {
    w.step();
    monitor.observe(w);
    const auto s = w.slotOf(id);
    ASSERT_GE(std::hypot(w.agents().px[s] - 50, w.agents().py[s] - 50), 5.0f + 0.5f - 1e-3f) << "tick " << i;
  }
  EXPECT_EQ(monitor.summary().insideObstacleMax, 0u);
  EXPECT_GT(w.lastTickCounters().obstacleContacts + 1, 0u);
}

TEST(World, OverlapResolutionSeparatesAStackedPair) {
  StaticGeometry g;
  World w(g, {walker({})}, {});
  w.spawn(0, {50, 50});
  w.spawn(0, {50.3f, 50});
  for (int i = 0; i < 30; ++i) w.step();
  const auto& a = w.agents();
  EXPECT_GE(std::hypot(a.px[0] - a.px[1], a.py[0] - a.py[1]), 0.95f);
}

TEST(World, NearestOfArchetypeHonoursRange) {
  auto w = makeScenario("default", {1, 1, 0});
  w->step();
  // Pursuers (archetype 1) chase boids within 60 m: at least one of them found a target.
  const auto& a = w->agents();
  int withTarget = 0;
  for (std::size_t s = 0; s < a.size(); ++s)
    withTarget += (a.archetype[s] == 1 && a.memory[s].targetId >= 0) ? 1 : 0;
  EXPECT_GT(withTarget, 0);
}

TEST(World, ReplaceArchetypesRetunesWithoutLosingAgents) {
  StaticGeometry g;
  g.bounds = {0, 0, 200, 200};
  World w(g, {walker({arriveAt({150, 100})})}, {});
  for (int i = 0; i < 20; ++i) w.spawn(0, {20.0f + i, 100});
  for (int i = 0; i < 30; ++i) w.step();
  Archetype slower = walker({arriveAt({150, 100})});
  slower.limits.maxSpeed = 0.5f;
  EXPECT_EQ(w.replaceArchetypes({slower}), "");
  EXPECT_EQ(w.agentCount(), 20u);
  for (int i = 0; i < 30; ++i) w.step();
  const auto& a = w.agents();
  for (std::size_t s = 0; s < a.size(); ++s) EXPECT_LE(std::hypot(a.vx[s], a.vy[s]), 0.5f + 1e-4f);
}

TEST(World, ReplaceArchetypesRefusesOtherArchetypesAndKeepsTheOld) {
  StaticGeometry g;
  World w(g, {walker({})}, {});
  w.spawn(0, {10, 10});
  Archetype renamed = walker({});
  renamed.name = "runner";
  EXPECT_NE(w.replaceArchetypes({renamed}).find("needs a restart"), std::string::npos);
  EXPECT_NE(w.replaceArchetypes({walker({}), walker({})}).find("needs a restart"), std::string::npos);
  EXPECT_EQ(w.archetypes()[0].name, "walker");
}

}  // namespace
}  // namespace steerd
