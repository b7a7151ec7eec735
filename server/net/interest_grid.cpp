#include "net/interest_grid.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace steerd::net {

void InterestGrid::build(std::span<const wire::EntityState> states, float radius) {
  cols_ = rows_ = 0;
  cellStart_.assign(1, 0);
  indices_.clear();
  if (states.empty() || !(radius > 0.0f) || !std::isfinite(radius)) return;
  float minX = wire::positionMetres(states[0].x), minY = wire::positionMetres(states[0].y);
  float maxX = minX, maxY = minY;
  for (const wire::EntityState& e : states) {
    const float x = wire::positionMetres(e.x), y = wire::positionMetres(e.y);
    minX = std::min(minX, x);
    minY = std::min(minY, y);
    maxX = std::max(maxX, x);
    maxY = std::max(maxY, y);
  }
  const float extent = std::max(maxX - minX, maxY - minY);
  const float cellSize = std::max(radius, extent / static_cast<float>(kMaxCellsPerSide - 1));
  cols_ = std::min(kMaxCellsPerSide, static_cast<int>((maxX - minX) / cellSize) + 1);
  rows_ = std::min(kMaxCellsPerSide, static_cast<int>((maxY - minY) / cellSize) + 1);
  axisX_ = CellAxis(minX, cellSize, cols_);
  axisY_ = CellAxis(minY, cellSize, rows_);
  // Counting sort by cell, in state order: each cell's indices come out ascending.
  cellStart_.assign(static_cast<std::size_t>(cols_) * static_cast<std::size_t>(rows_) + 1, 0);
  const auto cellOf = [&](const wire::EntityState& e) {
    return static_cast<std::size_t>(axisY_.index(wire::positionMetres(e.y))) *
               static_cast<std::size_t>(cols_) +
           static_cast<std::size_t>(axisX_.index(wire::positionMetres(e.x)));
  };
  for (const wire::EntityState& e : states) ++cellStart_[cellOf(e) + 1];
  for (std::size_t c = 1; c < cellStart_.size(); ++c) cellStart_[c] += cellStart_[c - 1];
  indices_.resize(states.size());
  std::vector<std::uint32_t> next(cellStart_.begin(), cellStart_.end() - 1);
  for (std::uint32_t i = 0; i < states.size(); ++i) indices_[next[cellOf(states[i])]++] = i;
}

void InterestGrid::scan(std::span<const wire::EntityState> states, float cx, float cy, float radius,
                        std::vector<wire::EntityState>& out) {
  const float r2 = radius * radius;
  for (const wire::EntityState& e : states) {
    const float dx = wire::positionMetres(e.x) - cx, dy = wire::positionMetres(e.y) - cy;
    if (dx * dx + dy * dy <= r2) out.push_back(e);
  }
}

void InterestGrid::gather(std::span<const wire::EntityState> states, float cx, float cy, float radius,
                          std::vector<std::uint64_t>& marks, std::vector<wire::EntityState>& out) const {
  if (cols_ == 0 || indices_.size() != states.size() || !std::isfinite(cx) || !std::isfinite(cy)) {
    scan(states, cx, cy, radius, out);
    return;
  }
  // Marks by state index, then one walk over the words: the result in the states' (id) order.
  marks.assign((states.size() + 63) / 64, 0);
  const float r2 = radius * radius;
  // A cell's index never decreases with the coordinate: every state within the radius is in one
  // of these cells.
  const int x0 = axisX_.index(cx - radius), x1 = axisX_.index(cx + radius);
  const int y0 = axisY_.index(cy - radius), y1 = axisY_.index(cy + radius);
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const std::size_t c =
          static_cast<std::size_t>(y) * static_cast<std::size_t>(cols_) + static_cast<std::size_t>(x);
      for (std::uint32_t k = cellStart_[c]; k < cellStart_[c + 1]; ++k) {
        const std::uint32_t i = indices_[k];
        const float dx = wire::positionMetres(states[i].x) - cx, dy = wire::positionMetres(states[i].y) - cy;
        if (dx * dx + dy * dy <= r2) marks[i / 64] |= std::uint64_t{1} << (i % 64);
      }
    }
  }
  for (std::size_t w = 0; w < marks.size(); ++w) {
    for (std::uint64_t bits = marks[w]; bits != 0; bits &= bits - 1) {
      out.push_back(states[w * 64 + static_cast<std::size_t>(std::countr_zero(bits))]);
    }
  }
}

}  // namespace steerd::net
