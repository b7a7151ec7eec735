#include "world/world.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "load_scenario.h"
#include "analysis/motion_quality.h"
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

TEST(World, EveryWorldHasThePlayerArchetype) {
  World empty(StaticGeometry{}, {}, {});
  ASSERT_EQ(empty.archetypes().size(), 1u);
  EXPECT_EQ(empty.archetypeIndex("player"), 0);
  World w(StaticGeometry{}, {walker({})}, {});
  EXPECT_EQ(w.archetypeIndex("walker"), 0);
  EXPECT_EQ(w.archetypeIndex("player"), 1);
  EXPECT_EQ(w.archetypeIndex("nobody"), -1);
  // A scenario that defines its own "player" keeps it (and gets no second one).
  Archetype own = walker({});
  own.name = "player";
  World x(StaticGeometry{}, {own}, {});
  EXPECT_EQ(x.archetypes().size(), 1u);
}

BehaviourSpec pursuePlayers(ArchetypeIndex player) {
  BehaviourSpec s;
  s.kind = BehaviourKind::kPursueNearest;
  s.targetArchetype = player;
  s.range = 100.0f;
  return s;
}

TEST(World, ExternalBodiesStayWhereTheNetworkPutsThem) {
  StaticGeometry g;
  World w(g, {walker({pursuePlayers(1)})}, {});
  const AgentId npc = w.spawn(0, {20, 50});
  const AgentId player = w.spawnExternal(1, {60, 50});
  for (int i = 0; i < 90; ++i) w.step();
  const AgentColumns& a = w.agents();
  // The player did not move by itself; the NPC went after it.
  EXPECT_EQ(a.px[w.slotOf(player)], 60.0f);
  EXPECT_EQ(a.py[w.slotOf(player)], 50.0f);
  EXPECT_GT(a.px[w.slotOf(npc)], 22.0f);
  w.setExternalState(player, {10, 50}, {-2, 0});
  w.step();
  EXPECT_EQ(a.px[w.slotOf(player)], 10.0f);
  EXPECT_EQ(a.vx[w.slotOf(player)], -2.0f);
  EXPECT_FLOAT_EQ(a.hx[w.slotOf(player)], -1.0f);
  // The NPC turns around: it is now east of the player and heads west.
  for (int i = 0; i < 90; ++i) w.step();
  EXPECT_LT(a.vx[w.slotOf(npc)], 0.0f);
}

TEST(World, DespawnKeepsOtherAgentsAndIds) {
  StaticGeometry g;
  World w(g, {walker({})}, {});
  const AgentId a = w.spawn(0, {10, 10});
  const AgentId b = w.spawnExternal(1, {20, 20});
  const AgentId c = w.spawn(0, {30, 30});
  w.step();
  w.despawn(b);
  EXPECT_FALSE(w.isAlive(b));
  EXPECT_TRUE(w.isAlive(a));
  EXPECT_TRUE(w.isAlive(c));
  EXPECT_EQ(w.agentCount(), 2u);
  EXPECT_FLOAT_EQ(w.agents().px[w.slotOf(c)], 30.0f);
  EXPECT_THROW(w.despawn(b), std::out_of_range);
  EXPECT_THROW(w.setExternalState(b, {1, 1}, {}), std::out_of_range);
  // A departed id is not given again (its index waits World::kIndexReuseDelayTicks, then comes
  // back with a new generation); the world keeps stepping and hashing.
  EXPECT_EQ(w.spawn(0, {5, 5}), 3u);
  w.step();
  EXPECT_EQ(w.agentCount(), 3u);
  EXPECT_NE(w.stateHash(), 0u);
}

// Memory records stay in a store apart from the sorted columns (agent_columns.h), found through
// `home` and laid out again every World::kMemoryRehomeTicks: through sorts, rehomes, departures
// and arrivals each agent keeps its own record (here the path it was given at spawn).
TEST(World, EachAgentKeepsItsMemoryThroughSortsRehomesAndDepartures) {
  StaticGeometry g;
  g.bounds = {0, 0, 200, 200};
  World w(g, {walker({arriveAt({100, 100})})}, {});
  std::vector<std::pair<AgentId, std::int32_t>> given;
  // Spawned right to left, so the sort reorders them from the first tick.
  for (int i = 0; i < 300; ++i) {
    const std::int32_t path = i % 7;
    given.emplace_back(w.spawn(0, {199.0f - 0.6f * i, 10.0f + (i % 17) * 10.0f}, {}, path), path);
  }
  for (std::uint64_t t = 0; t < 3 * World::kMemoryRehomeTicks + 5; ++t) {
    if (t == World::kMemoryRehomeTicks + 3) {
      for (std::size_t k = 0; k < given.size(); k += 3) w.despawn(given[k].first);
      std::erase_if(given, [&](const auto& a) { return !w.isAlive(a.first); });
      for (int i = 0; i < 40; ++i) given.emplace_back(w.spawn(0, {5.0f + i, 190.0f}, {}, 100 + i), 100 + i);
    }
    w.step();
    for (const auto& [id, path] : given) {
      ASSERT_EQ(w.agents().memory(w.slotOf(id)).assignedPath, path) << "agent " << id << " tick " << t;
    }
  }
  EXPECT_EQ(w.agentCount(), given.size());
}

TEST(World, ExternalBodiesAreDeterministicAcrossThreadCounts) {
  auto run = [](unsigned threads) {
    ScenarioOptions o;
    o.seed = 5;
    o.threads = threads;
    auto w = loadScenario("default", o);
    const auto player = static_cast<ArchetypeIndex>(w->archetypeIndex("player"));
    std::vector<AgentId> players;
    for (int k = 0; k < 3; ++k) players.push_back(w->spawnExternal(player, {60.0f + 40.0f * k, 120.0f}));
    for (int t = 0; t < 120; ++t) {
      for (std::size_t k = 0; k < players.size(); ++k) {
        if (!w->isAlive(players[k])) continue;
        const float x = 60.0f + 40.0f * k + static_cast<float>(t) * 0.1f;
        w->setExternalState(players[k], {x, 120.0f}, {3.0f, 0.0f});
      }
      if (t == 60) w->despawn(players[1]);
      w->step();
    }
    return w->stateHash();
  };
  const auto h1 = run(1);
  EXPECT_EQ(h1, run(2));
  EXPECT_EQ(h1, run(4));
}

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
  auto w = loadScenario("default", {1, 1, 0});
  for (int i = 0; i < 5; ++i) w->step();
  const auto& a = w->agents();
  for (AgentId id = 0; id < a.size(); ++id) ASSERT_EQ(a.id[w->slotOf(id)], id);
}

TEST(World, AgentsStayInsideBoundsAndFinite) {
  auto w = loadScenario("default", {3, 2, 0});
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
  std::uint64_t contacts = 0;  // ticks on which the contact pass pushed it out (measured: 204)
  float closest = 1e9f;        // its nearest approach to the obstacle's centre
  // 20 s: at 2 m/s it reaches the obstacle's surface, 24.5 m off, after about 13 s.
  for (int i = 0; i < 600; ++i) {
    w.step();
    monitor.observe(w);
    contacts += w.lastTickCounters().obstacleContacts;
    const auto s = w.slotOf(id);
    const float d = std::hypot(w.agents().px[s] - 50, w.agents().py[s] - 50);
    closest = std::min(closest, d);
    ASSERT_GE(d, 5.0f + 0.5f - 1e-3f) << "tick " << i;
  }
  EXPECT_EQ(monitor.summary().insideObstacleMax, 0u);
  // It was the contact pass that kept it out: the walker pressed against the obstacle (touching
  // it) and was pushed back, not steered round or stopped short.
  EXPECT_GT(contacts, 0u);
  EXPECT_LT(closest, 5.0f + 0.5f + 0.01f);
}

TEST(World, ABodyCreepingAlongAnObstacleTurnsBackToAGoalBehindIt) {
  // crowd-crossing's trap: a walker pressed against a cylinder, drifting a few cm/s the wrong way,
  // its goal behind it. With the turn limit applied at any speed, each step bent the new velocity
  // back to within 18 degrees of the old one, the contact took away the part into the cylinder,
  // and it crept on the wrong way for good. Below the pivot speed it turns on the spot.
  StaticGeometry g;
  g.bounds = {0, 0, 100, 100};
  g.obstacles.push_back({{50, 52}, 2});
  Archetype a = walker({arriveAt({40, 53})});
  a.limits.maxSpeed = 3.5f;
  a.limits.maxForce = 30.0f;
  a.limits.maxTurnRate = 3.0f * steer::kPi;  // 540 degrees/s: 18 degrees a tick
  World w(g, {a}, {});
  const AgentId id = w.spawn(0, {50, 49.5f}, {0.05f, 0});  // touching, creeping east
  for (int i = 0; i < 30 * 8; ++i) w.step();
  const auto s = w.slotOf(id);
  EXPECT_LT(std::hypot(w.agents().px[s] - 40, w.agents().py[s] - 53), 0.5f);
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
  auto w = loadScenario("default", {1, 1, 0});
  w->step();
  // Pursuers (archetype 1) chase boids within 60 m: at least one of them found a target.
  const auto& a = w->agents();
  int withTarget = 0;
  for (std::size_t s = 0; s < a.size(); ++s)
    withTarget += (a.archetype[s] == 1 && a.memory(s).targetId >= 0) ? 1 : 0;
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
  // A second archetype would take the number of the appended player archetype: refused, saying how.
  Archetype visitor = walker({});
  visitor.name = "visitor";
  EXPECT_NE(w.replaceArchetypes({walker({}), visitor}).find("define \"player\""), std::string::npos);
  EXPECT_EQ(w.archetypes()[0].name, "walker");
  EXPECT_EQ(w.archetypes().size(), 2u);
}

TEST(World, ReplaceArchetypesAddsNewOnesAfterTheRunningOnes) {
  StaticGeometry g;
  g.bounds = {0, 0, 100, 100};
  World w(g, {walker({}), playerArchetype()}, {});
  const AgentId a = w.spawn(0, {10, 10});
  const AgentId p = w.spawnExternal(1, {50, 50});
  Archetype visitor = walker({});
  visitor.name = "visitor";
  EXPECT_EQ(w.replaceArchetypes({walker({}), playerArchetype(), visitor}), "");
  ASSERT_EQ(w.archetypes().size(), 3u);
  EXPECT_EQ(w.archetypeIndex("visitor"), 2);
  const AgentId v = w.spawn(2, {30, 30});
  for (int i = 0; i < 10; ++i) w.step();
  EXPECT_TRUE(w.isAlive(a) && w.isAlive(p) && w.isAlive(v));
  EXPECT_EQ(w.agents().archetype[w.slotOf(p)], 1) << "running agents keep their archetype numbers";
  EXPECT_NE(w.replaceArchetypes({walker({}), playerArchetype()}).find("removing archetypes"),
            std::string::npos);
}

TEST(World, OffsetPursuitHoldsASlotBesideAStandingLeader) {
  StaticGeometry g;
  g.bounds = {0, 0, 100, 100};
  Archetype leader = walker({});
  leader.name = "leader";
  BehaviourSpec follow;
  follow.kind = BehaviourKind::kOffsetPursuitNearest;
  follow.targetArchetype = 0;
  follow.range = 50;
  follow.point = {0, 3};  // 3 m to the leader's left (the leader faces +x)
  Archetype follower = walker({follow});
  follower.name = "follower";
  World w(g, {leader, follower}, {});
  w.spawn(0, {50, 50}, {0.001f, 0});
  const AgentId f = w.spawn(1, {40, 40});
  for (int i = 0; i < 300; ++i) w.step();
  const auto s = w.slotOf(f);
  EXPECT_NEAR(w.agents().px[s], 50.0f, 0.5f);
  EXPECT_NEAR(w.agents().py[s], 53.0f, 0.5f);
}

TEST(World, InterposeStandsBetweenTwoAgents) {
  StaticGeometry g;
  g.bounds = {0, 0, 100, 100};
  Archetype a = walker({}), b = walker({});
  a.name = "a";
  b.name = "b";
  BehaviourSpec between;
  between.kind = BehaviourKind::kInterposeNearest;
  between.targetArchetype = 0;
  between.secondArchetype = 1;
  between.range = 80;
  Archetype guard = walker({between});
  guard.name = "guard";
  World w(g, {a, b, guard}, {});
  w.spawn(0, {20, 50});
  w.spawn(1, {80, 50});
  const AgentId id = w.spawn(2, {50, 20});
  for (int i = 0; i < 600; ++i) w.step();
  const auto s = w.slotOf(id);
  EXPECT_NEAR(w.agents().px[s], 50.0f, 0.5f);
  EXPECT_NEAR(w.agents().py[s], 50.0f, 0.5f);
}

TEST(World, CollisionAvoidanceTurnsAHeadOnPairAside) {
  // Two walkers arriving at each other's start: without avoidance they meet head-on.
  auto headOn = [](bool avoid) {
    StaticGeometry g;
    g.bounds = {0, 0, 100, 100};
    std::vector<Archetype> archs;
    for (Vec2 goal : {Vec2{80, 50}, Vec2{20, 50}}) {
      std::vector<BehaviourSpec> set;
      if (avoid) {
        BehaviourSpec ca;
        ca.kind = BehaviourKind::kCollisionAvoidance;
        ca.range = 10;
        ca.weight = 3;
        set.push_back(ca);
      }
      BehaviourSpec go = arriveAt(goal);
      go.priority = 1;
      set.push_back(go);
      Archetype a = walker(set);
      a.name = "walker" + std::to_string(archs.size());
      archs.push_back(a);
    }
    World w(g, archs, {});
    w.spawn(0, {20, 50});
    w.spawn(1, {80, 50.01f});
    float closest = 1e9f;
    for (int i = 0; i < 900; ++i) {
      w.step();
      const auto& a = w.agents();
      closest = std::min(closest, std::hypot(a.px[0] - a.px[1], a.py[0] - a.py[1]));
    }
    return closest;
  };
  EXPECT_LT(headOn(false), 1.0f);  // they bump (overlap push keeps them from passing through)
  EXPECT_GT(headOn(true), 1.0f);   // they pass with room to spare
}

}  // namespace
}  // namespace steerd
