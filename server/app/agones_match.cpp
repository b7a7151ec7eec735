#include "app/agones_match.h"

#include <spdlog/spdlog.h>
#include <asio.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <functional>

#include "scenario/scenario_file.h"

namespace steerd {

MatchScenario scenarioForMatch(const Options& options, const GameServerInfo& allocation) {
  std::string wanted;
  if (const auto a = allocation.annotations.find(kScenarioKey); a != allocation.annotations.end()) {
    wanted = a->second;
  } else if (const auto l = allocation.labels.find(kScenarioKey); l != allocation.labels.end()) {
    wanted = l->second;
  }
  if (wanted.empty()) return {options.scenario, "scenario " + options.scenario + " (the fleet's)", false};
  const auto names = scenarioNames();
  if (std::find(names.begin(), names.end(), wanted) != names.end()) {
    return {wanted, "scenario " + wanted + " (built in, named by the allocation)", false};
  }
  const bool plainName = wanted.find('/') == std::string::npos && wanted.find('\\') == std::string::npos &&
                         wanted != "." && wanted != ".." && wanted.size() <= 255;
  if (plainName) {
    for (const std::string& file : {wanted, wanted + ".txtpb"}) {
      const std::filesystem::path path = std::filesystem::path(options.scenarioDir) / file;
      std::error_code ec;
      if (std::filesystem::is_regular_file(path, ec)) {
        return {path.string(), "scenario " + path.string() + " (named by the allocation)", false};
      }
    }
  }
  return {options.scenario,
          "the allocation's " + std::string(kScenarioKey) + " '" + wanted +
              "' is neither a built-in scenario nor a file in " + options.scenarioDir +
              " (--scenario-dir): running the fleet's scenario " + options.scenario,
          true};
}

std::optional<GameServerInfo> awaitAllocation(AgonesSdk& sdk, const Options& options) {
  asio::io_context io;
  asio::signal_set signals(io, SIGINT, SIGTERM);
  asio::steady_timer timer(io);
  std::optional<GameServerInfo> allocated;
  bool signalled = false;
  signals.async_wait([&](const std::error_code& ec, int signal) {
    if (ec) return;
    spdlog::info("signal {} received while waiting for allocation: stopping", signal);
    signalled = true;
    timer.cancel();
  });
  auto lastHealth = std::chrono::steady_clock::now() - std::chrono::hours(1);
  std::function<void()> poll = [&] {
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - lastHealth).count() >= options.agonesHealthInterval) {
      sdk.health();
      lastHealth = now;
    }
    if (auto gs = sdk.gameServer(); gs && gs->state == "Allocated") {
      allocated = std::move(gs);
      signals.cancel();
      return;
    }
    timer.expires_after(std::chrono::milliseconds(50));
    timer.async_wait([&](const std::error_code& ec) {
      if (!ec && !signalled) poll();
    });
  };
  spdlog::info("agones: waiting for allocation (players are refused until then)");
  poll();
  io.run();
  return signalled ? std::nullopt : allocated;
}

}  // namespace steerd
