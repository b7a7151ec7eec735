#include "world/spatial_grid.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>

#include "world/thread_pool.h"

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

// The slot order a stable sort by cell gives: the one answer every way of counting must reach.
std::vector<AgentId> stableSortedIds(const SpatialGrid& g, const AgentColumns& a) {
  std::vector<std::size_t> order(a.size());
  std::iota(order.begin(), order.end(), 0);
  const auto cell = [&](std::size_t i) { return g.cellY(a.py[i]) * g.columns() + g.cellX(a.px[i]); };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return cell(x) < cell(y); });
  std::vector<AgentId> ids;
  for (std::size_t i : order) ids.push_back(a.id[i]);
  return ids;
}

// Many agents, already in cell order, then nudged (some across a row, a few far away): the input
// the blocked count is for. It must give exactly the stable sort, whatever order its chunks run in.
TEST(SpatialGrid, BlockedCountGivesTheStableSortInAnyChunkOrder) {
  SpatialGrid g;
  g.configure({0, 0, 400, 400}, 4);  // 100 x 100 cells
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(0.0f, 400.0f), nudge(-3.0f, 3.0f);
  std::vector<std::pair<float, float>> points(100000);
  for (auto& p : points) p = {u(rng), u(rng)};
  AgentColumns unsorted = agentsAt(points), sorted;
  std::vector<std::uint32_t> slotOf(points.size());
  g.rebuild(unsorted, sorted, slotOf);
  EXPECT_FALSE(g.lastRebuildBlocked());  // no ParallelFor: the serial count
  sorted.resize(points.size());          // drop the scan padding
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    sorted.px[i] += nudge(rng);
    sorted.py[i] += nudge(rng);
    if (i % 5000 == 0) sorted.px[i] = u(rng), sorted.py[i] = u(rng);  // a long way off
    if (i % 7777 == 0) sorted.py[i] = std::numeric_limits<float>::quiet_NaN();
  }
  const std::vector<AgentId> expected = stableSortedIds(g, sorted);

  // Chunks run backwards on this thread.
  const SpatialGrid::ParallelFor backwards = [](std::size_t count, std::size_t chunk, const auto& body) {
    for (std::size_t begin = (count + chunk - 1) / chunk * chunk; begin > 0;) {
      begin -= chunk;
      body(begin, std::min(count, begin + chunk));
    }
  };
  ThreadPool pool(3);
  const SpatialGrid::ParallelFor pooled = [&](std::size_t count, std::size_t chunk, const auto& body) {
    pool.parallelFor(count, chunk, body);
  };
  for (const SpatialGrid::ParallelFor* run : {&backwards, &pooled}) {
    AgentColumns out;
    std::fill(slotOf.begin(), slotOf.end(), 0u);
    g.rebuild(sorted, out, slotOf, *run);
    EXPECT_TRUE(g.lastRebuildBlocked());
    ASSERT_EQ(out.size(), expected.size());
    for (std::size_t s = 0; s < out.size(); ++s) ASSERT_EQ(out.id[s], expected[s]) << "slot " << s;
    for (AgentId id = 0; id < points.size(); ++id) ASSERT_EQ(out.id[slotOf[id]], id);
    // Each cell's range holds exactly its agents.
    for (int row = 0; row < g.rows(); ++row) {
      const SlotRange r = g.rowRange(row, 0, g.columns() - 1);
      for (std::uint32_t s = r.begin; s < r.end; ++s) ASSERT_EQ(g.cellY(out.py[s]), row);
    }
  }
}

// Input in no order at all (a first sort, a mass spawn) over a large grid: each block's span is
// the grid, so the serial count runs, through the ParallelFor or not, with the same answer.
TEST(SpatialGrid, UnsortedInputFallsBackToTheSerialCount) {
  SpatialGrid g;
  g.configure({0, 0, 4000, 4000}, 4);  // a million cells
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> u(0.0f, 4000.0f);
  std::vector<std::pair<float, float>> points(70000);
  for (auto& p : points) p = {u(rng), u(rng)};
  AgentColumns from = agentsAt(points), out;
  std::vector<std::uint32_t> slotOf(points.size());
  ThreadPool pool(2);
  g.rebuild(from, out, slotOf, [&](std::size_t count, std::size_t chunk, const auto& body) {
    pool.parallelFor(count, chunk, body);
  });
  EXPECT_FALSE(g.lastRebuildBlocked());
  const std::vector<AgentId> expected = stableSortedIds(g, from);
  for (std::size_t s = 0; s < out.size(); ++s) ASSERT_EQ(out.id[s], expected[s]) << "slot " << s;
}

}  // namespace
}  // namespace steerd
