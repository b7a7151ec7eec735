// Builds Detour navmesh tiles from a NavInput with Recast: rasterise the walkable ground, cut out
// what blocks it, shrink the rest by the agent radius, then regions, contours, polygons and
// Detour tile data. Square tiles, so a large world builds (and could later rebuild) piecewise.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nav/nav_input.h"

namespace steerd::nav {

// Built tiles, ready for dtNavMesh::addTile (and for the cache file, as they are).
struct NavMeshTiles {
  float origin[3] = {0, 0, 0};  // Recast axes (x, up, y)
  float tileWidth = 0.0f;       // m
  int tilesX = 0, tilesY = 0;
  int maxPolysPerTile = 0;
  struct Tile {
    int x = 0, y = 0;
    std::vector<unsigned char> data;  // Detour tile data
  };
  std::vector<Tile> tiles;  // tiles with no walkable ground are left out
};

struct NavBuildResult {
  NavMeshTiles tiles;
  std::string error;  // empty on success
  int polygons = 0;
};

// Area id of input.areas[i] is i + 1; everything else walkable is kGroundArea.
inline constexpr unsigned char kGroundArea = 63;  // Recast's RC_WALKABLE_AREA
inline constexpr unsigned short kWalkFlag = 1;    // every polygon and link carries it
// Set at run time on the polygons of a closed door or a switched-off area (NavMesh::setAreaPassable);
// the query filter excludes it, so paths leave them out with no rebuild.
inline constexpr unsigned short kClosedFlag = 2;

NavBuildResult buildNavMeshTiles(const NavInput& input);

// One tile of `layout` (a grid buildNavMeshTiles made) built again from `input` as it is now (run-time
// obstacles added to its blocking polygons and cylinders): what a carved or uncarved obstacle
// costs, its tiles only. False with `error` set on failure; true and empty data when the tile has
// no walkable ground left. `input` must keep the bounds, settings and level it was built with.
bool buildNavMeshTile(const NavInput& input, const NavMeshTiles& layout, int tx, int ty,
                      std::vector<unsigned char>& data, std::string& error);

}  // namespace steerd::nav
