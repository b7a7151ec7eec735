// Agent ids under churn (issue 17's fourth hole): a departed agent's storage index is used again,
// with a new generation, so per-index storage stays as large as the most agents alive at once,
// and a stale id never names the newcomer.
#include <gtest/gtest.h>

#include "world/world.h"

namespace steerd {
namespace {

using steer::Vec2;

Archetype walker() {
  Archetype a;
  a.name = "walker";
  a.limits = {0.5f, 1.0f, 2.0f, 4.0f, 2.0f * steer::kPi};
  BehaviourSpec wander;
  wander.kind = BehaviourKind::kWander;
  a.behaviours = {wander};
  return a;
}

StaticGeometry field() {
  StaticGeometry g;
  g.bounds = {0, 0, 100, 100};
  return g;
}

void stepTicks(World& w, std::uint64_t ticks) {
  for (std::uint64_t t = 0; t < ticks; ++t) w.step();
}

TEST(IdRecycling, ADepartedIndexComesBackAfterTheDelayWithTheNextGeneration) {
  World w(field(), {walker()}, {});
  const AgentId a = w.spawn(0, {10, 10});
  const AgentId b = w.spawn(0, {20, 20});
  EXPECT_EQ(a, 0u);
  EXPECT_EQ(b, 1u);
  w.despawn(a);
  EXPECT_FALSE(w.isAlive(a));
  // Within the delay: a new index.
  const AgentId c = w.spawn(0, {30, 30});
  EXPECT_EQ(agentIndex(c), 2u);
  EXPECT_EQ(agentGeneration(c), 0u);
  stepTicks(w, World::kIndexReuseDelayTicks);
  // After it: index 0 again, generation 1; the old id names nothing.
  const AgentId d = w.spawn(0, {40, 40});
  EXPECT_EQ(agentIndex(d), 0u);
  EXPECT_EQ(agentGeneration(d), 1u);
  EXPECT_NE(d, a);
  EXPECT_TRUE(w.isAlive(d));
  EXPECT_FALSE(w.isAlive(a));
  EXPECT_EQ(w.agents().px[w.slotOf(d)], 40.0f);
  EXPECT_EQ(w.indexCapacity(), 3u);
  EXPECT_THROW(w.despawn(a), std::out_of_range) << "a stale id is unknown";
  EXPECT_THROW(w.setHeading(a, {0, 1}), std::out_of_range);
  EXPECT_EQ(w.directiveOf(a).kind, DirectiveKind::kNone);
}

TEST(IdRecycling, AMillionJoinsAndLeavesKeepStorageAtTheMostAliveAtOnce) {
  World w(field(), {walker()}, {});
  for (int i = 0; i < 200; ++i)
    w.spawn(0, {10.0f + static_cast<float>(i % 20) * 4, 10.0f + static_cast<float>(i / 20) * 4});
  stepTicks(w, 2);
  const std::size_t start = w.indexCapacity();
  // Players come and go: 16 join and the 16 oldest leave every tick, for a million of each.
  std::vector<AgentId> players;
  std::size_t mostAlive = w.agentCount();
  for (int cycle = 0; cycle < 1'000'000; cycle += 16) {
    for (int k = 0; k < 16; ++k) players.push_back(w.spawnExternal(0, {50, 50}));
    mostAlive = std::max(mostAlive, w.agentCount());
    for (int k = 0; k < 16 && players.size() > 64; ++k) {
      w.despawn(players.front());
      players.erase(players.begin());
    }
    w.step();
  }
  // What storage holds: the most alive at once, plus those that left within the reuse delay.
  EXPECT_LE(w.indexCapacity(), mostAlive + 16 * World::kIndexReuseDelayTicks);
  EXPECT_LE(w.indexCapacity(), start + 64 + 16 + 16 * World::kIndexReuseDelayTicks);
  for (const AgentId p : players) EXPECT_TRUE(w.isAlive(p));
}

TEST(IdRecycling, AGoalAimedAtADepartedAgentDoesNotFollowItsIndexsNewcomer) {
  World w(field(), {walker()}, {});
  const AgentId follower = w.spawn(0, {50, 50});
  const AgentId leader = w.spawn(0, {60, 50});
  Directive follow;
  follow.kind = DirectiveKind::kFollow;
  follow.target = leader;
  w.setDirective(follower, follow);
  w.despawn(leader);
  stepTicks(w, World::kIndexReuseDelayTicks);
  const AgentId newcomer = w.spawn(0, {90, 90});
  ASSERT_EQ(agentIndex(newcomer), agentIndex(leader));
  EXPECT_EQ(w.lastStepContext().slotOfAgent(leader), -1);
  // The follower does not head for the newcomer in the far corner.
  const Vec2 before{w.agents().px[w.slotOf(follower)], w.agents().py[w.slotOf(follower)]};
  stepTicks(w, 60);
  const Vec2 after{w.agents().px[w.slotOf(follower)], w.agents().py[w.slotOf(follower)]};
  const Vec2 corner{90, 90};
  EXPECT_GT(steer::distance(after, corner), steer::distance(before, corner) - 2.0f);
}

TEST(IdRecycling, ChurnGivesTheSameWorldForAnyThreadCount) {
  auto run = [](unsigned threads) {
    WorldConfig config;
    config.threads = threads;
    config.chunkSize = 16;
    World w(field(), {walker()}, config);
    std::vector<AgentId> alive;
    for (int t = 0; t < 3000; ++t) {
      if (t % 3 == 0) alive.push_back(w.spawn(0, {10.0f + static_cast<float>(t % 80), 30.0f}));
      if (t % 5 == 0 && alive.size() > 20) {
        w.despawn(alive[static_cast<std::size_t>(t) % alive.size()]);
        alive.erase(alive.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(t) % alive.size()));
      }
      w.step();
    }
    EXPECT_GT(w.indexCapacity(), 0u);
    return w.stateHash();
  };
  const std::uint64_t one = run(1);
  EXPECT_EQ(run(2), one);
  EXPECT_EQ(run(4), one);
}

}  // namespace
}  // namespace steerd
