// The think phase of the tick (action selection): for the agents whose turn it is (every
// brain's think_every_ticks, staggered by id so the cost is spread), perceive, update stats and
// pick the brain state, which selects the behaviour set the steering phase runs. It reads
// state[n] in cell order and writes only each agent's own brain state and memory, so the result
// is the same for any thread count.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "brain/brain.h"
#include "world/agent_update.h"
#include "world/groups.h"

namespace steerd {

// Per agent, indexed by id; touched only when the agent thinks.
struct BrainMemory {
  std::uint64_t enteredTick = 0;    // when the current state was entered
  std::uint64_t lastThinkTick = 0;  // stats advance from here
  std::array<float, brain::kMaxStats> stats{};
  std::array<std::uint64_t, brain::kMaxSenses> lastSeen{};  // tick + 1 of the last sighting; 0: never
};

// Thinks for the due agents among slots [begin, end) of ctx.in, writing their brain state into
// `memoryOut` (ctx.in's memory array) and their BrainMemory.
void thinkChunk(const StepContext& ctx, std::uint32_t begin, std::uint32_t end, AgentMemory* memoryOut,
                std::vector<BrainMemory>& brainMemory);

// The (member, group) pairs a brain's conditions ask about.
void strayPairsOf(const brain::Brain& brain, std::vector<StrayPair>& out);

// A new agent of a brain-driven archetype starts in the brain's initial leaf with its stats' initial values.
void startBrain(const brain::Brain& brain, std::uint64_t tick, AgentMemory& memory, BrainMemory& brainMemory);

// Whether a segment is blocked by an obstacle or a wall (sight).
bool sightBlocked(const StaticGeometry& geometry, steer::Vec2 from, steer::Vec2 to);

}  // namespace steerd
