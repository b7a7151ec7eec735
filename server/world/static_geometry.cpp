#include "world/static_geometry.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "steering/hide.h"

namespace steerd {

namespace {

struct Rect {
  float x0, y0, x1, y1;
};

// Inlined, and without std::max's initializer lists: it runs for every cell round every moving
// obstacle every tick.
[[gnu::always_inline]] inline bool circleTouches(const steer::CircleObstacle& o, const Rect& r) {
  const float dx = std::max(std::max(r.x0 - o.center.x, 0.0f), o.center.x - r.x1);
  const float dy = std::max(std::max(r.y0 - o.center.y, 0.0f), o.center.y - r.y1);
  return dx * dx + dy * dy <= o.radius * o.radius;
}

// Conservative: the segment's bounding box overlaps the rectangle.
bool segmentMayTouch(const steer::Wall& w, const Rect& r) {
  return std::max(w.from.x, w.to.x) >= r.x0 && std::min(w.from.x, w.to.x) <= r.x1 &&
         std::max(w.from.y, w.to.y) >= r.y0 && std::min(w.from.y, w.to.y) <= r.y1;
}

}  // namespace

void StaticGeometry::index(float cellSize, float reach) { indexShapes(cellSize, reach, true); }

void StaticGeometry::reindexObstacles() { indexShapes(cellSize_, reach_, false); }

void StaticGeometry::indexShapes(float cellSize, float reach, bool withWalls) {
  reach_ = reach;
  cellSize_ = cellSize > 0.0f ? cellSize : 16.0f;
  // A very large world gets larger buckets rather than millions of them.
  constexpr float kMaxCells = 262144.0f;
  cellSize_ = std::max(cellSize_, std::sqrt(bounds.width() * bounds.height() / kMaxCells));
  nx_ = std::max(1, static_cast<int>(std::ceil(bounds.width() / cellSize_)));
  ny_ = std::max(1, static_cast<int>(std::ceil(bounds.height() / cellSize_)));
  axisX_ = CellAxis(bounds.minX, cellSize_, nx_);
  axisY_ = CellAxis(bounds.minY, cellSize_, ny_);
  const std::size_t cells = static_cast<std::size_t>(nx_) * ny_;
  auto forCells = [&](float x0, float y0, float x1, float y1, auto&& f) {
    const int cx0 = axisX_.index(x0), cx1 = axisX_.index(x1);
    const int cy0 = axisY_.index(y0), cy1 = axisY_.index(y1);
    for (int cy = cy0; cy <= cy1; ++cy) {
      for (int cx = cx0; cx <= cx1; ++cx) {
        const float rx = bounds.minX + cx * cellSize_, ry = bounds.minY + cy * cellSize_;
        f(static_cast<std::size_t>(cy) * nx_ + cx, Rect{rx, ry, rx + cellSize_, ry + cellSize_});
      }
    }
  };
  // Which cells each shape belongs to, in two lists per shape kind: the cells whose agents may
  // see it (padded by the reach) and the cells it overlaps itself. `visit(c, near, own)`.
  auto eachObstacleCell = [&](auto&& visit) {
    for (std::uint32_t i = 0; i < obstacles.size(); ++i) {
      const auto& o = obstacles[i];
      // An obstacle's own radius pads its reach once more: Buckland's detection box tests the
      // centre (up to L + R ahead and R + r aside), so the body can see an obstacle's edge from
      // farther than `reach` (about L + r + R). Without it, small buckets hid big obstacles.
      const float pad = reach + std::max(o.radius, 0.0f);
      const float r = o.radius + pad;
      forCells(o.center.x - r, o.center.y - r, o.center.x + r, o.center.y + r, [&](std::size_t c, Rect cell) {
        visit(c, i, circleTouches(o, {cell.x0 - pad, cell.y0 - pad, cell.x1 + pad, cell.y1 + pad}),
              circleTouches(o, cell));
      });
    }
  };
  auto eachWallCell = [&](auto&& visit) {
    for (std::uint32_t i = 0; i < walls.size(); ++i) {
      const auto& w = walls[i];
      forCells(std::min(w.from.x, w.to.x) - reach, std::min(w.from.y, w.to.y) - reach,
               std::max(w.from.x, w.to.x) + reach, std::max(w.from.y, w.to.y) + reach,
               [&](std::size_t c, Rect cell) {
                 visit(
                     c, i,
                     segmentMayTouch(w, {cell.x0 - reach, cell.y0 - reach, cell.x1 + reach, cell.y1 + reach}),
                     segmentMayTouch(w, cell));
               });
    }
  };
  // A counting sort: count per cell, prefix sums, then fill. Shapes are visited in index order,
  // so within a cell they come out in index order and every agent sees them in the same order.
  // No per-cell lists: the changes phase re-buckets every tick an obstacle moves.
  obstacleStart_.assign(cells + 1, 0);
  ownStart_.assign(cells + 1, 0);
  if (withWalls) {
    wallStart_.assign(cells + 1, 0);
    ownWallStart_.assign(cells + 1, 0);
  }
  // The obstacles' cells are found once and counted, then filled, from the list: the tests
  // were half of what moving a hundred carts a tick cost (crowd-crossing, bench/world_changes).
  visits_.clear();
  eachObstacleCell([&](std::size_t c, std::uint32_t i, bool near, bool own) {
    if (near || own) visits_.push_back({static_cast<std::uint32_t>(c), i, near, own});
  });
  for (const CellVisit& v : visits_) {
    obstacleStart_[v.cell + 1] += v.near ? 1 : 0;
    ownStart_[v.cell + 1] += v.own ? 1 : 0;
  }
  for (std::size_t c = 0; c < cells; ++c) {
    obstacleStart_[c + 1] += obstacleStart_[c];
    ownStart_[c + 1] += ownStart_[c];
  }
  bucketedObstacles_.resize(obstacleStart_[cells]);
  ownIndex_.resize(ownStart_[cells]);
  // Each cell's next free place, from its start.
  cursor_.assign(obstacleStart_.begin(), obstacleStart_.end() - 1);
  ownCursor_.assign(ownStart_.begin(), ownStart_.end() - 1);
  for (const CellVisit& v : visits_) {
    if (v.near) bucketedObstacles_[cursor_[v.cell]++] = obstacles[v.shape];
    if (v.own) ownIndex_[ownCursor_[v.cell]++] = v.shape;
  }
  if (!withWalls) return;
  eachWallCell([&](std::size_t c, std::uint32_t, bool near, bool own) {
    wallStart_[c + 1] += near ? 1 : 0;
    ownWallStart_[c + 1] += own ? 1 : 0;
  });
  for (std::size_t c = 0; c < cells; ++c) {
    wallStart_[c + 1] += wallStart_[c];
    ownWallStart_[c + 1] += ownWallStart_[c];
  }
  bucketedWalls_.resize(wallStart_[cells]);
  ownWallIndex_.resize(ownWallStart_[cells]);
  cursor_.assign(wallStart_.begin(), wallStart_.end() - 1);
  ownCursor_.assign(ownWallStart_.begin(), ownWallStart_.end() - 1);
  eachWallCell([&](std::size_t c, std::uint32_t i, bool near, bool own) {
    if (near) bucketedWalls_[cursor_[c]++] = walls[i];
    if (own) ownWallIndex_[ownCursor_[c]++] = i;
  });
}

std::size_t StaticGeometry::cellOf(float x, float y) const {
  const int cx = axisX_.index(x), cy = axisY_.index(y);
  return static_cast<std::size_t>(cy) * nx_ + cx;
}

std::span<const steer::CircleObstacle> StaticGeometry::obstaclesNear(float x, float y) const {
  if (bucketedObstacles_.empty()) return {};
  const std::size_t c = cellOf(x, y);
  return {bucketedObstacles_.data() + obstacleStart_[c], bucketedObstacles_.data() + obstacleStart_[c + 1]};
}

StaticGeometry::Near StaticGeometry::near(float x, float y) const {
  const std::size_t c = cellOf(x, y);
  Near n;
  if (!bucketedObstacles_.empty()) {
    n.obstacles = {bucketedObstacles_.data() + obstacleStart_[c],
                   bucketedObstacles_.data() + obstacleStart_[c + 1]};
  }
  if (!bucketedWalls_.empty()) {
    n.walls = {bucketedWalls_.data() + wallStart_[c], bucketedWalls_.data() + wallStart_[c + 1]};
  }
  return n;
}

std::span<const steer::Wall> StaticGeometry::wallsNear(float x, float y) const {
  if (bucketedWalls_.empty()) return {};
  const std::size_t c = cellOf(x, y);
  return {bucketedWalls_.data() + wallStart_[c], bucketedWalls_.data() + wallStart_[c + 1]};
}

// The shapes listed for the cells around (x, y) that `within` accepts, each once, into `out`.
template <class Shape, class Within>
std::size_t StaticGeometry::collectInRange(float x, float y, float range,
                                           const std::vector<std::uint32_t>& start,
                                           const std::vector<std::uint32_t>& index,
                                           const std::vector<Shape>& shapes, Within within,
                                           std::span<Shape> out) const {
  if (index.empty() || out.empty()) return 0;
  const int cx0 = static_cast<int>(cellOf(x - range, y) % nx_),
            cx1 = static_cast<int>(cellOf(x + range, y) % nx_);
  const int cy0 = static_cast<int>(cellOf(x, y - range) / nx_),
            cy1 = static_cast<int>(cellOf(x, y + range) / nx_);
  std::size_t n = 0;
  std::uint32_t taken[64];  // indices already copied: a shape overlapping several cells counts once
  std::size_t takenCount = 0;
  for (int cy = cy0; cy <= cy1; ++cy) {
    for (int cx = cx0; cx <= cx1; ++cx) {
      const std::size_t c = static_cast<std::size_t>(cy) * nx_ + cx;
      for (std::uint32_t k = start[c]; k < start[c + 1]; ++k) {
        const std::uint32_t i = index[k];
        if (!within(shapes[i])) continue;
        if (std::find(taken, taken + takenCount, i) != taken + takenCount) continue;
        if (takenCount < std::size(taken)) taken[takenCount++] = i;
        out[n++] = shapes[i];
        if (n == out.size()) return n;
      }
    }
  }
  return n;
}

std::size_t StaticGeometry::obstaclesInRange(float x, float y, float range,
                                             std::span<steer::CircleObstacle> out) const {
  const auto within = [&](const steer::CircleObstacle& o) {
    return !(steer::distance(o.center, {x, y}) > range + o.radius);
  };
  return collectInRange(x, y, range, ownStart_, ownIndex_, obstacles, within, out);
}

std::size_t StaticGeometry::wallsInRange(float x, float y, float range, std::span<steer::Wall> out) const {
  const steer::Vec2 p{x, y};
  const auto within = [&](const steer::Wall& w) {
    const steer::Vec2 seg = w.to - w.from;
    const float segLenSq = steer::lengthSq(seg);
    const float t = std::clamp(segLenSq > 0.0f ? steer::dot(p - w.from, seg) / segLenSq : 0.0f, 0.0f, 1.0f);
    return steer::distance(w.from + seg * t, p) <= range;
  };
  return collectInRange(x, y, range, ownWallStart_, ownWallIndex_, walls, within, out);
}

bool sightBlocked(const StaticGeometry& geometry, steer::Vec2 from, steer::Vec2 to) {
  const steer::Vec2 mid = (from + to) * 0.5f;
  const float reach = steer::distance(from, to) * 0.5f;
  std::array<steer::CircleObstacle, 64> nearby;
  const std::size_t n = geometry.obstaclesInRange(mid.x, mid.y, reach, nearby);
  if (steer::lineOfSightBlocked(
          from, to, std::span<const steer::CircleObstacle>(nearby.data(), std::min(n, nearby.size())))) {
    return true;
  }
  if (geometry.walls.empty()) return false;
  // A wall that crosses the segment has a point on it, so within `reach` of its middle: the
  // buckets around it hold every such wall (the range padded against rounding). Unindexed, or
  // with more walls there than the array holds, every wall is tried. The same answer either way.
  std::array<steer::Wall, 64> walls;
  std::span<const steer::Wall> candidates(geometry.walls);
  if (geometry.indexed()) {
    const std::size_t w = geometry.wallsInRange(mid.x, mid.y, reach * 1.01f + 0.01f, walls);
    if (w < walls.size()) candidates = std::span<const steer::Wall>(walls.data(), w);
  }
  for (const steer::Wall& wall : candidates) {
    if (steer::properlyCross(from, to, wall.from, wall.to)) return true;
  }
  return false;
}

}  // namespace steerd
