// Velocity matching (Millington; STEERING.md section 3): accelerate towards a target velocity.
#pragma once

#include <algorithm>

#include "body.h"

namespace steer {

struct VelocityMatchParams {
  // Seconds over which to close the velocity gap (Millington: 0.1). [Limit: > 0]
  float timeToTarget = 0.1f;
};

// Millington's acceleration (target.v - v) / timeToTarget, clamped to maxAcceleration = maxForce /
// mass, returned as a FORCE (acceleration * mass) like every dynamic behaviour, because the world
// integrates F / m. Clamping the force to maxForce is the same clamp and needs no division by mass.
// timeToTarget <= 0 means "as fast as allowed": the full maxForce towards the target velocity.
inline SteeringOutput velocityMatch(const Body& body, Vec2 targetVelocity,
                                    const VelocityMatchParams& params = {}) {
  const Vec2 gap = targetVelocity - body.velocity;
  const float maxForce = std::max(body.limits.maxForce, 0.0f);
  const float mass = std::max(body.limits.mass, 0.0f);
  // Compared before dividing, so a tiny timeToTarget cannot overflow to inf (and inf * 0 to NaN).
  if (!(params.timeToTarget > 0.0f) || length(gap) * mass >= maxForce * params.timeToTarget) {
    return {normalized(gap) * maxForce, 0.0f};
  }
  return {gap * (mass / params.timeToTarget), 0.0f};
}

inline SteeringOutput velocityMatch(const Body& body, const Kinematic& target,
                                    const VelocityMatchParams& params = {}) {
  return velocityMatch(body, target.velocity, params);
}

}  // namespace steer
