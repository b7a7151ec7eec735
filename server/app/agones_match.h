// A match under Agones: wait for the allocation (Health pings meanwhile), and the scenario the
// allocation asks for.
#pragma once

#include <optional>
#include <string>

#include "app/agones_sdk.h"
#include "app/options.h"

namespace steerd {

// The allocation's metadata key naming the match's scenario (annotation, else label).
inline constexpr const char* kScenarioKey = "steerd.dev/scenario";

struct MatchScenario {
  std::string scenario;  // what to load: a built-in name or a file path
  std::string note;      // what was chosen and why (logged)
  bool refused = false;  // the allocation named something not allowed: the fleet's --scenario runs
};

// steerd.dev/scenario may name a built-in scenario, or a file NAME or NAME.txtpb inside
// options.scenarioDir (no path: an allocation never reads files elsewhere); nothing named: the
// fleet's --scenario.
MatchScenario scenarioForMatch(const Options& options, const GameServerInfo& allocation);

// Sends Health every options.agonesHealthInterval until the watch says Allocated. nullopt when
// SIGINT or SIGTERM came first (the caller asks for Shutdown).
std::optional<GameServerInfo> awaitAllocation(AgonesSdk& sdk, const Options& options);

}  // namespace steerd
