// Stand-in players for headless runs (steerd --bots N): agents of a "bot" archetype that wander
// the world as players would roam it, so level of detail (level_of_detail.h) has someone to be
// near and the world's cost can be measured with players spread over it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace steerd {

class World;

inline constexpr const char* kBotArchetypeName = "bot";

// Adds the "bot" archetype (a player's body: wander, obstacle and wall avoidance; a level of
// detail focus) and `count` bots at random places inside the world's bounds, from `seed`.
// Returns an error (and adds nothing) when the world already has an archetype of that name.
[[nodiscard]] std::string addBots(World& world, std::size_t count, std::uint64_t seed);

}  // namespace steerd
