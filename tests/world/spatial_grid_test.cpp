#include "world/spatial_grid.h"

#include <gtest/gtest.h>

#include <limits>

namespace steerd {
namespace {

AgentColumns agentsAt(const std::vector<std::pair<float, float>>& points) {
  AgentColumns a;
  a.resize(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    a.px[i] = points[i].first;
    a.py[i] = points[i].second;
    a.id[i] = static_cast<AgentId>(i);
  }
  return a;
}

TEST(SpatialGrid, RebuildSortsIntoRowMajorCellOrderStably) {
  SpatialGrid g;
  g.configure({0, 0, 40, 40}, 10);  // 4 x 4 cells
  AgentColumns from = agentsAt({{35, 35}, {5, 5}, {15, 5}, {6, 6}, {5, 15}});
  AgentColumns to;
  std::vector<std::uint32_t> slotOf(5);
  g.rebuild(from, to, slotOf);
  // Cell (0,0) holds ids 1 and 3 in their old order, then (1,0): id 2, then (0,1): id 4, last (3,3).
  EXPECT_EQ(to.id[0], 1u);
  EXPECT_EQ(to.id[1], 3u);
  EXPECT_EQ(to.id[2], 2u);
  EXPECT_EQ(to.id[3], 4u);
  EXPECT_EQ(to.id[4], 0u);
  for (AgentId id = 0; id < 5; ++id) EXPECT_EQ(to.id[slotOf[id]], id);
  // Row 0, columns 0..1: slots 0..2.
  const SlotRange r = g.rowRange(0, 0, 1);
  EXPECT_EQ(r.begin, 0u);
  EXPECT_EQ(r.end, 3u);
  // The scan's columns are padded so a SIMD block may read past the last agent.
  EXPECT_GE(to.px.size(), 5 + SpatialGrid::kScanPadding);
}

TEST(SpatialGrid, OutOfBoundsAndNaNPositionsClampToEdgeCells) {
  SpatialGrid g;
  g.configure({0, 0, 40, 40}, 10);
  EXPECT_EQ(g.cellX(-100), 0);
  EXPECT_EQ(g.cellX(1e9f), 3);
  EXPECT_EQ(g.cellY(std::numeric_limits<float>::quiet_NaN()), 0);
  EXPECT_EQ(g.cellX(std::numeric_limits<float>::infinity()), 3);
  const SlotRange r = g.rowRange(-5, -3, 99);  // clamped, no out-of-range read
  EXPECT_LE(r.begin, r.end);
}

TEST(SpatialGrid, BlockAroundCoversTheDiscWithTwoOrThreeCellsPerAxis) {
  SpatialGrid g;
  g.configure({0, 0, 100, 100}, 4);
  const NeighbourBlock mid = g.blockAround(50, 50, 4);  // 46..54: cells 11..13
  EXPECT_EQ(mid.columnFirst, 11);
  EXPECT_EQ(mid.columnLast, 13);
  const NeighbourBlock edge = g.blockAround(49, 49, 4);  // 45..53: cells 11..13
  EXPECT_EQ(edge.rowLast - edge.rowFirst, 2);
  const NeighbourBlock corner = g.blockAround(1, 1, 4);
  EXPECT_EQ(corner.columnFirst, 0);
  EXPECT_EQ(corner.rowFirst, 0);
}

}  // namespace
}  // namespace steerd
