// Shipped scenarios, run headless and judged by what a watcher would see.
#include <gtest/gtest.h>

#include "world/brain_think.h"

#include <map>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/motion_quality.h"
#include "scenario/scenario_file.h"
#include "steering/hide.h"

namespace steerd {
namespace {

std::unique_ptr<World> shipped(const std::string& name) {
  ScenarioLoad load = loadScenarioFile(std::string(STEERD_SCENARIOS_DIR) + "/" + name, {1, 2, 0}, true);
  EXPECT_TRUE(load.errors.empty()) << load.errors[0];
  return std::move(load.world);
}

// Seed 001: every context-steering racer completes a lap of the 500 m track in 90 s, without
// entering an obstacle or getting stuck.
TEST(ScenarioOutcome, ContextRaceRacersFinishLaps) {
  auto w = shipped("context-race.txtpb");
  ASSERT_NE(w, nullptr);
  const std::size_t n = w->agentCount();
  const int waypoints = static_cast<int>(w->geometry().paths[0].points.size());
  std::vector<int> last(n, -1), advances(n, 0);
  MotionQualityMonitor monitor(w->config().dt);
  for (int t = 0; t < 90 * 30; ++t) {
    w->step();
    monitor.observe(*w);
    const auto& a = w->agents();
    for (std::size_t s = 0; s < a.size(); ++s) {
      const int index = a.memory(s).pathIndex;
      if (last[a.id[s]] >= 0 && index != last[a.id[s]]) ++advances[a.id[s]];
      last[a.id[s]] = index;
    }
  }
  for (std::size_t id = 0; id < n; ++id)
    EXPECT_GE(advances[id], waypoints) << "racer " << id << " did not lap";
  const MotionQuality q = monitor.summary();
  EXPECT_EQ(q.insideObstacleMax, 0u);
  EXPECT_EQ(q.stuckMax, 0u);
}

// Seed 000: wolves hunt: they close to within 3 m of a grazer, centre to centre (the bodies touch
// at 1.5 m; grazers evade, so a catch is a near thing), and stay on its tail: within 3 m on at
// least half the ticks of the last 30 s (measured: every tick; a wolf that lagged behind its prey's
// turns circled it at 7-10 m, 0 %). Nobody walks into an obstacle.
TEST(ScenarioOutcome, WildlifeWolvesCatchUpWithGrazers) {
  auto w = shipped("wildlife.txtpb");
  ASSERT_NE(w, nullptr);
  MotionQualityMonitor monitor(w->config().dt);
  float closest = std::numeric_limits<float>::max();
  int ticksOnTail = 0, lateTicks = 0;
  for (int t = 0; t < 60 * 30; ++t) {
    w->step();
    monitor.observe(*w);
    const auto& a = w->agents();
    float closestNow = std::numeric_limits<float>::max();
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (w->archetypes()[a.archetype[i]].name != "wolf") continue;
      for (std::size_t j = 0; j < a.size(); ++j) {
        if (a.archetype[j] == a.archetype[i]) continue;
        closestNow = std::min(closestNow, std::hypot(a.px[i] - a.px[j], a.py[i] - a.py[j]));
      }
    }
    closest = std::min(closest, closestNow);
    if (t >= 30 * 30) {
      ++lateTicks;
      if (closestNow < 3.0f) ++ticksOnTail;
    }
  }
  EXPECT_LT(closest, 3.0f);
  EXPECT_GE(2 * ticksOnTail, lateTicks) << ticksOnTail << " of " << lateTicks << " ticks";
  EXPECT_EQ(monitor.summary().insideObstacleMax, 0u);
}

// Escort: after the first 10 s the three escorts keep their slots beside and behind the captain
// (offset pursuit settles a little behind a moving slot, so "keep" means within 2.5 m on
// average), and the bodyguard, heading for the midpoint between the captain and the nearest
// raider, is closer to the captain than any raider on at least three ticks in four (measured:
// about 85 %; a raider that breaks through gets closer for a while).
TEST(ScenarioOutcome, EscortKeepsFormationAndTheBodyguardInterposes) {
  auto w = shipped("escort.txtpb");
  ASSERT_NE(w, nullptr);
  const auto& arch = w->archetypes();
  auto archetypeNamed = [&](const std::string& name) {
    for (std::size_t i = 0; i < arch.size(); ++i) {
      if (arch[i].name == name) return static_cast<ArchetypeIndex>(i);
    }
    return static_cast<ArchetypeIndex>(0xffff);
  };
  const ArchetypeIndex captain = archetypeNamed("captain"), guard = archetypeNamed("bodyguard"),
                       raider = archetypeNamed("raider");
  double slotError = 0;
  int slotSamples = 0, guardCloser = 0, guardTicks = 0;
  for (int t = 0; t < 60 * 30; ++t) {
    w->step();
    if (t < 10 * 30) continue;
    const auto& a = w->agents();
    std::size_t c = 0;
    for (std::size_t s = 0; s < a.size(); ++s) c = a.archetype[s] == captain ? s : c;
    float nearestRaider = 1e9f, guardDistance = 1e9f;
    for (std::size_t s = 0; s < a.size(); ++s) {
      const float d = std::hypot(a.px[s] - a.px[c], a.py[s] - a.py[c]);
      if (a.archetype[s] == raider) nearestRaider = std::min(nearestRaider, d);
      if (a.archetype[s] == guard) guardDistance = d;
      if (arch[a.archetype[s]].name.rfind("escort", 0) == 0) {
        // The slot the escort steers for is its goal.
        slotError += std::hypot(a.memory(s).goalX - a.px[s], a.memory(s).goalY - a.py[s]);
        ++slotSamples;
      }
    }
    ++guardTicks;
    guardCloser += guardDistance < nearestRaider ? 1 : 0;
  }
  EXPECT_LT(slotError / slotSamples, 2.5);
  EXPECT_GT(guardCloser, guardTicks * 3 / 4);
}

// The index of the archetype named `name`, or -1.
int archetypeNamed(const World& w, const std::string& name) {
  for (std::size_t i = 0; i < w.archetypes().size(); ++i) {
    if (w.archetypes()[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

// Ranch: six riders circle the herd's ground and turn back the five strays, which wander off
// (with no riders they end up at the fence, 90-100 m from the herd). After two minutes every
// stray is near the herd: within 15 m of the herd's centroid at the end, and within 10 m on
// average over the last 30 s (measured, seeds 1-8: the farthest stray ends at most 7.8 m out and
// averages at most 5.8 m; the herd's own cows average about 8 m from the centroid).
TEST(ScenarioOutcome, RanchRidersKeepStraysWithTheHerd) {
  auto w = shipped("ranch.txtpb");
  ASSERT_NE(w, nullptr);
  const int cow = archetypeNamed(*w, "cow"), stray = archetypeNamed(*w, "stray");
  ASSERT_GE(cow, 0);
  ASSERT_GE(stray, 0);
  MotionQualityMonitor monitor(w->config().dt);
  const int ticks = 120 * 30, lastTicks = 30 * 30;
  std::vector<double> lastDistanceSum(w->agentCount(), 0.0);
  std::vector<float> finalDistance(w->agentCount(), -1.0f);
  for (int t = 0; t < ticks; ++t) {
    w->step();
    monitor.observe(*w);
    if (t < ticks - lastTicks) continue;
    const auto& a = w->agents();
    double cx = 0, cy = 0;
    int cows = 0;
    for (std::size_t s = 0; s < a.size(); ++s) {
      if (a.archetype[s] != cow) continue;
      cx += a.px[s], cy += a.py[s], ++cows;
    }
    cx /= cows, cy /= cows;
    for (std::size_t s = 0; s < a.size(); ++s) {
      if (a.archetype[s] != stray) continue;
      const float d = static_cast<float>(std::hypot(a.px[s] - cx, a.py[s] - cy));
      lastDistanceSum[a.id[s]] += d;
      finalDistance[a.id[s]] = d;
    }
  }
  int strays = 0;
  for (std::size_t id = 0; id < w->agentCount(); ++id) {
    if (finalDistance[id] < 0.0f) continue;
    ++strays;
    EXPECT_LT(finalDistance[id], 15.0f) << "stray " << id << " is away from the herd at the end";
    EXPECT_LT(lastDistanceSum[id] / lastTicks, 10.0) << "stray " << id << " spent the last 30 s away";
  }
  EXPECT_EQ(strays, 5);
  EXPECT_EQ(monitor.summary().insideObstacleMax, 0u);
}

// Ranch, the trail boss's orders: a stray that got 50 m out (spawned there at the start) is
// ordered fetched at the boss's first think, and a cowboy, not the boss, holds the order; the
// order ends (the stray within 12 m, half the boss's 24 m) within a minute (measured, seeds 1-8:
// 35-55 s), and after two minutes it and every other stray are within 15 m of the herd's centroid
// (measured: at most 12 m; with the three riders of the file before orders, a stray 50 m out
// brought every stray to the fence).
TEST(ScenarioOutcome, RanchBossSendsACowboyToFetchAStray) {
  auto w = shipped("ranch.txtpb");
  ASSERT_NE(w, nullptr);
  const int cow = archetypeNamed(*w, "cow"), stray = archetypeNamed(*w, "stray");
  const int cowboy = archetypeNamed(*w, "cowboy");
  ASSERT_GE(cowboy, 0);
  ASSERT_GE(archetypeNamed(*w, "boss"), 0);
  const AgentId lost = w->spawn(static_cast<ArchetypeIndex>(stray), {150, 100});
  int orderedAt = -1, fetchingTicks = 0;
  bool fetchedAtEnd = false;
  MotionQualityMonitor monitor(w->config().dt);
  const int ticks = 120 * 30;
  for (int t = 0; t < ticks; ++t) {
    w->step();
    monitor.observe(*w);
    const StepContext ctx = w->lastStepContext();
    ASSERT_NE(ctx.groups, nullptr);
    fetchedAtEnd = false;
    for (const Groups::Fetch& f : ctx.groups->fetches) {
      if (ctx.in.id[static_cast<std::size_t>(f.straySlot)] != lost) continue;
      EXPECT_EQ(ctx.in.archetype[w->slotOf(f.holder)], cowboy);
      if (orderedAt < 0) orderedAt = t;
      fetchedAtEnd = true;
      ++fetchingTicks;
    }
  }
  std::printf("ordered at tick %d, fetched in %.1f s\n", orderedAt, fetchingTicks / 30.0);
  EXPECT_GE(orderedAt, 0);
  EXPECT_LT(orderedAt, 15);  // the boss thinks every 15 ticks
  EXPECT_LT(fetchingTicks, 60 * 30);
  EXPECT_FALSE(fetchedAtEnd);
  const auto& a = w->agents();
  double cx = 0, cy = 0;
  int cows = 0;
  for (std::size_t s = 0; s < a.size(); ++s) {
    if (a.archetype[s] == cow) cx += a.px[s], cy += a.py[s], ++cows;
  }
  cx /= cows, cy /= cows;
  for (std::size_t s = 0; s < a.size(); ++s) {
    if (a.archetype[s] != stray) continue;
    EXPECT_LT(std::hypot(a.px[s] - cx, a.py[s] - cy), 15.0)
        << (a.id[s] == lost ? "the fetched stray" : "stray " + std::to_string(a.id[s]))
        << " is away at the end";
  }
  EXPECT_EQ(monitor.summary().insideObstacleMax, 0u);
}

// Police: the car starts 250 m away across town and catches up with the player within a minute:
// closer than 4 m centre to centre at some point (the bodies touch at 2 m; its separation keeps
// it tailing a few metres back, measured closest about 2.9 m), and on average within 10 m of the
// player over the last 20 s (it tails, it does not lose the player at corners; measured 6 m).
// Nobody is ever inside a building or a tree.
TEST(ScenarioOutcome, PoliceCarCatchesUpWithThePlayerWithoutEnteringBuildings) {
  auto w = shipped("police.txtpb");
  ASSERT_NE(w, nullptr);
  const int police = archetypeNamed(*w, "police"), player = archetypeNamed(*w, "player");
  ASSERT_GE(police, 0);
  ASSERT_GE(player, 0);
  MotionQualityMonitor monitor(w->config().dt);
  const int ticks = 60 * 30, lastTicks = 20 * 30;
  float closest = std::numeric_limits<float>::max();
  double lastDistanceSum = 0;
  for (int t = 0; t < ticks; ++t) {
    w->step();
    monitor.observe(*w);
    const auto& a = w->agents();
    float d = std::numeric_limits<float>::max();
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a.archetype[i] != police) continue;
      for (std::size_t j = 0; j < a.size(); ++j) {
        if (a.archetype[j] == player) d = std::min(d, std::hypot(a.px[i] - a.px[j], a.py[i] - a.py[j]));
      }
    }
    closest = std::min(closest, d);
    if (t >= ticks - lastTicks) lastDistanceSum += d;
  }
  EXPECT_LT(closest, 4.0f);
  EXPECT_LT(lastDistanceSum / lastTicks, 10.0);
  EXPECT_EQ(monitor.summary().insideObstacleMax, 0u);
}

// FPS bots: the leader walks a full lap of the compound (passes all four corners) in 100 s, and
// after the first 10 s the four squad members keep within 3.5 m of their slots on average
// (offset pursuit arrives at where the slot will be, so a member trails a slot moving at 3.5 m/s
// by about 2.5 m; measured mean 2.8 m with the corners). Nobody walks into a crate or the
// building.
TEST(ScenarioOutcome, FpsBotsLeaderLapsAndTheSquadKeepsItsSlots) {
  auto w = shipped("fps-bots.txtpb");
  ASSERT_NE(w, nullptr);
  ASSERT_NE(w->navigation(), nullptr);
  // The building (30 x 20 m round (50, 35)) is a hole in the navmesh.
  EXPECT_FALSE(w->navigation()->mesh().nearest({50, 35}, 8.0f));
  EXPECT_FALSE(w->navigation()->mesh().nearest({36, 26}, 0.3f));
  EXPECT_TRUE(w->navigation()->mesh().nearest({50, 17}, 0.3f));  // south of the crate at (50, 21.5)
  const int leader = archetypeNamed(*w, "leader");
  ASSERT_GE(leader, 0);
  AgentId leaderId = 0;
  for (std::size_t s = 0; s < w->agentCount(); ++s) {
    if (w->agents().archetype[s] == leader) leaderId = w->agents().id[s];
  }
  MotionQualityMonitor monitor(w->config().dt);
  int slotSamples = 0;
  double slotError = 0;
  bool roundTheBuilding = false;  // a diagonal leg walked round the building, not through it
  for (int t = 0; t < 100 * 30; ++t) {
    w->step();
    monitor.observe(*w);
    const auto& a = w->agents();
    for (std::size_t s = 0; s < a.size(); ++s) {
      if (a.archetype[s] == leader) {
        const float x = a.px[s], y = a.py[s];
        roundTheBuilding = roundTheBuilding || (x > 40.0f && x < 60.0f && (y > 45.0f || y < 25.0f));
      } else if (t >= 10 * 30 && w->archetypes()[a.archetype[s]].name.rfind("squad", 0) == 0) {
        // The slot the member steers for is its goal.
        slotError += std::hypot(a.memory(s).goalX - a.px[s], a.memory(s).goalY - a.py[s]);
        ++slotSamples;
      }
    }
  }
  // gate -> dock (round the building) -> office -> yard: at least three waypoints in 100 s.
  EXPECT_GE(w->navigation()->agent(leaderId).goalsReached, 3u);
  EXPECT_TRUE(roundTheBuilding);
  ASSERT_GT(slotSamples, 0);
  EXPECT_LT(slotError / slotSamples, 3.5);
  EXPECT_EQ(monitor.summary().insideObstacleMax, 0u);
}

// Hide and seek: after the first 5 s, a rock or tree blocks the line of sight from the hunter to
// a hider on at least 60 % of (hider, tick) samples (measured: about 74 %; hiders that only
// wander instead of hiding are out of sight about 38 % of the time). Nobody is ever inside an
// obstacle.
TEST(ScenarioOutcome, HideAndSeekHidersStayOutOfTheHuntersSight) {
  auto w = shipped("hide-and-seek.txtpb");
  ASSERT_NE(w, nullptr);
  const int hunter = archetypeNamed(*w, "hunter"), hider = archetypeNamed(*w, "hider");
  ASSERT_GE(hunter, 0);
  ASSERT_GE(hider, 0);
  const auto& brain = *w->archetypes()[static_cast<std::size_t>(hider)].brain;
  auto stateNamed = [&](const std::string& name) {
    for (std::size_t i = 0; i < brain.states.size(); ++i) {
      if (brain.states[i].name == name) return static_cast<int>(i);
    }
    return -1;
  };
  const int graze = stateNamed("graze"), hide = stateNamed("hide"), panic = stateNamed("panic");
  ASSERT_GE(hide, 0);
  // The hunter chooses by a decision tree (seen within 2 s ? chase : search), not transitions.
  const auto& hunterBrain = *w->archetypes()[static_cast<std::size_t>(hunter)].brain;
  ASSERT_EQ(hunterBrain.tree.size(), 3u);
  long hunterChasing = 0, hunterTicks = 0;
  MotionQualityMonitor monitor(w->config().dt);
  long outOfSight = 0, samples = 0, hidingSamples = 0, hidingOut = 0;
  std::map<int, long> inState;
  for (int t = 0; t < 90 * 30; ++t) {
    w->step();
    monitor.observe(*w);
    if (t < 5 * 30) continue;
    const auto& a = w->agents();
    std::size_t h = a.size();
    for (std::size_t s = 0; s < a.size(); ++s) h = a.archetype[s] == hunter ? s : h;
    ASSERT_LT(h, a.size());
    ++hunterTicks;
    hunterChasing += hunterBrain.states[a.memory(h).brainState].name == "chase" ? 1 : 0;
    for (std::size_t s = 0; s < a.size(); ++s) {
      if (a.archetype[s] != hider) continue;
      ++samples;
      const steer::Vec2 from{a.px[h], a.py[h]}, to{a.px[s], a.py[s]};
      const bool blocked = sightBlocked(w->geometry(), from, to);
      // The hunter's eyes reach 30 m: beyond that, or behind a rock, a hider is out of its sight.
      const bool out = blocked || steer::distance(from, to) > 30.0f;
      outOfSight += out ? 1 : 0;
      ++inState[a.memory(s).brainState];
      if (a.memory(s).brainState == hide) {
        ++hidingSamples;
        hidingOut += out ? 1 : 0;
      }
    }
  }
  ASSERT_GT(samples, 0);
  const double outFraction = static_cast<double>(outOfSight) / static_cast<double>(samples);
  const double hiddenWhileHiding =
      static_cast<double>(hidingOut) / static_cast<double>(std::max(1L, hidingSamples));
  std::printf("out of sight %.3f; states graze %ld hide %ld panic %ld; out of sight while hiding %.3f\n",
              outFraction, inState[graze], inState[hide], inState[panic], hiddenWhileHiding);
  EXPECT_GE(outFraction, 0.8);
  // The brain is at work: hiders graze, hide and panic at different times, and a hider that is
  // hiding is out of the hunter's sight most of the time.
  EXPECT_GT(inState[graze], 0);
  EXPECT_GT(inState[hide], 0);
  EXPECT_GT(inState[panic], 0);
  EXPECT_GE(hiddenWhileHiding, 0.5);
  // The tree sends the hunter both ways.
  EXPECT_GT(hunterChasing, 0);
  EXPECT_LT(hunterChasing, hunterTicks);
  EXPECT_EQ(monitor.summary().insideObstacleMax, 0u);
}

// Sheepdog: a dog drives 40 sheep 90 m across a field into a pen (DRIVE_GROUP) while a wolf hunts
// them. Judged as the issue puts it, on seeds 1-3: at least 90 % of the sheep (36 of the 40
// spawned) inside the pen's walls 120 s after the start. A sheep the wolf catches (within its
// catch_distance) stays in the world, so it counts as penned only if it is inside at 120 s.
// Measured: 90 % in by 62 s and all 40 at 120 s on each seed, the dog holding at the gate; the
// wolf, which keeps 30 m from the dog, came no closer than 13 m to a sheep. Nobody goes through a
// wall.
TEST(ScenarioOutcome, SheepdogPensTheFlockWhileTheWolfHunts) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    ScenarioLoad load =
        loadScenarioFile(std::string(STEERD_SCENARIOS_DIR) + "/sheepdog.txtpb", {seed, 2, 0}, true);
    ASSERT_TRUE(load.errors.empty()) << load.errors[0];
    World& w = *load.world;
    const int sheep = archetypeNamed(w, "sheep"), dog = archetypeNamed(w, "dog"),
              wolf = archetypeNamed(w, "wolf");
    ASSERT_GE(sheep, 0);
    ASSERT_GE(dog, 0);
    ASSERT_GE(wolf, 0);
    EXPECT_EQ(w.archetypes()[static_cast<std::size_t>(wolf)].catchDistance, 1.5f);
    auto inPen = [](float x, float y) { return x > 85.0f && x < 115.0f && y > 150.0f && y < 180.0f; };
    MotionQualityMonitor monitor(w.config().dt);
    constexpr int kSpawned = 40;  // the bar is against the sheep spawned, caught ones included
    int alive = 0, penned = 0, nineTenthsAt = -1;
    float wolfClosest = std::numeric_limits<float>::max();
    for (int t = 0; t < 120 * 30; ++t) {
      w.step();
      monitor.observe(w);
      const auto& a = w.agents();
      alive = penned = 0;
      for (std::size_t s = 0; s < a.size(); ++s) {
        if (a.archetype[s] == wolf) {
          for (std::size_t k = 0; k < a.size(); ++k) {
            if (a.archetype[k] == sheep)
              wolfClosest = std::min(wolfClosest, std::hypot(a.px[s] - a.px[k], a.py[s] - a.py[k]));
          }
        }
        if (a.archetype[s] != sheep) continue;
        ++alive;
        penned += inPen(a.px[s], a.py[s]) ? 1 : 0;
      }
      if (nineTenthsAt < 0 && 10 * penned >= 9 * kSpawned) nineTenthsAt = t;
    }
    std::printf(
        "seed %llu: %d of %d sheep in the pen at 120 s (90 %% first at %.1f s); wolf closest %.1f m\n",
        static_cast<unsigned long long>(seed), penned, kSpawned, nineTenthsAt / 30.0, wolfClosest);
    EXPECT_EQ(alive, kSpawned);  // nothing in the tick removes a caught sheep
    EXPECT_GE(10 * penned, 9 * kSpawned) << "seed " << seed;
    EXPECT_EQ(monitor.summary().insideObstacleMax, 0u) << "seed " << seed;
  }
}

// Guards: with nobody about, each guard keeps to its rounds (in "patrol" on every tick of 40 s,
// past at least one waypoint of its route, over 100 m walked). A player put 8 m in front of a
// guard, in plain sight, is seen at the guard's next think (every 3 ticks) and chased: the guard is
// in "chase" within half a second and reaches the player (bodies touching, 1.1 m centre to centre)
// within 5 s. Once the player is out of sight (moved behind a house, 60 m off), the guard keeps on
// for the 4 s the brain allows and is back in "patrol" by 5 s, on its route again.
TEST(ScenarioOutcome, GuardsPatrolThenChaseASeenPlayerAndGiveUpWhenItIsGone) {
  auto w = shipped("guards.txtpb");
  ASSERT_NE(w, nullptr);
  const int guard = archetypeNamed(*w, "guard"), player = archetypeNamed(*w, "player");
  ASSERT_GE(guard, 0);
  ASSERT_GE(player, 0);  // the built-in one: the file defines none
  const brain::Brain& brain = *w->archetypes()[static_cast<std::size_t>(guard)].brain;
  std::uint8_t patrol = 0, chase = 0;
  for (std::size_t i = 0; i < brain.states.size(); ++i) {
    if (brain.states[i].name == "patrol") patrol = static_cast<std::uint8_t>(i);
    if (brain.states[i].name == "chase") chase = static_cast<std::uint8_t>(i);
  }
  ASSERT_NE(patrol, chase);
  std::vector<AgentId> guards;
  for (std::size_t s = 0; s < w->agentCount(); ++s) {
    if (w->agents().archetype[s] == guard) guards.push_back(w->agents().id[s]);
  }
  ASSERT_EQ(guards.size(), 4u);
  auto positionOf = [&](AgentId id) {
    const auto& a = w->agents();
    return steer::Vec2{a.px[w->slotOf(id)], a.py[w->slotOf(id)]};
  };

  // Nobody about: rounds.
  std::vector<steer::Vec2> last;
  std::vector<double> walked(guards.size(), 0.0);
  std::vector<int> waypointsPassed(guards.size(), 0), lastIndex(guards.size(), -1);
  for (AgentId g : guards) last.push_back(positionOf(g));
  MotionQualityMonitor monitor(w->config().dt);
  for (int t = 0; t < 40 * 30; ++t) {
    w->step();
    monitor.observe(*w);
    for (std::size_t k = 0; k < guards.size(); ++k) {
      EXPECT_EQ(w->brainStateOf(guards[k]), patrol) << "guard " << guards[k] << " at tick " << t;
      const steer::Vec2 p = positionOf(guards[k]);
      walked[k] += steer::distance(p, last[k]);
      last[k] = p;
      const int index = w->agents().memory(w->slotOf(guards[k])).pathIndex;
      if (lastIndex[k] >= 0 && index != lastIndex[k]) ++waypointsPassed[k];
      lastIndex[k] = index;
    }
  }
  for (std::size_t k = 0; k < guards.size(); ++k) {
    std::printf("guard %u: %.0f m walked, %d waypoints passed in 40 s\n", static_cast<unsigned>(guards[k]),
                walked[k], waypointsPassed[k]);
    EXPECT_GT(walked[k], 100.0);
    EXPECT_GE(waypointsPassed[k], 1);
  }

  // A player in plain sight 8 m ahead of the first guard that has one.
  AgentId chaser = guards[0];
  steer::Vec2 spot;
  bool found = false;
  for (std::size_t k = 0; k < guards.size() && !found; ++k) {
    const auto& a = w->agents();
    const std::uint32_t s = w->slotOf(guards[k]);
    spot = positionOf(guards[k]) + steer::Vec2{a.hx[s], a.hy[s]} * 8.0f;
    found = spot.x > 5.0f && spot.x < 155.0f && spot.y > 5.0f && spot.y < 115.0f &&
            !sightBlocked(w->geometry(), positionOf(guards[k]), spot);
    chaser = guards[k];
  }
  ASSERT_TRUE(found);
  const AgentId body = w->spawnExternal(static_cast<ArchetypeIndex>(player), spot);
  int chasingAt = -1, reachedAt = -1;
  for (int t = 0; t < 10 * 30 && reachedAt < 0; ++t) {
    w->step();
    if (chasingAt < 0 && w->brainStateOf(chaser) == chase) chasingAt = t;
    if (steer::distance(positionOf(chaser), spot) < 1.1f + 0.05f) reachedAt = t;
  }
  std::printf("guard %u chasing after %.2f s, at the player after %.1f s\n", static_cast<unsigned>(chaser),
              chasingAt / 30.0, reachedAt / 30.0);
  ASSERT_GE(chasingAt, 0);
  EXPECT_LT(chasingAt, 15);
  ASSERT_GE(reachedAt, 0);
  EXPECT_LT(reachedAt, 5 * 30);

  // Out of sight: 60 m off, behind the houses of the farthest block.
  steer::Vec2 away = positionOf(chaser);
  for (const steer::Vec2 corner :
       {steer::Vec2{4, 4}, steer::Vec2{156, 4}, steer::Vec2{156, 116}, steer::Vec2{4, 116}}) {
    if (steer::distance(corner, positionOf(chaser)) > steer::distance(away, positionOf(chaser)))
      away = corner;
  }
  ASSERT_GT(steer::distance(away, positionOf(chaser)), 60.0f);
  w->setExternalState(body, away, {});
  int patrolAt = -1;
  for (int t = 0; t < 10 * 30 && patrolAt < 0; ++t) {
    w->step();
    if (w->brainStateOf(chaser) == patrol) patrolAt = t;
  }
  std::printf("guard %u back on patrol %.2f s after losing sight\n", static_cast<unsigned>(chaser),
              patrolAt / 30.0);
  ASSERT_GE(patrolAt, 0);
  EXPECT_GE(patrolAt, 4 * 30 - 15);
  EXPECT_LT(patrolAt, 5 * 30);
  const int indexBack = w->agents().memory(w->slotOf(chaser)).pathIndex;
  bool onRoute = false;
  for (int t = 0; t < 40 * 30 && !onRoute; ++t) {
    w->step();
    onRoute = w->agents().memory(w->slotOf(chaser)).pathIndex != indexBack;
  }
  EXPECT_TRUE(onRoute) << "the guard did not pass a waypoint of its route within 40 s of giving up";
  EXPECT_EQ(monitor.summary().insideObstacleMax, 0u);
}

// Civilians and guards (near { state }): over 40 s with nobody about, guards on their rounds pass
// within 12 m of civilians again and again and no civilian ever flees. Then a square guard is set
// chasing a player put in front of it: civilians within 12 m of it flee within half a second of
// its first chasing tick, each that flees had a chasing guard within 12 m when it did, and the
// fleeing ones open the distance to it.
TEST(ScenarioOutcome, CiviliansFleeChasingGuardsAndNotPatrollingOnes) {
  auto w = shipped("guards.txtpb");
  ASSERT_NE(w, nullptr);
  const int guard = archetypeNamed(*w, "guard"), civilian = archetypeNamed(*w, "civilian");
  const int player = archetypeNamed(*w, "player");
  ASSERT_GE(civilian, 0);
  auto stateNamed = [&](int archetype, const std::string& name) {
    const brain::Brain& b = *w->archetypes()[static_cast<std::size_t>(archetype)].brain;
    for (std::size_t i = 0; i < b.states.size(); ++i) {
      if (b.states[i].name == name) return static_cast<std::uint8_t>(i);
    }
    ADD_FAILURE() << "no state " << name;
    return std::uint8_t{0};
  };
  const std::uint8_t chase = stateNamed(guard, "chase"), flee = stateNamed(civilian, "flee");
  std::vector<AgentId> guards, civilians;
  for (std::size_t s = 0; s < w->agentCount(); ++s) {
    (w->agents().archetype[s] == guard ? guards : civilians).push_back(w->agents().id[s]);
  }
  auto positionOf = [&](AgentId id) {
    const auto& a = w->agents();
    return steer::Vec2{a.px[w->slotOf(id)], a.py[w->slotOf(id)]};
  };
  auto chasingGuardWithin = [&](AgentId c, float metres) {
    for (AgentId g : guards) {
      if (w->brainStateOf(g) == chase && steer::distance(positionOf(g), positionOf(c)) <= metres) return true;
    }
    return false;
  };

  int closePasses = 0, fled = 0;
  for (int t = 0; t < 40 * 30; ++t) {
    w->step();
    for (AgentId c : civilians) {
      fled += w->brainStateOf(c) == flee ? 1 : 0;
      for (AgentId g : guards) closePasses += steer::distance(positionOf(g), positionOf(c)) < 12.0f ? 1 : 0;
    }
  }
  std::printf("no player, 40 s: %d civilian-ticks within 12 m of a patrolling guard, %d fleeing\n",
              closePasses, fled);
  EXPECT_GT(closePasses, 1000) << "the test did not bring patrols near civilians";
  EXPECT_EQ(fled, 0);

  // The guard with the most civilians within 12 m, and a player in plain sight 8 m ahead of it.
  AgentId chaser = guards[0];
  steer::Vec2 spot;
  int most = -1;
  for (AgentId g : guards) {
    const auto& a = w->agents();
    const steer::Vec2 ahead = positionOf(g) + steer::Vec2{a.hx[w->slotOf(g)], a.hy[w->slotOf(g)]} * 8.0f;
    if (ahead.x < 5 || ahead.x > 155 || ahead.y < 5 || ahead.y > 115 ||
        sightBlocked(w->geometry(), positionOf(g), ahead))
      continue;
    int near = 0;
    for (AgentId c : civilians) near += steer::distance(positionOf(g), positionOf(c)) < 12.0f ? 1 : 0;
    if (near > most) most = near, chaser = g, spot = ahead;
  }
  ASSERT_GT(most, 0) << "no guard with civilians about and a clear view ahead";
  w->spawnExternal(static_cast<ArchetypeIndex>(player), spot);
  int chasingAt = -1;
  std::vector<int> fledAt(civilians.size(), -1);
  std::vector<float> distanceAtFlight(civilians.size(), 0.0f);
  std::vector<bool> nearAtStart(civilians.size(), false);
  for (int t = 0; t < 5 * 30; ++t) {
    w->step();
    if (chasingAt < 0 && w->brainStateOf(chaser) == chase) {
      chasingAt = t;
      for (std::size_t k = 0; k < civilians.size(); ++k)
        nearAtStart[k] = steer::distance(positionOf(chaser), positionOf(civilians[k])) < 11.0f;
    }
    for (std::size_t k = 0; k < civilians.size(); ++k) {
      if (fledAt[k] >= 0 || w->brainStateOf(civilians[k]) != flee) continue;
      fledAt[k] = t;
      EXPECT_TRUE(chasingGuardWithin(civilians[k], 12.5f))
          << "civilian " << civilians[k] << " fled no chasing guard";
      distanceAtFlight[k] = steer::distance(positionOf(chaser), positionOf(civilians[k]));
    }
  }
  ASSERT_GE(chasingAt, 0);
  int fleeing = 0, opened = 0;
  for (std::size_t k = 0; k < civilians.size(); ++k) {
    if (nearAtStart[k]) {
      EXPECT_GE(fledAt[k], 0) << "civilian " << civilians[k] << " stayed by a chasing guard";
      if (fledAt[k] >= 0) {
        EXPECT_LE(fledAt[k] - chasingAt, 15) << "fled late";
      }
    }
    if (fledAt[k] < 0) continue;
    ++fleeing;
    opened += steer::distance(positionOf(chaser), positionOf(civilians[k])) > distanceAtFlight[k] ? 1 : 0;
  }
  std::printf("guard %u chasing at %.2f s: %d civilians near it, %d fled, %d further from it 5 s on\n",
              static_cast<unsigned>(chaser), chasingAt / 30.0, most, fleeing, opened);
  EXPECT_GT(fleeing, 0);
  EXPECT_GE(opened * 4, fleeing * 3) << "most fleeing civilians should be further from the guard";
}

// The standard crowd test at a fifth of its size (800 walkers in the same 200 m field, 40 s):
// walkers reach their random goals, nobody walks into a box or a cylinder, few jam, and bodies
// hardly overlap. (The full 4,000 runs in scripts/bench.sh crowd, against DetourCrowd.)
std::unique_ptr<World> crowdCrossing(std::uint32_t walkers, unsigned threads) {
  std::ifstream in(std::string(STEERD_SCENARIOS_DIR) + "/crowd-crossing.txtpb");
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  const std::string count = "count: 4000";
  EXPECT_NE(s.find(count), std::string::npos);
  s.replace(s.find(count), count.size(), "count: " + std::to_string(walkers));
  ScenarioLoad load = loadScenarioText(s, "crowd-crossing.txtpb", {1, threads, 0}, true);
  EXPECT_TRUE(load.errors.empty()) << load.errors[0];
  return std::move(load.world);
}

TEST(ScenarioOutcome, CrowdCrossingWalkersReachGoalsWithoutJamsOrOverlap) {
  auto w = crowdCrossing(800, 2);
  ASSERT_NE(w, nullptr);
  MotionQualityMonitor monitor(w->config().dt);
  for (int t = 0; t < 40 * 30; ++t) {
    w->step();
    if (t >= 5 * 30) monitor.observe(*w);
  }
  const MotionQuality q = monitor.summary();
  const NavigationStats& nav = w->navigation()->stats();
  std::printf(
      "crowd-crossing 800: %llu goals, stuck at worst %llu, deepest overlap %.3f r, jitter %.2f deg\n",
      static_cast<unsigned long long>(nav.goalsReached), static_cast<unsigned long long>(q.stuckMax),
      q.maxOverlap, q.headingJitterDeg);
  // 800 walkers at 3.5 m/s with paths of about 100 m: several hundred arrivals in 40 s.
  EXPECT_GT(nav.goalsReached, 300u);
  EXPECT_EQ(nav.failed, 0u);
  EXPECT_EQ(q.insideObstacleMax, 0u);
  EXPECT_LE(q.stuckMax, 4u);  // the bar, 0.5 %
  EXPECT_LT(q.headingJitterDeg, 2.0);
  EXPECT_LT(q.maxOverlap, 0.2);  // of the radius: the bar (measured: under 0.001 r)
}

TEST(ScenarioOutcome, CrowdCrossingIsTheSameForAnyThreadCount) {
  std::uint64_t hashes[3];
  const unsigned threads[3] = {1, 2, 4};
  for (int i = 0; i < 3; ++i) {
    auto w = crowdCrossing(400, threads[i]);
    ASSERT_NE(w, nullptr);
    for (int t = 0; t < 300; ++t) w->step();
    EXPECT_GT(w->navigation()->stats().planner.served, 400u);
    hashes[i] = w->stateHash();
  }
  EXPECT_EQ(hashes[0], hashes[1]);
  EXPECT_EQ(hashes[0], hashes[2]);
}

// turrets.txtpb: bodies that turn by themselves. A player walked round a turret is faced, within
// the lag align's slow radius makes at that pace; a turret out of range holds its facing; sentries
// face where they walk; the lookout faces as the nearest sentry does.
TEST(ScenarioOutcome, TurretsFaceAPlayerSentriesLookWhereTheyGoTheLookoutAligns) {
  auto w = shipped("turrets.txtpb");
  ASSERT_NE(w, nullptr);
  const int turret = archetypeNamed(*w, "turret"), player = archetypeNamed(*w, "player");
  const int sentry = archetypeNamed(*w, "sentry"), lookout = archetypeNamed(*w, "lookout");
  ASSERT_GE(turret, 0);
  ASSERT_GE(player, 0);
  const auto& a = w->agents();
  AgentId sw = 0, ne = 0, look = 0;
  std::vector<AgentId> sentries;
  for (std::size_t s = 0; s < w->agentCount(); ++s) {
    if (a.archetype[s] == turret && a.px[s] < 50 && a.py[s] < 50) sw = a.id[s];
    if (a.archetype[s] == turret && a.px[s] > 50 && a.py[s] > 50) ne = a.id[s];
    if (a.archetype[s] == lookout) look = a.id[s];
    if (a.archetype[s] == sentry) sentries.push_back(a.id[s]);
  }
  ASSERT_EQ(sentries.size(), 2u);
  const auto headingOf = [&](AgentId id) {
    const std::uint32_t s = w->slotOf(id);
    return std::atan2(a.hy[s], a.hx[s]);
  };
  const auto degreesApart = [](float x, float y) {
    return std::abs(steer::wrapAngle(x - y)) * 180.0f / steer::kPi;
  };
  const float neAtStart = headingOf(ne);

  // A player 20 m north of the south-west turret (10, 10): faced within 2 degrees after 3 s.
  const steer::Vec2 centre{10, 10};
  const AgentId p = w->spawnExternal(static_cast<ArchetypeIndex>(player), {10, 30});
  for (int t = 0; t < 90; ++t) w->step();
  EXPECT_LT(degreesApart(headingOf(sw), steer::kPi / 2), 2.0f);

  // Walked round it at 20 degrees a second (the turret turns at up to 90): faced all the way
  // round within the lag of align's slow radius (0.5 rad), 20/90 of it, about 6.4 degrees.
  float worst = 0.0f;
  float angle = steer::kPi / 2;
  const float step = 20.0f * steer::kPi / 180.0f / 30.0f;
  for (int t = 0; t < 300; ++t) {
    angle -= step;  // clockwise: towards +x, down into the courtyard
    const steer::Vec2 at = centre + steer::fromAngle(angle) * 20.0f;
    w->setExternalState(p, at, steer::fromAngle(angle - steer::kPi / 2) * (20.0f * step * 30.0f));
    w->step();
    if (t >= 60) worst = std::max(worst, degreesApart(headingOf(sw), steer::toAngle(at - centre)));
  }
  EXPECT_LT(worst, 8.0f);
  EXPECT_GT(worst, 1.0f);  // and it does lag: it turns, it is not set
  // The north-east turret, 85 m away, never turned.
  EXPECT_EQ(headingOf(ne), neAtStart);

  // Sentries face their direction of travel while they walk (corners aside).
  int walking = 0, along = 0, aligned = 0, samples = 0;
  for (int t = 0; t < 600; ++t) {
    w->step();
    for (const AgentId id : sentries) {
      const std::uint32_t s = w->slotOf(id);
      if (std::hypot(a.vx[s], a.vy[s]) < 1.0f) continue;
      ++walking;
      if (degreesApart(headingOf(id), std::atan2(a.vy[s], a.vx[s])) < 10.0f) ++along;
    }
    // The lookout looks the way the nearest sentry looks (it turns at 90 a second, so a corner of
    // the sentry's round takes it a moment).
    const std::uint32_t l = w->slotOf(look);
    AgentId nearest = sentries[0];
    float best = 1e9f;
    for (const AgentId id : sentries) {
      const std::uint32_t s = w->slotOf(id);
      const float d = std::hypot(a.px[s] - a.px[l], a.py[s] - a.py[l]);
      if (d < best) best = d, nearest = id;
    }
    ++samples;
    if (degreesApart(headingOf(look), headingOf(nearest)) < 10.0f) ++aligned;
  }
  ASSERT_GT(walking, 600);
  EXPECT_GT(along, walking * 8 / 10) << along << " of " << walking;
  EXPECT_GT(aligned, samples * 7 / 10) << aligned << " of " << samples;

  // Drones (kinematic) wander at exactly their top speed; a player held still 10 m from one is
  // hovered round: kinematic arrive brings it to 3 m, where it stops and (PRIORITY: a stop is no
  // output) wander takes it a tick's step out again, so it stays within 3 m and a step.
  const int drone = archetypeNamed(*w, "drone");
  ASSERT_GE(drone, 0);
  std::uint32_t first = 0;
  for (std::size_t s = 0; s < w->agentCount(); ++s) {
    if (a.archetype[s] == drone) first = static_cast<std::uint32_t>(s);
  }
  const AgentId hovering = a.id[first];
  const float ds = std::hypot(a.vx[first], a.vy[first]);
  const bool atEdge = a.px[first] < 1 || a.px[first] > 99 || a.py[first] < 1 || a.py[first] > 99;
  if (!atEdge) {
    EXPECT_NEAR(ds, 5.0f, 1e-4f);
  }
  const steer::Vec2 by{std::clamp(a.px[first], 15.0f, 85.0f), std::clamp(a.py[first] + 10.0f, 15.0f, 85.0f)};
  w->setExternalState(p, by, {0, 0});
  float farthest = 0.0f;
  for (int t = 0; t < 300; ++t) {
    w->step();
    const std::uint32_t h = w->slotOf(hovering);
    if (t >= 240) farthest = std::max(farthest, std::hypot(a.px[h] - by.x, a.py[h] - by.y));
  }
  EXPECT_LE(farthest, 3.0f + 5.0f / 30.0f + 1e-3f);  // 3 m, and one tick at 5 m/s
}

}  // namespace
}  // namespace steerd
