#include "world/spatial_grid.h"

#include <algorithm>
#include <cmath>

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
  dest_.resize(n);
  // Cell of every slot: independent per slot, so it runs in parallel; the histogram, prefix sum
  // and destination pass that follow are serial (they are what makes the sort stable).
  const auto cellsOf = [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      dest_[i] = static_cast<std::uint32_t>(cellY(from.py[i]) * nx_ + cellX(from.px[i]));
    }
  };
  if (parallelFor) {
    parallelFor(n, cellsOf);
  } else {
    cellsOf(0, n);
  }
  std::fill(cellStart_.begin(), cellStart_.end(), 0u);
  for (std::size_t i = 0; i < n; ++i) ++cellStart_[dest_[i] + 1];
  for (std::size_t c = 1; c < cellStart_.size(); ++c) cellStart_[c] += cellStart_[c - 1];
  // Cell of each slot -> destination slot: the counting sort's serial, stable pass.
  cursor_.assign(cellStart_.begin(), cellStart_.end() - 1);
  for (std::size_t i = 0; i < n; ++i) dest_[i] = cursor_[dest_[i]]++;

  // The scatter writes every destination exactly once, so chunks of it can run on any thread.
  to.resize(n);
  const auto scatter = [&](std::size_t begin, std::size_t end) {
    AgentColumns::zipColumns(from, to, [&](auto& src, auto& dst) {
      for (std::size_t i = begin; i < end; ++i) dst[dest_[i]] = src[i];
    });
    for (std::size_t i = begin; i < end; ++i) slotOfId[agentIndex(from.id[i])] = dest_[i];
  };
  if (parallelFor) {
    parallelFor(n, scatter);
  } else {
    scatter(0, n);
  }
  for (auto* column : {&to.px, &to.py, &to.vx, &to.vy, &to.hx, &to.hy, &to.radius})
    column->resize(n + kScanPadding, 0.0f);
}

}  // namespace steerd
