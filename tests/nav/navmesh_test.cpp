// Navmesh build, islands, cache and the pooled planner on small hand-made worlds.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>

#include <sys/stat.h>
#include <unistd.h>

#include "nav/navmesh.h"
#include "nav/navmesh_cache.h"
#include "nav/path_planner.h"

namespace steerd::nav {
namespace {

using steer::Vec2;

// A 40 x 20 m field with a wall of boxes across the middle (x 19..21) and a 4 m gap at the top.
NavInput fieldWithGap() {
  NavInput in;
  in.boundsMin = {0, 0};
  in.boundsMax = {40, 20};
  in.blocking.push_back({{19, 0}, {21, 0}, {21, 16}, {19, 16}});
  in.settings.tileSize = 16.0f;  // several tiles, so paths cross tile borders
  return in;
}

std::unique_ptr<NavMesh> build(const NavInput& in) {
  const NavBuildResult r = buildNavMeshTiles(in);
  EXPECT_EQ(r.error, "");
  std::vector<float> costs;
  for (const auto& a : in.areas) costs.push_back(a.cost);
  std::string error;
  auto mesh = NavMesh::fromTiles(r.tiles, costs, error);
  EXPECT_EQ(error, "");
  return mesh;
}

float pathLength(Vec2 from, const std::vector<Vec2>& corners) {
  float len = 0.0f;
  for (const Vec2& c : corners) {
    len += steer::distance(from, c);
    from = c;
  }
  return len;
}

TEST(Navmesh, BuildsTilesAndKeepsBodiesClearOfBlockers) {
  const NavInput in = fieldWithGap();
  const NavBuildResult r = buildNavMeshTiles(in);
  ASSERT_EQ(r.error, "");
  EXPECT_GT(r.tiles.tiles.size(), 1u);
  auto mesh = build(in);
  ASSERT_TRUE(mesh);
  EXPECT_EQ(mesh->islandCount(), 1u);
  // Inside the box, and within the agent radius of it, there is no ground.
  const NavPoint inBox = mesh->nearest({20, 8}, 0.1f);
  EXPECT_FALSE(inBox);
  const NavPoint nearBox = mesh->nearest({18.8f, 8}, 2.0f);
  ASSERT_TRUE(nearBox);
  EXPECT_LE(nearBox.position.x, 19.0f - 0.5f + 0.3f);  // shrunk by the radius (a cell of slack)
}

// A box in open ground: the polygons round it have bounding boxes that cover it, and Detour
// offers them for a point inside; nearest() must not call that point ground.
TEST(Navmesh, APointInsideABoxInOpenGroundIsNotGround) {
  NavInput in;
  in.boundsMin = {0, 0};
  in.boundsMax = {80, 60};
  in.settings.cellSize = 0.5f;
  for (const float x : {50.0f, 55.0f, 58.0f, 60.0f, 62.0f, 66.0f}) {
    in.blocking = {{{x - 3, 12}, {x + 3, 12}, {x + 3, 18}, {x - 3, 18}}};
    auto mesh = build(in);
    ASSERT_TRUE(mesh);
    EXPECT_FALSE(mesh->nearest({x, 15}, 0.05f)) << "box at " << x;
    EXPECT_FALSE(mesh->nearest({x + 2.4f, 15}, 0.05f)) << "box at " << x;
    const NavPoint beside = mesh->nearest({x + 2.4f, 15}, 2.0f);
    ASSERT_TRUE(beside) << "box at " << x;
    EXPECT_NEAR(beside.position.x, x + 3.5f, 0.6f);  // the edge, shrunk by the agent radius
  }
}

TEST(Navmesh, PathGoesRoundTheWallThroughTheGap) {
  auto mesh = build(fieldWithGap());
  PathPlanner planner(*mesh);
  const PathResult p = planner.findNow({5, 5}, {35, 5});
  ASSERT_TRUE(p.found);
  EXPECT_FALSE(p.partial);
  EXPECT_TRUE(p.complete);
  ASSERT_GE(p.corners.size(), 3u);
  // It must climb to the gap (y > 16) to pass x = 20.
  bool throughGap = false;
  for (const Vec2& c : p.corners) throughGap = throughGap || (c.y > 16.0f && c.x > 18.0f && c.x < 22.0f);
  EXPECT_TRUE(throughGap);
  EXPECT_NEAR(p.corners.back().x, 35.0f, 0.3f);
  EXPECT_NEAR(p.corners.back().y, 5.0f, 0.3f);
  // Up to the gap and down again: about 2 x 18.5 m (the straight line is 30 m).
  const float len = pathLength({5, 5}, p.corners);
  EXPECT_GT(len, 36.0f);
  EXPECT_LT(len, 40.0f);
}

TEST(Navmesh, UnreachableGoalGivesAPartialPathAndAnotherIsland) {
  NavInput in = fieldWithGap();
  in.blocking.push_back({{19, 16}, {21, 16}, {21, 20}, {19, 20}});  // close the gap
  auto mesh = build(in);
  EXPECT_EQ(mesh->islandCount(), 2u);
  const NavPoint a = mesh->nearest({5, 5}), b = mesh->nearest({35, 5});
  ASSERT_TRUE(a && b);
  EXPECT_NE(mesh->islandOf(a.poly), mesh->islandOf(b.poly));
  PathPlanner planner(*mesh);
  const PathResult p = planner.findNow({5, 5}, {35, 5});
  ASSERT_TRUE(p.found);
  EXPECT_TRUE(p.partial);
  EXPECT_LT(p.corners.back().x, 19.0f);  // as near as the near side allows
}

// Recast marks a cell by its centre: a 0.2 m wall strip on a line half-way between two rows of
// centres (x = 20 on a 0.5 m grid: centres at 19.75 and 20.25) used to mark none, and the wall was
// not in the mesh. A wall across the whole field, on that line and on others, must cut it in two.
TEST(Navmesh, AThinWallCutsTheMeshWhereverItLiesOnTheGrid) {
  for (const float x : {20.0f, 20.25f, 20.1f, 20.4f}) {
    NavInput in;
    in.boundsMin = {0, 0};
    in.boundsMax = {40, 20};
    in.settings.cellSize = 0.5f;
    in.settings.tileSize = 16.0f;
    in.walls.push_back({{x, -1}, {x, 21}});
    auto mesh = build(in);
    EXPECT_EQ(mesh->islandCount(), 2u) << "wall at x = " << x;
  }
  NavInput diagonal;  // and one at an angle
  diagonal.boundsMin = {0, 0};
  diagonal.boundsMax = {40, 20};
  diagonal.settings.cellSize = 0.5f;
  diagonal.walls.push_back({{10, -1}, {32, 21}});
  EXPECT_EQ(build(diagonal)->islandCount(), 2u);
}

TEST(Navmesh, OffMeshLinkJoinsIslands) {
  NavInput in = fieldWithGap();
  in.blocking.push_back({{19, 16}, {21, 16}, {21, 20}, {19, 20}});
  in.links.push_back({{18, 10}, {22, 10}, 0.6f, true});  // a jump over the wall
  auto mesh = build(in);
  EXPECT_EQ(mesh->islandCount(), 1u);
  PathPlanner planner(*mesh);
  const PathResult p = planner.findNow({5, 10}, {35, 10});
  ASSERT_TRUE(p.found);
  EXPECT_FALSE(p.partial);
}

TEST(Navmesh, AreaCostsSteerPathsOntoTheRoad) {
  // A 40 x 40 field; from (2, 20) to (38, 20). A cheap road runs along y 30..34: with it at cost
  // 0.2 the path takes the road; with mud (cost 10) on the straight line, it goes round it.
  NavInput in;
  in.boundsMin = {0, 0};
  in.boundsMax = {40, 40};
  in.areas.push_back({"mud", {{8, 14}, {32, 14}, {32, 26}, {8, 26}}, 10.0f});
  auto mesh = build(in);
  PathPlanner planner(*mesh);
  const PathResult p = planner.findNow({2, 20}, {38, 20});
  ASSERT_TRUE(p.found);
  bool avoidsMud = false;
  for (const Vec2& c : p.corners) avoidsMud = avoidsMud || c.y < 14.5f || c.y > 25.5f;
  EXPECT_TRUE(avoidsMud);

  in.areas[0].cost = 1.0f;  // same shapes, no penalty: straight across
  auto flat = build(in);
  PathPlanner flatPlanner(*flat);
  const PathResult q = flatPlanner.findNow({2, 20}, {38, 20});
  ASSERT_TRUE(q.found);
  EXPECT_LT(pathLength({2, 20}, q.corners), pathLength({2, 20}, p.corners));
}

TEST(Navmesh, OffMeshStartOrGoalFails) {
  auto mesh = build(fieldWithGap());
  PlannerSettings settings;
  settings.searchRadius = 1.0f;
  PathPlanner planner(*mesh, settings);
  EXPECT_FALSE(planner.findNow({20, 8}, {35, 5}).found);  // inside the box, beyond the search radius
  EXPECT_FALSE(planner.findNow({5, 5}, {500, 500}).found);
}

TEST(Navmesh, BadInputIsRefusedWithTheItemNamed) {
  NavInput in = fieldWithGap();
  in.blocking.push_back({{0, 0}, {4, 0}, {2, 1}, {4, 4}, {0, 4}});  // not convex
  in.settings.cellSize = -1.0f;
  const auto errors = validateNavInput(in);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_NE(errors[0].find("cell_size"), std::string::npos);
  EXPECT_NE(errors[1].find("navmesh.blocking[1]: not convex"), std::string::npos);
  EXPECT_NE(buildNavMeshTiles(in).error, "");
}

TEST(Navmesh, EverythingBlockedIsAnError) {
  NavInput in;
  in.boundsMin = {0, 0};
  in.boundsMax = {10, 10};
  in.blocking.push_back({{-1, -1}, {11, -1}, {11, 11}, {-1, 11}});
  EXPECT_NE(buildNavMeshTiles(in).error.find("no walkable ground"), std::string::npos);
}

TEST(NavmeshCache, RoundTripsAndRejectsOtherKeysAndDamage) {
  const NavInput in = fieldWithGap();
  const NavBuildResult built = buildNavMeshTiles(in);
  ASSERT_EQ(built.error, "");
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("steerd-navcache-" + std::to_string(::getpid()))).string();
  std::filesystem::remove_all(dir);
  const std::uint64_t key = navInputKey(in);
  std::string why;
  EXPECT_FALSE(loadCachedTiles(dir, key, why));
  EXPECT_EQ(why, "");  // a plain miss
  ASSERT_EQ(storeCachedTiles(dir, key, built.tiles), "");
  const auto loaded = loadCachedTiles(dir, key, why);
  ASSERT_TRUE(loaded);
  ASSERT_EQ(loaded->tiles.size(), built.tiles.tiles.size());
  for (std::size_t i = 0; i < loaded->tiles.size(); ++i)
    EXPECT_EQ(loaded->tiles[i].data, built.tiles.tiles[i].data);
  std::string error;
  auto mesh = NavMesh::fromTiles(*loaded, {}, error);
  ASSERT_TRUE(mesh) << error;
  PathPlanner planner(*mesh);
  EXPECT_TRUE(planner.findNow({5, 5}, {35, 5}).found);

  // Another geometry has another key; the same key over a damaged file is a miss with a reason.
  NavInput moved = in;
  moved.blocking[0][0].x += 0.5f;
  EXPECT_NE(navInputKey(moved), key);
  const std::string path = cacheFilePath(dir, key);
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(40);
    f.put('\x55');
  }
  EXPECT_FALSE(loadCachedTiles(dir, key, why));
  EXPECT_NE(why.find("not sealed with this install's cache key"), std::string::npos) << why;
  std::filesystem::remove_all(dir);
}

// Issue 17's fifth hole: a crafted cache file (tile data changed and the old unkeyed checksum
// recomputed) reached Detour and crashed it; a directory where the file goes was fatal; a link to
// /dev/zero was a bad_alloc. Now each is a miss with a reason (or a store error), never a crash.
TEST(NavmeshCache, HostileFilesAreMissesNotCrashes) {
  const NavInput in = fieldWithGap();
  const NavBuildResult built = buildNavMeshTiles(in);
  ASSERT_EQ(built.error, "");
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("steerd-navcache-h-" + std::to_string(::getpid()))).string();
  std::filesystem::remove_all(dir);
  const std::uint64_t key = navInputKey(in);
  const std::string path = cacheFilePath(dir, key);
  std::string why;

  // Re-sealed without the key: every byte of tile data set to 0xff, a fresh MAC under another key.
  ASSERT_EQ(storeCachedTiles(dir, key, built.tiles), "");
  NavMeshTiles crafted = built.tiles;
  for (auto& tile : crafted.tiles) std::fill(tile.data.begin(), tile.data.end(), 0xff);
  const std::string other = dir + "-other";
  std::filesystem::remove_all(other);
  ASSERT_EQ(storeCachedTiles(other, key, crafted), "");
  std::filesystem::copy_file(cacheFilePath(other, key), path,
                             std::filesystem::copy_options::overwrite_existing);
  EXPECT_FALSE(loadCachedTiles(dir, key, why));
  EXPECT_NE(why.find("not sealed"), std::string::npos) << why;

  // Sealed with the install's key but with a grid no build makes (Detour would allocate the whole
  // grid before the tile checks), or a tile outside its grid: damage, never handed to Detour.
  for (const auto& change : std::vector<std::function<void(NavMeshTiles&)>>{
           [](NavMeshTiles& t) { t.tilesX = 1 << 20; },
           [](NavMeshTiles& t) { t.tilesY = -3; },
           [](NavMeshTiles& t) { t.maxPolysPerTile = 1 << 30; },
           [](NavMeshTiles& t) { t.tileWidth = std::nanf(""); },
           [](NavMeshTiles& t) { t.tiles[0].x = t.tilesX; },
       }) {
    NavMeshTiles odd = built.tiles;
    change(odd);
    ASSERT_EQ(storeCachedTiles(dir, key, odd), "");
    EXPECT_FALSE(loadCachedTiles(dir, key, why));
    EXPECT_TRUE(why.find("a tile grid no build makes") != std::string::npos ||
                why.find("a tile outside its grid") != std::string::npos)
        << why;
  }

  // A key file that is not one: a miss.
  std::filesystem::remove(path);
  ASSERT_EQ(storeCachedTiles(dir, key, built.tiles), "");
  { std::ofstream(dir + "/navmesh-cache.key", std::ios::trunc) << "short"; }  // keeps its mode 0600
  EXPECT_FALSE(loadCachedTiles(dir, key, why));
  EXPECT_NE(why.find("not a cache key"), std::string::npos) << why;

  // A directory where the file goes: a miss with a reason, and storing says why it cannot.
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(path);
  EXPECT_FALSE(loadCachedTiles(dir, key, why));
  EXPECT_NE(why.find("not a regular file"), std::string::npos) << why;
  EXPECT_NE(storeCachedTiles(dir, key, built.tiles).find("not a regular file"), std::string::npos);

  // A link to /dev/zero: not read (it never ends).
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::filesystem::create_symlink("/dev/zero", path);
  EXPECT_FALSE(loadCachedTiles(dir, key, why));
  EXPECT_NE(why.find("not a regular file"), std::string::npos) << why;
  std::filesystem::remove_all(dir);
  std::filesystem::remove_all(other);
}

// Issue 38: the install's key seals cache files that reach Detour, so only this user's own regular
// file that nobody else may read or write is used. Anything else is said, naming the file and what
// to do, and neither loads nor stores use the cache.
TEST(NavmeshCache, AKeyFileOthersCouldReadOrReplaceIsRefusedWithWhatToDo) {
  namespace fs = std::filesystem;
  const NavInput in = fieldWithGap();
  const NavBuildResult built = buildNavMeshTiles(in);
  ASSERT_EQ(built.error, "");
  const std::string dir =
      (fs::temp_directory_path() / ("steerd-navcache-k-" + std::to_string(::getpid()))).string();
  fs::remove_all(dir);
  const std::uint64_t key = navInputKey(in);
  const std::string keyFile = dir + "/navmesh-cache.key";
  std::string why;
  EXPECT_EQ(cacheKeyProblem(dir), "");  // none made yet: the first store makes it
  ASSERT_EQ(storeCachedTiles(dir, key, built.tiles), "");
  EXPECT_EQ(fs::status(keyFile).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(cacheKeyProblem(dir), "");
  ASSERT_TRUE(loadCachedTiles(dir, key, why)) << why;

  // Mode 0644: the file named, its mode, and the command that fixes it.
  fs::permissions(keyFile, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                               fs::perms::others_read);
  const std::string problem = cacheKeyProblem(dir);
  EXPECT_NE(problem.find(keyFile + ": mode 0644"), std::string::npos) << problem;
  EXPECT_NE(problem.find("chmod 600 " + keyFile), std::string::npos) << problem;
  EXPECT_FALSE(loadCachedTiles(dir, key, why));
  EXPECT_NE(why.find("chmod 600"), std::string::npos) << why;
  EXPECT_NE(storeCachedTiles(dir, key, built.tiles).find("chmod 600"), std::string::npos);
  // Group-writable only is refused too; 0600 again is used again.
  fs::permissions(keyFile, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_write);
  EXPECT_NE(cacheKeyProblem(dir).find("mode 0620"), std::string::npos) << cacheKeyProblem(dir);
  fs::permissions(keyFile, fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(cacheKeyProblem(dir), "");
  EXPECT_TRUE(loadCachedTiles(dir, key, why)) << why;

  // A link to a key, even a good one: not the install's own file.
  fs::rename(keyFile, dir + "/real.key");
  fs::create_symlink(dir + "/real.key", keyFile);
  EXPECT_NE(cacheKeyProblem(dir).find("symbolic link"), std::string::npos) << cacheKeyProblem(dir);
  EXPECT_FALSE(loadCachedTiles(dir, key, why));
  fs::remove(keyFile);
  // A FIFO where the key goes: refused at once, not waited on.
  ASSERT_EQ(::mkfifo(keyFile.c_str(), 0600), 0);
  EXPECT_NE(cacheKeyProblem(dir).find("not a regular file"), std::string::npos) << cacheKeyProblem(dir);
  fs::remove(keyFile);
  // Another user's key (only root can make one to try).
  if (::geteuid() == 0) {
    fs::rename(dir + "/real.key", keyFile);
    ASSERT_EQ(::chown(keyFile.c_str(), 65534, 65534), 0);
    EXPECT_NE(cacheKeyProblem(dir).find("owned by uid 65534"), std::string::npos) << cacheKeyProblem(dir);
    EXPECT_FALSE(loadCachedTiles(dir, key, why));
  }
  fs::remove_all(dir);
}

TEST(PathPlanner, ServesABudgetPerCallInRequestOrder) {
  auto mesh = build(fieldWithGap());
  PlannerSettings settings;
  settings.iterationsPerServe = 20;
  PathPlanner planner(*mesh, settings);
  for (std::uint32_t a = 0; a < 50; ++a) planner.request(a, {2.0f + 0.1f * a, 3}, {38, 3});
  planner.request(7, {3, 3}, {38, 4});  // replaces agent 7's request, keeps its turn
  EXPECT_EQ(planner.queued(), 50u);
  std::vector<PathResult> out;
  int serves = 0;
  while (planner.queued() > 0 && serves < 10000) {
    const std::size_t before = out.size();
    const std::uint64_t itBefore = planner.stats().iterations;
    planner.serve(out);
    // A serve never spends much more than its budget (one search step may finish past it).
    EXPECT_LE(planner.stats().iterations - itBefore, 20u + 1u);
    EXPECT_LE(out.size() - before, 20u);
    ++serves;
  }
  ASSERT_EQ(out.size(), 50u);
  EXPECT_GT(serves, 10);  // the work was spread over many ticks
  for (std::uint32_t a = 0; a < 50; ++a) {
    EXPECT_EQ(out[a].agent, a);
    EXPECT_TRUE(out[a].found);
  }
  EXPECT_EQ(planner.stats().served, 50u);
}

}  // namespace
}  // namespace steerd::nav
