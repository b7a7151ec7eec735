// Navmesh builds are bounded by an estimate of their time (issue 38): a 20 km world at 2.8 m cells
// passed the cell and tile bounds and kept --check-scenario busy for 43 s; it is refused before
// anything is built, with the estimate, the limit and what to change. Small worlds are estimated
// at what they take, give or take the fit (the estimate errs high).
#include "nav/nav_build_estimate.h"

#include <gtest/gtest.h>

#include <chrono>

#include "nav/navmesh_build.h"

namespace steerd::nav {
namespace {

NavInput world(float side, float cellSize, float tileSize) {
  NavInput in;
  in.boundsMin = {0, 0};
  in.boundsMax = {side, side};
  in.settings.cellSize = cellSize;
  in.settings.tileSize = tileSize;
  in.cylinders.push_back({{50, 50}, 3});
  return in;
}

TEST(NavBuildEstimate, ATwentyKilometreWorldAtCoarseCellsIsRefusedWithItsFigure) {
  const NavInput in = world(19700, 2.8f, 512);
  const NavBuildEstimate e = estimateNavBuild(in);
  EXPECT_GT(e.seconds, kMaxNavBuildSeconds);
  EXPECT_LT(e.cells, kMaxNavCells * 1.2);  // the cells alone nearly pass: the estimate is what refuses it
  const auto t0 = std::chrono::steady_clock::now();
  const NavBuildResult r = buildNavMeshTiles(in);  // validated first: nothing is built
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(seconds, 0.5);
  EXPECT_TRUE(r.tiles.tiles.empty());
  EXPECT_NE(r.error.find("navmesh: the build is estimated at 15."), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("over the limit of 10 s"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("raise cell_size"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("1521 tiles"), std::string::npos) << r.error;
}

TEST(NavBuildEstimate, SmallTilesAndManyShapesCostMoreThanTheCellsSay) {
  NavInput few = world(1000, 1.0f, 16);
  NavInput many = few;
  for (int i = 0; i < 200'000; ++i)
    many.cylinders.push_back({{static_cast<float>(i % 1000), static_cast<float>(i / 200)}, 0.5f});
  const NavBuildEstimate a = estimateNavBuild(few), b = estimateNavBuild(many);
  EXPECT_EQ(a.cells, b.cells);
  EXPECT_GT(b.seconds, kMaxNavBuildSeconds);
  const std::vector<std::string> errors = validateNavInput(many);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("raise tile_size"), std::string::npos) << errors[0];
  // A wider agent widens every tile's border.
  NavInput wide = few;
  wide.settings.agentRadius = 20.0f;
  EXPECT_GT(estimateNavBuild(wide).cells, 3.0 * a.cells);
}

// The fit, checked where it is cheap: a build that is estimated at under a second takes less than
// the estimate plus a margin for a busy machine.
TEST(NavBuildEstimate, ASmallBuildTakesAboutWhatItIsEstimated) {
  NavInput in = world(400, 0.5f, 64);
  for (int i = 0; i < 40; ++i)
    in.blocking.push_back({{10.0f * i, 100}, {10.0f * i + 4, 100}, {10.0f * i + 4, 104}, {10.0f * i, 104}});
  const NavBuildEstimate e = estimateNavBuild(in);
  EXPECT_GT(e.seconds, 0.05);
  EXPECT_LT(e.seconds, 1.0);
  const auto t0 = std::chrono::steady_clock::now();
  const NavBuildResult r = buildNavMeshTiles(in);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(r.error, "");
  EXPECT_LT(seconds, 3.0 * e.seconds + 0.5) << "estimated " << e.seconds << " s";
}

}  // namespace
}  // namespace steerd::nav
