// Action selection's state, kept apart from the tick's motion (Reynolds's first layer): what each
// agent's brain remembers, the fetch orders in force (brains' and the control API's), the control
// API's goals (directives) and the named marks on agents (tags and signals). World owns one, calls
// it at the think phase, and lets the control API write into it between ticks; the update phase
// reads it through the StepContext (describe()). Records are by agent index (agentIndex of an id).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "world/agent_update.h"
#include "world/archetype.h"
#include "world/brain_think.h"
#include "world/directive.h"
#include "world/groups.h"
#include "world/thread_pool.h"

namespace steerd {

// Tags are given at spawn; signals are raised and lowered at run time. One bit each, 32 names each.
enum class MarkKind : std::uint8_t { kTag, kSignal };

class ActionSelection {
 public:
  static constexpr std::size_t kMaxMarkNames = 32;
  static constexpr std::uint16_t kCommandOrderEntry = 0xffff;  // HeldOrder::entry of the control API's

  // From the archetypes (again after a live reload): whether brains run and give orders. When none
  // gives orders any more, the brains' orders end (the control API's stay).
  void prepare(const std::vector<Archetype>& archetypes);
  bool anyBrain() const { return anyBrain_; }
  // The (stray's archetype, group) pairs the control API's orders need measured, into `pairs`.
  void addOrderPairs(std::vector<StrayPair>& pairs) const;

  // Per-index records: grown to `indices` (a spawn past the end); fresh at a spawn; a departed
  // agent's goal and marks cleared (its brain memory is reset at the next spawn of its index).
  void grow(std::size_t indices);
  void onSpawn(std::uint32_t index) { brainMemory_[index] = BrainMemory{}; }
  void onDespawn(std::uint32_t index);
  BrainMemory& brainMemory(std::uint32_t index) { return brainMemory_[index]; }
  const BrainMemory& brainMemory(std::uint32_t index) const { return brainMemory_[index]; }

  // The control API's goal for an agent (kind kNone ends it), its goal spec already chosen.
  void setDirective(std::uint32_t index, std::size_t indices, const Directive& directive);
  void noteArrived(std::uint32_t index);
  const Directive& directive(std::uint32_t index) const;  // kind kNone when none

  // The index of a mark's name, added when `add` (-1: unknown, or all 32 taken).
  std::int32_t markIndex(MarkKind kind, const std::string& name, bool add);
  const std::vector<std::string>& markNames(MarkKind kind) const {
    return kind == MarkKind::kTag ? tagNames_ : signalNames_;
  }
  std::uint32_t marks(MarkKind kind, std::uint32_t index) const;
  // Null when the agent has never been marked.
  const AgentMarks* marksRecord(std::uint32_t index) const {
    return index < marks_.size() ? &marks_[index] : nullptr;
  }
  // Throws std::out_of_range for a bit past kMaxMarkNames.
  void setMark(MarkKind kind, std::uint32_t index, std::size_t indices, std::int32_t bit, bool on);

  // A fetch order from the control API, replacing any its holder has; `pair` is what it needs
  // measured (kept for later live reloads too).
  void giveOrder(const HeldOrder& order, StrayPair pair);
  const std::vector<HeldOrder>& fetchOrders() const { return fetchOrders_; }  // ascending by holder
  const std::vector<PassedOver>& passedOver() const { return passedOver_; }

  // The think phase: orders that are done end; with brains, the agents whose turn it is think
  // (parallel chunks over `pool`) and give orders; the orders in force are published in `groups`
  // (when measured). `slotOfId` maps ids to slots of ctx.in.
  void think(StepContext& ctx, const std::vector<std::uint32_t>& slotOfId, Groups& groups, ThreadPool& pool,
             std::size_t chunkSize);

  // What the update phase reads: the goals and the marks.
  void describe(StepContext& ctx) const;

 private:
  void endOrders(const StepContext& ctx, const std::vector<std::uint32_t>& slotOfId, Groups& groups);

  bool anyBrain_ = false;
  bool anyOrders_ = false;                                // some brain state gives fetch orders
  std::vector<BrainMemory> brainMemory_;                  // by index
  std::vector<std::uint8_t> brainStates_;                 // by slot, state[n]'s, while thinking
  std::vector<HeldOrder> fetchOrders_;                    // in force, ascending by holder id
  std::vector<PassedOver> passedOver_;                    // holders that gave up, in the order they did
  std::vector<std::vector<OrderRequest>> orderRequests_;  // per think chunk, this tick's
  std::vector<StrayPair> orderPairs_;                     // what the control API's orders need measured
  std::vector<Directive> directives_;                     // by index (empty until the first goal)
  std::size_t directedCount_ = 0;                         // agents with a goal
  std::vector<AgentMarks> marks_;                         // by index (empty until the first mark)
  std::vector<std::string> tagNames_, signalNames_;
};

}  // namespace steerd
