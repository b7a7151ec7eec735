// A built navmesh, ready to query: Detour's dtNavMesh plus what steerd asks of it that Detour does
// not answer directly (which polygons connect at all, its outline for drawing, area costs).
//
// Read-only after construction; every const method may be called from many threads at once
// (path searches, which need scratch memory, go through a PathPlanner per thread).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>

#include "nav/nav_input.h"
#include "nav/navmesh_build.h"
#include "steering/random.h"

namespace steerd::nav {

struct FreeNavMesh {
  void operator()(dtNavMesh* p) const { dtFreeNavMesh(p); }
};
struct FreeNavMeshQuery {
  void operator()(dtNavMeshQuery* p) const { dtFreeNavMeshQuery(p); }
};

struct NavPoint {
  dtPolyRef poly = 0;  // 0: nothing found
  steer::Vec2 position;
  explicit operator bool() const { return poly != 0; }
};

class NavMesh {
 public:
  // `areaCosts[i]` is the cost of area id i + 1 (NavInput::areas). Null and `error` set on failure.
  static std::unique_ptr<NavMesh> fromTiles(const NavMeshTiles& tiles, const std::vector<float>& areaCosts,
                                            std::string& error);

  const dtNavMesh& detour() const { return *mesh_; }
  const dtQueryFilter& filter() const { return filter_; }

  // The point on the mesh nearest to `p`, at most `searchRadius` m from it along each axis (none
  // when the nearest ground is farther, e.g. for a point inside a box).
  NavPoint nearest(steer::Vec2 p, float searchRadius = 2.0f) const;
  // A point on the mesh reachable from `from` (same island), drawn uniformly in the box
  // [lo, hi] and moved onto the mesh: up to `attempts` draws; nothing when all miss.
  NavPoint randomReachablePoint(steer::Vec2 from, steer::Vec2 lo, steer::Vec2 hi, steer::Rng& rng,
                                int attempts = 16) const;
  // Connected pieces of the mesh (links and off-mesh connections count, either direction):
  // two polygons with the same island id can reach each other. 0 for an invalid ref.
  std::uint32_t islandOf(dtPolyRef poly) const;
  std::uint32_t islandCount() const { return islandCount_; }
  std::size_t polygonCount() const { return polygonCount_; }

  // Every walkable polygon in world (x, y), for drawing.
  std::vector<Polygon> polygons() const;

 private:
  NavMesh() = default;
  void findIslands();
  std::size_t polyIndex(dtPolyRef ref) const;  // dense index over every tile's polygons

  std::unique_ptr<dtNavMesh, FreeNavMesh> mesh_;
  // findNearestPoly is const and touches no scratch memory, so one shared query serves it.
  std::unique_ptr<dtNavMeshQuery, FreeNavMeshQuery> query_;
  dtQueryFilter filter_;
  std::vector<std::uint32_t> tileBase_;  // per Detour tile index: first dense polygon index
  std::vector<std::uint32_t> island_;    // per dense polygon index
  std::uint32_t islandCount_ = 0;
  std::size_t polygonCount_ = 0;
};

// World (x, y) <-> Recast (x, up, y); the ground is at height 0.
inline void toRecast(steer::Vec2 p, float out[3]) {
  out[0] = p.x;
  out[1] = 0.0f;
  out[2] = p.y;
}
inline steer::Vec2 fromRecast(const float* v) { return {v[0], v[2]}; }

}  // namespace steerd::nav
