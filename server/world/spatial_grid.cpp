#include "world/spatial_grid.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace steerd {

void SpatialGrid::configure(const Bounds& bounds, float cellSize) {
  bounds_ = bounds;
  cellSize_ = cellSize > 0.0f ? cellSize : 1.0f;
  invCell_ = 1.0f / cellSize_;
  nx_ = std::max(1, static_cast<int>(std::ceil(bounds.width() * invCell_)));
  ny_ = std::max(1, static_cast<int>(std::ceil(bounds.height() * invCell_)));
  axisX_ = CellAxis(bounds.minX, cellSize_, nx_);
  axisY_ = CellAxis(bounds.minY, cellSize_, ny_);
  cellStart_.assign(static_cast<std::size_t>(nx_) * ny_ + 1, 0);
}

void SpatialGrid::rebuild(AgentColumns& from, AgentColumns& to, std::vector<std::uint32_t>& slotOfId,
                          const ParallelFor& parallelFor) {
  const std::size_t n = from.size();
  const ParallelFor run = parallelFor
                              ? parallelFor
                              : ParallelFor([](std::size_t count, std::size_t,
                                               const std::function<void(std::size_t, std::size_t)>& body) {
                                  if (count > 0) body(0, count);
                                });
  dest_.resize(n);
  // Cell of every slot, by block, with the lowest and highest cell of each block.
  const std::size_t blocks = (n + kSortBlock - 1) / kSortBlock;
  blockLow_.resize(blocks);
  blockHigh_.resize(blocks);
  run(blocks, 1, [&](std::size_t firstBlock, std::size_t endBlock) {
    for (std::size_t b = firstBlock; b < endBlock; ++b) {
      std::uint32_t low = UINT32_MAX, high = 0;
      for (std::size_t i = b * kSortBlock, end = std::min(n, i + kSortBlock); i < end; ++i) {
        const auto cell = static_cast<std::uint32_t>(cellY(from.py[i]) * nx_ + cellX(from.px[i]));
        dest_[i] = cell;
        low = std::min(low, cell);
        high = std::max(high, cell);
      }
      blockLow_[b] = low;
      blockHigh_[b] = high;
    }
  });
  // The blocked count's work and scratch grow with the blocks' spans added up; the serial count's
  // with cells + agents. Nearly sorted, the spans add up to about the grid once; in no order at
  // all, to the grid once per block.
  std::size_t spans = 0;
  for (std::size_t b = 0; b < blocks; ++b) spans += blockHigh_[b] - blockLow_[b] + 1;
  lastBlocked_ = parallelFor && blocks > 1 && spans <= 2 * (cellStart_.size() - 1 + n);
  if (lastBlocked_) {
    countBlocked(n, run);
  } else {
    countSerial(n);
  }

  // The scatter writes every destination exactly once, so chunks of it can run on any thread.
  to.resize(n);
  run(n, kSortBlock / 2, [&](std::size_t begin, std::size_t end) {
    AgentColumns::zipColumns(from, to, [&](auto& src, auto& dst) {
      for (std::size_t i = begin; i < end; ++i) dst[dest_[i]] = src[i];
    });
    for (std::size_t i = begin; i < end; ++i) slotOfId[agentIndex(from.id[i])] = dest_[i];
  });
  for (auto* column : {&to.px, &to.py, &to.vx, &to.vy, &to.hx, &to.hy, &to.radius})
    column->resize(n + kScanPadding, 0.0f);
}

// Histogram, prefix sum and destinations in one thread: cell of each slot -> destination slot.
void SpatialGrid::countSerial(std::size_t n) {
  std::fill(cellStart_.begin(), cellStart_.end(), 0u);
  for (std::size_t i = 0; i < n; ++i) ++cellStart_[dest_[i] + 1];
  for (std::size_t c = 1; c < cellStart_.size(); ++c) cellStart_[c] += cellStart_[c - 1];
  cursor_.assign(cellStart_.begin(), cellStart_.end() - 1);
  for (std::size_t i = 0; i < n; ++i) dest_[i] = cursor_[dest_[i]]++;
}

// The same result, in parallel: a histogram per block over its span of cells; per cell, the
// blocks' counts summed (the cell's size) and then, in block order, turned into where each
// block's first agent of the cell goes; each block then hands out its slots in its own order.
// Agents of a cell therefore keep their order across blocks and within one: the stable sort.
void SpatialGrid::countBlocked(std::size_t n, const ParallelFor& run) {
  const std::size_t blocks = blockLow_.size();
  const std::size_t cells = cellStart_.size() - 1;
  histStart_.resize(blocks + 1);
  histStart_[0] = 0;
  for (std::size_t b = 0; b < blocks; ++b)
    histStart_[b + 1] = histStart_[b] + blockHigh_[b] - blockLow_[b] + 1;
  hist_.resize(histStart_[blocks]);
  run(blocks, 1, [&](std::size_t firstBlock, std::size_t endBlock) {
    for (std::size_t b = firstBlock; b < endBlock; ++b) {
      std::uint32_t* h = hist_.data() + histStart_[b];
      std::fill(h, hist_.data() + histStart_[b + 1], 0u);
      const std::uint32_t low = blockLow_[b];
      for (std::size_t i = b * kSortBlock, end = std::min(n, i + kSortBlock); i < end; ++i)
        ++h[dest_[i] - low];
    }
  });
  // Calls f(h, low, from, to) for each block overlapping cells [c0, c1), in block order: h[c - low]
  // is the block's entry for cell c, for the cells [from, to).
  const auto overlapping = [&](std::size_t c0, std::size_t c1, auto&& f) {
    for (std::size_t b = 0; b < blocks; ++b) {
      const std::size_t from = std::max<std::size_t>(c0, blockLow_[b]);
      const std::size_t to = std::min<std::size_t>(c1, std::size_t{blockHigh_[b]} + 1);
      if (from < to) f(hist_.data() + histStart_[b], std::size_t{blockLow_[b]}, from, to);
    }
  };
  const std::size_t chunks = (cells + kCellChunk - 1) / kCellChunk;
  chunkBase_.resize(chunks);
  // Each cell's size into cellStart_[c + 1], and each chunk's total.
  run(chunks, 1, [&](std::size_t firstChunk, std::size_t endChunk) {
    for (std::size_t k = firstChunk; k < endChunk; ++k) {
      const std::size_t c0 = k * kCellChunk, c1 = std::min(cells, c0 + kCellChunk);
      std::uint32_t* size = cellStart_.data() + 1;
      std::fill(size + c0, size + c1, 0u);
      overlapping(c0, c1, [&](const std::uint32_t* h, std::size_t low, std::size_t from, std::size_t to) {
        for (std::size_t c = from; c < to; ++c) size[c] += h[c - low];
      });
      std::uint32_t total = 0;
      for (std::size_t c = c0; c < c1; ++c) total += size[c];
      chunkBase_[k] = total;
    }
  });
  std::uint32_t before = 0;
  for (std::uint32_t& base : chunkBase_) before += std::exchange(base, before);
  cellStart_[0] = 0;
  // The prefix sum within each chunk, then each block's first slot in each cell of its span.
  cursor_.resize(cells);
  run(chunks, 1, [&](std::size_t firstChunk, std::size_t endChunk) {
    for (std::size_t k = firstChunk; k < endChunk; ++k) {
      const std::size_t c0 = k * kCellChunk, c1 = std::min(cells, c0 + kCellChunk);
      std::uint32_t running = chunkBase_[k];
      for (std::size_t c = c0; c < c1; ++c) {
        cursor_[c] = running;
        running += cellStart_[c + 1];
        cellStart_[c + 1] = running;
      }
      overlapping(c0, c1, [&](std::uint32_t* h, std::size_t low, std::size_t from, std::size_t to) {
        for (std::size_t c = from; c < to; ++c) {
          const std::uint32_t count = h[c - low];
          h[c - low] = cursor_[c];
          cursor_[c] += count;
        }
      });
    }
  });
  run(blocks, 1, [&](std::size_t firstBlock, std::size_t endBlock) {
    for (std::size_t b = firstBlock; b < endBlock; ++b) {
      std::uint32_t* h = hist_.data() + histStart_[b];
      const std::uint32_t low = blockLow_[b];
      for (std::size_t i = b * kSortBlock, end = std::min(n, i + kSortBlock); i < end; ++i)
        dest_[i] = h[dest_[i] - low]++;
    }
  });
}

}  // namespace steerd
