// Archetypes as groups: each one's centroid, and for the (member, group) pairs that behaviours
// and brains ask about, the member farthest from the group's centroid (the stray a sheepdog or a
// cowboy goes after). Measured once per tick, serially in slot order, so it does not depend on
// the thread count.
#pragma once

#include <cstdint>
#include <vector>

#include "steering/vec2.h"
#include "world/agent_columns.h"

namespace steerd {

struct StrayPair {
  ArchetypeIndex member = 0;
  ArchetypeIndex group = 0;
  bool operator==(const StrayPair&) const = default;
};

struct Groups {
  std::vector<steer::Vec2> centroid;  // per archetype; only meaningful where count > 0
  std::vector<std::uint32_t> count;   // per archetype
  std::vector<StrayPair> pairs;
  std::vector<std::int32_t>
      straySlot;  // per pair: slot (in the sorted columns) of the farthest member, -1: none
  std::vector<float> strayDistance;  // per pair: its distance from the group's centroid, m

  // Index of a pair in `pairs`, or -1.
  std::int32_t find(ArchetypeIndex member, ArchetypeIndex group) const {
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      if (pairs[i] == StrayPair{member, group}) return static_cast<std::int32_t>(i);
    }
    return -1;
  }
};

Groups measureGroups(const AgentColumns& sorted, std::size_t archetypes, const std::vector<StrayPair>& pairs);

}  // namespace steerd
