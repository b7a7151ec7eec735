// The inspector's description of an agent's behaviours (net/debug_info.*): each targeted behaviour
// names the archetype it aims at and, when it is not the nearest one, which (the leader, the
// centroid, the agent it was ordered to fetch), so two pursuits of the same archetype can be told
// apart.
#include "net/debug_info.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace steerd::net
