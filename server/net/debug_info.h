// The DebugInfo message for one agent (docs/PROTOCOL.md, "Debug stream"): what it is, what its
// brain decided, and what each of its behaviours asked for on the last tick (world/agent_inspect.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "proto/wire.pb.h"
#include "world/agent_inspect.h"
#include "world/world.h"

namespace steerd::net {

// A change of brain state seen between two ticks.
struct BrainTransition {
  std::uint64_t tick = 0;  // the first tick in the new state
  std::uint8_t from = 0, to = 0;
};

// A navigating agent's corridor is cut to this many corners (from the leg it is on), so a
// DebugInfo stays well within a datagram.
inline constexpr std::size_t kMaxCorridorPoints = 48;

// Everything the inspector shows about agent `id`; found is false for an id that is not alive.
// `transitions` are the watched agent's, oldest first.
wire::DebugInfo debugInfoOf(const World& world, AgentId id, std::span<const BrainTransition> transitions);

// What holds agent `id` up, for the inspector (DebugInfo.waiting_for): "door NAME" for a shut door
// within kWaitingDoorReach of it that the line to its goal crosses (it waits there or goes round),
// else "obstacle ID" (and the scenario's name) for a live obstacle ahead within
// kWaitingObstacleReach of its edge while it moves at under kWaitingSlowShare of its top speed.
// Empty: nothing.
inline constexpr float kWaitingDoorReach = 5.0f;  // m, as the report's longest wait
inline constexpr float kWaitingObstacleReach = 2.0f;
inline constexpr float kWaitingSlowShare = 0.5f;
// `inspection`: inspectAgent's for the agent (its navigation goal).
std::string waitingFor(const World& world, AgentId id, const AgentInspection& inspection);

// The label for the agent under a client's pointer: found, and its brain state named as
// debugInfoOf names it (empty without a brain). Reads what the last tick stored; evaluates nothing.
wire::DebugHover debugHoverOf(const World& world, AgentId id);

// The brain states of the agents with a brain within `radius` of (x, y), nearest first, `limit` at
// most (truncated set when more were inside). A linear pass over the agents: a debug view's cost,
// paid a few times a second for the clients that ask (--allow-debug only).
inline constexpr std::size_t kMaxDebugStates = 512;
wire::DebugStates debugStatesOf(const World& world, float x, float y, float radius,
                                std::size_t limit = kMaxDebugStates);

// Drops the farthest quarter (at least one) of `states`' agents, keeps only the names still used
// and marks it truncated: what a DebugInfo gives up first when it would not fit a datagram.
void trimStates(wire::DebugStates& states);

// A brain state's name with its ancestors' ("combat/flee"), or "#N" for a state the brain lacks.
inline std::string brainStateName(const brain::Brain& brain, std::uint8_t state) {
  return brain::statePath(brain, state);
}

}  // namespace steerd::net
