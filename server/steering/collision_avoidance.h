// Collision avoidance between moving bodies: Millington's closest-time-of-approach test
// (STEERING.md section 3; seed 003: "intersection test, not overlap").
//
// Overlap tests react to bodies that are near; this reacts to bodies that WILL be near: for each
// other body, the time at which the two would be closest if both kept their velocities, and how far
// apart they would then be. Only the soonest predicted collision is avoided.
#pragma once

#include <cmath>
#include <limits>
#include <span>

#include "body.h"

namespace steer {

struct CollisionAvoidanceParams {
  // Predicted collisions later than this (seconds) are ignored. [Limit: > 0]
  float timeHorizon = 3.0f;
};

struct ClosestApproach {
  float time = 0.0f;        // seconds from now; <= 0 when the bodies are not closing
  float separation = 0.0f;  // distance between centres at that time
};

// relPos = other.p - p, relVel = other.v - v: t = -dot(relPos, relVel) / |relVel|^2 and separation
// = |relPos + relVel * t|. (Millington's printed form has the sign of t flipped and computes the
// separation as distance - relativeSpeed * t, which is only right for a head-on approach.) With no
// relative motion the distance never changes: time 0, separation = current distance.
inline ClosestApproach closestApproach(Vec2 relPos, Vec2 relVel) {
  const float speedSq = lengthSq(relVel);
  if (speedSq <= kEpsilon * kEpsilon) return {0.0f, length(relPos)};
  const float t = -dot(relPos, relVel) / speedSq;
  return {t, length(relPos + relVel * t)};
}

// Returns a force (like every dynamic behaviour; the world integrates F/m): Millington's
// maxAcceleration is maxForce / mass, so maxAcceleration * mass = maxForce, directed away from
// where the soonest threat will be at closest approach. When that threat already overlaps the
// body, or the two would pass through each other's centres (separation ~0, no sideways direction),
// it steers away from the threat's current position instead. Bodies moving apart (t <= 0), beyond
// the horizon, or passing further than the sum of radii apart give nothing; so do coincident
// bodies and bodies with no relative motion (t == 0): that overlap is separation's job.
inline SteeringOutput collisionAvoidance(const Body& body, std::span<const Kinematic> others,
                                         const CollisionAvoidanceParams& params = {}) {
  bool found = false;
  float soonest = std::numeric_limits<float>::infinity();
  Vec2 threatRelPos;
  Vec2 threatRelVel;
  float threatSeparation = 0.0f;
  float threatRadii = 0.0f;
  for (const Kinematic& other : others) {
    const Vec2 relPos = other.position - body.position;
    const Vec2 relVel = other.velocity - body.velocity;
    const ClosestApproach ca = closestApproach(relPos, relVel);
    if (!(ca.time > 0.0f) || ca.time > params.timeHorizon || ca.time >= soonest) continue;
    const float radii = body.limits.radius + other.radius;
    if (ca.separation > radii) continue;
    found = true;
    soonest = ca.time;
    threatRelPos = relPos;
    threatRelVel = relVel;
    threatSeparation = ca.separation;
    threatRadii = radii;
  }
  if (!found) return {};

  const bool overlapping = lengthSq(threatRelPos) < threatRadii * threatRadii;
  const Vec2 future = threatRelPos + threatRelVel * soonest;
  const Vec2 from = overlapping || threatSeparation <= kEpsilon ? threatRelPos : future;
  // from != 0 here: t > 0 needs dot(relPos, relVel) < 0, so relPos != 0; the fallback is belt and braces.
  return {-normalizedOr(from, body.heading) * body.limits.maxForce, 0.0f};
}

}  // namespace steer
