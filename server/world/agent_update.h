// The update phase of the tick for one agent: read state[n], write its state[n+1].
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "steering/combiners.h"
#include "steering/locomotion.h"
#include "steering/obstacle_avoidance.h"
#include "steering/wall_avoidance.h"
#include "steering/wander.h"
#include "world/agent_columns.h"
#include "world/archetype.h"
#include "world/neighbour_scan.h"
#include "world/spatial_grid.h"
#include "world/static_geometry.h"

namespace steerd {

struct Directive;
struct Groups;
struct NavSteer;

// Named marks on an agent (the control API's tags and signals), one bit per name of the world's.
struct AgentMarks {
  std::uint32_t tags = 0, signals = 0;
};

// The last headings of an agent whose archetype smooths by K-average (Archetype::headingSamples).
using HeadingHistory = steer::HeadingSmoother<kMaxHeadingSamples>;

// What the per-agent path needs from an archetype, derived once at load so that path does no
// trig (cosines of the field of view and the turn limit) and builds no parameter structs.
struct ArchetypeRuntime {
  NeighbourQuery neighbours;
  steer::CombineLimits combine;
  steer::DynamicStep step;
  steer::ObstacleAvoidanceParams obstacles;
  steer::WallAvoidanceParams walls;
  steer::WanderParams wander;
  // Its brain's signals (brain::Brain::signals) as the world's signal numbers; -1: none (the
  // world's 32 names were taken), and a condition on it never holds.
  std::array<std::int8_t, 32> signalBit{};
};

ArchetypeRuntime prepareArchetype(const Archetype& archetype, float dt);

// Everything an agent update may read. All of it is state[n] or static: an update never sees
// another agent's state[n+1], which is what makes the chunks independent.
struct StepContext {
  const AgentColumns& in;  // state[n], grid-sorted
  const SpatialGrid& grid;
  const StaticGeometry& geometry;
  const std::vector<Archetype>& archetypes;
  const ArchetypeRuntime* runtime;  // parallel to archetypes
  std::uint64_t seed = 0;
  std::uint64_t tick = 0;
  float dt = 1.0f / 30.0f;
  float boundsMargin = 5.0f;
  bool quads = true;         // use the four-agent SIMD path where it applies (same bits either way)
  bool anyExternal = false;  // some agent has kAgentExternal (no per-slot test when none has)
  // Live agents per archetype: a search for the nearest agent of an archetype nobody has (no
  // player connected, say) costs nothing.
  const std::uint32_t* archetypePopulation = nullptr;
  // Centroids and strays of this tick (null when no behaviour or brain asks for them).
  const Groups* groups = nullptr;
  // What NAVIGATE steers to, by slot of `in` (null when the world has no navmesh).
  const NavSteer* nav = nullptr;
  // Slots of `in` by agent index (agentIndex(id); idCount of them; kNoSlot for none): targets
  // named by id, through slotOfAgent.
  const std::uint32_t* slotOfId = nullptr;
  std::size_t idCount = 0;
  // The scenario's doors open now, a bit each by door index (brains' door_open conditions).
  std::uint32_t doorsOpen = 0;
  // The slot in `in` of the agent `id` names, or -1 when it is not alive (a departed agent's id
  // finds nothing, even when its index holds another agent now).
  std::int32_t slotOfAgent(AgentId id) const {
    const std::uint32_t i = agentIndex(id);
    if (i >= idCount) return -1;
    const std::uint32_t s = slotOfId[i];
    return s < in.size() && in.id[s] == id ? static_cast<std::int32_t>(s) : -1;
  }
  // Control API goals by agent index (directive.h); read for the agents flagged kAgentDirected.
  const Directive* directives = nullptr;
  bool anyDirected = false;  // some agent has kAgentDirected (no per-slot test when none has)
  // Tags and signals by agent index (markCount of them; indices past it have none), of live agents.
  const AgentMarks* marks = nullptr;
  std::size_t markCount = 0;
  std::uint32_t signalsOf(AgentId id) const {
    return agentIndex(id) < markCount ? marks[agentIndex(id)].signals : 0;
  }
  // Brain states of state[n] by slot of `in`, for the think (which rewrites in.memory's as it
  // goes, in parallel): what one agent's conditions read of another's state. Null outside it.
  const std::uint8_t* brainStates = nullptr;
  // Heading histories by agent index (headingHistoryCount of them; null when no archetype
  // smooths by K-average). Each agent's update reads and writes its own entry only, so the
  // chunks stay independent; null outside the tick's steering pass (the inspector re-evaluates
  // an agent without moving it on).
  HeadingHistory* headingHistory = nullptr;
  std::size_t headingHistoryCount = 0;
  // Update level of detail (level_of_detail.h): each slot's level this tick (null: every slot
  // steers every tick). A slot of level L > 0 steers through lodContexts[L] (this context with
  // dt x 2^L and the runtime derived for it); one marked kLodWaits is carried over unchanged, and a
  // brain-driven one thinks every think_every x 2^L ticks.
  const std::uint8_t* lodLevels = nullptr;
  const StepContext* lodContexts = nullptr;
  // By slot of `in`: each update that steers saves its agent's state[n] memory here before it
  // writes state[n+1]'s into the shared store (agent_columns.h), for the inspector's re-evaluation
  // of the last tick (World::memoryBeforeLastStep). Null outside the tick's steering pass.
  AgentMemory* memoryBefore = nullptr;
};

enum ContactFlag : std::uint8_t {
  kContactNone = 0,
  kContactObstacle = 1,  // pushed out of an obstacle or wall
  kContactBounds = 2,    // clamped back inside the world bounds
};

// Writes slots [begin, end) of `out` (already sized) from state[n], scanning their neighbours
// first; contactFlags[slot] gets each slot's ContactFlag bits.
void updateChunk(const StepContext& ctx, std::uint32_t begin, std::uint32_t end, AgentColumns& out,
                 std::uint8_t* contactFlags);
inline constexpr std::uint32_t kMaxChunk = 256;  // slots per scan pass (scratch on the stack)

// Nearest agent of `archetype` within `range` of slot `self` (ties: lower id); -1 when none.
std::int32_t nearestOfArchetype(const StepContext& ctx, std::uint32_t self, ArchetypeIndex archetype,
                                float range);

}  // namespace steerd
