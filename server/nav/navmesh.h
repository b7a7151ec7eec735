// A built navmesh, ready to query: Detour's dtNavMesh plus what steerd asks of it that Detour does
// not answer directly (which polygons connect at all, its outline for drawing, area costs).
//
// Every const method may be called from many threads at once (path searches, which need scratch
// memory, go through a PathPlanner per thread). The only writes are the run-time switches of areas
// (doors, areas switched off or re-costed), made between ticks while nothing queries.
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
  float height = 0.0f;  // m: the ground's height there (0 on a flat world)
  explicit operator bool() const { return poly != 0; }
};

class NavMesh {
 public:
  // `areaCosts[i]` is the cost of area id i + 1 (NavInput::areas). Null and `error` set on failure.
  static std::unique_ptr<NavMesh> fromTiles(const NavMeshTiles& tiles, const std::vector<float>& areaCosts,
                                            std::string& error);

  const dtNavMesh& detour() const { return *mesh_; }
  const dtQueryFilter& filter() const { return filter_; }

  // The tile grid it was built on (`tiles` empty): what buildNavMeshTile rebuilds a tile of.
  const NavMeshTiles& layout() const { return layout_; }
  // Run-time carving, between ticks: tile (tx, ty) replaced by `data` (Detour tile data from
  // buildNavMeshTile; empty: no ground there now). Islands, the areas' polygons and the flags of
  // shut areas follow. Polygon refs into that tile go stale (Detour's salt): a path search under
  // way must start again (PathPlanner::restartActive). False with `error` set when Detour refuses
  // the data; the tile is then left empty.
  bool replaceTile(int tx, int ty, const std::vector<unsigned char>& data, std::string& error);

  // Run-time changes, between ticks. Area ids are NavInput::areas' (1..62). A closed area's
  // polygons are left out of every query from now on: only their flags change, nothing is rebuilt
  // (a door's toggle costs a walk over the area's own polygons). Returns how many polygons it
  // touched; an area id out of range touches none.
  std::size_t setAreaPassable(unsigned char area, bool passable);
  bool areaPassable(unsigned char area) const;
  // Polygons of `area` (how many the mesh has; a door with none does not cut any path).
  std::size_t areaPolygonCount(unsigned char area) const;
  // The cost of crossing `area` per metre (> 0; the caller checks).
  void setAreaCost(unsigned char area, float cost);
  float areaCost(unsigned char area) const;

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

  // Whether the ground has heights (a level's mesh with slopes, ramps, platforms): then nearest()
  // looks for the polygon under a point in (x, y) rather than Detour's 3-D nearest.
  bool sloped() const { return sloped_; }
  // The mesh's outline: polygon edges with nothing on their far side, each oriented so the
  // walkable ground is on its left (steer::makeWall's front).
  struct Edge {
    steer::Vec2 from, to;
  };
  // `keep` (by island id, 0 unused): only those islands' edges; empty: every island's.
  std::vector<Edge> boundaryEdges(const std::vector<bool>& keep = {}) const;
  // Where two polygons lie one above the other (a bridge over a road, a gallery over a hall): a
  // message naming the place and the two heights, or empty when the ground is one floor. At most
  // `minArea` m^2 of overlap is forgiven (voxel slivers at a ramp's foot). `keep` as above.
  std::string floorOverlap(float minArea = 0.25f, const std::vector<bool>& keep = {}) const;
  // Whether `p` lies over polygon `poly` (in x, y); if so `height` is the surface's there. The
  // cheap check for a body still on the polygon it stood on last time.
  bool heightOver(dtPolyRef poly, steer::Vec2 p, float& height) const;
  // The island of the polygon under `p` whose surface is nearest `height` (0: none under it).
  std::uint32_t islandAt(steer::Vec2 p, float height) const;
  // The island with the most walkable area (1 on a connected mesh; 0 when there are none).
  std::uint32_t largestIsland() const { return largestIsland_; }
  // By island id of this mesh: whether `shrunk` (the same ground shrunk by a body's radius) has a
  // polygon on it, i.e. whether a body fits there at all. Wall tops and the insides of thin
  // pillars are walkable to Recast but too narrow for anyone.
  std::vector<bool> islandsWithRoom(const NavMesh& shrunk) const;

 private:
  NavMesh() = default;
  void findIslands();
  std::size_t polyIndex(dtPolyRef ref) const;  // dense index over every tile's polygons
  void indexColumns();                         // sloped meshes: the polygons over each cell of a 2-D grid
  // Every polygon but off-mesh connections, in tile order: each(tile, poly, ref, dense index).
  template <class F>
  void forEachGroundPolygon(F&& each) const;
  NavPoint nearestSloped(steer::Vec2 p, float searchRadius) const;
  template <class F>
  void forPolysNear(steer::Vec2 lo, steer::Vec2 hi, F&& each) const;

  void indexAreas();  // areaPolys_, and shut areas' flags set again

  NavMeshTiles layout_;
  std::unique_ptr<dtNavMesh, FreeNavMesh> mesh_;
  // findNearestPoly is const and touches no scratch memory, so one shared query serves it.
  std::unique_ptr<dtNavMeshQuery, FreeNavMeshQuery> query_;
  dtQueryFilter filter_;
  std::vector<std::vector<dtPolyRef>> areaPolys_;  // by area id: its polygons (and links)
  std::vector<bool> areaClosed_;                   // by area id
  std::vector<std::uint32_t> tileBase_;            // per Detour tile index: first dense polygon index
  std::vector<std::uint32_t> island_;              // per dense polygon index
  std::uint32_t islandCount_ = 0;
  std::size_t polygonCount_ = 0;
  bool sloped_ = false;
  std::uint32_t largestIsland_ = 0;
  // Sloped meshes: a grid over (x, y) listing the polygons whose box overlaps each cell.
  float columnCell_ = 4.0f;
  steer::Vec2 columnOrigin_;
  int columnsX_ = 0, columnsY_ = 0;
  std::vector<std::uint32_t> columnStart_;  // per cell, prefix sums
  std::vector<dtPolyRef> columnPolys_;
};

// World (x, y) <-> Recast (x, up, y); a flat world's ground is at height 0.
inline void toRecast(steer::Vec2 p, float out[3], float height = 0.0f) {
  out[0] = p.x;
  out[1] = height;
  out[2] = p.y;
}
inline steer::Vec2 fromRecast(const float* v) { return {v[0], v[2]}; }

}  // namespace steerd::nav
