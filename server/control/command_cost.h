// What a command costs the tick it is applied on, in work units: the control budget
// (ControllerConfig, docs/CONTROL.md "Budget") is counted in them. One unit is about a plain
// command's work: its checks, the change and its result, 0.3-0.5 us on the development VM
// (bench/control_flood, the us/cmd column).
#pragma once

#include <cstddef>
#include <cstdint>

#include "proto/control.pb.h"

namespace steerd::control {

// A goal, a stop, a release, a brain write, a signal, an order, a query, a despawn.
inline constexpr std::uint32_t kPlainCommandUnits = 1;
// A spawn's own work is about a plain command's, but the agent it adds costs every tick after it
// (0.3-0.5 us a tick each in the default scenario's mix): the price is what limits how fast a
// client can grow the world, 8 spawns a tick on the default client budget of 384.
inline constexpr std::uint32_t kSpawnUnits = 48;
// A subscribe takes a fresh look at every agent (about 7 ns each: 73 us at 10,000 agents): one
// unit per this many agents, plus one.
inline constexpr std::uint32_t kAgentsPerSubscribeUnit = 64;

// `command`'s price in a world of `agents` live agents (at least 1).
std::uint32_t workUnitsOf(const Command& command, std::size_t agents);

}  // namespace steerd::control
