// Where the control API's commands wait between submit and the tick boundary that applies them,
// and the budget that decides which boundary that is (docs/CONTROL.md, "Budget").
//
// Each subscriber has a lane; lane 0 takes commands from nobody (removed or unknown submitters).
// A boundary hands out commands in submission order, over all lanes, while the command's lane
// has credit for its price (command_cost.h) and so has the tick; what does not fit waits, in
// order, for a later boundary. Credit comes back each boundary up to one tick's budget. A command
// dearer than a whole tick's budget goes when its lane's credit is full, and the debt it leaves
// holds that lane's next commands back as long as it takes to pay: the work done over any run of
// ticks stays within the budget of those ticks and one command.
//
// A lane holds at most `laneQueueUnits` of commands; past that a command is refused: the command
// is dropped at once and a refusal takes its place, said in turn (so a subscriber's results keep
// its commands' order) and priced as a plain command (its error result is that much work). The
// refusals do not count towards the bound. Deterministic: the same pushes and boundaries hand out
// the same commands.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "proto/control.pb.h"

namespace steerd::control {

// Who submitted a command and hears events: an in-process caller or one control client.
using SubscriberId = std::uint32_t;

class CommandQueue {
 public:
  using LaneId = std::uint32_t;
  static constexpr LaneId kNobody = 0;  // the lane of commands whose results go nowhere

  struct Limits {
    std::uint32_t laneUnits = 384;         // a lane's credit each tick
    std::uint32_t tickUnits = 1536;        // every lane's together, each tick
    std::uint64_t laneQueueUnits = 23040;  // queued in one lane, at most
  };

  // One queued command, or the refusal of one (`refused` says why; the command was not kept, only
  // its sequence).
  struct Entry {
    Command command;
    std::uint32_t cost = 0;  // work units
    std::string refused;
  };

  // What a boundary did.
  struct Drained {
    std::uint32_t applied = 0;   // commands handed out
    std::uint64_t work = 0;      // their work units, and the refusals'
    std::uint32_t deferred = 0;  // commands that waited at this boundary for the first time
    std::uint32_t refused = 0;   // refusals said
    std::size_t waiting = 0;     // commands and refusals still queued
  };

  explicit CommandQueue(Limits limits);

  // A lane for `owner` (an empty lane nobody owns is taken again, with full credit).
  LaneId open(SubscriberId owner);
  // Its owner is gone: what it queued still goes, in turn, answering to nobody.
  void close(LaneId lane);

  // Queues `command` at the end of `lane`, priced `cost` (at least 1). False: the lane was full,
  // and a refusal saying why is queued in its place.
  bool push(LaneId lane, Command command, std::uint32_t cost);
  // Whether `lane` would take a command priced `cost` (push would not refuse it).
  bool hasRoom(LaneId lane, std::uint32_t cost) const;

  // A tick boundary: gives the credit back, then hands each command that fits to
  // `apply(owner, entry)`, in submission order. What `apply` pushes waits for the next boundary.
  Drained drain(const std::function<void(SubscriberId, Entry&)>& apply);

  std::size_t size() const { return size_; }

 private:
  struct Queued {
    Command command;
    std::uint32_t cost = 0;
    std::uint64_t order = 0;  // submission number over every lane
    bool refusal = false;
    std::uint64_t unitsWhenRefused = 0;  // what its lane held then
  };
  struct Lane {
    std::deque<Queued> queued;
    SubscriberId owner = 0;
    bool open = false;
    std::int64_t credit = 0;  // work units it may spend now (negative: a debt)
    std::uint64_t units = 0;  // queued commands' work units (not the refusals')
    std::size_t counted = 0;  // queued at the front already counted as deferred
  };

  Limits limits_;
  std::vector<Lane> lanes_;  // by LaneId; 0 is kNobody's
  std::int64_t tickCredit_ = 0;
  std::uint64_t nextOrder_ = 0;
  std::size_t size_ = 0;
};

}  // namespace steerd::control
