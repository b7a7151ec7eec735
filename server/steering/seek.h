// Seek and flee (STEERING.md section 3): the two behaviours most others are built from.
#pragma once

#include "body.h"

namespace steer {

// desired = normalize(target - p) * maxSpeed; F = desired - v. At the target itself the desired
// velocity is zero, so the force just brakes.
// For any lane type (lanes.h): the world's four-lane path seeks with it too.
template <class V>
V seekForce(V position, V velocity, V target, float maxSpeed) {
  const V desired =
      lanes::normalizedOr(target - position, lanes::zero2<V>(), kEpsilon) * lanes::Ops<V>::splat(maxSpeed);
  return desired - velocity;
}

inline SteeringOutput seek(const Body& body, Vec2 target) {
  return {seekForce(body.position, body.velocity, target, body.limits.maxSpeed), 0.0f};
}

struct FleeParams {
  // Only flee when the threat is closer than this; <= 0 means always flee.
  float panicDistance = 0.0f;
};

// desired = normalize(p - target) * maxSpeed; F = desired - v. Outside the panic distance there is
// no output. On top of the threat there is no way "away": the body keeps going the way it faces.
inline SteeringOutput flee(const Body& body, Vec2 threat, const FleeParams& params = {}) {
  const Vec2 away = body.position - threat;
  if (params.panicDistance > 0.0f && lengthSq(away) > params.panicDistance * params.panicDistance) {
    return {};
  }
  const Vec2 desired = normalizedOr(away, body.heading) * body.limits.maxSpeed;
  return {desired - body.velocity, 0.0f};
}

}  // namespace steer
