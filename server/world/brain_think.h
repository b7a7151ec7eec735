// The think phase of the tick (action selection): for the agents whose turn it is (every
// brain's think_every_ticks, staggered by id so the cost is spread), perceive, update stats and
// pick the brain state, which selects the behaviour set the steering phase runs. It reads
// state[n] in cell order and writes only each agent's own brain state and memory, so the result
// is the same for any thread count.
//
// Fetch orders are the one thing a brain does to other agents (a trail boss sends a rider after a
// stray). They are written serially: orders that are done end before anyone thinks (so has_order
// sees this tick's), the orders thinking agents give are collected per chunk in parallel and
// applied after the think in the givers' id order, and Groups::fetches then tells the steering
// phase who fetches whom.
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

// A fetch order an agent holds: whom it fetches, when that is done, and who gave it.
struct HeldOrder {
  AgentId holder = 0;        // who was sent
  AgentId stray = 0;         // whom it fetches
  ArchetypeIndex group = 0;  // whose centroid is home
  float doneWithin = 0.0f;   // m: the order ends once the stray is this near home (metres / 2)
  AgentId giver = 0;
  std::uint16_t entry = 0;        // which of the giver's orders: state * brain::kMaxOrders + index
  std::uint64_t givenTick = 0;    // the tick it was given
  std::uint32_t giveUpTicks = 0;  // ticks after givenTick at which it ends undone; 0: never
  bool operator==(const HeldOrder&) const = default;
};

// A holder that gave up on a stray (its order timed out) is not sent after that stray again before
// `untilTick`: the next order for it goes to another agent, so one that cannot reach it (walled
// off, too slow) does not take the same order back at the next think.
struct PassedOver {
  AgentId holder = 0;
  AgentId stray = 0;
  std::uint64_t untilTick = 0;
  bool operator==(const PassedOver&) const = default;
};

// An order a thinking agent gives (one of its state's, or its ancestors', brain::FetchOrder).
struct OrderRequest {
  AgentId from = 0;
  const brain::FetchOrder* order = nullptr;
  std::uint16_t entry = 0;  // as HeldOrder::entry
};

// Thinks for the due agents among slots [begin, end) of ctx.in, writing their brain state into
// their memory (ctx.in.memory(slot)) and their BrainMemory, and appending to `requests` the fetch
// orders their (new) state gives.
void thinkChunk(const StepContext& ctx, std::uint32_t begin, std::uint32_t end,
                std::vector<BrainMemory>& brainMemory, std::vector<OrderRequest>& requests);

// Fetch orders, serial (`held`: ascending by holder; `slotOfId`: slots in ctx.in by id).
// Ends the orders that are done: the stray is within doneWithin of its group's centroid, the stray
// or the holder is gone, or nothing is measured (ctx.groups null); and those whose giveUpTicks ran
// out, each adding its holder and stray to `passedOver` for as long again (entries whose time is
// up are dropped first).
void endFetchOrders(const StepContext& ctx, const std::vector<std::uint32_t>& slotOfId,
                    std::vector<HeldOrder>& held, std::vector<PassedOver>& passedOver);
// Applies the requests of one think (any number of chunks' lists), in the givers' id order: for
// each whose giver has fewer than its atOnce orders from that entry in force, the member of
// `stray` farthest beyond `metres` from the centroid of `group` that nobody fetches yet (ties: the
// lower id) goes to the agent of `to` nearest to it that holds no order (not a connected player,
// not one passed over for that stray; ties: the lower id). At most one new order per request.
void giveFetchOrders(const StepContext& ctx, const std::vector<std::vector<OrderRequest>>& requests,
                     std::vector<HeldOrder>& held, const std::vector<PassedOver>& passedOver);
// Groups::fetches for the steering phase and has_order.
void publishFetchOrders(const std::vector<HeldOrder>& held, const std::vector<std::uint32_t>& slotOfId,
                        Groups& groups);

// The (member, group) pairs a brain's conditions and fetch orders ask about.
void strayPairsOf(const brain::Brain& brain, std::vector<StrayPair>& out);

// A new agent of a brain-driven archetype starts in the brain's initial leaf with its stats' initial values.
void startBrain(const brain::Brain& brain, std::uint64_t tick, AgentMemory& memory, BrainMemory& brainMemory);

}  // namespace steerd
