// Wander (STEERING.md section 3): a random walk that still looks purposeful. Reynolds' form keeps a
// target on a circle projected in front of the body and nudges it a little each tick, so the
// steering direction drifts instead of jumping. Seed 004's form (a fresh random point on the circle
// every call) is kept as wanderJittery() to show the difference.
#pragma once

#include "body.h"
#include "random.h"

namespace steer {

struct WanderParams {
  // Radius R and forward distance D of the wander circle, in the body's local space (Buckland's
  // WanderRad 1.2 and WanderDist 2.0). The ratio R / D bounds how hard the body may turn.
  float radius = 1.2f;
  float distance = 2.0f;
  // Largest displacement of the target per second, per axis. Buckland's 80/s assumes a 60 Hz
  // update and a heavy, slow vehicle; at a 20 Hz server tick that would displace the target by
  // more than the radius each tick, which is seed 004's jitter again. 10/s = 0.5 per 20 Hz tick.
  float jitterPerSecond = 10.0f;
};

struct WanderResult {
  SteeringOutput steering;
  Vec2 target;  // the new local wander target: the agent stores it and passes it back next tick
};

// A starting target: a uniformly random point on the wander circle (local space).
inline Vec2 initialWanderTarget(Rng& rng, float radius) {
  return fromAngle(rng.uniform() * 2.0f * kPi) * radius;
}

// Reynolds/Buckland: target += (clamped() * j, clamped() * j) with j = jitterPerSecond * dt;
// target = normalize(target) * R; world = toWorld(target + (D, 0), p, h); F = world - p.
// Seed 000 draws random(0, JITTER), which only ever pushes the target up and to the right: the
// walk drifts into a circle. The draw must be symmetric, as Buckland's RandomClamped is.
// Two draws per call, x then y (named, because the order of evaluation inside one expression is
// unspecified). A zero or non-finite stored target restarts from +x on the circle.
// The target's largest step per axis this tick.
inline float wanderJitter(float dt, const WanderParams& params) {
  return (dt > 0.0f && isFinite(dt)) ? params.jitterPerSecond * dt : 0.0f;
}

// The two halves of wander for any lane type (lanes.h), so the world's four-lane path runs the
// same formula: the target moved by the draws (jx, jy) and put back on the circle, ...
template <class V>
V wanderNextTarget(V target, lanes::LaneOf<V> jx, lanes::LaneOf<V> jy, float jitter,
                   const WanderParams& params) {
  using O = lanes::Ops<V>;
  V next = lanes::finiteOrZero(target);
  next = next + V{jx * O::splat(jitter), jy * O::splat(jitter)};
  next = lanes::normalizedOr(next, lanes::splat2<V>(1.0f, 0.0f), kEpsilon) * O::splat(params.radius);
  return lanes::finiteOrZero(next);
}
// ... and the force towards it, D ahead of the body along its heading.
template <class V>
V wanderForce(V position, V heading, V target, const WanderParams& params) {
  const V facing = lanes::normalizedOr(heading, lanes::splat2<V>(1.0f, 0.0f), kEpsilon);
  const V world = lanes::toWorld(target + lanes::splat2<V>(params.distance, 0.0f), position, facing);
  return world - position;
}

inline WanderResult wander(const Body& body, Vec2 target, float dt, Rng& rng,
                           const WanderParams& params = {}) {
  const float jx = rng.clamped();
  const float jy = rng.clamped();
  const Vec2 next = wanderNextTarget(target, jx, jy, wanderJitter(dt, params), params);
  return {{wanderForce(body.position, body.heading, next, params), 0.0f}, next};
}

// Seed 004: a fresh random point on the circle every call (x, y in [-1, 1), normalised, * R, + D
// ahead). Same output form as wander() (F = world - p) so the two differ only in how the target
// moves. Successive directions are unrelated: the body wobbles around a straight line.
inline SteeringOutput wanderJittery(const Body& body, Rng& rng, const WanderParams& params = {}) {
  const float rx = rng.clamped();
  const float ry = rng.clamped();
  const Vec2 local =
      normalizedOr(Vec2{rx, ry}, Vec2{1.0f, 0.0f}) * params.radius + Vec2{params.distance, 0.0f};
  const Vec2 heading = normalizedOr(body.heading, Vec2{1.0f, 0.0f});
  const Vec2 world = toWorld(local, body.position, heading);
  return {world - body.position, 0.0f};
}

}  // namespace steer
