// Triangles that fill a simple polygon, so the viewer can fill navmesh polygons and polygon
// obstacles of any shape, convex or not, with the one primitive SDL_RenderGeometry draws. The
// cutting itself is steering's (steer::triangulate), the one the server carves with.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "viewer/geometry.h"

namespace steerd::viewer {

using Triangle = std::array<std::uint32_t, 3>;  // indices into the polygon's points

// The triangles of a simple polygon (either winding; at most n - 2 for n points). Points on
// a straight line add no triangle of their own. A polygon that is not simple (self-crossing) gets
// a fan for what cannot be clipped: something is drawn, never an endless loop.
std::vector<Triangle> triangulate(const std::vector<Point>& polygon);

}  // namespace steerd::viewer
