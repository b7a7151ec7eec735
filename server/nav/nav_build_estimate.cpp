#include "nav/nav_build_estimate.h"

#include <algorithm>
#include <cmath>

namespace steerd::nav {

namespace {

// Fitted to buildNavMeshTiles on the development VM (2 vCPUs, one thread), rounded up.
constexpr double kSecondsPerCell = 0.27e-6;      // voxelise, erode, regions, contours, polygons
constexpr double kSecondsPerTile = 10e-6;        // a heightfield and a Detour tile each
constexpr double kSecondsPerShapeCheck = 20e-9;  // one shape clipped against one tile
constexpr double kSecondsPerCoveredCell = 5e-9;  // one cell marked (a blocker, an area) or rasterised

// The cells under the box [lo, hi] within the world's bounds.
double cellsUnder(const NavInput& in, double loX, double loY, double hiX, double hiY) {
  const double w = std::min<double>(hiX, in.boundsMax.x) - std::max<double>(loX, in.boundsMin.x);
  const double h = std::min<double>(hiY, in.boundsMax.y) - std::max<double>(loY, in.boundsMin.y);
  if (!(w > 0.0) || !(h > 0.0)) return 0.0;
  const double cs = in.settings.cellSize;
  return std::ceil(w / cs) * std::ceil(h / cs);
}

double cellsUnder(const NavInput& in, const Polygon& p) {
  if (p.empty()) return 0.0;
  double loX = p[0].x, loY = p[0].y, hiX = p[0].x, hiY = p[0].y;
  for (const auto& v : p) {
    loX = std::min<double>(loX, v.x), hiX = std::max<double>(hiX, v.x);
    loY = std::min<double>(loY, v.y), hiY = std::max<double>(hiY, v.y);
  }
  return cellsUnder(in, loX, loY, hiX, hiY);
}

}  // namespace

NavBuildEstimate estimateNavBuild(const NavInput& in) {
  NavBuildEstimate e;
  const NavBuildSettings& s = in.settings;
  const double w = static_cast<double>(in.boundsMax.x) - in.boundsMin.x;
  const double h = static_cast<double>(in.boundsMax.y) - in.boundsMin.y;
  const double cs = s.cellSize;
  // As buildNavMeshTiles lays them out: tiles whole cells wide, one when the world is smaller.
  const double tileCells = std::ceil(std::min<double>(s.tileSize, std::max(w, h)) / cs);
  const double tileWidth = tileCells * cs;
  e.tiles = std::max(1.0, std::ceil(w / tileWidth)) * std::max(1.0, std::ceil(h / tileWidth));
  const double border = std::ceil(s.agentRadius / cs) + 3.0;
  e.cells = e.tiles * (tileCells + 2.0 * border) * (tileCells + 2.0 * border);

  // Everything each tile clips against itself, and the cells each one covers.
  double shapes = 0.0;
  const auto polygon = [&](const Polygon& p, double triangles) {
    shapes += triangles;
    e.coveredCells += cellsUnder(in, p);
  };
  if (in.mesh.empty()) {
    if (in.walkable.empty())
      shapes += 2.0,
          e.coveredCells += cellsUnder(in, in.boundsMin.x, in.boundsMin.y, in.boundsMax.x, in.boundsMax.y);
    for (const Polygon& p : in.walkable)
      polygon(p, std::max<double>(1.0, static_cast<double>(p.size()) - 2.0));
  } else {
    // A level's triangles (x, up, z): rasterised where walkable, and again as roofs where not.
    const auto& v = in.mesh.verts;
    for (std::size_t t = 0; t + 2 < in.mesh.tris.size(); t += 3) {
      double loX = 0, loY = 0, hiX = 0, hiY = 0;
      for (std::size_t k = 0; k < 3; ++k) {
        const auto i = static_cast<std::size_t>(in.mesh.tris[t + k]) * 3;
        if (i + 2 >= v.size()) continue;  // validateNavInput reports it
        const double x = v[i], y = v[i + 2];
        loX = k == 0 ? x : std::min(loX, x), hiX = k == 0 ? x : std::max(hiX, x);
        loY = k == 0 ? y : std::min(loY, y), hiY = k == 0 ? y : std::max(hiY, y);
      }
      const bool roof = t / 3 < in.mesh.walkable.size() && in.mesh.walkable[t / 3] == 0;
      shapes += roof ? 2.0 : 1.0;
      e.coveredCells += (roof ? 2.0 : 1.0) * cellsUnder(in, loX, loY, hiX, hiY);
    }
  }
  for (const Polygon& p : in.blocking) polygon(p, 1.0);
  for (const CostArea& a : in.areas) polygon(a.polygon, 1.0);
  for (const Cylinder& c : in.cylinders) {
    shapes += 1.0;
    e.coveredCells += cellsUnder(in, c.center.x - c.radius, c.center.y - c.radius, c.center.x + c.radius,
                                 c.center.y + c.radius);
  }
  for (const NavInput::Segment& s : in.walls) {
    shapes += 1.0;
    const double pad = in.wallThickness;
    e.coveredCells += cellsUnder(in, std::min(s.from.x, s.to.x) - pad, std::min(s.from.y, s.to.y) - pad,
                                 std::max(s.from.x, s.to.x) + pad, std::max(s.from.y, s.to.y) + pad);
  }
  shapes += static_cast<double>(in.links.size());
  e.shapeChecks = e.tiles * shapes;

  e.cellSeconds = kSecondsPerCell * e.cells;
  e.clipSeconds = kSecondsPerShapeCheck * e.shapeChecks;
  e.seconds =
      e.cellSeconds + e.clipSeconds + kSecondsPerTile * e.tiles + kSecondsPerCoveredCell * e.coveredCells;
  return e;
}

}  // namespace steerd::nav
