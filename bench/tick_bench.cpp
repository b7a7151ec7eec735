// Whole-tick benches: World::step() on the built-in scenarios, for scenario in {crowd, default},
// agents in {10k, 100k, 200k} and threads in {1, 2}. For `default`, `agents` is the flock size
// (the scenario adds a few dozen pursuers, hiders, patrols and racers).
//
// The world is built once per run, outside the timed loop (seed 1), and stepped 5 ticks to warm
// up before timing. Each iteration is one tick; the iteration count is fixed so the suite takes a
// predictable few minutes. Reported: the mean ms/tick (real time), and counters
//   agents         agents in the world (the default scenario's extras included)
//   threads        worker threads of the world
//   agent_updates  agents * ticks per second
//   p50_ms, p99_ms, max_ms   per-tick wall time percentiles (DESIGN.md: with 2 threads one
//                  descheduled thread stalls the barrier, so the tail matters as well as the mean)
// Names: BM_Tick/<scenario>/agents:<n>/threads:<t>/iterations:<i>/real_time; filter on
// e.g. 'agents:10000/' for the small rows. scripts/bench.sh prints them as a table.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "scenario/scenario_file.h"
#include "world/world.h"

namespace {

constexpr int kWarmupTicks = 5;

// Nearest-rank percentile of already sorted samples.
double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0.0;
  const double rank = std::ceil(p / 100.0 * static_cast<double>(sorted.size()));
  const std::size_t index = rank < 1.0 ? 0 : static_cast<std::size_t>(rank) - 1;
  return sorted[std::min(index, sorted.size() - 1)];
}

void BM_Tick(benchmark::State& state, const std::string& scenario) {
  steerd::ScenarioOptions options;
  options.seed = 1;
  options.agents = static_cast<std::size_t>(state.range(0));
  options.threads = static_cast<unsigned>(state.range(1));
  const std::unique_ptr<steerd::World> world = steerd::openScenario(scenario, options).world;
  if (!world) {
    state.SkipWithError(("unknown scenario: " + scenario).c_str());
    return;
  }
  for (int k = 0; k < kWarmupTicks; ++k) world->step();

  std::vector<double> tickMs;
  tickMs.reserve(static_cast<std::size_t>(state.max_iterations));
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    world->step();
    const auto end = std::chrono::steady_clock::now();
    tickMs.push_back(std::chrono::duration<double, std::milli>(end - start).count());
  }
  benchmark::DoNotOptimize(world->tick());

  const double agents = static_cast<double>(world->agentCount());
  std::sort(tickMs.begin(), tickMs.end());
  state.counters["agents"] = agents;
  state.counters["threads"] = static_cast<double>(options.threads);
  state.counters["agent_updates"] =
      benchmark::Counter(agents * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["p50_ms"] = percentile(tickMs, 50.0);
  state.counters["p99_ms"] = percentile(tickMs, 99.0);
  state.counters["max_ms"] = tickMs.empty() ? 0.0 : tickMs.back();
}

[[maybe_unused]] const bool kRegistered = [] {
  struct Size {
    std::int64_t agents;
    std::int64_t iterations;
  };
  const Size sizes[] = {{10000, 50}, {100000, 20}, {200000, 20}};
  for (const std::string scenario : {"crowd", "default"}) {
    for (const Size& size : sizes) {
      for (const std::int64_t threads : {1, 2}) {
        benchmark::RegisterBenchmark(("BM_Tick/" + scenario).c_str(), BM_Tick, scenario)
            ->Args({size.agents, threads})
            ->ArgNames({"agents", "threads"})
            ->Iterations(size.iterations)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
      }
    }
  }
  return true;
}();

}  // namespace
