// A level's triangles as the ground: heights, ramps, the walkable outline, and the refusal of
// two floors one over the other.
#include <gtest/gtest.h>

#include <cmath>

#include "nav/navmesh.h"
#include "nav/navmesh_build.h"
#include "nav/path_planner.h"

namespace steerd::nav {
namespace {

struct MeshWriter {
  TriangleMesh m;
  int vertex(float x, float y, float z) {
    m.verts.insert(m.verts.end(), {x, y, z});
    return static_cast<int>(m.verts.size() / 3 - 1);
  }
  void quad(const float (&a)[3], const float (&b)[3], const float (&c)[3], const float (&d)[3],
            bool walk = true) {
    const int i = vertex(a[0], a[1], a[2]), j = vertex(b[0], b[1], b[2]), k = vertex(c[0], c[1], c[2]),
              l = vertex(d[0], d[1], d[2]);
    m.tris.insert(m.tris.end(), {i, j, k, i, k, l});
    m.walkable.insert(m.walkable.end(), {walk, walk});
  }
};

// A 30 x 20 m floor (y up), a 10 x 10 m platform 2 m up at x 20..30, z 10..20, and a ramp to it
// from x 14 to 20 at z 10..14. The platform's sides are cliffs.
NavInput roomWithRamp(float agentRadius = 0.5f) {
  MeshWriter w;
  w.quad({0, 0, 0}, {0, 0, 20}, {20, 0, 20}, {20, 0, 0});
  w.quad({20, 0, 0}, {20, 0, 10}, {30, 0, 10}, {30, 0, 0});
  w.quad({20, 2, 10}, {20, 2, 20}, {30, 2, 20}, {30, 2, 10});
  w.quad({14, 0, 10}, {14, 0, 14}, {20, 2, 14}, {20, 2, 10});
  NavInput in;
  in.boundsMin = {-1, -1};
  in.boundsMax = {31, 21};
  in.mesh = w.m;
  in.settings.agentRadius = agentRadius;
  in.settings.tileSize = 16;
  return in;
}

std::unique_ptr<NavMesh> build(const NavInput& in) {
  const NavBuildResult built = buildNavMeshTiles(in);
  EXPECT_EQ(built.error, "");
  std::string error;
  auto mesh = NavMesh::fromTiles(built.tiles, {}, error);
  EXPECT_EQ(error, "");
  return mesh;
}

TEST(LevelNavMesh, HeightsComeFromTheSurfaceUnderThePoint) {
  const auto mesh = build(roomWithRamp());
  ASSERT_TRUE(mesh);
  EXPECT_TRUE(mesh->sloped());
  const NavPoint floor = mesh->nearest({5, 5}, 0.5f);
  const NavPoint platform = mesh->nearest({25, 15}, 0.5f);
  const NavPoint ramp = mesh->nearest({17, 12}, 0.5f);
  ASSERT_TRUE(floor && platform && ramp);
  EXPECT_NEAR(floor.height, 0.0f, 0.2f);
  EXPECT_NEAR(platform.height, 2.0f, 0.2f);
  EXPECT_NEAR(ramp.height, 1.0f, 0.25f);  // half way up
  // The point itself, not a neighbour at another height (Detour's 3-D nearest would pick the
  // floor beside the platform for a query at height 0).
  EXPECT_NEAR(platform.position.x, 25.0f, 1e-3f);
  EXPECT_NEAR(platform.position.y, 15.0f, 1e-3f);
}

TEST(LevelNavMesh, APathFromTheFloorToThePlatformClimbsTheRamp) {
  const auto mesh = build(roomWithRamp());
  ASSERT_TRUE(mesh);
  EXPECT_EQ(mesh->islandCount(), 1u);
  PathPlanner planner(*mesh);
  const PathResult r = planner.findNow({5, 18}, {27, 17});
  ASSERT_TRUE(r.found);
  EXPECT_FALSE(r.partial);
  // It goes round by the ramp (z 10..14 at its foot, x 14): some corner lies at the ramp.
  bool viaRamp = false;
  for (const auto& c : r.corners)
    viaRamp = viaRamp || (c.x >= 13.0f && c.x <= 21.0f && c.y >= 9.0f && c.y <= 15.0f);
  EXPECT_TRUE(viaRamp);
}

TEST(LevelNavMesh, TooSteepAGroundIsNotWalked) {
  NavInput in = roomWithRamp();
  in.settings.walkableSlopeDeg = 10.0f;  // the ramp rises 18 degrees
  const auto mesh = build(in);
  ASSERT_TRUE(mesh);
  EXPECT_FALSE(mesh->nearest({17, 12}, 0.2f));
  EXPECT_GE(mesh->islandCount(), 2u);  // the platform is cut off
}

TEST(LevelNavMesh, TheOutlineHasTheGroundOnEachEdgesLeft) {
  const auto mesh = build(roomWithRamp(0.0f));
  ASSERT_TRUE(mesh);
  const auto edges = mesh->boundaryEdges();
  ASSERT_GT(edges.size(), 8u);
  int groundOnLeft = 0;
  for (const auto& e : edges) {
    const steer::Vec2 mid = (e.from + e.to) * 0.5f, along = steer::normalizedOr(e.to - e.from, {1, 0});
    const steer::Vec2 left = mid + steer::perp(along) * 0.3f;
    if (mesh->nearest(left, 0.05f)) ++groundOnLeft;
  }
  EXPECT_EQ(groundOnLeft, static_cast<int>(edges.size()));
  // The room's far wall is an edge: some edge runs along x = 0.
  bool west = false;
  for (const auto& e : edges) west = west || (std::abs(e.from.x) < 0.3f && std::abs(e.to.x) < 0.3f);
  EXPECT_TRUE(west);
  EXPECT_EQ(mesh->floorOverlap(), "");
}

TEST(LevelNavMesh, ABridgeOverARoadIsTwoFloorsAndSaysWhere) {
  MeshWriter w;
  w.quad({0, 0, 8}, {0, 0, 12}, {40, 0, 12}, {40, 0, 8});    // the road, along x
  w.quad({18, 4, 0}, {18, 4, 20}, {22, 4, 20}, {22, 4, 0});  // the bridge, 4 m up, along z
  NavInput in;
  in.boundsMin = {-1, -1};
  in.boundsMax = {41, 21};
  in.mesh = w.m;
  in.settings.agentRadius = 0.0f;
  const auto mesh = build(in);
  ASSERT_TRUE(mesh);
  const std::string overlap = mesh->floorOverlap();
  ASSERT_NE(overlap, "");
  EXPECT_NE(overlap.find(" at 4."), std::string::npos) << overlap;  // the bridge's deck, a voxel's top
  EXPECT_NE(overlap.find("(2"), std::string::npos) << overlap;      // near x = 18..22
}

TEST(LevelNavMesh, WallTopsAreIslandsWithNoRoomForABody) {
  MeshWriter w;
  w.quad({0, 0, 0}, {0, 0, 20}, {20, 0, 20}, {20, 0, 0});
  // A closed wall 1 m thick and 3 m high on the floor: to Recast its top is walkable ground, and
  // so is the floor shut inside it. Neither has room for a body 0.5 m in radius.
  const float x0 = 10, x1 = 11, z0 = 2, z1 = 18, h = 3;
  w.quad({x0, h, z0}, {x0, h, z1}, {x1, h, z1}, {x1, h, z0});
  w.quad({x0, 0, z0}, {x0, h, z0}, {x0, h, z1}, {x0, 0, z1}, false);
  w.quad({x1, 0, z0}, {x1, 0, z1}, {x1, h, z1}, {x1, h, z0}, false);
  w.quad({x0, 0, z0}, {x1, 0, z0}, {x1, h, z0}, {x0, h, z0}, false);
  w.quad({x0, 0, z1}, {x0, h, z1}, {x1, h, z1}, {x1, 0, z1}, false);
  NavInput in;
  in.boundsMin = {-1, -1};
  in.boundsMax = {21, 21};
  in.mesh = w.m;
  in.settings.agentRadius = 0.0f;
  const auto whole = build(in);
  in.settings.agentRadius = 0.5f;
  const auto shrunk = build(in);
  ASSERT_TRUE(whole && shrunk);
  const std::vector<bool> keep = whole->islandsWithRoom(*shrunk);
  const std::uint32_t top = whole->islandAt({10.5f, 10}, 3.0f);
  const std::uint32_t floor = whole->islandAt({5, 10}, 0.0f);
  ASSERT_NE(top, 0u);
  ASSERT_NE(floor, 0u);
  EXPECT_NE(top, floor);
  EXPECT_FALSE(keep[top]);
  EXPECT_TRUE(keep[floor]);
  EXPECT_EQ(whole->largestIsland(), floor);
  for (const auto& e : whole->boundaryEdges(keep)) {
    EXPECT_FALSE(e.from.x > 10.1f && e.from.x < 10.9f && e.to.x > 10.1f && e.to.x < 10.9f)
        << "an edge inside the wall was kept";
  }
  // The top and the floor inside lie one over the other, but with no room for a body neither counts.
  EXPECT_NE(whole->floorOverlap(), "");
  EXPECT_EQ(whole->floorOverlap(0.25f, keep), "");
}

// A flat level 5 m up: Detour's search round height 0 would miss it, so it counts as having heights.
TEST(LevelNavMesh, AFlatLevelOffHeightZeroIsFound) {
  MeshWriter w;
  w.quad({0, 5, 0}, {0, 5, 20}, {20, 5, 20}, {20, 5, 0});
  NavInput in;
  in.boundsMin = {-1, -1};
  in.boundsMax = {21, 21};
  in.mesh = w.m;
  const auto mesh = build(in);
  ASSERT_TRUE(mesh);
  EXPECT_TRUE(mesh->sloped());
  const NavPoint on = mesh->nearest({10, 10}, 0.5f);
  ASSERT_TRUE(on);
  EXPECT_NEAR(on.height, 5.0f, 0.2f);
  PathPlanner planner(*mesh);
  EXPECT_TRUE(planner.findNow({3, 3}, {17, 17}).found);
}

// A blocking roof made of many small triangles still clears the ground under it.
TEST(LevelNavMesh, AFinelyTessellatedBlockingRoofClearsTheGroundBeneath) {
  MeshWriter w;
  w.quad({0, 0, 0}, {0, 0, 20}, {20, 0, 20}, {20, 0, 0});
  for (int i = 0; i < 40; ++i) {
    for (int j = 0; j < 40; ++j) {  // 0.1 m squares: 0.005 m^2 triangles, a 4 x 4 m roof 3 m up
      const float x = 8.0f + 0.1f * static_cast<float>(i), z = 8.0f + 0.1f * static_cast<float>(j);
      w.quad({x, 3, z}, {x, 3, z + 0.1f}, {x + 0.1f, 3, z + 0.1f}, {x + 0.1f, 3, z}, false);
    }
  }
  NavInput in;
  in.boundsMin = {-1, -1};
  in.boundsMax = {21, 21};
  in.mesh = w.m;
  in.settings.agentRadius = 0.0f;
  const auto mesh = build(in);
  ASSERT_TRUE(mesh);
  EXPECT_FALSE(mesh->nearest({10, 10}, 0.2f));  // under the roof
  EXPECT_TRUE(mesh->nearest({3, 3}, 0.2f));
}

TEST(LevelNavMesh, AFlatWorldIsNotSloped) {
  NavInput in;
  in.boundsMin = {0, 0};
  in.boundsMax = {20, 20};
  const auto mesh = build(in);
  ASSERT_TRUE(mesh);
  EXPECT_FALSE(mesh->sloped());
  EXPECT_EQ(mesh->nearest({5, 5}, 0.5f).height, 0.0f);
}

TEST(LevelNavMesh, BadMeshesAndSettingsAreRefused) {
  NavInput in = roomWithRamp();
  in.mesh.tris.push_back(999);
  in.mesh.tris.push_back(0);
  in.mesh.tris.push_back(1);
  in.mesh.walkable.push_back(1);
  EXPECT_FALSE(validateNavInput(in).empty());
  in = roomWithRamp();
  in.mesh.verts[4] = std::nanf("");
  EXPECT_FALSE(validateNavInput(in).empty());
  in = roomWithRamp();
  in.mesh.verts[1] = 5000.0f;  // a vertex 5 km up: more height than Recast's spans hold
  EXPECT_FALSE(validateNavInput(in).empty());
  in = roomWithRamp();
  in.settings.walkableSlopeDeg = 95.0f;
  EXPECT_FALSE(validateNavInput(in).empty());
}

TEST(LevelNavMesh, TheCacheKeyFollowsTheTrianglesAndTheirSettings) {
  const NavInput a = roomWithRamp();
  NavInput b = a;
  b.mesh.verts[0] += 0.01f;
  NavInput c = a;
  c.settings.walkableClimb = 0.4f;
  EXPECT_NE(navInputKey(a), navInputKey(b));
  EXPECT_NE(navInputKey(a), navInputKey(c));
  EXPECT_EQ(navInputKey(a), navInputKey(roomWithRamp()));
}

}  // namespace
}  // namespace steerd::nav
