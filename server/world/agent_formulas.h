// The world's own per-agent formulas, written once for any lane type (steering/lanes.h): the
// scalar update (agent_update.cpp, agent_eval.cpp) calls them with steer::Vec2, the four-lane path
// (quad_update.cpp) with simd::V2, so the two cannot drift apart.
#pragma once

#include <algorithm>

#include "steering/lanes.h"
#include "steering/seek.h"
#include "world/spatial_grid.h"

namespace steerd::agent_internal {

namespace lanes = steer::lanes;

// Alignment from the neighbour sums: the mean heading of the neighbours in view minus the body's
// own (steer::alignment, with the sum made by the scan). Zero with none in view.
template <class V>
V alignmentFromSums(V headingSum, lanes::LaneOf<V> fovCount, V heading) {
  using O = lanes::Ops<V>;
  const lanes::MaskOf<V> seen = fovCount > O::splat(0.0f);
  if (!O::anyOf(seen)) return lanes::zero2<V>();
  return lanes::select(seen, headingSum / fovCount - heading, lanes::zero2<V>());
}

// Cohesion from the neighbour sums: seek the centre p + offsetSum / count (steer::cohesion).
template <class V>
V cohesionFromSums(V position, V velocity, V offsetSum, lanes::LaneOf<V> fovCount, float maxSpeed) {
  using O = lanes::Ops<V>;
  const lanes::MaskOf<V> seen = fovCount > O::splat(0.0f);
  if (!O::anyOf(seen)) return lanes::zero2<V>();
  const V centre = position + offsetSum / fovCount;
  return lanes::select(seen, steer::seekForce(position, velocity, centre, maxSpeed), lanes::zero2<V>());
}

// World bounds policy: steer back. Inside a margin band along the edges the body seeks the
// nearest point of the inner rectangle on top of whatever else it wants (truncated to maxForce);
// a hard clamp (clampToBounds) is the backstop.
template <class V>
V steerBack(const Bounds& bounds, float margin, V position, V velocity, V force, float maxSpeed,
            float maxForce) {
  using O = lanes::Ops<V>;
  const float loX = bounds.minX + margin, hiX = std::max(bounds.minX + margin, bounds.maxX - margin);
  const float loY = bounds.minY + margin, hiY = std::max(bounds.minY + margin, bounds.maxY - margin);
  const V inner{lanes::clampLane(position.x, loX, hiX), lanes::clampLane(position.y, loY, hiY)};
  const lanes::MaskOf<V> outside = O::either(inner.x != position.x, inner.y != position.y);
  if (!O::anyOf(outside)) return force;
  const V back = steer::seekForce(position, velocity, inner, maxSpeed);
  return lanes::select(outside, lanes::truncate(force + back, maxForce), force);
}

// Overlap resolution: half of each overlap, pushed apart along the line of centres (the other
// agent does the other half from its own update), capped so a crowded body does not jump.
template <class V>
V overlapPush(V pushSum, float radius) {
  return lanes::truncate(pushSum, radius * 0.5f);
}

// The hard clamp into the world's bounds: a clamped axis loses its velocity. Returns the lanes
// that were clamped. NaN passes through the clamp and counts as clamped (NaN != NaN); the finite
// fallback after it (finiteOr) deals with it.
template <class V>
lanes::MaskOf<V> clampToBounds(const Bounds& bounds, V& position, V& velocity) {
  using O = lanes::Ops<V>;
  const V clamped{lanes::clampLane(position.x, bounds.minX, bounds.maxX),
                  lanes::clampLane(position.y, bounds.minY, bounds.maxY)};
  const lanes::MaskOf<V> movedX = clamped.x != position.x, movedY = clamped.y != position.y;
  velocity = V{O::select(movedX, O::splat(0.0f), velocity.x), O::select(movedY, O::splat(0.0f), velocity.y)};
  position = clamped;
  return O::either(movedX, movedY);
}

// Heading smoothing by blending: the shown heading moves `blend` of the way from the last one to
// the velocity's, renormalised (1: no smoothing).
template <class V>
V blendHeading(V previous, V next, float blend) {
  using O = lanes::Ops<V>;
  const V blended = previous * O::splat(1.0f - blend) + next * O::splat(blend);
  return lanes::normalizedOr(blended, next, steer::kEpsilon);
}

}  // namespace steerd::agent_internal
