// The control API: how a game's own logic drives steerd's NPCs at run time. One header, for a C++
// game server that embeds steerd (it owns a World and calls step()) and for steerd's network
// layer (control clients' Command packets end up here). docs/CONTROL.md is the guide.
//
// The vocabulary is proto/control.proto: Command (spawn, despawn, goals, brain writes, signals,
// queries, subscriptions), CommandResult and Event. The same messages travel over UDP, so an
// embedded game and a remote one mean exactly the same thing.
//
// Order and determinism: commands are queued (submit) and applied at a tick boundary
// (applyPending, before World::step) in submission order, as far as the budget allows: each
// subscriber's commands may cost so much work a tick, and all of them together so much
// (command_queue.h); the rest wait, in order, for later boundaries. The world's tick reads nothing
// else from the API. The same commands submitted at the same ticks give the same state hash for
// any thread count.
// Events are gathered after the tick (afterTick) in a fixed order: goals' arrivals, lost targets
// and path failures by agent id, then brains' state changes and sightings by agent id, then catches.
//
// Bad input never half-applies: every field is checked first, and an error result names the field
// ("move_to.position: inside an obstacle"). Each command kind has its handler (handlers/), behind
// a dispatcher (dispatcher.h).
//
// Not thread-safe: call it from the thread that steps the world, between ticks.
//
//   steerd::control::Controller ctl(world);
//   auto me = ctl.addSubscriber({.onEvent = print, .onResult = print});
//   ctl.subscribe(me, {});                                  // every event kind
//   ctl.submit(me, steerd::control::spawnAt("guard", 10, 20));
//   for (;;) { ctl.applyPending(); world.step(); ctl.afterTick(); }
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "control/command_queue.h"
#include "proto/control.pb.h"
#include "proto/control_commands.h"  // the one-line builders: spawnAt, moveTo, ...
#include "world/world.h"

namespace steerd::control {

struct ControllerConfig {
  // Spawns past this many live agents are refused. 100,000: what the development VM (2 vCPUs)
  // ticks at 30 Hz in the default scenario's mix, 25 ms a tick on 2 threads (200,000 take 47 ms,
  // past the 33 ms a tick has; docs/PERFORMANCE.md).
  std::size_t maxAgents = 100000;
  // The control budget, in work units (command_cost.h; one is about a plain command's work,
  // 0.3-0.5 us): what one subscriber's commands may cost a tick (384: 11,520 plain commands a
  // second, or 8 spawns a tick), and all subscribers' together (four subscribers' worth). One
  // flooding client then adds at most about 0.3 ms to a tick (docs/CONTROL.md, "Budget").
  std::uint32_t clientBudget = 384;
  std::uint32_t tickBudget = 1536;
  // A subscriber's queue holds this many ticks of its budget (2 s at 30 Hz); a command past that
  // is refused ("command: over budget and the queue is full: ...").
  std::uint32_t queueTicks = 60;
};

struct Subscriber {
  std::function<void(const Event&)> onEvent = {};           // the events its subscription matches
  std::function<void(const CommandResult&)> onResult = {};  // one per command it submitted
};

class Controller {
 public:
  explicit Controller(World& world, ControllerConfig config = {});

  // Ids of removed subscribers are given out again.
  SubscriberId addSubscriber(Subscriber subscriber);
  // Its pending commands are still applied (their results go nowhere); no more events.
  void removeSubscriber(SubscriberId id);
  // Which events it hears (kinds and archetypes; empty lists: all). A new subscriber hears none.
  // Unknown archetype names are an error (nothing changes).
  [[nodiscard]] std::string subscribe(SubscriberId id, const Subscribe& filter);

  // Queues a command for the next tick boundary it fits the budget of. Past the subscriber's queue
  // bound it is refused: nothing of it is kept, and its error result comes in its turn.
  void submit(SubscriberId from, Command command);
  std::size_t pending() const { return queue_.size(); }
  // At a tick boundary, before World::step(): applies queued commands in submission order while
  // their subscribers' budgets and the tick's allow; each result goes to its subscriber's onResult.
  void applyPending();
  // Applies one command now (between ticks), outside the queue and the budget: tools and tests.
  CommandResult apply(SubscriberId from, const Command& command);

  // What the last applyPending did (work in command_cost.h's units).
  struct Boundary {
    std::uint32_t applied = 0;   // commands applied (their results ok or errors)
    std::uint64_t work = 0;      // their work units, and the refusals' (1 each)
    std::uint32_t deferred = 0;  // commands that waited past this boundary for budget, first time
    std::uint32_t refused = 0;   // refusals said (the queue was full when they came)
    std::uint32_t rescans = 0;   // fresh looks at every agent for subscribes (at most 1)
    std::size_t waiting = 0;     // commands still queued
  };
  const Boundary& lastBoundary() const { return last_; }
  // Whether `from`'s queue would take `command` now (submit would not refuse it).
  bool hasRoom(SubscriberId from, const Command& command) const;

  // After World::step(): what the tick did (state changes, arrivals, sightings, catches, lost
  // targets), to every subscriber whose filter matches.
  void afterTick();

  // Agents that appear or go outside the API (scenario spawns at load are not reported; players
  // joining and leaving are, by the network layer): spawned and despawned events.
  void noteSpawned(AgentId id);
  void noteDespawned(AgentId id, const std::string& archetype);

  // One agent now (nullopt: no such live agent).
  std::optional<AgentInfo> query(AgentId id) const;

  // Counters since construction.
  std::uint64_t applied() const { return applied_; }
  std::uint64_t rejected() const { return rejected_; }
  std::uint64_t eventsEmitted() const { return eventsEmitted_; }

 private:
  // The command handlers' view of the controller (control_context.h): goals, seen states, events.
  friend class ControlContext;

  struct Sub {
    Subscriber callbacks;
    CommandQueue::LaneId lane = CommandQueue::kNobody;
    bool used = false;                      // a subscriber holds this place (not removed)
    bool active = false;                    // subscribed (Subscribe seen)
    std::uint32_t kinds = 0;                // bit per EventKind; 0: all
    std::vector<std::uint16_t> archetypes;  // empty: all
  };
  // Per agent, by id: what the last tick showed, to tell what changed.
  struct Seen {
    std::uint8_t state = 0xff;       // brain state (0xff: not known yet)
    std::uint8_t sensing = 0;        // bit per sense
    std::int32_t caught = -1;        // target last reported caught (-1: none)
    std::uint16_t pathFailures = 0;  // the navigation's count when last looked at
  };

  CommandQueue::LaneId laneOf(SubscriberId id) const;
  void rescan();
  void emit(const Event& e);
  bool anyWants(EventKind kind) const;
  Event eventAbout(EventKind kind, AgentId id) const;
  void track(AgentId id);
  void watchGoals();
  void watchBrains();
  void watchCatches();

  World& world_;
  ControllerConfig config_;
  std::vector<Sub> subs_;  // by SubscriberId - 1
  CommandQueue queue_;
  Boundary last_;
  bool applying_ = false;   // inside applyPending
  bool rescanDue_ = false;  // a subscribe asked for a fresh look, not taken yet
  std::vector<Seen> seen_;  // by agent index (agentIndex)
  Seen& seenOf(AgentId id);
  std::vector<AgentId> directed_;  // agents given a goal (pruned when it ends), ascending
  std::uint64_t applied_ = 0, rejected_ = 0, eventsEmitted_ = 0;
};

}  // namespace steerd::control
