// Arrive (STEERING.md section 3): seek that slows down to stop on the target. Two forms from the
// seeds: Buckland's (speed proportional to distance, one tuning number) and Millington's (target and
// slow radii, acceleration towards the desired velocity over timeToTarget).
#pragma once

#include <cmath>

#include "body.h"

namespace steer {

// Buckland's Deceleration enum: seconds-ish of "distance / speed" at which the body starts braking.
// Buckland additionally multiplies by a DecelerationTweaker (0.3); STEERING.md's table has no
// tweaker, so neither do we: pass a smaller value for a later, harder stop.
inline constexpr float kDecelerationSlow = 3.0f;
inline constexpr float kDecelerationNormal = 2.0f;
inline constexpr float kDecelerationFast = 1.0f;

struct ArriveParams {
  // DECELERATION: desired speed = distance / deceleration, capped at maxSpeed. Not > 0 means no
  // slowing down at all (the limit as deceleration -> 0).
  float deceleration = kDecelerationNormal;
};

// Buckland: d = |target - p|; speed = min(d / DECELERATION, maxSpeed);
// desired = (target - p) * speed / d; F = desired - v.
// At d == 0 Buckland returns a zero force; we return F = -v instead (desired velocity 0), which is
// the continuous limit of the formula and what seek() does at its target, so a body that reaches the
// target with some speed brakes rather than coasting past. With v = 0 both give 0 (the table's 0).
inline SteeringOutput arrive(const Body& body, Vec2 target, const ArriveParams& params = {}) {
  const Vec2 toTarget = target - body.position;
  const float d = length(toTarget);
  if (d <= kEpsilon) return {-body.velocity, 0.0f};
  const float maxSpeed = body.limits.maxSpeed > 0.0f ? body.limits.maxSpeed : 0.0f;
  const float speed = params.deceleration > 0.0f ? std::fmin(d / params.deceleration, maxSpeed) : maxSpeed;
  return {toTarget * (speed / d) - body.velocity, 0.0f};
}

struct MillingtonArriveParams {
  // Inside this distance the desired speed is 0: the body brakes to a stop. [Limit: >= 0]
  float targetRadius = 0.1f;
  // Inside this distance the desired speed is maxSpeed * d / slowRadius. [Limit: > targetRadius]
  float slowRadius = 2.0f;
  // Seconds over which to reach the desired velocity (Millington: 0.1 s).
  float timeToTarget = 0.1f;
};

// Millington: desired speed = 0 inside targetRadius, maxSpeed * d / slowRadius inside slowRadius,
// maxSpeed outside; acceleration = (desired velocity - v) / timeToTarget, clamped to
// maxAcceleration = maxForce / mass. Returned as a force (acceleration * mass) so it feeds
// integrateDynamic() like every other dynamic behaviour; the clamp is then simply |F| <= maxForce.
// Seed 004's variant (speed = maxSpeed * distance / slowRadius, no stop radius) is targetRadius = 0.
// Millington returns "no steering" inside targetRadius, letting the body drift; STEERING.md says
// stop, so we brake instead.
// A body with mass not > 0 cannot be pushed (as in integrateDynamic): zero force.
inline SteeringOutput arriveMillington(const Body& body, Vec2 target,
                                       const MillingtonArriveParams& params = {}) {
  const BodyLimits& lim = body.limits;
  if (!(lim.mass > 0.0f) || !isFinite(lim.mass)) return {};
  const Vec2 toTarget = target - body.position;
  const float d = length(toTarget);
  const float maxSpeed = lim.maxSpeed > 0.0f ? lim.maxSpeed : 0.0f;

  float speed = maxSpeed;
  if (d <= params.targetRadius || d <= kEpsilon) {
    speed = 0.0f;
  } else if (d < params.slowRadius) {
    speed = maxSpeed * d / params.slowRadius;
  }
  const Vec2 desired = d > kEpsilon ? toTarget * (speed / d) : Vec2{};
  const float timeToTarget = params.timeToTarget > kEpsilon ? params.timeToTarget : kEpsilon;
  const Vec2 accel = (desired - body.velocity) / timeToTarget;
  return {truncate(accel * lim.mass, lim.maxForce), 0.0f};
}

}  // namespace steer
