// Kinematic behaviours (Millington; STEERING.md section 2). Unlike every other behaviour here, the
// output is not a force: `linear` is the velocity to move at and `angular` the rotation rate, for
// integrateKinematic() in locomotion.h. Seek/flee/arrive leave `angular` at 0 and expect the body to
// face its velocity (KinematicFacing::kFromVelocity); wander turns by `angular`.
#pragma once

#include "body.h"
#include "random.h"

namespace steer {

// v = normalize(target - p) * maxSpeed. On the target itself there is nowhere to go: zero.
inline SteeringOutput kinematicSeek(const Body& body, Vec2 target) {
  return {normalized(target - body.position) * body.limits.maxSpeed, 0.0f};
}

// v = normalize(p - threat) * maxSpeed. On top of the threat the body keeps going the way it faces,
// as dynamic flee() does.
inline SteeringOutput kinematicFlee(const Body& body, Vec2 threat) {
  return {normalizedOr(body.position - threat, body.heading) * body.limits.maxSpeed, 0.0f};
}

struct KinematicArriveParams {
  // Inside this distance the body counts as arrived and stops. [Limit: >= 0]
  float satisfactionRadius = 0.5f;
  // Seconds in which the body would cover the remaining distance (Millington: 0.25 s).
  // Not > 0 means "as fast as allowed".
  float timeToTarget = 0.25f;
};

// Inside the satisfaction radius: zero velocity (stop). Else v = (target - p) / timeToTarget,
// clamped to maxSpeed, so the body slows down over the last maxSpeed*timeToTarget metres.
inline SteeringOutput kinematicArrive(const Body& body, Vec2 target,
                                      const KinematicArriveParams& params = {}) {
  const Vec2 toTarget = target - body.position;
  const float d = length(toTarget);
  if (d <= params.satisfactionRadius || d <= kEpsilon) return {};
  if (!(params.timeToTarget > 0.0f)) return {toTarget * (body.limits.maxSpeed / d), 0.0f};
  return {truncate(toTarget / params.timeToTarget, body.limits.maxSpeed), 0.0f};
}

// v = maxSpeed * heading; rotation = (rand() - rand()) * maxRotation with rand() uniform in [0, 1):
// a triangular distribution in (-maxRotation, maxRotation) that favours small turns.
// The two draws are taken in named order: in `a() - b()` C++ leaves the call order unspecified,
// which would make the stream depend on the compiler.
inline SteeringOutput kinematicWander(const Body& body, Rng& rng) {
  const float first = rng.uniform();
  const float second = rng.uniform();
  const Vec2 facing = normalizedOr(body.heading, fromAngle(body.orientation));
  return {facing * body.limits.maxSpeed, (first - second) * body.limits.maxRotation};
}

}  // namespace steer
