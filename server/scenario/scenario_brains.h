// The `brains` of a scenario file: validation (every name resolved, every number sane, no cycles)
// and compilation into brain::Brain plus each state's behaviour set on its archetype.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "proto/scenario.pb.h"
#include "scenario/scenario_check.h"
#include "world/archetype.h"

namespace steerd {

// Names the file uses, resolved to what the world uses.
struct Names {
  std::map<std::string, steer::Vec2> waypoints;
  std::map<std::string, std::int32_t> paths, archetypes;
};

// One behaviour (in an archetype or a brain state): checked and converted (scenario_file.cpp).
void validateBehaviour(const scenario::Scenario& s, const std::string& archetype,
                       const scenario::Behaviour& beh, const std::string& field,
                       const scenario_check::NameSets& names, scenario_check::Checker& c);
BehaviourSpec specOf(const scenario::Behaviour& beh, const Names& names);

void validateBrains(const scenario::Scenario& s, const scenario_check::NameSets& names,
                    scenario_check::Checker& c);
// The signal names the brains' conditions read, sorted (at most kMaxSignalNames in a file, the
// signal names a world holds).
std::vector<std::string> signalNamesOf(const scenario::Scenario& s);
inline constexpr std::size_t kMaxSignalNames = 32;

// Gives each archetype named by a (valid) brain its compiled brain and per-state behaviour sets.
void attachBrains(const scenario::Scenario& s, const Names& names, std::vector<Archetype>& archetypes);

}  // namespace steerd
