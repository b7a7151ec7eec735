// Interpose (STEERING.md section 3): get between two bodies (a bodyguard taking the bullet, a player
// cutting out a pass), and its opposite (seed 003): keep out of the line between them.
#pragma once

#include <cmath>

#include "arrive.h"
#include "seek.h"

namespace steer {

struct InterposeParams {
  // Buckland arrives at the predicted midpoint with `fast`: getting there in time matters more
  // than a gentle stop.
  float deceleration = kDecelerationFast;
};

// T = |midpoint(a.p, b.p) - p| / maxSpeed: how long we need to reach the current midpoint. Then
// a' = a.p + a.v*T, b' = b.p + b.v*T, and the target is (a' + b') / 2.
// Slip in seed 000: it divides |a.p + b.p| by 2*maxSpeed, the distance of the midpoint from the
// world origin, so T depends on where the origin is. With maxSpeed not > 0, T = 0.
inline Vec2 interposeTarget(const Body& body, const Kinematic& a, const Kinematic& b) {
  const Vec2 midpoint = (a.position + b.position) * 0.5f;
  const float maxSpeed = body.limits.maxSpeed;
  const float t = maxSpeed > kEpsilon ? distance(midpoint, body.position) / maxSpeed : 0.0f;
  const Vec2 predictedA = a.position + a.velocity * t;
  const Vec2 predictedB = b.position + b.velocity * t;
  return (predictedA + predictedB) * 0.5f;
}

inline SteeringOutput interpose(const Body& body, const Kinematic& a, const Kinematic& b,
                                const InterposeParams& params = {}) {
  return arrive(body, interposeTarget(body, a, b), {.deceleration = params.deceleration});
}

// Opposite of interpose (seed 003): flee the same predicted midpoint, e.g. to stay out of a human
// player's line of view. `params.panicDistance` limits it to when we are close to the line's middle.
inline SteeringOutput avoidInterpose(const Body& body, const Kinematic& a, const Kinematic& b,
                                     const FleeParams& params = {}) {
  return flee(body, interposeTarget(body, a, b), params);
}

}  // namespace steer
