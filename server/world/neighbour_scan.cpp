#include "world/neighbour_scan.h"

#include <cmath>

namespace steerd {

NeighbourSums scanNeighbours(const AgentColumns& s, const SpatialGrid& grid, std::uint32_t slot,
                             const NeighbourQuery& q) {
  const float px = s.px[slot], py = s.py[slot];
  const float hx = s.hx[slot], hy = s.hy[slot];
  const float r2 = q.radius * q.radius;
  const float contact = q.selfRadius + q.otherRadius;
  const float contact2 = contact * contact;
  // Closer than this counts as coincident: no direction to separate along, skip (the overlap
  // push of the pair is then resolved by the other agents around them or the next tick's jitter).
  constexpr float kCoincident2 = 1e-10f;
  const float* __restrict xs = s.px.data();
  const float* __restrict ys = s.py.data();
  const float* __restrict hxs = s.hx.data();
  const float* __restrict hys = s.hy.data();

  float sepX = 0, sepY = 0, headX = 0, headY = 0, offX = 0, offY = 0, fovCount = 0, count = 0;
  float pushX = 0, pushY = 0;
  const int cx = grid.cellX(px), cy = grid.cellY(py);
  for (int row = cy - 1; row <= cy + 1; ++row) {
    if (row < 0 || row >= grid.rows()) continue;
    const SlotRange range = grid.rowRange(row, cx - 1, cx + 1);
    for (std::uint32_t j = range.begin; j < range.end; ++j) {
      const float dx = xs[j] - px, dy = ys[j] - py;
      const float d2 = dx * dx + dy * dy;
      // Masks as 0/1 floats: the agent itself has d2 == 0 and drops out with coincident ones.
      const float in = (d2 < r2 && d2 > kCoincident2) ? 1.0f : 0.0f;
      const float d = std::sqrt(d2);
      const float inFov = (dx * hx + dy * hy >= q.cosHalfFov * d) ? in : 0.0f;
      const float invD2 = in / (d2 + kCoincident2);
      sepX -= dx * invD2;
      sepY -= dy * invD2;
      count += in;
      headX += hxs[j] * inFov;
      headY += hys[j] * inFov;
      offX += dx * inFov;
      offY += dy * inFov;
      fovCount += inFov;
      const float overlapping = (d2 < contact2) ? in : 0.0f;
      const float pushPerD = overlapping * 0.5f * (contact - d) / (d + 1e-5f);
      pushX -= dx * pushPerD;
      pushY -= dy * pushPerD;
    }
  }
  return {sepX, sepY, headX, headY, offX, offY, fovCount, count, pushX, pushY};
}

}  // namespace steerd
