// Uniform grid over the world bounds for neighbour queries, rebuilt every tick.
//
// The rebuild is a counting sort (count per cell, prefix sum, scatter) that moves the agents'
// arrays into cell order, row-major. Cells (cx-1..cx+1, row) are then one contiguous slot range,
// so a 3x3 neighbour scan reads three contiguous runs instead of nine scattered lists. The sort is
// serial and stable, so slot order is a pure function of state[n]: no thread count can change it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
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

// One axis of a uniform grid: which cell a coordinate falls in, clamped to the grid. The clamp
// happens in float, before the conversion: converting infinity or 1e12 to int is undefined (and
// gave INT_MIN, a negative index). NaN compares false everywhere and lands in cell 0.
struct CellAxis {
  float origin = 0.0f;
  float inverseSize = 1.0f;
  int last = 0;           // index of the last cell
  float lastAsFloat = 0;  // the same, converted once

  CellAxis() = default;
  CellAxis(float originIn, float cellSize, int cells)
      : origin(originIn),
        inverseSize(1.0f / cellSize),
        last(cells - 1),
        lastAsFloat(static_cast<float>(cells - 1)) {}

  int index(float v) const {
    const float c = (v - origin) * inverseSize;
    if (!(c >= 1.0f)) return 0;
    return c < lastAsFloat ? static_cast<int>(c) : last;
  }
};

// A block of cells: columns [columnFirst, columnLast] of rows [rowFirst, rowLast].
struct NeighbourBlock {
  int columnFirst, columnLast, rowFirst, rowLast;
};

class SpatialGrid {
 public:
  // rebuild() leaves this many extra entries after the last agent in the columns the neighbour
  // scan and collision avoidance read (px, py, vx, vy, hx, hy, radius), so they can read whole
  // SIMD blocks past a range's end and mask the extra lanes instead of branching on a tail.
  static constexpr std::size_t kScanPadding = 8;

  // cellSize > 0; the grid covers `bounds` (positions outside are clamped into edge cells).
  void configure(const Bounds& bounds, float cellSize);

  // Runs body(begin, end) over chunks of [0, count), possibly in parallel (the world's pool).
  using ParallelFor =
      std::function<void(std::size_t count, const std::function<void(std::size_t, std::size_t)>& body)>;

  // Sorts `from` into cell order, writing `to` (resized to match, plus kScanPadding). `slotOfId`
  // (indexed by agent id, sized by the caller) receives each agent's new slot. The count and
  // prefix sum are serial; the scatter runs through `parallelFor` when one is given.
  void rebuild(AgentColumns& from, AgentColumns& to, std::vector<std::uint32_t>& slotOfId,
               const ParallelFor& parallelFor = {});

  // Cell column / row of a coordinate, clamped to the grid (CellAxis).
  int cellX(float x) const { return axisX_.index(x); }
  int cellY(float y) const { return axisY_.index(y); }
  int columns() const { return nx_; }
  int rows() const { return ny_; }
  float cellSize() const { return cellSize_; }
  // The slots of cells (x0..x1, row), clamped to the grid.
  SlotRange rowRange(int row, int x0, int x1) const {
    return rowRangeInGrid(std::clamp(row, 0, ny_ - 1), std::clamp(x0, 0, nx_ - 1),
                          std::clamp(x1, 0, nx_ - 1));
  }
  // rowRange for arguments already inside the grid (as blockAround's are).
  SlotRange rowRangeInGrid(int row, int x0, int x1) const {
    const std::size_t base = static_cast<std::size_t>(row) * nx_;
    return {cellStart_[base + x0], cellStart_[base + x1 + 1]};
  }

  // The cells that can hold an agent within `radius` (<= cellSize) of (x, y): the columns and
  // rows of the square [x - radius, x + radius] x [y - radius, y + radius]: 2 or 3 of each
  // when radius <= cellSize.
  NeighbourBlock blockAround(float x, float y, float radius) const {
    return {cellX(x - radius), cellX(x + radius), cellY(y - radius), cellY(y + radius)};
  }

  // Calls f(slot) for every agent in the cells overlapping the square of half-size r around
  // (x, y); callers filter by exact distance.
  // As forEachNear, stopping once f returns false (a caller that needs only the first few).
  template <class F>
  void forEachNearWhile(float x, float y, float r, F&& f) const {
    const int x0 = cellX(x - r), x1 = cellX(x + r), y0 = cellY(y - r), y1 = cellY(y + r);
    for (int row = y0; row <= y1; ++row) {
      const SlotRange s = rowRange(row, x0, x1);
      for (std::uint32_t j = s.begin; j < s.end; ++j) {
        if (!f(j)) return;
      }
    }
  }

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
  CellAxis axisX_, axisY_;
  std::vector<std::uint32_t> cellStart_;  // nx*ny + 1 prefix sums
  std::vector<std::uint32_t> dest_;       // rebuild scratch: destination slot of each source slot
  std::vector<std::uint32_t> cursor_;     // rebuild scratch: next free slot per cell
};

}  // namespace steerd
