// Who counts as a neighbour for the group behaviours (STEERING.md section 4; seed 000 slide 51).
//
// The world does the gathering with its spatial grid; this is the per-pair test it applies to
// each candidate the grid returns, so flocking itself only ever sees an already-filtered span.
#pragma once

#include <cmath>

#include "body.h"

namespace steer {

// cos(fov / 2) for a field of view given in degrees, the form inNeighbourhood() takes so the hot
// test is one dot product and no trig. Degrees are clamped to [0, 360]; 360 (or more) gives
// exactly -1, so a neighbour straight behind is still inside (std::cos(kPi) in float is not
// guaranteed to be exactly -1, and dot(h, -h) == -1 must pass). A NaN fov counts as 360: the
// safe reading of a missing setting is "no restriction".
inline float cosHalfFovFromDegrees(float fovDegrees) {
  if (!(fovDegrees < 360.0f)) return -1.0f;
  if (!(fovDegrees > 0.0f)) return 1.0f;
  return std::cos(fovDegrees * 0.5f * (kPi / 180.0f));
}

// True when `other` is within `radius` of `self` (inclusive, as seed 004's `distance <=
// neighbourDistance`) and inside the field of view in front: dot(heading, normalize(other.p - p))
// >= cosHalfFov. cosHalfFov = -1 (360 degrees) accepts every direction.
//
// A body exactly on top of `self` (zero distance) IS a neighbour: it is the most crowded case
// there is, and separation must still see it. Its direction is undefined, so the field-of-view
// test is skipped for it rather than guessed. (Flocking skips coincident neighbours where it
// needs a direction; alignment and cohesion use them as usual.) Because a Kinematic carries no
// identity, a body cannot be told apart from a copy of itself here: the caller leaves itself
// out by id when it gathers candidates.
//
// A negative or NaN radius, or a non-finite position, admits nothing.
inline bool inNeighbourhood(const Body& self, const Kinematic& other, float radius, float cosHalfFov) {
  if (!(radius >= 0.0f)) return false;
  const Vec2 toOther = other.position - self.position;
  const float dSq = lengthSq(toOther);
  if (!(dSq <= radius * radius)) return false;
  if (dSq == 0.0f || cosHalfFov <= -1.0f) return true;
  // dot(h, toOther / d) >= c, rearranged so no division happens: dot(h, toOther) >= c * d.
  return dot(self.heading, toOther) >= cosHalfFov * std::sqrt(dSq);
}

}  // namespace steer
