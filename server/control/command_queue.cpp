#include "control/command_queue.h"

#include <algorithm>
#include <queue>
#include <utility>

namespace steerd::control {

namespace {

// Whether `credit` pays for `cost`: all of it, or, for a command dearer than a whole tick's
// `budget`, a full tick's credit (the rest is a debt).
bool affords(std::int64_t credit, std::uint32_t cost, std::uint32_t budget) {
  return credit >= std::min<std::int64_t>(cost, budget);
}

}  // namespace

CommandQueue::CommandQueue(Limits limits) : limits_(limits) {
  limits_.laneUnits = std::max<std::uint32_t>(limits_.laneUnits, 1);  // a budget of 0 would never go
  limits_.tickUnits = std::max<std::uint32_t>(limits_.tickUnits, 1);
  tickCredit_ = limits_.tickUnits;
  Lane nobody;
  nobody.open = true;
  nobody.credit = limits_.laneUnits;
  lanes_.push_back(std::move(nobody));
}

CommandQueue::LaneId CommandQueue::open(SubscriberId owner) {
  Lane fresh;
  fresh.owner = owner;
  fresh.open = true;
  fresh.credit = limits_.laneUnits;
  // A server that has seen a million control clients come and go keeps as many lanes as were
  // ever connected at once (and those still draining a departed client's commands).
  for (LaneId id = 1; id < lanes_.size(); ++id) {
    if (!lanes_[id].open && lanes_[id].queued.empty()) {
      lanes_[id] = std::move(fresh);
      return id;
    }
  }
  lanes_.push_back(std::move(fresh));
  return static_cast<LaneId>(lanes_.size() - 1);
}

void CommandQueue::close(LaneId lane) {
  if (lane == kNobody || lane >= lanes_.size()) return;
  lanes_[lane].owner = 0;
  lanes_[lane].open = false;
}

bool CommandQueue::hasRoom(LaneId lane, std::uint32_t cost) const {
  const Lane& l = lanes_[lane < lanes_.size() ? lane : kNobody];
  // An empty lane takes anything: a command dearer than the bound must still be able to go.
  return l.units == 0 || l.units + cost <= limits_.laneQueueUnits;
}

bool CommandQueue::push(LaneId lane, Command command, std::uint32_t cost) {
  if (lane >= lanes_.size()) lane = kNobody;
  Lane& l = lanes_[lane];
  Queued q;
  q.order = nextOrder_++;
  const bool room = hasRoom(lane, cost);
  if (room) {
    q.command = std::move(command);
    q.cost = std::max<std::uint32_t>(cost, 1);
    l.units += q.cost;
  } else {
    q.command.set_sequence(command.sequence());  // all a refusal says of it
    q.cost = 1;  // its work is its error result's: a plain command's, out of the same budgets
    q.refusal = true;
    q.unitsWhenRefused = l.units;  // the text is written when it is said, within the budget
  }
  l.queued.push_back(std::move(q));
  ++size_;
  return room;
}

CommandQueue::Drained CommandQueue::drain(const std::function<void(SubscriberId, Entry&)>& apply) {
  Drained d;
  for (Lane& l : lanes_) l.credit = std::min<std::int64_t>(limits_.laneUnits, l.credit + limits_.laneUnits);
  tickCredit_ = std::min<std::int64_t>(limits_.tickUnits, tickCredit_ + limits_.tickUnits);
  const std::uint64_t limit = nextOrder_;  // pushed while draining: the next boundary's

  // The lanes by their oldest command: the oldest of all goes next.
  using Front = std::pair<std::uint64_t, LaneId>;
  std::priority_queue<Front, std::vector<Front>, std::greater<>> fronts;
  for (LaneId id = 0; id < lanes_.size(); ++id) {
    if (!lanes_[id].queued.empty()) fronts.push({lanes_[id].queued.front().order, id});
  }
  while (!fronts.empty()) {
    const LaneId id = fronts.top().second;
    fronts.pop();
    Lane& l = lanes_[id];
    Queued& front = l.queued.front();
    const std::uint32_t cost = front.cost;
    if (!affords(l.credit, cost, limits_.laneUnits)) continue;  // this lane waits; its later ones too
    if (!affords(tickCredit_, cost, limits_.tickUnits)) break;  // the oldest does not fit: all wait
    l.credit -= cost;
    tickCredit_ -= cost;
    d.work += cost;
    Entry entry{std::move(front.command), cost, {}};
    if (!front.refusal) {
      l.units -= cost;
      ++d.applied;
    } else {
      ++d.refused;
      entry.refused = "over budget and the queue is full: this client's queued commands already cost " +
                      std::to_string(front.unitsWhenRefused) + " work units (" +
                      std::to_string(limits_.laneQueueUnits / limits_.laneUnits) +
                      " ticks of its budget of " + std::to_string(limits_.laneUnits) +
                      " a tick); send more slowly";
    }
    l.queued.pop_front();
    --size_;
    if (l.counted > 0) --l.counted;
    if (!l.queued.empty() && l.queued.front().order < limit) fronts.push({l.queued.front().order, id});
    apply(l.owner, entry);  // may push, open or close lanes: `l` is not used after this
  }

  // Each command that could have gone at this boundary and waits is counted once.
  for (Lane& l : lanes_) {
    for (; l.counted < l.queued.size() && l.queued[l.counted].order < limit; ++l.counted) {
      if (!l.queued[l.counted].refusal) ++d.deferred;
    }
  }
  d.waiting = size_;
  return d;
}

}  // namespace steerd::control
