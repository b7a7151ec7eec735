// Update level of detail: agents far from every player steer less often.
//
// A "focus" is a player (an external agent), an agent of the player archetype, or a bot
// (Archetype::lodFocus). Each tick, from state[n]: a coarse map holds, per coarse cell, a lower
// bound of the distance from anything in the cell to the nearest focus; an agent's level is where
// that distance falls in its archetype's bands (Archetype::lod): level 0 (nearer than the first
// band) steers every tick, level L every 2^L ticks (L <= 3), on the ticks where
//   (tick + stagger(row)) mod 2^L == 0,
// with the tick's dt times 2^L, and is carried over unchanged between them. A coarse cell is a
// square of k x k cells of the spatial grid (at least 16 m a side), so the agents of one coarse
// cell in one grid row are one contiguous run of slots: the pass reads each run's range from the
// grid and never an agent's position (only its archetype, for the bands). The stagger, a hash of
// the coarse row, spreads the cost evenly over the ticks; it is by row, not by agent, because
// the tick runs agents in the grid's row-major order: whole runs of consecutive agents then steer
// on the same tick and take the four-lane path together (staggered by id, four neighbours in a
// row rarely shared a turn, and the scalar path made the due agents twice as dear). An agent
// crossing into another coarse row may steer a tick early or late. All of it is a function of
// state[n], its grid and the tick, so the world stays the same for any thread count; nothing
// within the first band of a focus changes.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "world/agent_columns.h"
#include "world/archetype.h"
#include "world/spatial_grid.h"

namespace steerd {

// Whether an agent is one level of detail measures from (a player or a bot).
inline bool isLodFocus(const Archetype& archetype, const AgentMemory& memory) {
  return archetype.lodFocus || (memory.flags & kAgentExternal) != 0;
}

inline constexpr std::uint8_t kLodLevels = 4;  // levels 0..3: every 1, 2, 4, 8 ticks
// levels(): the level in the low bits, and this bit when the slot does not steer this tick.
inline constexpr std::uint8_t kLodWaits = 0x80;

// Whether an agent of `level` in coarse row `row` steers on `tick`.
inline bool lodDue(std::uint64_t tick, std::uint8_t level, std::uint32_t row) {
  if (level == 0) return true;
  const std::uint32_t stagger = (row * 2654435761u) >> 29;  // 0..7, a multiplicative hash
  return ((tick + stagger) & ((1u << level) - 1)) == 0;
}

class LevelOfDetail {
 public:
  // For every slot of `in` (state[n], sorted by `grid`) into levels(): its level, with kLodWaits
  // when it does not steer on `tick`. `parallelFor` runs body(begin, end) over chunks of [0, count)
  // (here the grid's rows). `focus`: where the players and bots are (x, y pairs).
  void compute(const AgentColumns& in, const SpatialGrid& grid, const std::vector<Archetype>& archetypes,
               std::uint64_t tick, const std::vector<float>& focus,
               const std::function<void(std::size_t, const std::function<void(std::size_t, std::size_t)>&)>&
                   parallelFor);
  const std::vector<std::uint8_t>& levels() const { return levels_; }

 private:
  std::vector<std::uint8_t> levels_;  // by slot
  std::vector<float> nearest_;        // by coarse cell: lower bound of the distance to a focus
  std::vector<float> bands_;          // lodDistances of every archetype, 3 each
  int nx_ = 1, ny_ = 1;               // coarse columns and rows
  int k_ = 1;                         // grid cells per coarse cell, each way
};

}  // namespace steerd
