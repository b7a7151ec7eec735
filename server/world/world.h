// The simulation: static geometry, archetypes, agents, and the tick that moves them.
//
// One tick, as named phases (step(); docs/ARCHITECTURE.md, "The tick", says each in full):
//   changes   doors, areas and obstacles changed since the last tick take effect (world_changes.h)
//   sort      the grid's counting sort scatters state[n] (current_) into cell order (sorted_)
//   groups    per-archetype centroids, velocities, leaders and strays, when asked
//   detail    levels of detail (far agents steer less often), when on
//   think     brains pick their states; fetch orders end and are given
//   navigate  navmesh corners, arrivals and path requests
//   update    for every slot, in fixed chunks over the thread pool: read sorted_ only, write that
//             slot of state[n+1] into current_
//   contacts  bodies still overlapping are pushed apart, when the scenario asks
//   count     contact flags summed
// Nothing in update reads what it writes, so the world is bit-identical for any thread count.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "world/action_selection.h"
#include "world/agent_columns.h"
#include "world/agent_update.h"
#include "world/archetype.h"
#include "world/brain_think.h"
#include "world/directive.h"
#include "world/groups.h"
#include "world/level_of_detail.h"
#include "world/navigation.h"
#include "world/spatial_grid.h"
#include "world/state_parts.h"
#include "world/static_geometry.h"
#include "world/thread_pool.h"

namespace steerd {

struct WorldConfig {
  std::uint64_t seed = 1;
  float dt = 1.0f / 30.0f;  // s per tick
  unsigned threads = 1;
  std::size_t chunkSize = 512;  // agents per parallel chunk; fixed so work splits the same way
  float boundsMargin = 5.0f;    // m: inside this band agents are steered back towards the middle
  bool quads = true;            // four-agent SIMD path where it applies; false forces the scalar path (tests)
  nav::PlannerSettings planner;  // the pooled path planner (worlds with a navmesh)
  int contactPasses = 0;         // the contacts phase (contact_projection.h): passes pushing bodies apart
  bool lod = false;              // update level of detail (level_of_detail.h): far agents steer less often
};

// Per-tick counters (sums of integers: the same for any thread count).
struct TickCounters {
  std::uint64_t obstacleContacts = 0;  // agents pushed out of an obstacle or wall this tick
  std::uint64_t boundsClamps = 0;      // agents clamped back inside the world bounds
};

class World {
 public:
  World(StaticGeometry geometry, std::vector<Archetype> archetypes, WorldConfig config);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // Adds an agent between ticks; returns its id (agent_columns.h: a fresh world's ids are 0, 1, 2,
  // ... in spawn order; a departed agent's index comes back with a new generation). `path` is the
  // agent's own path for behaviours that name path -1 (e.g. one patrol route per district).
  // Throws std::length_error past kMaxAgentIndices agents.
  AgentId spawn(ArchetypeIndex archetype, steer::Vec2 position, steer::Vec2 velocity = {},
                std::int32_t path = -1);

  // A body moved from outside the simulation (a connected player): the tick carries it as is, and
  // setExternalState() moves it between ticks. Other agents see, target and avoid it as usual.
  AgentId spawnExternal(ArchetypeIndex archetype, steer::Vec2 position);
  // Sets an external body's position and velocity (heading follows a non-zero velocity). The
  // caller validates the values (finite, inside the bounds, speed-limited) first.
  void setExternalState(AgentId id, steer::Vec2 position, steer::Vec2 velocity);
  // Removes an agent between ticks (a player who left). Its id never names another agent: its
  // index is reused kIndexReuseDelayTicks later at the earliest, with the next generation.
  void despawn(AgentId id);
  bool isAlive(AgentId id) const {
    const std::uint32_t i = agentIndex(id);
    return i < slotOfId_.size() && slotOfId_[i] != kNoSlot && generation_[i] == agentGeneration(id);
  }
  // Ticks a departed agent's index waits before a spawn takes it (with the next generation).
  static constexpr std::uint64_t kIndexReuseDelayTicks = 64;
  // Every this many ticks the memory store is laid out again in the sort's slot order.
  static constexpr std::uint64_t kMemoryRehomeTicks = 32;
  // Storage indices ever used (per-index storage is this long): the most agents alive at once,
  // plus those departed within kIndexReuseDelayTicks.
  std::size_t indexCapacity() const { return slotOfId_.size(); }
  // Archetype index by name, or -1.
  std::int32_t archetypeIndex(const std::string& name) const;

  // The control API's writes (control/control.h validates first), between ticks.
  // A goal for an agent (directive.h); kNone ends it. Its navigation starts afresh either way.
  void setDirective(AgentId id, Directive directive);
  // The goal in force (kind kNone: none).
  const Directive& directiveOf(AgentId id) const;
  void noteArrived(AgentId id);                      // its arrival was reported (Directive::arrived)
  void setHeading(AgentId id, steer::Vec2 heading);  // non-zero
  // Enters `state` of its brain (a parent: its initial leaf) now; in_state_for counts from here.
  void setBrainState(AgentId id, std::int32_t state);
  // Sets stat `stat` of its brain, clamped to the stat's range.
  void setStat(AgentId id, std::size_t stat, float value);
  // Named marks on agents: tags (given at spawn) and signals (raised and lowered at run time),
  // one bit each of 32 per world. The index of a name, added when `add` (-1: unknown, or full).
  using MarkKind = steerd::MarkKind;
  std::int32_t markIndex(MarkKind kind, const std::string& name, bool add) {
    return actions_.markIndex(kind, name, add);
  }
  const std::vector<std::string>& markNames(MarkKind kind) const { return actions_.markNames(kind); }
  std::uint32_t marksOf(MarkKind kind, AgentId id) const;
  void setMark(MarkKind kind, AgentId id, std::int32_t index, bool on);
  // A fetch order from outside (the control API's Order): `holder` fetches `stray` back to the
  // centroid of `group`, as a brain's order would (FETCH_STRAY with target FETCH_ORDER acts on
  // it), replacing any order it holds; it ends when the stray is within `doneWithin` of home, or
  // (giveUpAfterS > 0) undone after that long. Between ticks.
  void giveOrder(AgentId holder, AgentId stray, ArchetypeIndex group, float doneWithin, float giveUpAfterS);
  const std::vector<HeldOrder>& fetchOrders() const { return actions_.fetchOrders(); }
  static constexpr std::uint16_t kCommandOrderEntry = ActionSelection::kCommandOrderEntry;
  static constexpr std::size_t kMaxMarkNames = ActionSelection::kMaxMarkNames;
  // Brains' memory, orders, goals and marks (action_selection.h).
  const ActionSelection& actions() const { return actions_; }

  void step();

  // Doors, areas and obstacles that change while the world runs (world_changes.h), between ticks.
  // The caller validates first (door index, area id, obstacle id live, obstacleShapeProblem,
  // kMaxLiveObstacles). The state changes at once; bodies, paths and the obstacle buckets follow
  // at the start of the next step() (its changes phase). Returns an added obstacle's id, else 0.
  std::uint32_t applyChange(const WorldChange& change);
  // Changes by time (a scenario's schedule, sorted by tick): each applied at the start of its tick.
  void setSchedule(std::vector<ScheduledChange> changes);
  const std::vector<Door>& doors() const { return changes_.doors; }
  const std::vector<DoorFigures>& doorFigures() const { return changes_.doorFigures; }
  std::int32_t doorIndex(const std::string& name) const;
  // Area id (1..) of a navmesh area by name, or 0.
  std::uint8_t areaId(const std::string& name) const;
  const std::vector<LiveObstacle>& liveObstacles() const { return changes_.obstacles; }
  // The scenario's own shapes, without live obstacles and shut doors (what clients get as the
  // static scene; the changes come on top).
  const std::vector<steer::CircleObstacle>& baseObstacles() const { return changes_.baseObstacles; }
  const std::vector<steer::Wall>& baseWalls() const { return changes_.baseWalls; }
  const LiveObstacle* liveObstacle(std::uint32_t id) const;
  // +1 for each tick whose changes phase changed doors or obstacles (clients redraw).
  std::uint64_t sceneVersion() const { return changes_.version; }
  // Navmesh tiles built again for carving obstacles so far, and those still waiting.
  std::uint64_t tilesCarved() const { return changes_.tilesRebuilt; }
  std::size_t tilesWaiting() const { return changes_.tileQueue.size() - changes_.tileNext; }
  const std::string& lastCarveError() const { return changes_.carveError; }

  // Turns update level of detail on or off between ticks (WorldConfig::lod).
  // (The obstacle buckets are rebuilt for the longer steps of far agents.)
  void setLevelOfDetail(bool on);
  // The levels of the last step(), by slot of sortedPrevious() (empty without level of detail).
  const std::vector<std::uint8_t>& lodLevels() const { return lod_.levels(); }

  // The world's thread pool, for work between ticks that only reads the world (snapshots for
  // many clients). body(begin, end) runs on chunks of [0, count) in any order.
  void parallelFor(std::size_t count, std::size_t chunkSize,
                   const std::function<void(std::size_t, std::size_t)>& body) const {
    pool_->parallelFor(count, chunkSize, body);
  }
  unsigned threadCount() const { return pool_->threadCount(); }

  // Live tuning, between ticks: new parameters and behaviour sets for the same archetypes (same
  // names, same order), and new archetypes after them (the control API can spawn those at once),
  // keeping every agent and its memory. Returns an error (and changes nothing) when the running
  // archetypes are not the new list's first ones.
  [[nodiscard]] std::string replaceArchetypes(std::vector<Archetype> archetypes);

  std::uint64_t tick() const { return tick_; }
  std::size_t agentCount() const { return current_.size(); }
  const AgentColumns& agents() const { return current_; }
  // Slot of a live agent in agents(), by id.
  std::uint32_t slotOf(AgentId id) const { return slotOfId_[agentIndex(id)]; }
  // Slot of the live agent at a storage index (agentIndex of its id), kNoSlot if none.
  std::uint32_t slotOfIndex(std::uint32_t index) const {
    return index < slotOfId_.size() ? slotOfId_[index] : kNoSlot;
  }
  static constexpr std::uint32_t kNoSlot = 0xffffffffu;
  const StaticGeometry& geometry() const { return geometry_; }
  const std::vector<Archetype>& archetypes() const { return archetypes_; }
  const WorldConfig& config() const { return config_; }
  const TickCounters& lastTickCounters() const { return counters_; }
  const SpatialGrid& grid() const { return grid_; }
  // The brain state of an agent of a brain-driven archetype (index into its brain's states).
  std::uint8_t brainStateOf(AgentId id) const { return current_.memory(slotOf(id)).brainState; }
  const BrainMemory& brainMemoryOf(AgentId id) const { return actions_.brainMemory(agentIndex(id)); }
  // Navmesh navigation (null when the scenario has no navmesh).
  const Navigation* navigation() const { return navigation_.get(); }
  // state[n] in the grid's cell order, as the last step() read it (for reports and tests).
  const AgentColumns& sortedPrevious() const { return sorted_; }
  // The context the last step() gave every agent's update (state[n] as sortedPrevious(), its grid,
  // groups and navigation), to re-evaluate one agent's steering between ticks (agent_inspect.h).
  StepContext lastStepContext() const;
  // An agent's memory as the last step() read it (slot of sortedPrevious()): the store holds
  // state[n+1]'s (agent_columns.h), so the inspector takes this one.
  const AgentMemory& memoryBeforeLastStep(std::uint32_t slot) const;

  // xxHash64 of every live agent's state in id order; equal hashes mean bit-identical worlds.
  std::uint64_t stateHash() const;
  // What stateHash() covers, piece by piece in its order: sink(index, part, bytes, size) for
  // each piece of each live agent (index: agentIndex of its id), then the world-wide pieces
  // (index kWorldIndex). stateHash() and stateDigest() are both made from this one walk.
  using StateSink =
      std::function<void(std::uint32_t index, StatePart part, const void* bytes, std::size_t size)>;
  void visitState(const StateSink& sink) const;
  static constexpr std::uint32_t kWorldIndex = 0xffffffffu;
  // stateHash() and, beside it, a hash per part and per block of agent indices (`blocks` blocks
  // over [0, the highest index + 1)): where two worlds differ, which parts and which agents.
  StateDigest stateDigest(std::size_t blocks) const;

 private:
  // The memory store in sorted_'s slot order (each slot's home its slot); departed records dropped.
  void rehomeMemory();
  StaticGeometry geometry_;
  std::vector<Archetype> archetypes_;
  std::vector<ArchetypeRuntime> runtime_;  // derived from archetypes_
  // The same for each level of detail L (dt x 2^L); [0] unused (runtime_).
  std::array<std::vector<ArchetypeRuntime>, kLodLevels> lodRuntime_;
  LevelOfDetail lod_;
  std::vector<AgentId> focusIds_;  // agents level of detail measures from: players and bots
  std::vector<float> focusXY_;     // their positions this tick
  void refreshFocus();
  std::vector<StepContext> lodContexts_;  // this tick's, by level
  WorldConfig config_;
  std::unique_ptr<ThreadPool> pool_;
  SpatialGrid grid_;
  AgentColumns current_;                    // state[n]; after step(), state[n+1]
  AgentColumns sorted_;                     // state[n] in cell order (read-only during the steering phase)
  std::vector<AgentMemory> memory_;         // both buffers' per-agent memory (AgentColumns::home)
  std::vector<AgentMemory> memoryScratch_;  // rehomeMemory's
  std::vector<AgentMemory> memoryBefore_;   // StepContext::memoryBefore, by slot of sorted_
  bool lastStepLod_ = false;                // the last step() ran level of detail
  std::vector<std::uint32_t> slotOfId_;     // by index (agentIndex): the slot, kNoSlot if none
  std::vector<std::uint16_t> generation_;   // by index: the generation of its agent, or its next
  std::deque<std::pair<std::uint32_t, std::uint64_t>> freeIndices_;  // departed: (index, tick), oldest first
  std::vector<std::uint8_t> contactFlags_;  // per slot, written by the steering phase
  std::vector<float> contactX_, contactY_;  // contact passes' second copy of the positions
  void prepareArchetypes();  // sorts behaviour sets, derives runtime_, sizes the grid and buckets

  std::uint64_t tick_ = 0;
  std::size_t externalCount_ = 0;
  std::vector<std::uint32_t> population_;  // live agents per archetype
  ActionSelection actions_;                // brains' memory, fetch orders, goals, marks
  std::vector<StrayPair> strayPairs_;      // what behaviours, brains and orders ask about groups
  Groups groups_;
  std::unique_ptr<Navigation> navigation_;
  bool anyNavigate_ = false;                    // some behaviour set has NAVIGATE
  std::vector<HeadingHistory> headingHistory_;  // by index, when an archetype smooths by K-average
  bool averagesHeadings_ = false;               // some archetype does (or did, before a live reload)
  StepContext contextOf(const AgentColumns& in, std::uint64_t tick) const;
  // step()'s phases, in order (docs/ARCHITECTURE.md, "The tick").
  void changesPhase();
  void sortPhase();
  StepContext stepContext();
  void groupsPhase(StepContext& ctx);
  void detailPhase(StepContext& ctx);
  void thinkPhase(StepContext& ctx);
  void navigatePhase(StepContext& ctx);
  void updatePhase(StepContext& ctx);
  void contactsPhase(const StepContext& ctx);
  void countPhase();
  TickCounters counters_;
  WorldChangeState changes_;  // doors and obstacles changed at run time (world_change_apply.cpp)
  void rebuildShapes();       // geometry_'s obstacles and walls from changes_, re-indexed
  void queueTilesUnder(const ObstacleShape& shape);
  void carveTiles();
  void pushOutOf(const nav::Polygon& outline, bool acrossOnly);
  void pushOutOfConcave(const nav::Polygon& outline);
  void placeOutside(std::size_t slot, steer::Vec2 at, steer::Vec2 out);
  // visitState's walk with the sink inlined (defined and used in world.cpp only).
  template <class Sink>
  void visitStateWith(Sink&& sink) const;
};

}  // namespace steerd
