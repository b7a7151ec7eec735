// Uniform grid over the world bounds for neighbour queries, rebuilt every tick.
//
// The rebuild is a counting sort (count per cell, prefix sum, scatter) that moves the agents'
// arrays into cell order, row-major. Cells (cx-1..cx+1, row) are then one contiguous slot range,
// so a 3x3 neighbour scan reads three contiguous runs instead of nine scattered lists. The sort is
// stable, so slot order is a pure function of state[n] and the order it came in; a stable sort's
// result is unique, so however the work is split (and on however many threads) it is the same.
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

  // Runs body(begin, end) over chunks of `chunkSize` of [0, count), in any order, possibly in
  // parallel (the world's pool).
  using ParallelFor = std::function<void(std::size_t count, std::size_t chunkSize,
                                         const std::function<void(std::size_t, std::size_t)>& body)>;

  // Slots per block of the blocked count (below), and cells per chunk of its merge.
  static constexpr std::size_t kSortBlock = 16384;
  static constexpr std::size_t kCellChunk = 65536;

  // Sorts `from` into cell order, writing `to` (resized to match, plus kScanPadding). `slotOfId`
  // (indexed by agent id, sized by the caller) receives each agent's new slot. With `parallelFor`
  // every pass runs through it. The count is blocked when `from` is nearly in cell order already
  // (as the last tick's sort left it: each block of kSortBlock slots then spans few cells): a
  // histogram per block over its span of cells, merged cell by cell in block order. Otherwise
  // (a first sort, a mass spawn) it is one serial count.
  void rebuild(AgentColumns& from, AgentColumns& to, std::vector<std::uint32_t>& slotOfId,
               const ParallelFor& parallelFor = {});
  // Whether the last rebuild took the blocked count (for tests).
  bool lastRebuildBlocked() const { return lastBlocked_; }

  // Cell column / row of a coordinate, clamped to the grid (CellAxis).
  int cellX(float x) const { return axisX_.index(x); }
  int cellY(float y) const { return axisY_.index(y); }
  int columns() const { return nx_; }
  int rows() const { return ny_; }
  float cellSize() const { return cellSize_; }
  const Bounds& bounds() const { return bounds_; }
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
  // Rebuild scratch.
  std::vector<std::uint32_t> dest_;      // cell, then destination slot, of each source slot
  std::vector<std::uint32_t> cursor_;    // next free slot per cell
  std::vector<std::uint32_t> blockLow_;  // per block: lowest and highest cell in it
  std::vector<std::uint32_t> blockHigh_;
  std::vector<std::size_t> histStart_;    // per block: where its histogram starts in hist_
  std::vector<std::uint32_t> hist_;       // per block, per cell of its span: count, then next slot
  std::vector<std::uint32_t> chunkBase_;  // per chunk of cells: agents in the chunks before it
  bool lastBlocked_ = false;

  void countSerial(std::size_t n);
  void countBlocked(std::size_t n, const ParallelFor& run);
};

}  // namespace steerd
