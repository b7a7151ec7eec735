// The inspector's description of an agent's behaviours (net/debug_info.*): each targeted behaviour
// names the archetype it aims at and, when it is not the nearest one, which (the leader, the
// centroid, the agent it was ordered to fetch), so two pursuits of the same archetype can be told
// apart. And the feelers it draws lie along the heading it reports, even on the tick a body
// reverses on the spot.
#include "net/debug_info.h"

#include <gtest/gtest.h>

#include <cmath>

#include "steering/obstacle_avoidance.h"
#include "world/agent_inspect.h"

namespace steerd::net {
namespace {

BehaviourSpec targeted(BehaviourKind kind, ArchetypeIndex archetype, TargetKind target) {
  BehaviourSpec s;
  s.kind = kind;
  s.targetArchetype = archetype;
  s.target = target;
  s.range = 50.0f;
  return s;
}

TEST(DebugInfo, TargetedBehavioursSayWhichAgentOfTheArchetype) {
  StaticGeometry g;
  g.bounds = {0, 0, 100, 100};
  Archetype boss;
  boss.name = "boss";
  Archetype boid;
  boid.name = "boid";
  boid.behaviours = {targeted(BehaviourKind::kPursueNearest, 0, TargetKind::kNearest),
                     targeted(BehaviourKind::kPursueNearest, 0, TargetKind::kGroupLeader),
                     targeted(BehaviourKind::kOffsetPursuitNearest, 0, TargetKind::kGroupCentroid),
                     targeted(BehaviourKind::kInterposeNearest, 0, TargetKind::kGroupLeader)};
  boid.behaviours.back().secondArchetype = 1;
  World w(g, {boss, boid}, {});
  w.spawn(0, {40, 50});
  const AgentId id = w.spawn(1, {60, 50});
  w.step();
  const wire::DebugInfo info = debugInfoOf(w, id, {});
  ASSERT_TRUE(info.found());
  ASSERT_EQ(info.behaviours_size(), 4);
  EXPECT_EQ(info.behaviours(0).detail(), "boss");
  EXPECT_EQ(info.behaviours(1).detail(), "boss (leader)");
  EXPECT_EQ(info.behaviours(2).detail(), "boss (centroid)");
  EXPECT_EQ(info.behaviours(3).detail(), "boss > boid (leader)");
}

// A body at rest (heading +x, as spawned) that must flee west reverses on the spot: below the pivot
// speed the turn limit does not apply, the new velocity points exactly west, and the heading blend
// of two opposite unit vectors is zero, so the heading flips by exactly 180 degrees in one tick.
// The feelers must be drawn on the heading the DebugInfo reports (state[n+1]), not on the one the
// tick began with (state[n], which the forces are about): drawn from state[n] the ahead feeler was
// (+4, 0) on a body heading (-1, 0), the dot product -4 that DebugStream's UDP test saw under load,
// whenever its DebugInfo happened to be built on the tick of the flip.
TEST(DebugInfo, FeelersAreDrawnOnTheHeadingItReportsEvenOnTheTickItReverses) {
  StaticGeometry g;
  g.bounds = {0, 0, 200, 200};
  Archetype deer;
  deer.name = "deer";
  deer.limits = {0.5f, 1.0f, 5.0f, 20.0f, 4.0f * steer::kPi};  // tests/net/udp_harness.h's evader
  BehaviourSpec evade;
  evade.kind = BehaviourKind::kEvadeNearest;
  evade.targetArchetype = 1;
  evade.range = 30.0f;
  deer.behaviours = {evade};
  Archetype player;
  player.name = "player";
  World w(g, {deer, player}, {});
  const AgentId id = w.spawn(0, {100, 100});
  w.spawnExternal(1, {110, 100});  // 10 m east: flee west
  w.step();

  // The tick reversed the body: state[n] faced east, state[n+1] faces west.
  const AgentInspection r = inspectAgent(w, id);
  ASSERT_TRUE(r.found);
  ASSERT_EQ(r.heading.x, 1.0f);
  ASSERT_EQ(r.heading.y, 0.0f);
  const wire::DebugInfo info = debugInfoOf(w, id, {});
  ASSERT_TRUE(info.found());
  ASSERT_TRUE(info.forces_known());
  ASSERT_EQ(info.heading_x(), -1.0f);
  ASSERT_EQ(info.heading_y(), 0.0f);
  ASSERT_LT(info.behaviours(0).force_x(), 0.0f);  // the forces are still the tick's own (state[n])

  // Ahead: full length along the reported heading; the sides: half length, 45 degrees either side.
  const float length = deer.wallFeelerLength;
  ASSERT_EQ(info.feeler_x_size(), 3);
  EXPECT_NEAR(info.feeler_x(0), -length, 1e-5f);
  EXPECT_NEAR(info.feeler_y(0), 0.0f, 1e-5f);
  for (int k = 1; k < 3; ++k) {
    const float along = info.feeler_x(k) * info.heading_x() + info.feeler_y(k) * info.heading_y();
    EXPECT_NEAR(along, 0.5f * length * std::cos(steer::kPi / 4.0f), 1e-4f) << "side feeler " << k;
  }
  // The detection box is as long as the body's speed now makes it, not at rest.
  steer::Body now;
  now.velocity = {info.vx(), info.vy()};
  now.heading = {info.heading_x(), info.heading_y()};
  now.limits = deer.limits;
  EXPECT_FLOAT_EQ(info.detection_box_length(),
                  steer::detectionBoxLength(now, deer.obstacleMinDetectionLength));
}

}  // namespace
}  // namespace steerd::net
