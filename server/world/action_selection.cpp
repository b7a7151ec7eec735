#include "world/action_selection.h"

#include <algorithm>
#include <stdexcept>

namespace steerd {

void ActionSelection::prepare(const std::vector<Archetype>& archetypes) {
  anyBrain_ = std::any_of(archetypes.begin(), archetypes.end(), [](const Archetype& a) { return a.brain; });
  anyOrders_ = std::any_of(archetypes.begin(), archetypes.end(),
                           [](const Archetype& a) { return a.brain && a.brain->givesOrders(); });
  if (!anyOrders_) {  // no brain gives orders any more (live reload): the control API's stay
    std::erase_if(fetchOrders_, [](const HeldOrder& h) { return h.entry != kCommandOrderEntry; });
    passedOver_.clear();
  }
}

void ActionSelection::addOrderPairs(std::vector<StrayPair>& pairs) const {
  for (const StrayPair& p : orderPairs_)
    if (std::find(pairs.begin(), pairs.end(), p) == pairs.end()) pairs.push_back(p);
}

void ActionSelection::grow(std::size_t indices) {
  brainMemory_.resize(indices);
  if (!directives_.empty()) directives_.resize(indices);
  if (!marks_.empty()) marks_.resize(indices);
}

void ActionSelection::onDespawn(std::uint32_t index) {
  if (index < directives_.size() && directives_[index].kind != DirectiveKind::kNone) {
    directives_[index] = Directive{};
    --directedCount_;
  }
  if (index < marks_.size()) marks_[index] = AgentMarks{};
}

void ActionSelection::setDirective(std::uint32_t index, std::size_t indices, const Directive& d) {
  if (directives_.size() <= index) directives_.resize(indices);
  Directive& slot = directives_[index];
  if (slot.kind != DirectiveKind::kNone) --directedCount_;
  if (d.kind != DirectiveKind::kNone) ++directedCount_;
  slot = d;
}

void ActionSelection::noteArrived(std::uint32_t index) {
  if (index < directives_.size()) directives_[index].arrived = true;
}

const Directive& ActionSelection::directive(std::uint32_t index) const {
  static const Directive kNone{};
  return index < directives_.size() ? directives_[index] : kNone;
}

std::int32_t ActionSelection::markIndex(MarkKind kind, const std::string& name, bool add) {
  std::vector<std::string>& names = kind == MarkKind::kTag ? tagNames_ : signalNames_;
  const auto it = std::find(names.begin(), names.end(), name);
  if (it != names.end()) return static_cast<std::int32_t>(it - names.begin());
  if (!add || names.size() >= kMaxMarkNames) return -1;
  names.push_back(name);
  return static_cast<std::int32_t>(names.size() - 1);
}

std::uint32_t ActionSelection::marks(MarkKind kind, std::uint32_t index) const {
  if (index >= marks_.size()) return 0;
  return kind == MarkKind::kTag ? marks_[index].tags : marks_[index].signals;
}

void ActionSelection::setMark(MarkKind kind, std::uint32_t index, std::size_t indices, std::int32_t bit,
                              bool on) {
  if (bit < 0 || static_cast<std::size_t>(bit) >= kMaxMarkNames) throw std::out_of_range("mark index");
  if (marks_.size() <= index) marks_.resize(indices);
  std::uint32_t& bits = kind == MarkKind::kTag ? marks_[index].tags : marks_[index].signals;
  const std::uint32_t mask = 1u << bit;
  bits = on ? (bits | mask) : (bits & ~mask);
}

void ActionSelection::giveOrder(const HeldOrder& h, StrayPair pair) {
  if (std::find(orderPairs_.begin(), orderPairs_.end(), pair) == orderPairs_.end())
    orderPairs_.push_back(pair);
  std::erase_if(fetchOrders_, [&](const HeldOrder& o) { return o.holder == h.holder; });
  fetchOrders_.insert(
      std::upper_bound(fetchOrders_.begin(), fetchOrders_.end(), h,
                       [](const HeldOrder& a, const HeldOrder& b) { return a.holder < b.holder; }),
      h);
}

// Orders that are done (or given up on) end, and the rest are published for the update phase:
// brains' orders and the control API's alike.
void ActionSelection::endOrders(const StepContext& ctx, const std::vector<std::uint32_t>& slotOfId,
                                Groups& groups) {
  if (!anyOrders_ && fetchOrders_.empty()) return;
  endFetchOrders(ctx, slotOfId, fetchOrders_, passedOver_);
  if (ctx.groups != nullptr) publishFetchOrders(fetchOrders_, slotOfId, groups);
}

void ActionSelection::think(StepContext& ctx, const std::vector<std::uint32_t>& slotOfId, Groups& groups,
                            ThreadPool& pool, std::size_t chunkSize) {
  endOrders(ctx, slotOfId, groups);
  if (!anyBrain_) return;  // the control API's orders alone
  // Action selection for the agents whose turn it is, before any of them steers. Fetch orders
  // (brain_think.h) end and are given serially, around the parallel think.
  const std::size_t n = ctx.in.size();
  brainStates_.resize(n);
  for (std::size_t s = 0; s < n; ++s) brainStates_[s] = ctx.in.memory(s).brainState;
  ctx.brainStates = brainStates_.data();
  const std::size_t chunk = std::max<std::size_t>(chunkSize, 1);
  orderRequests_.resize((n + chunk - 1) / chunk);
  for (auto& r : orderRequests_) r.clear();
  pool.parallelFor(n, chunk, [&](std::size_t begin, std::size_t end) {
    thinkChunk(ctx, static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end), brainMemory_,
               orderRequests_[begin / chunk]);
  });
  if (anyOrders_ && ctx.groups != nullptr) {
    giveFetchOrders(ctx, orderRequests_, fetchOrders_, passedOver_);
    publishFetchOrders(fetchOrders_, slotOfId, groups);
  }
  ctx.brainStates = nullptr;
}

void ActionSelection::describe(StepContext& ctx) const {
  ctx.directives = directives_.empty() ? nullptr : directives_.data();
  ctx.anyDirected = directedCount_ > 0;
  ctx.marks = marks_.data();
  ctx.markCount = marks_.size();
}

}  // namespace steerd
