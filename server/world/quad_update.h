// The quad path of the world's update: four consecutive slots of one archetype whose combiner is
// the running sum, updated together in 4-lane vectors, bit-identical to four scalar updates.
#pragma once

#include <cstdint>

#include "world/agent_update.h"

namespace steerd::agent_internal {

struct SumsBlock;

inline constexpr std::uint32_t kQuad = 4;

// Whether slots slot..slot+3 can take the quad path.
bool quadApplies(const StepContext& ctx, std::uint32_t slot);

// Updates slots slot..slot+3; their neighbour sums are at i..i+3 of `sums`.
void updateQuad(const StepContext& ctx, std::uint32_t slot, const SumsBlock& sums, std::uint32_t i,
                AgentColumns& out, std::uint8_t* flags);

}  // namespace steerd::agent_internal
