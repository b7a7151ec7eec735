// Align, face and look-where-you're-going (Millington; STEERING.md section 3): turning the
// orientation towards a target orientation, decoupled from the direction of travel.
#pragma once

#include <algorithm>
#include <cmath>

#include "body.h"

namespace steer {

struct AlignParams {
  // Closer than this (radians) counts as aligned: no output. [Limit: >= 0]
  float targetRadius = 0.02f;
  // Inside this (radians) the target rotation rate scales down linearly with the remaining angle.
  float slowRadius = 0.5f;
  // Seconds over which to reach the target rotation rate (Millington: 0.1). [Limit: > 0]
  float timeToTarget = 0.1f;
};

// angular is an angular ACCELERATION (rad/s^2), clamped to maxAngularAcceleration; there is no
// moment of inertia in BodyLimits, so unlike the linear outputs it is not turned into a torque.
// rotation = wrapAngle(target - orientation) takes the short way round; a target exactly opposite
// (+-pi) wraps to +pi and turns left. Inside targetRadius the output is zero, as Millington returns
// no steering: the body keeps its current rotation, and a caller that must stop spinning adds a
// rotation damper or uses a targetRadius that the slow radius has already braked into.
inline SteeringOutput align(const Body& body, float targetOrientation, const AlignParams& params = {}) {
  const float rotation = wrapAngle(targetOrientation - body.orientation);
  const float size = std::abs(rotation);
  if (size < params.targetRadius || size == 0.0f) return {};
  const float maxRotation = std::max(body.limits.maxRotation, 0.0f);
  const float targetRate = size > params.slowRadius ? maxRotation : maxRotation * size / params.slowRadius;
  const float targetRotation = rotation > 0.0f ? targetRate : -targetRate;
  const float maxAngular = std::max(body.limits.maxAngularAcceleration, 0.0f);
  const float wanted = targetRotation - body.rotation;
  // Compared before dividing, so a tiny timeToTarget cannot overflow.
  if (!(params.timeToTarget > 0.0f) || std::abs(wanted) >= maxAngular * params.timeToTarget) {
    return {Vec2{}, wanted > 0.0f ? maxAngular : (wanted < 0.0f ? -maxAngular : 0.0f)};
  }
  return {Vec2{}, wanted / params.timeToTarget};
}

// Align to the direction of the target point. On top of the target there is no direction: zero.
inline SteeringOutput face(const Body& body, Vec2 target, const AlignParams& params = {}) {
  const Vec2 direction = target - body.position;
  if (lengthSq(direction) <= kEpsilon * kEpsilon) return {};
  return align(body, toAngle(direction), params);
}

// Align to the direction of travel. Standing still there is no direction: zero.
inline SteeringOutput lookWhereYouAreGoing(const Body& body, const AlignParams& params = {}) {
  if (lengthSq(body.velocity) <= kEpsilon * kEpsilon) return {};
  return align(body, toAngle(body.velocity), params);
}

}  // namespace steer
