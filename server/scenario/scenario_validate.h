// The check of a parsed scenario file: every name resolved, every number sane, each problem an error
// (or, for what is allowed but likely not meant, a warning) with its field path. Section by section,
// in the order the errors come out: regions, gates and expectations; the world's geometry;
// waypoints and paths; archetypes and their behaviours; brains (scenario_brains.h); boxes and the
// navmesh (scenario_nav.h); contact passes; spawn groups.
#pragma once

#include <cstdint>
#include <string>

#include "proto/scenario.pb.h"
#include "scenario/scenario_check.h"

namespace steerd {

// Limits that keep a bad file from asking for more than a server can give (--agents too).
inline constexpr float kMaxWorldSide = 20000.0f;        // m
inline constexpr std::uint64_t kMaxAgents = 4'000'000;  // under kMaxAgentIndices, with room for players

void validateScenario(const scenario::Scenario& s, scenario_check::Checker& c);

// One behaviour (in an archetype or a brain state) of `archetype`; `field` is its path
// ("archetypes[1] (\"dog\").behaviours[0]"). scenario_validate_behaviour.cpp.
void validateBehaviour(const scenario::Scenario& s, const std::string& archetype,
                       const scenario::Behaviour& beh, const std::string& field,
                       const scenario_check::NameSets& names, scenario_check::Checker& c);

}  // namespace steerd
