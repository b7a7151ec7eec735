#include "app/headless_run.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "analysis/designer_report.h"
#include "analysis/motion_quality.h"
#include "app/process_memory.h"
#include "app/tick_stats.h"
#include "scenario/scenario_file.h"
#include "world/bots.h"
#include "world/scenarios.h"

namespace steerd {

int runHeadless(const Options& options, std::FILE* out) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  const std::optional<ProcessMemory> memoryBefore = processMemory();
  ScenarioLoad load = openScenario(options.scenario, scenarioOptionsOf(options));
  for (const auto& e : load.errors) spdlog::error("{}", e);
  for (const auto& w : load.warnings) spdlog::warn("{}", w);
  if (!load.world) return 2;
  auto world = std::move(load.world);
  if (std::string error = addBots(*world, options.bots, options.seed); !error.empty()) {
    spdlog::error("--bots: {}", error);
    return 2;
  }
  if ((options.lod || options.bots > 0) && !options.noLod) world->setLevelOfDetail(true);
  const double setupMs = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  spdlog::info("scenario {} seed {}: {} agents, {} obstacles, {} threads (set-up {:.1f} ms)",
               options.scenario, options.seed, world->agentCount(), world->geometry().obstacles.size(),
               options.threads, setupMs);

  std::optional<MotionQualityMonitor> monitor, nearPlayers;
  if (options.report) monitor.emplace(world->config().dt);
  // With stand-in players, the same figures near them (within the narrowest first level-of-detail
  // band), where level of detail must change nothing visible: compare a run with --no-lod.
  float firstBand = 0.0f;
  for (const Archetype& a : world->archetypes()) {
    if (!a.lodFocus)
      firstBand = firstBand > 0.0f ? std::min(firstBand, a.lodDistances[0]) : a.lodDistances[0];
  }
  if (options.report && options.bots > 0 && firstBand > 0.0f)
    nearPlayers.emplace(world->config().dt, firstBand);
  // The file's expectations and --expect's, on the file's regions.
  std::vector<ReportExpectation> expectations = load.expectations;
  for (const std::string& text : options.expect) {
    ReportExpectation e;
    parseExpectation(text, e);  // checked with the flags
    e.mustBeJudged = true;
    bool region = false, archetype = false;
    for (const ReportRegion& r : load.regions) region = region || r.name == e.region;
    for (const Archetype& a : world->archetypes()) archetype = archetype || a.name == e.archetype;
    if (!region || !archetype) {
      spdlog::error("--expect {}: no {} named '{}' in {}", text, region ? "archetype" : "region",
                    region ? e.archetype : e.region, options.scenario);
      return 2;
    }
    expectations.push_back(e);
  }
  std::optional<DesignerReport> designer;
  if (options.report || !expectations.empty())
    designer.emplace(*world, load.regions, std::move(expectations), load.gates);
  TickStats stats;
  std::uint64_t contacts = 0;
  for (std::uint64_t t = 0; t < options.ticks; ++t) {
    const auto a = Clock::now();
    world->step();
    stats.add(std::chrono::duration<double, std::milli>(Clock::now() - a).count());
    contacts += world->lastTickCounters().obstacleContacts;
    if (monitor) monitor->observe(*world);
    if (nearPlayers) nearPlayers->observe(*world);
    if (designer) designer->observe(*world);
  }
  const double meanMs = stats.mean();
  spdlog::info(
      "{} ticks: mean {:.3f} ms, p99 {:.3f} ms, max {:.3f} ms per tick; {:.2f} M agent-updates/s; "
      "{} obstacle/wall contacts resolved",
      options.ticks, meanMs, stats.percentile(99), stats.percentile(100),
      meanMs > 0 ? static_cast<double>(world->agentCount()) / meanMs / 1000.0 : 0.0, contacts);
  // Memory per agent: what the process took on for the world and its ticks (the peak less what
  // it held before the scenario was loaded), shared out over the agents.
  if (const std::optional<ProcessMemory> now = processMemory();
      now && memoryBefore && world->agentCount() > 0) {
    const std::uint64_t grown =
        now->peakResidentBytes - std::min(now->peakResidentBytes, memoryBefore->residentBytes);
    spdlog::info("memory: peak {:.1f} MiB resident, {:.1f} MiB before the world; {:.0f} bytes an agent",
                 static_cast<double>(now->peakResidentBytes) / 1048576.0,
                 static_cast<double>(memoryBefore->residentBytes) / 1048576.0,
                 static_cast<double>(grown) / static_cast<double>(world->agentCount()));
  }
  if (monitor) std::fputs(formatMotionQuality(monitor->summary()).c_str(), out);
  if (nearPlayers) {
    const std::string title =
        "motion_quality_near_players (within " + std::to_string(static_cast<int>(firstBand)) + " m)";
    std::fputs(formatMotionQuality(nearPlayers->summary(), title).c_str(), out);
  }
  if (designer)
    std::fputs((options.report ? designer->format(*world) : designer->expectationLines()).c_str(), out);
  if (options.report && world->navigation() != nullptr)
    std::fputs(
        formatNavigationReport(*world, static_cast<double>(options.ticks) * world->config().dt).c_str(), out);
  std::fprintf(out, "state_hash %016llx\n", static_cast<unsigned long long>(world->stateHash()));
  std::fflush(out);
  if (designer && !designer->expectationsMet()) {
    spdlog::error("an expectation was not met (the 'expect' lines above)");
    return 1;
  }
  return 0;
}

}  // namespace steerd
