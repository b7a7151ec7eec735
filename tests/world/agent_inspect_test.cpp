#include "world/agent_inspect.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "../nav/box_wall_mesh.h"
#include "nav/navmesh.h"
#include "nav/navmesh_build.h"
#include "steering/context_steering.h"
#include "world/navigation.h"

namespace steerd {
namespace {

using steer::Vec2;

BehaviourSpec arriveAt(Vec2 p, float weight = 1.0f, int priority = 0) {
  BehaviourSpec s;
  s.kind = BehaviourKind::kArriveAt;
  s.point = p;
  s.weight = weight;
  s.priority = priority;
  return s;
}

BehaviourSpec wander(int priority) {
  BehaviourSpec s;
  s.kind = BehaviourKind::kWander;
  s.priority = priority;
  return s;
}

Archetype walker(std::vector<BehaviourSpec> behaviours, CombinerKind combiner) {
  Archetype a;
  a.name = "walker";
  a.limits.radius = 0.5f;
  a.limits.maxSpeed = 5.0f;
  a.limits.maxForce = 20.0f;
  a.behaviours = std::move(behaviours);
  a.combiner = combiner;
  return a;
}

StaticGeometry field() {
  StaticGeometry g;
  g.bounds = {0, 0, 200, 200};
  return g;
}

TEST(AgentInspect, ArriveFarAwayReportsTheSeekForceAndItsWeightedSum) {
  // Far from the point (beyond distance x deceleration = 5 m/s x 2 s), arrive is seek:
  // maxSpeed towards the point less the velocity.
  World w(field(), {walker({arriveAt({150, 100}, 2.0f)}, CombinerKind::kWeightedTruncatedRunningSum)}, {});
  const AgentId id = w.spawn(0, {50, 100}, {1, 1});
  w.step();
  const AgentInspection r = inspectAgent(w, id);
  ASSERT_TRUE(r.found);
  EXPECT_FALSE(r.external);
  EXPECT_EQ(r.tick, 0u);
  EXPECT_FLOAT_EQ(r.position.x, 50.0f);  // what the step read, not where it went
  ASSERT_EQ(r.behaviours.size(), 1u);
  const BehaviourInspection& b = r.behaviours[0];
  EXPECT_EQ(b.spec.kind, BehaviourKind::kArriveAt);
  EXPECT_TRUE(b.evaluated);
  EXPECT_FLOAT_EQ(b.spec.weight, 2.0f);
  EXPECT_NEAR(b.force.x, 5.0f - 1.0f, 1e-5f);
  EXPECT_NEAR(b.force.y, 0.0f - 1.0f, 1e-5f);
  // The running sum adds weight x force, within maxForce (20).
  EXPECT_NEAR(r.combined.x, 8.0f, 1e-5f);
  EXPECT_NEAR(r.combined.y, -2.0f, 1e-5f);
}

TEST(AgentInspect, ThePriorityCombinerSkipsWhatComesAfterTheFirstThatSteers) {
  World w(field(), {walker({arriveAt({150, 100}), wander(1)}, CombinerKind::kPriority)}, {});
  const AgentId id = w.spawn(0, {50, 100});
  w.step();
  const AgentInspection r = inspectAgent(w, id);
  ASSERT_TRUE(r.found);
  ASSERT_EQ(r.behaviours.size(), 2u);
  EXPECT_TRUE(r.behaviours[0].evaluated);
  EXPECT_NEAR(r.behaviours[0].force.x, 5.0f, 1e-5f);
  EXPECT_EQ(r.behaviours[1].spec.kind, BehaviourKind::kWander);
  EXPECT_FALSE(r.behaviours[1].evaluated);
  EXPECT_EQ(r.behaviours[1].force, Vec2{});
  EXPECT_NEAR(r.combined.x, 5.0f, 1e-5f);
}

TEST(AgentInspect, TheForceIsTheOneTheTickApplied) {
  // A body at rest, far from walls and bounds, pushed by the combined force for one tick: its new
  // velocity is the force x dt (mass 1) whatever else the tick does.
  World w(field(), {walker({arriveAt({150, 100}), wander(1)}, CombinerKind::kWeightedTruncatedRunningSum)},
          {});
  const AgentId id = w.spawn(0, {50, 100});
  w.step();
  const AgentInspection r = inspectAgent(w, id);
  ASSERT_TRUE(r.found);
  const std::uint32_t s = w.slotOf(id);
  const float dt = w.config().dt;
  EXPECT_NEAR(w.agents().vx[s], r.combined.x * dt, 1e-4f);
  EXPECT_NEAR(w.agents().vy[s], r.combined.y * dt, 1e-4f);
}

TEST(AgentInspect, ReadsTheWorldAndChangesNothing) {
  World w(field(), {walker({arriveAt({150, 100}), wander(1)}, CombinerKind::kPrioritisedDithering)}, {});
  for (int i = 0; i < 20; ++i) w.spawn(0, {50.0f + i, 100.0f});
  w.step();
  const std::uint64_t before = w.stateHash();
  for (AgentId id = 0; id < 20; ++id) EXPECT_TRUE(inspectAgent(w, id).found);
  EXPECT_EQ(w.stateHash(), before);
}

TEST(AgentInspect, UnknownNewAndExternalAgents) {
  World w(field(), {walker({arriveAt({150, 100})}, CombinerKind::kPriority)}, {});
  const AgentId id = w.spawn(0, {50, 100});
  EXPECT_FALSE(inspectAgent(w, id).found);  // no step yet
  const AgentId player = w.spawnExternal(static_cast<ArchetypeIndex>(w.archetypeIndex("player")), {60, 100});
  w.step();
  EXPECT_FALSE(inspectAgent(w, 999).found);
  const AgentInspection p = inspectAgent(w, player);
  ASSERT_TRUE(p.found);
  EXPECT_TRUE(p.external);
  EXPECT_TRUE(p.behaviours.empty());
  const AgentId late = w.spawn(0, {70, 100});
  EXPECT_FALSE(inspectAgent(w, late).found);  // spawned since the step
  // A despawn between ticks moves another agent's slot; the inspection still finds the right one.
  w.despawn(id);
  const AgentInspection q = inspectAgent(w, player);
  ASSERT_TRUE(q.found);
  EXPECT_FLOAT_EQ(q.position.x, 60.0f);
}

TEST(AgentInspect, SensorsFollowTheArchetype) {
  Archetype a = walker({arriveAt({150, 100})}, CombinerKind::kPriority);
  a.obstacleMinDetectionLength = 3.0f;
  a.wallFeelerLength = 6.0f;
  World w(field(), {a}, {});
  const AgentId id = w.spawn(0, {50, 100}, {5, 0});  // at full speed: the box is twice its length
  w.step();
  const AgentInspection r = inspectAgent(w, id);
  ASSERT_TRUE(r.found);
  EXPECT_NEAR(r.detectionBoxLength, 6.0f, 1e-4f);
  EXPECT_NEAR(r.feelers[0].x, 56.0f, 1e-4f);                           // straight ahead, full length
  EXPECT_NEAR(steer::length(r.feelers[1] - r.position), 3.0f, 1e-4f);  // the side ones, half
}

// A racer chasing the waypoints of path 0 by context steering, 32 slots.
Archetype racer() {
  Archetype a = walker({}, CombinerKind::kWeightedTruncatedRunningSum);
  a.name = "racer";
  BehaviourSpec race;
  race.kind = BehaviourKind::kContextSeekWaypoints;
  race.pathIndex = 0;
  a.behaviours = {race};
  a.contextSlots = 32;
  a.pathSeekDistance = 3.0f;
  return a;
}

TEST(AgentInspect, ContextMapsAreTheOnesTheTickChoseBy) {
  StaticGeometry g = field();
  g.paths.push_back({{{150, 100}, {150, 150}}, true});
  g.obstacles.push_back({{53, 100}, 1.0f});  // right ahead: danger along +x
  World w(std::move(g), {racer()}, {});
  const AgentId id = w.spawn(0, {50, 100});
  const AgentId other = w.spawn(0, {50, 120});
  w.step();
  const AgentInspection r = inspectAgent(w, id);
  ASSERT_TRUE(r.found);
  ASSERT_TRUE(r.context);
  ASSERT_EQ(r.contextInterest.size(), 32u);
  ASSERT_EQ(r.contextDanger.size(), 32u);
  ASSERT_GE(r.contextSlot, 0);
  EXPECT_GT(r.contextInterest[static_cast<std::size_t>(r.contextSlot)], 0.0f);
  EXPECT_NEAR(r.contextInterest[0], 1.0f, 1e-5f);  // the waypoint is straight along +x
  EXPECT_GT(r.contextDanger[0], 0.5f);             // and so is the obstacle, close
  EXPECT_NE(r.contextSlot, 0);                     // masked: it goes round
  // The behaviour's force is the wished velocity less the velocity; the wish points along the
  // chosen slot, give or take half a slot (the chooser interpolates between slots).
  ASSERT_EQ(r.behaviours.size(), 1u);
  const Vec2 wish = steer::normalized(r.behaviours[0].force + r.velocity);
  const Vec2 dir = steer::ContextMap(32).direction(r.contextSlot);
  EXPECT_GE(steer::dot(wish, dir), std::cos(steer::kPi / 32.0f) - 1e-4f);
  // The agent it did not look at has maps too; an agent without the behaviour has none.
  EXPECT_TRUE(inspectAgent(w, other).context);
  World plain(field(), {walker({arriveAt({150, 100})}, CombinerKind::kPriority)}, {});
  const AgentId p = plain.spawn(0, {50, 100});
  plain.step();
  EXPECT_FALSE(inspectAgent(plain, p).context);
  EXPECT_FALSE(inspectAgent(plain, p).navigating);
}

TEST(AgentInspect, CorridorIsTheNavigationsOwn) {
  // 200 x 200 m with a wall of a box between the walker and its goal: the corridor turns its end.
  const std::shared_ptr<nav::NavMesh> mesh = nav::testing::boxWallMesh();
  StaticGeometry g = field();
  g.navMesh = mesh;
  BehaviourSpec go;
  go.kind = BehaviourKind::kNavigate;
  go.navGoal = NavGoal::kPoint;
  go.point = {150, 100};
  World w(std::move(g), {walker({go}, CombinerKind::kPriority)}, {});
  const AgentId id = w.spawn(0, {100, 100});
  ASSERT_NE(w.navigation(), nullptr);
  w.step();  // the navigation learns of the agent on its first tick
  for (int t = 0; t < 30 && (w.navigation()->agent(id).corners.empty() || w.navigation()->agent(id).waiting);
       ++t) {
    w.step();
  }
  const NavAgent& a = w.navigation()->agent(id);
  ASSERT_GE(a.corners.size(), 2u);
  const AgentInspection r = inspectAgent(w, id);
  ASSERT_TRUE(r.found);
  EXPECT_TRUE(r.navigating);
  EXPECT_EQ(r.corridor, a.corners);
  EXPECT_EQ(r.corridorCorner, a.corner);
  EXPECT_TRUE(r.navHasGoal);
  EXPECT_EQ(r.navGoal, (Vec2{150, 100}));
  EXPECT_FALSE(r.navWaiting);
  EXPECT_FALSE(r.context);
}

TEST(AgentInspect, NamesAreTheScenarioFilesOnes) {
  EXPECT_STREQ(behaviourKindName(BehaviourKind::kWallAvoidance), "wall_avoidance");
  EXPECT_STREQ(behaviourKindName(BehaviourKind::kOffsetPursuitNearest), "offset_pursuit_nearest");
  EXPECT_STREQ(combinerKindName(CombinerKind::kWeightedTruncatedRunningSum),
               "weighted_truncated_running_sum");
}

}  // namespace
}  // namespace steerd
