// The `brains` of a scenario file: validation (every name resolved, every number sane, no cycles;
// scenario_brains_validate.cpp) and compilation into brain::Brain plus each state's behaviour set
// on its archetype (scenario_brains_build.cpp).
#pragma once

#include <string>
#include <vector>

#include "proto/scenario.pb.h"
#include "scenario/scenario_build.h"
#include "scenario/scenario_check.h"
#include "world/archetype.h"

namespace steerd {

void validateBrains(const scenario::Scenario& s, const scenario_check::NameSets& names,
                    scenario_check::Checker& c);
// The signal names the brains' conditions read, sorted (at most kMaxSignalNames in a file, the
// signal names a world holds).
std::vector<std::string> signalNamesOf(const scenario::Scenario& s);
inline constexpr std::size_t kMaxSignalNames = 32;

// Gives each archetype named by a (valid) brain its compiled brain and per-state behaviour sets.
void attachBrains(const scenario::Scenario& s, const Names& names, std::vector<Archetype>& archetypes);

}  // namespace steerd
