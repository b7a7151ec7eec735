#include "world/level_of_detail.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace steerd {

void LevelOfDetail::compute(
    const AgentColumns& in, const SpatialGrid& grid, const std::vector<Archetype>& archetypes,
    std::uint64_t tick, const std::vector<float>& focus,
    const std::function<void(std::size_t, const std::function<void(std::size_t, std::size_t)>&)>&
        parallelFor) {
  const std::size_t n = in.size();
  levels_.resize(n);
  const Bounds& bounds = grid.bounds();
  // The coarse map: k x k grid cells, at least 16 m a side, larger for a huge world (at most about
  // a million coarse cells).
  const float wanted = std::max(16.0f, std::sqrt(bounds.width() * bounds.height() / 1.0e6f));
  k_ = std::max(1, static_cast<int>(std::ceil(wanted / grid.cellSize())));
  nx_ = (grid.columns() + k_ - 1) / k_;
  ny_ = (grid.rows() + k_ - 1) / k_;
  const float side = grid.cellSize() * static_cast<float>(k_);
  nearest_.assign(static_cast<std::size_t>(nx_) * ny_, std::numeric_limits<float>::infinity());

  float reach = 0.0f;  // the widest band: beyond it every cell stays at infinity (level 3)
  for (const Archetype& a : archetypes) reach = std::max(reach, a.lodDistances[2]);
  // Each focus lowers the cells within reach to the distance from it to the nearest point of the
  // cell: a lower bound for every agent inside, so a level is never coarser than it should be.
  // Edge cells reach to infinity (positions outside the bounds are clamped into them).
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const auto lowEdge = [&](int c, float origin) {
    return c == 0 ? -kInf : origin + static_cast<float>(c) * side;
  };
  const auto highEdge = [&](int c, int last, float origin) {
    return c == last ? kInf : origin + static_cast<float>(c + 1) * side;
  };
  const CellAxis ax(bounds.minX, side, nx_), ay(bounds.minY, side, ny_);
  for (std::size_t f = 0; f + 1 < focus.size(); f += 2) {
    const float fx = focus[f], fy = focus[f + 1];
    if (!std::isfinite(fx) || !std::isfinite(fy)) continue;
    // One more cell each way than the reach asks for: the distances below decide, not rounding.
    const int x0 = std::max(0, ax.index(fx - reach) - 1), x1 = std::min(nx_ - 1, ax.index(fx + reach) + 1);
    const int y0 = std::max(0, ay.index(fy - reach) - 1), y1 = std::min(ny_ - 1, ay.index(fy + reach) + 1);
    for (int cy = y0; cy <= y1; ++cy) {
      const float dy =
          std::max({lowEdge(cy, bounds.minY) - fy, 0.0f, fy - highEdge(cy, ny_ - 1, bounds.minY)});
      for (int cx = x0; cx <= x1; ++cx) {
        const float dx =
            std::max({lowEdge(cx, bounds.minX) - fx, 0.0f, fx - highEdge(cx, nx_ - 1, bounds.minX)});
        float& d = nearest_[static_cast<std::size_t>(cy) * nx_ + cx];
        d = std::min(d, std::sqrt(dx * dx + dy * dy));
      }
    }
  }
  // Each archetype's bands, flat: (archetype * 3 + band). They ascend (the scenario file is
  // checked), so the level is how many of them the distance reaches.
  bands_.clear();
  for (const Archetype& a : archetypes) bands_.insert(bands_.end(), a.lodDistances, a.lodDistances + 3);
  bool sameBands = true;  // every archetype's: a level per run of slots, not per agent
  for (std::size_t i = 3; i < bands_.size(); ++i) sameBands = sameBands && bands_[i] == bands_[i % 3];
  // By grid row: a coarse cell's part of the row is one run of slots.
  parallelFor(static_cast<std::size_t>(grid.rows()), [&](std::size_t rowBegin, std::size_t rowEnd) {
    // Plain pointers in locals: the byte stores below may alias anything, and through the members
    // every pointer would be loaded again for each slot.
    const ArchetypeIndex* archetype = in.archetype.data();
    const float* bands = bands_.data();
    std::uint8_t* levels = levels_.data();
    const int lastColumn = grid.columns() - 1;
    const int k = k_, columns = nx_;
    for (std::size_t gridRow = rowBegin; gridRow < rowEnd; ++gridRow) {
      const auto row = static_cast<std::uint32_t>(gridRow / static_cast<std::size_t>(k));
      const float* nearest =
          nearest_.data() + static_cast<std::size_t>(row) * static_cast<std::size_t>(columns);
      const auto value = [&](float d, const float* band) {
        const auto level = static_cast<std::uint8_t>((d >= band[0]) + (d >= band[1]) + (d >= band[2]));
        return lodDue(tick, level, row) ? level : static_cast<std::uint8_t>(level | kLodWaits);
      };
      const std::uint32_t rowLastSlot = grid.rowRangeInGrid(static_cast<int>(gridRow), 0, lastColumn).end;
      for (int cx = 0; cx < columns; ++cx) {
        const SlotRange run =
            grid.rowRangeInGrid(static_cast<int>(gridRow), cx * k, std::min(lastColumn, cx * k + k - 1));
        if (!sameBands) {
          for (std::uint32_t s = run.begin; s < run.end; ++s)
            levels[s] = value(nearest[cx], bands + 3 * std::size_t{archetype[s]});
          continue;
        }
        // One value for the run, and most runs hold a few agents: one 8-byte store, where a loop of
        // a few bytes would mispredict its exit at every run. The store may spill into the row's
        // next runs, which are stored after it; never past the row's end (the next row may be
        // another thread's).
        const std::uint8_t v = value(nearest[cx], bands);
        if (run.end - run.begin <= 8 && run.begin + 8 <= rowLastSlot) {
          const std::uint64_t word = 0x0101010101010101ull * v;
          std::memcpy(levels + run.begin, &word, 8);
        } else {
          std::memset(levels + run.begin, v, run.end - run.begin);
        }
      }
    }
  });
}

}  // namespace steerd
