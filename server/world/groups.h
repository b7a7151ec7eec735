// Archetypes as groups: each one's centroid, mean velocity and leader (its live agent with the
// lowest id), and for the (member, group) pairs that behaviours and brains ask about, the member
// farthest from the group's centroid (the stray a sheepdog or a cowboy goes after). Measured once
// per tick, serially in slot order, so it does not depend on the thread count. The fetch orders in
// force ride along (the think phase fills them in after measuring).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "steering/vec2.h"
#include "world/agent_columns.h"
#include "world/archetype.h"

namespace steerd {

struct StrayPair {
  ArchetypeIndex member = 0;
  ArchetypeIndex group = 0;
  bool operator==(const StrayPair&) const = default;
};

struct Groups {
  std::vector<steer::Vec2> centroid;     // per archetype; only meaningful where count > 0
  std::vector<steer::Vec2> velocity;     // per archetype: mean velocity; only meaningful where count > 0
  std::vector<std::uint32_t> count;      // per archetype
  std::vector<std::int32_t> leaderSlot;  // per archetype: slot of the agent with the lowest id, -1: none
  std::vector<StrayPair> pairs;
  std::vector<std::int32_t>
      straySlot;  // per pair: slot (in the sorted columns) of the farthest member, -1: none
  std::vector<float> strayDistance;  // per pair: its distance from the group's centroid, m

  // A fetch order in force (brain_think.h): who was sent, the slot of the agent it fetches, home.
  struct Fetch {
    AgentId holder = 0;
    std::int32_t straySlot = -1;
    ArchetypeIndex group = 0;
  };
  std::vector<Fetch> fetches;  // ascending by holder

  // Index of a pair in `pairs`, or -1.
  std::int32_t find(ArchetypeIndex member, ArchetypeIndex group) const {
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      if (pairs[i] == StrayPair{member, group}) return static_cast<std::int32_t>(i);
    }
    return -1;
  }
  // The order `holder` holds, or null.
  const Fetch* fetchOf(AgentId holder) const {
    if (fetches.empty()) return nullptr;
    const auto it = std::lower_bound(fetches.begin(), fetches.end(), holder,
                                     [](const Fetch& f, AgentId id) { return f.holder < id; });
    return it != fetches.end() && it->holder == holder ? &*it : nullptr;
  }
};

Groups measureGroups(const AgentColumns& sorted, std::size_t archetypes, const std::vector<StrayPair>& pairs);

// What a behaviour set asks of groups, added to `pairs` once each: FETCH_STRAY's and
// DRIVE_GROUP's (member, home) pair; a group leader or centroid target's archetype (any pair keeps
// the groups measured every tick).
void behaviourStrayPairs(const std::vector<BehaviourSpec>& behaviours, std::vector<StrayPair>& pairs);

}  // namespace steerd
