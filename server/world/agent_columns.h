// Agents as struct of arrays: one dense array per field, indexed by slot.
//
// The world keeps two of these (the double buffer). Each tick the spatial grid's counting sort
// scatters state[n] into cell order, the steering pass reads that and writes state[n+1] slot for
// slot, so a slot's index changes from tick to tick while `id` stays with its agent. Per-agent
// memory (wander target, path index) is not a column: it stays in one store both buffers share,
// and the column `home` says where (memory(slot)), so the sort and the carry-over of an agent that
// waits its turn (level of detail) move 4 bytes of it instead of 32. With a million agents the
// record was a third of the bytes each tick moved. The world lays the store out again in slot
// order now and then (World::kMemoryRehomeTicks), so reading it in slot order stays local.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace steerd {

using AgentId = std::uint32_t;
using ArchetypeIndex = std::uint16_t;

// An agent id is a storage index (low kAgentIndexBits) and that index's generation (the 9 bits
// above): a departed agent's index is used again (after World::kIndexReuseDelayTicks), with the
// next generation, so storage by index stays as large as the most agents alive at once, and a
// stale id never names the newcomer until its index has been reused 512 times (512 x 64 ticks at
// the least: 18 minutes at 30 Hz under a join and a leave every tick, far longer at any real rate,
// as the oldest free index goes first). The top bit is always 0: every id fits an int32 and none
// is 0xffffffff ("no agent").
inline constexpr unsigned kAgentIndexBits = 22;
inline constexpr unsigned kAgentGenerationBits = 9;
inline constexpr std::uint32_t kAgentIndexMask = (1u << kAgentIndexBits) - 1;
inline constexpr std::uint32_t kAgentGenerationMask = (1u << kAgentGenerationBits) - 1;
inline constexpr std::uint32_t kMaxAgentIndices = 1u << kAgentIndexBits;  // agents alive at once, at most
inline constexpr std::uint32_t agentIndex(AgentId id) { return id & kAgentIndexMask; }
inline constexpr std::uint32_t agentGeneration(AgentId id) { return id >> kAgentIndexBits; }
inline constexpr AgentId agentIdOf(std::uint32_t index, std::uint32_t generation) {
  return (generation & kAgentGenerationMask) << kAgentIndexBits | index;
}

struct AgentMemory {
  float wanderX = 0, wanderY = 0;  // Reynolds wander target, local space
  std::int32_t pathIndex = -1;     // current waypoint of path following (-1: not started)
  std::int32_t targetId = -1;      // agent id this one chased/hid from last tick (-1: none)
  float goalX = 0, goalY = 0;      // where the agent is trying to get (NaN: no goal)
  std::int16_t assignedPath = -1;  // the path given at spawn, for behaviours whose path is -1
  std::uint8_t flags = 0;          // AgentFlag bits
  std::uint8_t brainState = 0;     // the brain's current state (archetypes with a brain)
  float rotation = 0;              // rad/s, counter-clockwise: archetypes that face by themselves
};

enum AgentFlag : std::uint8_t {
  // Moved from outside the simulation (a connected player): the tick copies its state instead of
  // steering it, and the network sets its position and velocity between ticks.
  kAgentExternal = 1,
  // Has a goal from the control API (world/directive.h): its steering is the goal's behaviour and
  // its set's avoidance, not the set itself.
  kAgentDirected = 2,
};

struct AgentColumns {
  // Hot: read by every neighbour scan.
  std::vector<float> px, py;  // position, m
  std::vector<float> vx, vy;  // velocity, m/s
  std::vector<float> hx, hy;  // heading (unit), smoothed per archetype
  std::vector<float> radius;  // body radius (the archetype's), for overlap between archetypes
  // Identity.
  std::vector<AgentId> id;
  std::vector<ArchetypeIndex> archetype;
  // Where the slot's memory is in the store.
  std::vector<std::uint32_t> home;
  // The per-agent memory records, written only by the agent's own update (so state[n] and
  // state[n+1] share them: an update reads its own record before it writes it). One record per
  // agent, not one array per field: every update touches all of it. The world owns the store.
  std::vector<AgentMemory>* memoryStore = nullptr;

  std::size_t size() const { return id.size(); }
  AgentMemory& memory(std::size_t slot) const { return (*memoryStore)[home[slot]]; }

  // Calls f(a.column, b.column) for every column, so resize, scatter and copies cannot forget one
  // when a column is added.
  template <class A, class B, class F>
  static void zipColumns(A& a, B& b, F&& f) {
    f(a.px, b.px), f(a.py, b.py), f(a.vx, b.vx), f(a.vy, b.vy), f(a.hx, b.hx), f(a.hy, b.hy);
    f(a.radius, b.radius);
    f(a.id, b.id), f(a.archetype, b.archetype), f(a.home, b.home);
  }

  void resize(std::size_t n) {
    zipColumns(*this, *this, [n](auto& c, auto&) { c.resize(n); });
  }
};

}  // namespace steerd
