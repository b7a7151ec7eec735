// The parts of a world's state that World::stateHash() covers, by name, and a digest of them: the
// whole hash, one hash per part and one per block of agents. A recording keeps every tick's digest
// so a replay that differs can say where (server/record/).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace steerd {

enum class StatePart : std::uint8_t {
  kTick,
  kPosition,
  kVelocity,
  kHeading,
  kWander,  // the wander target
  kPath,    // path-following waypoint
  kTarget,  // last tick's chased or avoided agent
  kArchetype,
  kBrainState,
  kFetchOrder,    // a fetch order held
  kBrainMemory,   // stats, sightings, state timing
  kGoal,          // a control API directive
  kMarks,         // tags and signals
  kNavigation,    // navmesh goal and corridor progress
  kPassedOver,    // world-wide: who may not be sent after whom
  kWorldChanges,  // world-wide: doors' states, live obstacles, the schedule's progress
  kCount
};
inline constexpr std::size_t kStatePartCount = static_cast<std::size_t>(StatePart::kCount);

inline const char* statePartName(StatePart p) {
  static constexpr std::array<const char*, kStatePartCount> kNames = {
      "tick",   "position",   "velocity",    "heading",      "wander",       "path",
      "target", "archetype",  "brain_state", "fetch_order",  "brain_memory", "goal",
      "marks",  "navigation", "passed_over", "world_changes"};
  const auto i = static_cast<std::size_t>(p);
  return i < kNames.size() ? kNames[i] : "unknown";
}

struct StateDigest {
  std::uint64_t whole = 0;                             // World::stateHash()
  std::array<std::uint64_t, kStatePartCount> parts{};  // per part, over every agent
  std::vector<std::uint64_t> blocks;                   // per block of agent indices, over every part
  std::uint32_t indexCount = 0;                        // agent indices the blocks divide
  // Agents moved from outside (players), each on its own: (id, hash over its parts), in index
  // order. Few, and the likeliest to differ first, so a replay names them exactly.
  std::vector<std::pair<std::uint32_t, std::uint64_t>> external;
  // The block an agent index falls in, of `blocks` over `indexCount` indices.
  static std::size_t blockOf(std::uint32_t index, std::size_t blocks, std::uint32_t indexCount) {
    if (blocks == 0 || indexCount == 0) return 0;
    return static_cast<std::size_t>(static_cast<std::uint64_t>(index) * blocks / indexCount);
  }
};

}  // namespace steerd
