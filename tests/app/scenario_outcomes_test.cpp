// Shipped scenarios, run headless and judged by what a watcher would see.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "app/scenario_file.h"
#include "world/motion_quality.h"

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
      const int index = a.memory[s].pathIndex;
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

// Seed 000: wolves hunt: one closes to within 3 m of a grazer, centre to centre (the bodies
// touch at 1.5 m; grazers evade, so a catch is a near thing), and nobody walks into an obstacle.
TEST(ScenarioOutcome, WildlifeWolvesCatchUpWithGrazers) {
  auto w = shipped("wildlife.txtpb");
  ASSERT_NE(w, nullptr);
  MotionQualityMonitor monitor(w->config().dt);
  float closest = std::numeric_limits<float>::max();
  for (int t = 0; t < 60 * 30; ++t) {
    w->step();
    monitor.observe(*w);
    const auto& a = w->agents();
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (w->archetypes()[a.archetype[i]].name != "wolf") continue;
      for (std::size_t j = 0; j < a.size(); ++j) {
        if (a.archetype[j] == a.archetype[i]) continue;
        closest = std::min(closest, std::hypot(a.px[i] - a.px[j], a.py[i] - a.py[j]));
      }
    }
  }
  EXPECT_LT(closest, 3.0f);
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
        slotError += std::hypot(a.memory[s].goalX - a.px[s], a.memory[s].goalY - a.py[s]);
        ++slotSamples;
      }
    }
    ++guardTicks;
    guardCloser += guardDistance < nearestRaider ? 1 : 0;
  }
  EXPECT_LT(slotError / slotSamples, 2.5);
  EXPECT_GT(guardCloser, guardTicks * 3 / 4);
}

}  // namespace
}  // namespace steerd
