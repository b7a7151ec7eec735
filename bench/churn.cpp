// Player churn: what a million joins and leaves cost a world afterwards. Loads a scenario, keeps
// --players bodies of connected players alive (the player archetype, moved from outside as a
// server moves them), and measures the tick (mean and p99 over --measure ticks) and the
// process's resident memory; then --cycles joins and leaves (--per-tick of each a tick, the oldest
// player leaving), and measures again. The control API's Controller sees every join and leave, as
// the game session's does. --no-churn runs the same ticks with the same players staying: the
// world's own change over those ticks (a crowd that has spread out ticks at another cost), to
// compare "after" with. scripts/bench.sh churn runs both.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <fstream>
#include <string>
#include <vector>

#include "control/control.h"
#include "scenario/scenario_file.h"

namespace {

using namespace steerd;
using Clock = std::chrono::steady_clock;

double residentMb() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmRSS:") {
      double kb = 0;
      status >> kb;
      return kb / 1024.0;
    }
    status.ignore(1 << 20, '\n');
  }
  return 0.0;
}

struct Measure {
  double meanMs = 0, p99Ms = 0, rssMb = 0;
  std::size_t indices = 0;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"steerd under player churn: tick and memory before and after many joins and leaves"};
  std::string scenario = "scenarios/crowd-crossing.txtpb";
  std::size_t cycles = 1'000'000, perTick = 64, players = 64;
  unsigned threads = 2;
  std::uint32_t measure = 900;
  bool noChurn = false;
  app.add_option("--scenario", scenario, "Built-in name or file")->capture_default_str();
  app.add_option("--cycles", cycles, "Joins (and as many leaves)")->capture_default_str();
  app.add_option("--per-tick", perTick, "Joins and leaves a tick")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  app.add_option("--players", players, "Players alive at once")->capture_default_str();
  app.add_option("--threads", threads, "Simulation threads")->capture_default_str();
  app.add_option("--measure", measure, "Ticks measured before and after")->capture_default_str();
  app.add_flag("--no-churn", noChurn, "The same ticks, nobody joining or leaving");
  CLI11_PARSE(app, argc, argv);

  ScenarioOptions o;
  o.threads = threads;
  ScenarioLoad load = openScenario(scenario, o);
  if (!load.world) {
    for (const auto& e : load.errors) std::fprintf(stderr, "%s\n", e.c_str());
    return 1;
  }
  World& world = *load.world;
  control::Controller controller(world);
  const auto player = static_cast<ArchetypeIndex>(world.archetypeIndex("player"));
  const Bounds& b = world.geometry().bounds;
  std::deque<AgentId> alive;
  std::uint64_t joined = 0;
  auto join = [&] {
    // Spread over the world, deterministic: the same run every time.
    const float fx = static_cast<float>((joined * 7919) % 1000) / 1000.0f;
    const float fy = static_cast<float>((joined * 104729) % 1000) / 1000.0f;
    const AgentId id = world.spawnExternal(
        player, {b.minX + 2 + fx * (b.maxX - b.minX - 4), b.minY + 2 + fy * (b.maxY - b.minY - 4)});
    controller.noteSpawned(id);
    alive.push_back(id);
    ++joined;
  };
  auto leave = [&] {
    const AgentId id = alive.front();
    alive.pop_front();
    world.despawn(id);
    controller.noteDespawned(id, "player");
  };
  auto tick = [&] {
    controller.applyPending();
    world.step();
    controller.afterTick();
  };
  auto measureNow = [&] {
    std::vector<double> ms;
    for (std::uint32_t t = 0; t < measure; ++t) {
      const auto t0 = Clock::now();
      tick();
      ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    Measure m;
    for (double x : ms) m.meanMs += x;
    m.meanMs /= static_cast<double>(ms.size());
    m.p99Ms = ms[std::min(ms.size() - 1, ms.size() * 99 / 100)];
    m.rssMb = residentMb();
    m.indices = world.indexCapacity();
    return m;
  };

  while (alive.size() < players) join();
  for (int t = 0; t < 60; ++t) tick();  // warm up
  const Measure before = measureNow();
  const auto churnStart = Clock::now();
  for (std::size_t done = 0; done < cycles;) {
    for (std::size_t k = 0; k < perTick && done < cycles; ++k, ++done) {
      if (noChurn) continue;
      join();
      leave();
    }
    tick();
  }
  const double churnS = std::chrono::duration<double>(Clock::now() - churnStart).count();
  const Measure after = measureNow();

  std::printf(
      "scenario %s, %zu agents, %u threads, %zu players alive, %zu joins and leaves (%zu a tick, %.0f s)%s\n",
      scenario.c_str(), world.agentCount(), threads, players, noChurn ? 0 : cycles, perTick, churnS,
      noChurn ? ": the same ticks without churn" : "");
  std::printf("%-8s %10s %10s %10s %16s\n", "", "ms/tick", "p99 ms", "RSS MB", "agent indices");
  std::printf("%-8s %10.3f %10.3f %10.1f %16zu\n", "before", before.meanMs, before.p99Ms, before.rssMb,
              before.indices);
  std::printf("%-8s %10.3f %10.3f %10.1f %16zu\n", "after", after.meanMs, after.p99Ms, after.rssMb,
              after.indices);
  std::printf("change   %+9.1f%% %+9.1f%% %+9.1f%%\n", 100.0 * (after.meanMs / before.meanMs - 1.0),
              100.0 * (after.p99Ms / before.p99Ms - 1.0), 100.0 * (after.rssMb / before.rssMb - 1.0));
  return 0;
}
