// What a navmesh is built from: the walkable ground and what blocks it, in world metres (x, y on
// the ground plane), plus the build settings. Pure data, hashed for the navmesh cache.
//
// Recast works in 3-D with y up; server/nav maps world (x, y) to Recast (x, 0, y) and back, so
// nothing outside this directory sees Recast's axes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "steering/vec2.h"

namespace steerd::nav {

using Polygon = std::vector<steer::Vec2>;  // convex, either winding

struct Cylinder {
  steer::Vec2 center;
  float radius = 0.0f;
};

// A polygon whose traversal costs `cost` times its length (road 0.5, mud 3). Area ids are given
// in declaration order from 1; the ground outside every area is Recast's walkable area (cost 1).
struct CostArea {
  std::string name;
  Polygon polygon;
  float cost = 1.0f;
};

// A connection the ground does not make: a jump over a gap, a drop from a ledge, a door in a
// wall. Paths may use it; bodies move straight across it.
struct OffMeshLink {
  steer::Vec2 from, to;
  float radius = 0.5f;  // how near `from` (and `to`, when bidirectional) a path may join it, m
  bool bidirectional = true;
  std::uint8_t area = 0;  // its navmesh area (0: the ground's); a link door's own, to open and shut
};

struct NavBuildSettings {
  float cellSize = 0.25f;    // m: voxel size on the ground; smaller follows shapes closer, builds slower
  float agentRadius = 0.5f;  // m: the ground is shrunk by this much from every blocker
  float agentHeight = 2.0f;  // m
  float tileSize =
      64.0f;  // m: the mesh is built in square tiles this wide (one tile when larger than the world)
  float maxEdgeLength = 12.0f;          // m: longer polygon edges are split
  float maxSimplificationError = 1.3f;  // voxels: how far a contour may stray from the voxel edge
  float walkableClimb = 0.3f;           // m: the highest step a body walks up (kerbs, stairs)
  float walkableSlopeDeg = 45.0f;       // the steepest ground that is walked on (a level's ramps, hills)
};

// A game's level as triangles, in Recast's axes (x, up, z: the world's (x, y) is (x, z)), from
// server/level. When present it is the ground instead of `walkable`: Recast walks it where the
// slope and the climb allow, and triangles not marked walkable only block.
struct TriangleMesh {
  std::vector<float> verts;             // 3 per vertex
  std::vector<int> tris;                // 3 per triangle
  std::vector<unsigned char> walkable;  // per triangle: 1 walked on where the slope allows, 0 blocks
  bool empty() const { return tris.empty(); }
};

struct NavInput {
  steer::Vec2 boundsMin, boundsMax;
  // Walkable ground; empty: the whole bounds. Overlapping polygons are fine.
  std::vector<Polygon> walkable;
  std::vector<Polygon> blocking;  // boxes, buildings: convex
  std::vector<Cylinder> cylinders;
  // Wall segments block a strip `wallThickness` wide along them (at least a cell wide).
  struct Segment {
    steer::Vec2 from, to;
  };
  std::vector<Segment> walls;
  float wallThickness = 0.2f;
  std::vector<CostArea> areas;  // at most 62
  std::vector<OffMeshLink> links;
  TriangleMesh mesh;
  NavBuildSettings settings;
};

// A 64-bit key over every field that changes the built mesh (and the format of this code), for
// the cache file's name.
std::uint64_t navInputKey(const NavInput& input);

// Problems that would make the build fail or lie: non-convex or degenerate polygons, bad
// settings, too many areas. Each message names the item ("blocking[3]: not convex").
std::vector<std::string> validateNavInput(const NavInput& input);
// The build's bounds (validateNavInput refuses more): cells of the world's rectangle at cell_size
// (a 2 km square at 0.3 m is 44 M) and tiles.
inline constexpr double kMaxNavCells = 50'000'000.0;
inline constexpr double kMaxNavTiles = 16384.0;
inline constexpr float kMaxLevelHeight = 700.0f;  // m from a level's lowest point to its highest

}  // namespace steerd::nav
