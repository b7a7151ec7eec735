#include "world/level_of_detail.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace steerd {

void LevelOfDetail::compute(
    const AgentColumns& in, const std::vector<Archetype>& archetypes, const Bounds& bounds,
    std::uint64_t tick, const std::vector<float>& focus,
    const std::function<void(std::size_t, const std::function<void(std::size_t, std::size_t)>&)>&
        parallelFor) {
  const std::size_t n = in.size();
  levels_.assign(n, 0);
  // The coarse map: 16 m cells, larger for a huge world (at most about a million of them).
  cell_ = std::max(16.0f, std::sqrt(bounds.width() * bounds.height() / 1.0e6f));
  nx_ = std::max(1, static_cast<int>(std::ceil(bounds.width() / cell_)));
  ny_ = std::max(1, static_cast<int>(std::ceil(bounds.height() / cell_)));
  axisX_ = CellAxis(bounds.minX, cell_, nx_);
  axisY_ = CellAxis(bounds.minY, cell_, ny_);
  nearest_.assign(static_cast<std::size_t>(nx_) * ny_, std::numeric_limits<float>::infinity());

  float reach = 0.0f;  // the widest band: beyond it every cell stays at infinity (level 3)
  for (const Archetype& a : archetypes) reach = std::max(reach, a.lodDistances[2]);
  // Each focus lowers the cells within reach to the distance from it to the nearest point of the
  // cell: a lower bound for every agent inside, so a level is never coarser than it should be.
  for (std::size_t f = 0; f + 1 < focus.size(); f += 2) {
    const float fx = focus[f], fy = focus[f + 1];
    if (!std::isfinite(fx) || !std::isfinite(fy)) continue;
    const int x0 = axisX_.index(fx - reach), x1 = axisX_.index(fx + reach);
    const int y0 = axisY_.index(fy - reach), y1 = axisY_.index(fy + reach);
    for (int cy = y0; cy <= y1; ++cy) {
      // Edge cells reach to infinity (positions outside the bounds are clamped into them).
      const float cellY0 = cy == 0 ? -std::numeric_limits<float>::infinity() : bounds.minY + cy * cell_;
      const float cellY1 =
          cy == ny_ - 1 ? std::numeric_limits<float>::infinity() : bounds.minY + (cy + 1) * cell_;
      const float dy = std::max({cellY0 - fy, 0.0f, fy - cellY1});
      for (int cx = x0; cx <= x1; ++cx) {
        const float cellX0 = cx == 0 ? -std::numeric_limits<float>::infinity() : bounds.minX + cx * cell_;
        const float cellX1 =
            cx == nx_ - 1 ? std::numeric_limits<float>::infinity() : bounds.minX + (cx + 1) * cell_;
        const float dx = std::max({cellX0 - fx, 0.0f, fx - cellX1});
        float& d = nearest_[static_cast<std::size_t>(cy) * nx_ + cx];
        d = std::min(d, std::sqrt(dx * dx + dy * dy));
      }
    }
  }
  // Each archetype's bands, flat: (archetype * 3 + band). They ascend (the scenario file is
  // checked), so the level is how many of them the distance reaches.
  bands_.clear();
  for (const Archetype& a : archetypes) bands_.insert(bands_.end(), a.lodDistances, a.lodDistances + 3);
  parallelFor(n, [&](std::size_t begin, std::size_t end) {
    // Plain pointers in locals: the byte stores below may alias anything, and through the members
    // every pointer would be loaded again for each slot.
    const float* px = in.px.data();
    const float* py = in.py.data();
    const ArchetypeIndex* archetype = in.archetype.data();
    const float* nearest = nearest_.data();
    const float* bands = bands_.data();
    std::uint8_t* levels = levels_.data();
    const CellAxis ax = axisX_, ay = axisY_;
    const std::size_t columns = static_cast<std::size_t>(nx_);
    for (std::size_t s = begin; s < end; ++s) {
      const int row = ay.index(py[s]);
      const float d = nearest[static_cast<std::size_t>(row) * columns + ax.index(px[s])];
      const float* band = bands + 3 * std::size_t{archetype[s]};
      const auto level = static_cast<std::uint8_t>((d >= band[0]) + (d >= band[1]) + (d >= band[2]));
      levels[s] = lodDue(tick, level, static_cast<std::uint32_t>(row)) ? level : (level | kLodWaits);
    }
  });
}

}  // namespace steerd
