#include "app/options.h"

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <thread>

#include "world/scenarios.h"

namespace steerd {

std::optional<int> parseOptions(int argc, char** argv, Options& out) {
  CLI::App app{"steerd: server-authoritative steering server for game NPCs"};
  app.option_defaults()->always_capture_default();
  const auto names = builtinScenarioNames();
  std::string builtins;
  for (const auto& n : names) builtins += (builtins.empty() ? "" : ", ") + n;
  app.add_option("--scenario", out.scenario, "Built-in scenario (" + builtins + ") or scenario file (.txtpb)")
      ->check(
          [names](const std::string& v) -> std::string {
            for (const auto& n : names) {
              if (n == v) return {};
            }
            return CLI::ExistingFile(v).empty() ? std::string{}
                                                : "no built-in scenario or readable file named '" + v + "'";
          },
          "NAME or FILE");
  app.add_option("--check-scenario", out.checkScenario,
                 "Validate a scenario file, report every error, and exit");
  app.add_flag("--watch", out.watch,
               "Reload the scenario file's archetypes when the file changes (SIGHUP always reloads)");
  app.add_option("--seed", out.seed, "World seed: same seed and inputs give the same world")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--threads", out.threads, "Simulation threads (0: one per hardware thread)")
      ->check(CLI::Range(0u, 256u));
  app.add_option("--agents", out.agents, "Number of agents for the crowd (flock size for default)")
      ->check(CLI::Range(std::size_t{0}, std::size_t{5'000'000}));
  app.add_option("--tick-rate", out.tickRate, "Simulation ticks per second")->check(CLI::Range(1.0, 1000.0));
  app.add_flag("--headless", out.headless,
               "Run --ticks ticks as fast as possible, no network; print state_hash");
  app.add_option("--ticks", out.ticks, "Ticks to run (required with --headless; 0 = until SIGINT otherwise)");
  app.add_flag("--report", out.report, "With --headless: measure and print motion quality");
  app.add_option("--log-level", out.logLevel, "trace, debug, info, warn, error, critical, off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}));
  app.add_option("--status-interval", out.statusInterval, "Seconds between status lines (0: none)")
      ->check(CLI::Range(0.0, 3600.0));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  // CLI11's Range lets NaN through (every comparison with NaN is false).
  if (!std::isfinite(out.tickRate) || !std::isfinite(out.statusInterval)) {
    std::fprintf(
        stderr,
        "--tick-rate and --status-interval must be finite numbers\nRun with --help for more information.\n");
    return 2;
  }
  if (out.headless && out.ticks == 0) {
    std::fprintf(stderr, "--headless needs --ticks N (N > 0)\nRun with --help for more information.\n");
    return 2;
  }
  if (out.report && !out.headless) {
    std::fprintf(stderr, "--report works with --headless only\nRun with --help for more information.\n");
    return 2;
  }
  if (out.threads == 0) out.threads = std::max(1u, std::thread::hardware_concurrency());
  return std::nullopt;
}

}  // namespace steerd
