// Update level of detail (world/level_of_detail.h): far from every player or bot an agent steers
// every 8th tick with 8 ticks' step; near one, every tick; the world stays the same for any
// thread count; and with every agent near a focus it is exactly the world without it.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

#include "load_scenario.h"

#include "analysis/motion_quality.h"
#include "world/bots.h"
#include "world/level_of_detail.h"
#include "world/scenarios.h"

namespace steerd {
namespace {

std::unique_ptr<World> crowdWithBots(unsigned threads, std::size_t agents, std::size_t bots, bool lod) {
  auto world = loadScenario("crowd", {5, threads, agents});
  EXPECT_EQ(addBots(*world, bots, 5), "");
  world->setLevelOfDetail(lod);
  return world;
}

TEST(LevelOfDetail, SameWorldForOneTwoAndFourThreads) {
  std::uint64_t hashes[3] = {};
  const unsigned threads[3] = {1, 2, 4};
  for (int k = 0; k < 3; ++k) {
    auto world = crowdWithBots(threads[k], 20000, 10, true);
    for (int t = 0; t < 60; ++t) world->step();
    hashes[k] = world->stateHash();
  }
  EXPECT_EQ(hashes[0], hashes[1]);
  EXPECT_EQ(hashes[0], hashes[2]);
}

TEST(LevelOfDetail, EveryAgentNearAFocusIsTheWorldWithoutIt) {
  // Bands wider than the world: every agent is level 0, so the level-of-detail pass must give
  // exactly the bits of the plain one (quads included).
  std::uint64_t hashes[2] = {};
  for (int lod = 0; lod < 2; ++lod) {
    auto world = crowdWithBots(2, 5000, 3, lod == 1);
    std::vector<Archetype> wide = world->archetypes();
    for (Archetype& a : wide) a.lodDistances[0] = 1e6f, a.lodDistances[1] = 2e6f, a.lodDistances[2] = 3e6f;
    ASSERT_EQ(world->replaceArchetypes(wide), "");
    for (int t = 0; t < 60; ++t) world->step();
    hashes[lod] = world->stateHash();
  }
  EXPECT_EQ(hashes[0], hashes[1]);
}

TEST(LevelOfDetail, FarAgentsSteerEveryEighthTickNearOnesEveryTick) {
  // 4,000 agents (a square of about 316 m) and one bot: those over 200 m from it are past the
  // last band (160 m, plus the coarse map's cell), those within 30 m inside the first (40 m).
  auto world = crowdWithBots(2, 4000, 1, true);
  const AgentId bot = static_cast<AgentId>(world->agentCount() - 1);
  for (int t = 0; t < 5; ++t) world->step();
  struct Track {
    float x, y;
    int moves = 0;
    std::vector<float> stepRatio;  // |dp| / (|v| dt) on the ticks it moved
  };
  std::vector<Track> far, nearBot;
  std::vector<AgentId> farIds, nearIds;
  const auto at = [&](AgentId id) {
    const std::uint32_t s = world->slotOf(id);
    return std::array<float, 4>{world->agents().px[s], world->agents().py[s], world->agents().vx[s],
                                world->agents().vy[s]};
  };
  const auto b = at(bot);
  for (AgentId id = 0; id < bot; ++id) {
    const auto p = at(id);
    const float d = std::hypot(p[0] - b[0], p[1] - b[1]);
    if (d > 220.0f) farIds.push_back(id), far.push_back({p[0], p[1], 0, {}});
    if (d < 25.0f) nearIds.push_back(id), nearBot.push_back({p[0], p[1], 0, {}});
  }
  ASSERT_GT(farIds.size(), 100u);
  ASSERT_GT(nearIds.size(), 5u);
  const float dt = world->config().dt;
  const int ticks = 32;
  for (int t = 0; t < ticks; ++t) {
    world->step();
    for (std::size_t i = 0; i < farIds.size(); ++i) {
      const auto p = at(farIds[i]);
      if (p[0] != far[i].x || p[1] != far[i].y) {
        ++far[i].moves;
        const float speed = std::hypot(p[2], p[3]);
        if (speed > 0.2f)
          far[i].stepRatio.push_back(std::hypot(p[0] - far[i].x, p[1] - far[i].y) / (speed * dt));
      }
      far[i].x = p[0], far[i].y = p[1];
    }
    for (std::size_t i = 0; i < nearIds.size(); ++i) {
      const auto p = at(nearIds[i]);
      if (p[0] != nearBot[i].x || p[1] != nearBot[i].y) ++nearBot[i].moves;
      nearBot[i].x = p[0], nearBot[i].y = p[1];
    }
  }
  // Far: 4 turns in 32 ticks (one more or less for an agent that crossed into another row).
  std::size_t exactlyFour = 0;
  std::vector<float> ratios;
  for (const Track& f : far) {
    EXPECT_GE(f.moves, 3);
    EXPECT_LE(f.moves, 5);
    exactlyFour += f.moves == 4 ? 1 : 0;
    ratios.insert(ratios.end(), f.stepRatio.begin(), f.stepRatio.end());
  }
  EXPECT_GE(exactlyFour * 10, far.size() * 9);
  // Each turn moves it 8 ticks' worth: p += v x 8 dt (pushes from contacts aside, in the median).
  ASSERT_FALSE(ratios.empty());
  std::nth_element(ratios.begin(), ratios.begin() + ratios.size() / 2, ratios.end());
  EXPECT_NEAR(ratios[ratios.size() / 2], 8.0f, 0.2f);
  // Near the bot: every tick.
  for (const Track& n : nearBot) EXPECT_EQ(n.moves, ticks);
}

// Each slot's level against the definition, from the positions: never coarser than its distance
// to the nearest bot says (the map holds a lower bound), and no finer than that distance less one
// map cell's diagonal (16 m cells) says. With every archetype on the same bands, and with the
// bots on bands of their own (a level per agent rather than per run of the grid).
TEST(LevelOfDetail, EachSlotsLevelFollowsItsDistanceToTheNearestFocus) {
  for (const bool ownBands : {false, true}) {
    auto world = crowdWithBots(2, 20000, 6, true);
    if (ownBands) {
      std::vector<Archetype> archetypes = world->archetypes();
      for (Archetype& a : archetypes) {
        if (a.name == kBotArchetypeName)
          a.lodDistances[0] = 5, a.lodDistances[1] = 10, a.lodDistances[2] = 20;
      }
      ASSERT_EQ(world->replaceArchetypes(archetypes), "");
    }
    for (int t = 0; t < 3; ++t) world->step();
    const AgentColumns& in = world->sortedPrevious();
    const auto& levels = world->lodLevels();
    ASSERT_EQ(levels.size(), in.size());
    const auto bot = static_cast<ArchetypeIndex>(world->archetypeIndex(kBotArchetypeName));
    std::vector<std::pair<float, float>> bots;
    for (std::size_t s = 0; s < in.size(); ++s) {
      if (in.archetype[s] == bot) bots.emplace_back(in.px[s], in.py[s]);
    }
    ASSERT_EQ(bots.size(), 6u);
    const auto levelAt = [](const float* bands, float d) {
      return (d >= bands[0]) + (d >= bands[1]) + (d >= bands[2]);
    };
    const float diagonal = 16.0f * std::sqrt(2.0f);
    int levelCount[4] = {};
    for (std::size_t s = 0; s < in.size(); ++s) {
      float d = 1e30f;
      for (const auto& [x, y] : bots) d = std::min(d, std::hypot(in.px[s] - x, in.py[s] - y));
      const float* bands = world->archetypes()[in.archetype[s]].lodDistances;
      const int level = levels[s] & 3;
      ASSERT_LE(level, levelAt(bands, d * 1.0001f)) << "slot " << s << " at " << d << " m";
      ASSERT_GE(level, levelAt(bands, d - diagonal - 0.01f)) << "slot " << s << " at " << d << " m";
      ++levelCount[level];
      // The turn: level 0 every tick, level L on the ticks its map row is due.
      if (level == 0) {
        ASSERT_EQ(levels[s] & kLodWaits, 0);
      }
    }
    for (int l = 0; l < 4; ++l) EXPECT_GT(levelCount[l], 0) << "level " << l;
  }
}

// The motion-quality figures near players (MotionQualityMonitor with nearFocus): level of detail
// must change nothing visible there. Measured (5,000 agents, 10 bots, 300 ticks, seed 5), full
// rate against level of detail: mean overlap 0.1094 / 0.1081 r, heading jitter 0.6706 / 0.6712
// degrees a tick, nobody inside an obstacle.
TEST(LevelOfDetail, NothingVisibleChangesNearPlayers) {
  MotionQuality q[2];
  for (int lod = 0; lod < 2; ++lod) {
    auto world = crowdWithBots(2, 5000, 10, lod == 1);
    MotionQualityMonitor near(world->config().dt, 40.0f);
    for (int t = 0; t < 300; ++t) {
      world->step();
      near.observe(*world);
    }
    q[lod] = near.summary();
  }
  std::printf(
      "near players, full rate / level of detail: pairs %llu / %llu, mean depth %.4f / %.4f r, "
      "jitter %.4f / %.4f deg, inside %llu / %llu\n",
      static_cast<unsigned long long>(q[0].overlappingPairs),
      static_cast<unsigned long long>(q[1].overlappingPairs), q[0].meanOverlap, q[1].meanOverlap,
      q[0].headingJitterDeg, q[1].headingJitterDeg, static_cast<unsigned long long>(q[0].insideObstacleMax),
      static_cast<unsigned long long>(q[1].insideObstacleMax));
  ASSERT_GT(q[0].overlappingPairs, 0u);
  EXPECT_NEAR(q[1].meanOverlap, q[0].meanOverlap, 0.1 * q[0].meanOverlap);
  EXPECT_NEAR(q[1].headingJitterDeg, q[0].headingJitterDeg, 0.1 * q[0].headingJitterDeg);
  EXPECT_LE(q[1].insideObstacleMax, q[0].insideObstacleMax + 1);
}

TEST(MotionQualityNearPlayers, CountsOnlyAgentsNearAFocus) {
  // No player or bot: nothing is near one, nothing is counted.
  auto alone = loadScenario("crowd", {5, 1, 2000});
  MotionQualityMonitor near(alone->config().dt, 40.0f), all(alone->config().dt);
  for (int t = 0; t < 30; ++t) {
    alone->step();
    near.observe(*alone);
    all.observe(*alone);
  }
  EXPECT_GT(all.summary().overlappingPairs, 0u);
  EXPECT_EQ(near.summary().overlappingPairs, 0u);
  EXPECT_EQ(near.summary().headingJitterDeg, 0.0);
}

// Far from every player a brain thinks 2^L times less often (its think_every_ticks x 2^L); near
// one, as often as its file says.
TEST(LevelOfDetail, FarBrainsThinkLessOften) {
  const std::string text = R"(
name: "thinkers"
bounds { min { x: 0 y: 0 } max { x: 600 y: 600 } }
archetypes { name: "walker" limits { radius: 0.5 mass: 1 max_speed: 1 max_force: 5 } behaviours { kind: WANDER } }
brains {
  archetype: "walker"
  initial_state: "walk"
  think_every_ticks: 2
  states { name: "walk" behaviours { kind: WANDER } }
}
spawns { archetype: "walker" count: 1 min { x: 20 y: 20 } max { x: 20 y: 20 } }
spawns { archetype: "walker" count: 1 min { x: 580 y: 580 } max { x: 580 y: 580 } }
)";
  ScenarioLoad load = loadScenarioText(text, "t.txtpb", {3, 1, 0}, true);
  ASSERT_TRUE(load.world) << (load.errors.empty() ? "" : load.errors[0]);
  World& w = *load.world;
  // A player standing near the first walker; the second is 790 m away.
  w.spawnExternal(static_cast<ArchetypeIndex>(w.archetypeIndex("player")), {25, 25});
  w.setLevelOfDetail(true);
  int nearThinks = 0, farThinks = 0;
  std::uint64_t lastNear = w.brainMemoryOf(0).lastThinkTick, lastFar = w.brainMemoryOf(1).lastThinkTick;
  w.step();  // the first tick runs at full rate
  for (int t = 0; t < 64; ++t) {
    w.step();
    nearThinks += w.brainMemoryOf(0).lastThinkTick != lastNear ? 1 : 0;
    farThinks += w.brainMemoryOf(1).lastThinkTick != lastFar ? 1 : 0;
    lastNear = w.brainMemoryOf(0).lastThinkTick;
    lastFar = w.brainMemoryOf(1).lastThinkTick;
  }
  EXPECT_EQ(nearThinks, 32);  // every 2nd tick
  EXPECT_EQ(farThinks, 4);    // every 16th: 2 x 2^3
}

TEST(Bots, AddsTheBotArchetypeOnceAndSpawnsInsideTheBounds) {
  auto world = loadScenario("crowd", {5, 1, 500});
  const std::size_t before = world->agentCount();
  EXPECT_EQ(addBots(*world, 0, 1), "");
  EXPECT_EQ(world->archetypeIndex(kBotArchetypeName), -1);
  EXPECT_EQ(addBots(*world, 7, 1), "");
  EXPECT_EQ(world->agentCount(), before + 7);
  const std::int32_t bot = world->archetypeIndex(kBotArchetypeName);
  ASSERT_GE(bot, 0);
  EXPECT_TRUE(world->archetypes()[bot].lodFocus);
  const Bounds& b = world->geometry().bounds;
  const AgentColumns& a = world->agents();
  for (std::size_t s = 0; s < a.size(); ++s) {
    if (a.archetype[s] != bot) continue;
    EXPECT_TRUE(a.px[s] >= b.minX && a.px[s] <= b.maxX && a.py[s] >= b.minY && a.py[s] <= b.maxY);
  }
  EXPECT_NE(addBots(*world, 3, 1).find("already has an archetype named \"bot\""), std::string::npos);
  EXPECT_EQ(world->agentCount(), before + 7);
}

}  // namespace
}  // namespace steerd
