#include "world/static_geometry.h"

#include <algorithm>
#include <cmath>

namespace steerd {

void StaticGeometry::index(float cellSize, float reach) {
  cellSize_ = cellSize > 0.0f ? cellSize : 16.0f;
  nx_ = std::max(1, static_cast<int>(std::ceil(bounds.width() / cellSize_)));
  ny_ = std::max(1, static_cast<int>(std::ceil(bounds.height() / cellSize_)));
  cellStart_.assign(static_cast<std::size_t>(nx_) * ny_ + 1, 0);
  bucketed_.clear();
  for (int cy = 0; cy < ny_; ++cy) {
    for (int cx = 0; cx < nx_; ++cx) {
      const float x0 = bounds.minX + cx * cellSize_ - reach, x1 = x0 + cellSize_ + 2 * reach;
      const float y0 = bounds.minY + cy * cellSize_ - reach, y1 = y0 + cellSize_ + 2 * reach;
      for (const auto& o : obstacles) {
        // Circle against padded rectangle: distance from centre to the rectangle.
        const float dx = std::max({x0 - o.center.x, 0.0f, o.center.x - x1});
        const float dy = std::max({y0 - o.center.y, 0.0f, o.center.y - y1});
        if (dx * dx + dy * dy <= o.radius * o.radius) bucketed_.push_back(o);
      }
      cellStart_[static_cast<std::size_t>(cy) * nx_ + cx + 1] = static_cast<std::uint32_t>(bucketed_.size());
    }
  }
}

std::span<const steer::CircleObstacle> StaticGeometry::obstaclesNear(float x, float y) const {
  if (bucketed_.empty()) return {};
  const float fx = (x - bounds.minX) / cellSize_, fy = (y - bounds.minY) / cellSize_;
  const int cx = fx >= 1.0f ? std::min(static_cast<int>(fx), nx_ - 1) : 0;
  const int cy = fy >= 1.0f ? std::min(static_cast<int>(fy), ny_ - 1) : 0;
  const std::size_t c = static_cast<std::size_t>(cy) * nx_ + cx;
  return {bucketed_.data() + cellStart_[c], bucketed_.data() + cellStart_[c + 1]};
}

}  // namespace steerd
