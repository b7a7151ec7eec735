// What the check and the compiler of a scenario file's brains share: a brain's names (states,
// senses, stats) by index, and the limits on how deep conditions and decision trees nest.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "proto/scenario.pb.h"

namespace steerd {

inline constexpr int kMaxConditionDepth = 16;
inline constexpr int kMaxTreeDepth = 16;  // decisions from the root to a leaf

struct BrainNames {
  std::map<std::string, int> states, senses, stats;
  std::string archetype;
  bool ordered = false;  // some state's fetch orders send this archetype (has_order can change)
  const scenario::Scenario* scenario = nullptr;  // the whole file: other archetypes' brains
};

BrainNames brainNamesOf(const scenario::Brain& b);
// The brain the file gives `archetype`, or null.
const scenario::Brain* brainOf(const scenario::Scenario& s, const std::string& archetype);
// The index of the state named `name` in `b`, or -1.
std::int32_t stateIndexIn(const scenario::Brain& b, const std::string& name);

}  // namespace steerd
