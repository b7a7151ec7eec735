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
  cellStart_.assign(static_cast<std::size_t>(nx_) * ny_ + 1, 0);
}

int SpatialGrid::cellX(float x) const {
  const float c = (x - bounds_.minX) * invCell_;
  // NaN compares false everywhere and lands in cell 0 rather than indexing out of range.
  return c >= 1.0f ? std::min(static_cast<int>(c), nx_ - 1) : 0;
}

int SpatialGrid::cellY(float y) const {
  const float c = (y - bounds_.minY) * invCell_;
  return c >= 1.0f ? std::min(static_cast<int>(c), ny_ - 1) : 0;
}

SlotRange SpatialGrid::rowRange(int row, int x0, int x1) const {
  row = std::clamp(row, 0, ny_ - 1);
  x0 = std::clamp(x0, 0, nx_ - 1);
  x1 = std::clamp(x1, 0, nx_ - 1);
  const std::size_t base = static_cast<std::size_t>(row) * nx_;
  return {cellStart_[base + x0], cellStart_[base + x1 + 1]};
}

void SpatialGrid::rebuild(AgentColumns& from, AgentColumns& to, std::vector<std::uint32_t>& slotOfId) {
  const std::size_t n = from.size();
  cellOfSlot_.resize(n);
  std::fill(cellStart_.begin(), cellStart_.end(), 0u);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t c = static_cast<std::uint32_t>(cellY(from.py[i]) * nx_ + cellX(from.px[i]));
    cellOfSlot_[i] = c;
    ++cellStart_[c + 1];
  }
  for (std::size_t c = 1; c < cellStart_.size(); ++c) cellStart_[c] += cellStart_[c - 1];

  // Destination slot of every source slot; cellStart_ is restored afterwards by a second pass.
  std::vector<std::uint32_t>& dest = cellOfSlot_;
  {
    std::vector<std::uint32_t> cursor(cellStart_.begin(), cellStart_.end() - 1);
    for (std::size_t i = 0; i < n; ++i) dest[i] = cursor[dest[i]]++;
  }
  to.resize(n);
  // One column at a time: each pass streams one source array and writes one destination array,
  // which keeps the scatter's working set small.
  AgentColumns::zipColumns(from, to, [&](auto& src, auto& dst) {
    for (std::size_t i = 0; i < n; ++i) dst[dest[i]] = src[i];
  });
  for (std::size_t i = 0; i < n; ++i) slotOfId[from.id[i]] = dest[i];
}

}  // namespace steerd
