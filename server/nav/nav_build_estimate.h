// What a navmesh build will cost, estimated before it starts, so that a small file asking for a
// long build (a 20 km world at 2.8 m cells kept --check-scenario busy for 43 s, inside the cell
// bound) is refused with its figure instead of built.
//
// Recast's work goes with the cells it voxelises: each tile's own and a border round it (the
// agent radius plus 3 cells), so small tiles and a wide agent cost more than the world's cells
// alone say. Each tile also looks at every shape and ground triangle (to clip them to itself), and
// marks or rasterises the cells under each one's bounding box. The coefficients were fitted to
// real builds on the development VM (docs/SCENARIOS.md, "Navigation"); the estimate errs high.
#pragma once

#include "nav/nav_input.h"

namespace steerd::nav {

struct NavBuildEstimate {
  double tiles = 0.0;
  double cells = 0.0;         // voxelised: every tile's cells with its border
  double shapeChecks = 0.0;   // tiles x (shapes + ground triangles + links)
  double coveredCells = 0.0;  // cells under the shapes' and ground triangles' bounding boxes
  double seconds = 0.0;
  double cellSeconds = 0.0, clipSeconds = 0.0;  // the parts for the cells and for the clips
};

// For an input whose bounds and settings validateNavInput accepts (finite, cell_size >= 0.05,
// tile_size >= 8); the tile layout is buildNavMeshTiles'.
NavBuildEstimate estimateNavBuild(const NavInput& input);

// validateNavInput refuses a build estimated longer than this (one build; a level builds twice,
// the second for its unshrunk outline).
inline constexpr double kMaxNavBuildSeconds = 10.0;

}  // namespace steerd::nav
