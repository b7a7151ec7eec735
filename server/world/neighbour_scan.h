// The crowd's hot loop: one pass over the 3x3 grid cells around an agent that gathers everything
// its flocking and overlap resolution need, as running sums. No neighbour list is materialised.
//
// The loop body is branch-free (each test becomes a 0/1 mask that multiplies its contribution) so
// the compiler can vectorise it; with the agents sorted into cell order the three ranges it walks
// are contiguous in every array. Sums run in slot order, which is fixed by the grid's stable sort,
// so the floating-point result does not depend on the thread count.
#pragma once

#include <cstdint>

#include "world/agent_columns.h"
#include "world/spatial_grid.h"

namespace steerd {

struct NeighbourSums {
  // Separation, STEERING.md section 4: sum of (p - q) / |p - q|^2 over all neighbours in radius
  // (all round: a body must keep clear of what is behind it too).
  float sepX = 0, sepY = 0;
  // Alignment and cohesion over neighbours in the field of view.
  float headingX = 0, headingY = 0;
  float offsetX = 0, offsetY = 0;  // sum of (q - p), so the centre is p + offset / count
  float fovCount = 0;
  float count = 0;  // all round, within radius
  // Overlap resolution: sum of (p - q)/|p - q| * overlapDepth/2 over overlapping neighbours,
  // overlapDepth = r_self + skin + r_neighbour - |p - q| (neighbours beyond the query radius are not
  // seen: the grid cell, hence the radius, is at least the widest body's diameter).
  float pushX = 0, pushY = 0;
};

struct NeighbourQuery {
  float radius = 4.0f;
  float cosHalfFov = -1.0f;  // -1: all round
  float selfRadius = 0.5f;   // neighbours' radii come from the radius column
  // Bodies closer than their radii plus this are pushed apart: a skin about one tick's approach
  // deep keeps bodies that walk into each other from overlapping (0: touch, then push).
  float contactSkin = 0.0f;
};

// `s` must be the grid-sorted state the grid was rebuilt into; `slot` the agent.
NeighbourSums scanNeighbours(const AgentColumns& s, const SpatialGrid& grid, std::uint32_t slot,
                             const NeighbourQuery& q);

}  // namespace steerd
