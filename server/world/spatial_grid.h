// Uniform grid over the world bounds for neighbour queries, rebuilt every tick.
//
// The rebuild is a counting sort (count per cell, prefix sum, scatter) that moves the agents'
// arrays into cell order, row-major. Cells (cx-1..cx+1, row) are then one contiguous slot range,
// so a 3x3 neighbour scan reads three contiguous runs instead of nine scattered lists. The sort is
// serial and stable, so slot order is a pure function of state[n]: no thread count can change it.
#pragma once

#include <cstdint>
#include <vector>

#include "world/agent_columns.h"

namespace steerd {

struct Bounds {
  float minX = 0, minY = 0, maxX = 100, maxY = 100;
  float width() const { return maxX - minX; }
  float height() const { return maxY - minY; }
};

// A contiguous range of slots [begin, end).
struct SlotRange {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
};

class SpatialGrid {
 public:
  // cellSize > 0; the grid covers `bounds` (positions outside are clamped into edge cells).
  void configure(const Bounds& bounds, float cellSize);

  // Sorts `from` into cell order, writing `to` (resized to match). `slotOfId` (indexed by agent
  // id, sized by the caller) receives each agent's new slot.
  void rebuild(AgentColumns& from, AgentColumns& to, std::vector<std::uint32_t>& slotOfId);

  int cellX(float x) const;
  int cellY(float y) const;
  int columns() const { return nx_; }
  int rows() const { return ny_; }
  float cellSize() const { return cellSize_; }
  // The slots of cells (x0..x1, row), clamped to the grid.
  SlotRange rowRange(int row, int x0, int x1) const;

  // Calls f(slot) for every agent in the cells overlapping the square of half-size r around
  // (x, y); callers filter by exact distance.
  template <class F>
  void forEachNear(float x, float y, float r, F&& f) const {
    const int x0 = cellX(x - r), x1 = cellX(x + r), y0 = cellY(y - r), y1 = cellY(y + r);
    for (int row = y0; row <= y1; ++row) {
      const SlotRange s = rowRange(row, x0, x1);
      for (std::uint32_t j = s.begin; j < s.end; ++j) f(j);
    }
  }

 private:
  Bounds bounds_;
  float cellSize_ = 1.0f;
  float invCell_ = 1.0f;
  int nx_ = 1, ny_ = 1;
  std::vector<std::uint32_t> cellStart_;   // nx*ny + 1 prefix sums
  std::vector<std::uint32_t> cellOfSlot_;  // scratch for rebuild
};

}  // namespace steerd
