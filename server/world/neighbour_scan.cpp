#include "world/neighbour_scan.h"

#include <cmath>

#include "world/simd.h"

namespace steerd {

// Candidates are processed in blocks of 4 lanes: every test is a lane mask ANDed into the
// contribution, so the loop has no data-dependent branch (a branchy version mispredicts a dozen
// times per agent and runs about 2x slower) and each operation is one SIMD instruction. Lanes are
// summed in a fixed order at the end, so the result is the same on every run. A block may run
// past the range's end; those lanes read the grid's padding (SpatialGrid::kScanPadding) and are
// masked off.
using namespace simd;

namespace {

// The scan for one field-of-view shape. kWide (field of view over 180 degrees) is a template
// parameter so the loop carries one cone test, not both and a select: fewer live vectors, fewer
// register spills per block.
template <bool kWide>
NeighbourSums scan(const AgentColumns& s, const SpatialGrid& grid, std::uint32_t slot,
                   const NeighbourQuery& q) {
  const float px0 = s.px[slot], py0 = s.py[slot];
  const F4 px = splat(px0), py = splat(py0);
  const F4 hx = splat(s.hx[slot]), hy = splat(s.hy[slot]);
  const F4 r2 = splat(q.radius * q.radius);
  const F4 selfRadius = splat(q.selfRadius + q.contactSkin);
  // Field of view without a square root: dot(h, d) >= c |d| is, for c < 0, "dot >= 0 or
  // dot^2 <= c^2 |d|^2", and for c >= 0, "dot >= 0 and dot^2 >= c^2 |d|^2".
  const F4 c2 = splat(q.cosHalfFov * q.cosHalfFov);
  // Closer than this counts as coincident: no direction to separate along, so it is skipped (the
  // agent itself has d2 == 0 and drops out the same way). Every lane that counts has d2 above it,
  // so the divisions below need no guard; the lanes that do not count are masked off.
  const F4 coincident2 = splat(1e-10f);
  const F4 zero = splat(0.0f), one = splat(1.0f);
  const I4 laneIndex = {0, 1, 2, 3};
  const float* xs = s.px.data();
  const float* ys = s.py.data();
  const float* hxs = s.hx.data();
  const float* hys = s.hy.data();
  const float* radii = s.radius.data();

  F4 sepX = zero, sepY = zero, headX = zero, headY = zero, offX = zero, offY = zero;
  F4 fov = zero, count = zero, pushX = zero, pushY = zero;
  // Cells are at least the radius wide, so the disc around p lies in the cells its bounding
  // square touches: 2 or 3 per axis (6.25 cells on average instead of a fixed 3 x 3).
  const NeighbourBlock block = grid.blockAround(px0, py0, q.radius);
  for (int row = block.rowFirst; row <= block.rowLast; ++row) {
    const SlotRange range = grid.rowRangeInGrid(row, block.columnFirst, block.columnLast);
    for (std::uint32_t j = range.begin; j < range.end; j += kLanes) {
      const I4 valid = laneIndex < static_cast<std::int32_t>(range.end - j);
      const F4 dx = load(xs + j) - px, dy = load(ys + j) - py;
      const F4 d2 = dx * dx + dy * dy;
      const I4 in = valid & (d2 < r2) & (d2 > coincident2);
      const F4 along = dx * hx + dy * hy;
      const I4 ahead = along >= zero;
      I4 cone;
      if constexpr (kWide) {
        cone = ahead | (along * along <= c2 * d2);
      } else {
        cone = ahead & (along * along >= c2 * d2);
      }
      const I4 inFov = in & cone;
      const F4 invD2 = select(in, one / d2);
      sepX -= dx * invD2;
      sepY -= dy * invD2;
      count += select(in, one);
      headX += select(inFov, load(hxs + j));
      headY += select(inFov, load(hys + j));
      offX += select(inFov, dx);
      offY += select(inFov, dy);
      fov += select(inFov, one);
      const F4 d = sqrt4(d2);
      const F4 contact = selfRadius + load(radii + j);
      const F4 pushPerD = select(in & (d < contact), splat(0.5f) * (contact - d) / d);
      pushX -= dx * pushPerD;
      pushY -= dy * pushPerD;
    }
  }
  const F4 s0 = sum4(sepX, sepY, headX, headY);
  const F4 s1 = sum4(offX, offY, fov, count);
  const F4 s2 = sum4(pushX, pushY, zero, zero);
  return {s0[0], s0[1], s0[2], s0[3], s1[0], s1[1], s1[2], s1[3], s2[0], s2[1]};
}

}  // namespace

NeighbourSums scanNeighbours(const AgentColumns& s, const SpatialGrid& grid, std::uint32_t slot,
                             const NeighbourQuery& q) {
  return q.cosHalfFov < 0.0f ? scan<true>(s, grid, slot, q) : scan<false>(s, grid, slot, q);
}

}  // namespace steerd
