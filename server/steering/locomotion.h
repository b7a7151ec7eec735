// Locomotion (STEERING.md section 1): turns a steering request into the body's next state.
//
// Two models, as in the seeds: the dynamic point mass of Reynolds/Buckland (a force, integrated
// through mass, maxForce, maxSpeed and maxTurnRate) and Millington's kinematic model (a velocity and
// rotation set directly). Both are pure: state[n] in, state[n+1] out, so the world can integrate
// every agent in parallel and get the same bits for any thread count.
//
// Both are total: for finite bodies they never produce NaN or infinity, whatever the request. A
// non-finite request is treated as "no request", because one bad behaviour must not poison a body
// that is then hashed, sent to clients and used by every neighbour next tick.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

#include "body.h"

namespace steer {

namespace locomotion_detail {

inline Vec2 finiteOrZero(Vec2 v) { return lanes::finiteOrZero(v); }
inline float finiteOrZero(float f) { return isFinite(f) ? f : 0.0f; }

// Turns `wanted` so that its direction is at most the limit's angle away from `previousDir` (unit),
// keeping its length. Tested with cosines, so the common case (within the limit) costs no trig;
// past the limit the result is previousDir rotated by exactly the allowed angle. An exact reversal
// has no preferred side: it turns left (counter-clockwise), so the result is deterministic.
template <class V>
V limitTurn(V previousDir, V wanted, float cosMax, float sinMax) {
  using O = lanes::Ops<V>;
  const lanes::LaneOf<V> speed = lanes::length(wanted);
  const V dir = wanted / speed;
  const lanes::MaskOf<V> keep =
      O::either(speed <= O::splat(kEpsilon), lanes::dot(previousDir, dir) >= O::splat(cosMax));
  if (O::allOf(keep)) return wanted;
  const lanes::LaneOf<V> cross = previousDir.x * dir.y - previousDir.y * dir.x;
  const lanes::LaneOf<V> side = O::select(cross < O::splat(0.0f), O::splat(-sinMax), O::splat(sinMax));
  return lanes::select(keep, wanted, lanes::rotate(previousDir, V{O::splat(cosMax), side}) * speed);
}

}  // namespace locomotion_detail

// Below this fraction of maxSpeed the turn limit does not apply (see integrateDynamicStep).
inline constexpr float kPivotFraction = 0.05f;

// Dynamic point mass (Reynolds/Buckland), one step of `dt` seconds under steering force `force`:
//   F = truncate(F, maxForce); a = F/m; v = truncate(v + a*dt, maxSpeed);
//   direction of v turns at most maxTurnRate*dt; p += v*dt;
//   h = normalize(v) if |v| > 1e-6 else unchanged; orientation = toAngle(h).
// Seed 000's update truncates a*dt instead of v, and its truncate never shortens (the two slips
// STEERING.md marks): with either, speed grows without bound under a constant force.
// Guards: a body whose mass is not > 0 (or not finite) cannot be pushed: the force is ignored and it
// coasts, rather than dividing by zero. A non-finite force or dt is treated as zero. A negative or NaN
// maxTurnRate means "no turn limit"; 0 means a moving body's direction of travel never changes.
// The turn limit applies only when the body was moving faster than its pivot speed (kPivotFraction
// of maxSpeed): from rest there is no direction to turn from, and a body creeping slower than
// that turns on the spot like one at rest. Without that, a body pressed against an obstacle with its
// goal behind it was held for good: each step the limit bent its new velocity back to within the
// turn of the old one, the contact took away the part into the obstacle, and what was left (a few
// cm/s, along the old direction) was the next step's old direction (crowd-crossing's walkers stuck
// beside cylinders). Above the pivot speed the limit keeps the new speed and only clamps the
// direction, so a force opposite to the velocity makes the body swing round in an arc (as a vehicle
// must) instead of reversing on the spot. `rotation` is left as it was: the point mass has no angular state.
//
// The per-step constants (dt and the turn limit's cosine and sine) can be made once per archetype
// with DynamicStep::of and passed to integrateDynamicStep, which also leaves `orientation` alone:
// that is the world's hot loop, where the heading vector is the state and trig per agent is the
// largest cost after the neighbour scan.
struct DynamicStep {
  float dt = 0.0f;
  bool limitTurn = false;  // false: no turn limit (negative/NaN rate, or a limit of pi or more)
  float cosMaxTurn = -1.0f;
  float sinMaxTurn = 0.0f;
  float pivotSpeed = kEpsilon;  // at or below this speed the body turns on the spot

  static DynamicStep of(const BodyLimits& limits, float dt) {
    DynamicStep s;
    s.dt = (dt > 0.0f && isFinite(dt)) ? dt : 0.0f;
    const float maxAngle = limits.maxTurnRate * s.dt;
    if (limits.maxTurnRate >= 0.0f && maxAngle < kPi) {
      s.limitTurn = true;
      s.cosMaxTurn = std::cos(maxAngle);
      s.sinMaxTurn = std::sin(maxAngle);
      s.pivotSpeed =
          std::max(kEpsilon, kPivotFraction * (isFinite(limits.maxSpeed) ? limits.maxSpeed : 0.0f));
    }
    return s;
  }
};

// The point mass's state: position, velocity and heading (one body, or four lanes of them).
template <class V>
struct DynamicState {
  V position, velocity, heading;
};

// integrateDynamicStep for any lane type (lanes.h): bodies with the same limits, each lane as the
// scalar one. The world's four-lane path calls this with simd::V2.
template <class V>
DynamicState<V> integrateDynamicLanes(const BodyLimits& lim, const DynamicStep& step, DynamicState<V> body,
                                      V force) {
  using O = lanes::Ops<V>;
  if (!(step.dt > 0.0f)) return body;
  const auto dt = O::splat(step.dt);

  V accel = lanes::zero2<V>();
  if (lim.mass > 0.0f && isFinite(lim.mass)) {
    accel =
        lanes::finiteOrZero(lanes::truncate(lanes::finiteOrZero(force), lim.maxForce) / O::splat(lim.mass));
  }
  V velocity = lanes::truncate(lanes::finiteOrZero(body.velocity + accel * dt), lim.maxSpeed);

  if (step.limitTurn) {
    const lanes::LaneOf<V> speed = lanes::length(body.velocity);
    const lanes::MaskOf<V> moving = speed > O::splat(step.pivotSpeed);
    if (O::anyOf(moving)) {
      const V turned =
          locomotion_detail::limitTurn(body.velocity / speed, velocity, step.cosMaxTurn, step.sinMaxTurn);
      velocity = lanes::select(moving, turned, velocity);
    }
  }
  velocity = lanes::finiteOrZero(velocity);

  const lanes::LaneOf<V> speed = lanes::length(velocity);
  return {body.position + velocity * dt, velocity,
          lanes::select(speed > O::splat(kEpsilon), velocity / speed, body.heading)};
}

// integrateDynamic with precomputed step constants; `orientation` is not updated.
inline Body integrateDynamicStep(const Body& body, Vec2 force, const DynamicStep& step) {
  const DynamicState<Vec2> s = integrateDynamicLanes(
      body.limits, step, DynamicState<Vec2>{body.position, body.velocity, body.heading}, force);
  Body next = body;
  next.position = s.position;
  next.velocity = s.velocity;
  next.heading = s.heading;
  return next;
}

inline Body integrateDynamic(const Body& body, Vec2 force, float dt) {
  if (!(dt > 0.0f) || !isFinite(dt)) return body;
  Body next = integrateDynamicStep(body, force, DynamicStep::of(body.limits, dt));
  next.orientation = toAngle(next.heading);
  return next;
}

// What drives a kinematic body's orientation. Millington's kinematic seek/flee/arrive face the way
// they move (his newOrientation); kinematic wander turns by its rotation output instead.
enum class KinematicFacing {
  kFromRotation,  // orientation += rotation*dt
  kFromVelocity,  // orientation = atan2(v.y, v.x) when moving, unchanged when not
};

// Orientation that faces along `velocity`, or `current` when not moving. This project's convention
// is atan2(v.y, v.x) (CCW from +x); Millington's atan2(-v.x, v.z) is the same idea in his x/z axes.
inline float orientationFromVelocity(Vec2 velocity, float current) {
  return length(velocity) > kEpsilon ? toAngle(velocity) : current;
}

// Kinematic model (Millington), velocity form: `request.linear` is the velocity and
// `request.angular` the rotation rate, set directly and clamped to maxSpeed / maxRotation;
// p += v*dt; orientation per `facing`, wrapped to (-pi, pi]; heading = fromAngle(orientation).
inline Body integrateKinematic(const Body& body, const SteeringOutput& request, float dt,
                               KinematicFacing facing = KinematicFacing::kFromRotation) {
  using namespace locomotion_detail;
  Body next = body;
  if (!(dt > 0.0f) || !isFinite(dt)) return next;
  const BodyLimits& lim = body.limits;
  const float maxRot = lim.maxRotation > 0.0f ? lim.maxRotation : 0.0f;

  next.velocity = truncate(finiteOrZero(request.linear), lim.maxSpeed);
  next.rotation = std::clamp(finiteOrZero(request.angular), -maxRot, maxRot);
  next.position = body.position + next.velocity * dt;
  if (facing == KinematicFacing::kFromVelocity) {
    next.orientation = orientationFromVelocity(next.velocity, body.orientation);
    next.rotation = 0.0f;
  } else {
    next.orientation = wrapAngle(body.orientation + next.rotation * dt);
  }
  next.heading = fromAngle(next.orientation);
  return next;
}

// Kinematic model (Millington), full form: `request` is a linear and angular acceleration.
//   p += v*dt + a*dt^2/2; orientation += rotation*dt; v += a*dt; rotation += angular*dt;
// then v and rotation are clamped to maxSpeed / maxRotation (Millington clamps after the update, so
// the position step above uses the unclamped-at-this-step velocity, as in his Kinematic.update).
inline Body integrateKinematicAccel(const Body& body, const SteeringOutput& request, float dt) {
  using namespace locomotion_detail;
  Body next = body;
  if (!(dt > 0.0f) || !isFinite(dt)) return next;
  const BodyLimits& lim = body.limits;
  const float maxRot = lim.maxRotation > 0.0f ? lim.maxRotation : 0.0f;
  const Vec2 accel = finiteOrZero(request.linear);
  const float angular = finiteOrZero(request.angular);

  next.position = finiteOrZero(body.position + body.velocity * dt + accel * (0.5f * dt * dt));
  next.orientation = wrapAngle(body.orientation + body.rotation * dt);
  next.velocity = truncate(finiteOrZero(body.velocity + accel * dt), lim.maxSpeed);
  next.rotation = std::clamp(finiteOrZero(body.rotation + angular * dt), -maxRot, maxRot);
  next.heading = fromAngle(next.orientation);
  return next;
}

// Heading smoothing (Buckland's judder fix, STEERING.md section 1): the displayed heading is the
// normalised average of the last K velocity headings, decoupled from the velocity itself. A small
// value type the agent owns (K Vec2s, no heap); K between 5 and 10 is what the seeds suggest.
template <std::size_t K = 8>
class HeadingSmoother {
  static_assert(K >= 1, "HeadingSmoother needs room for at least one heading");

 public:
  // Records `heading` and returns the smoothed heading. Zero or non-finite headings are not
  // recorded (a body at rest has no new direction to add); with nothing recorded yet the result is
  // +x, so the return value is always a unit vector.
  Vec2 update(Vec2 heading) { return update(heading, K, Vec2{1.0f, 0.0f}); }

  // The same over the last `samples` headings (at most K: a world keeps room for K and lets each
  // archetype choose how many it averages); `fallback` (unit) when nothing is recorded yet.
  Vec2 update(Vec2 heading, std::size_t samples, Vec2 fallback) {
    const bool valid = isFinite(heading) && length(heading) > kEpsilon;
    if (valid) {
      history_[next_] = normalized(heading);
      next_ = (next_ + 1) % K;
      count_ = std::min(count_ + 1, K);
    }
    return smoothed(samples, valid ? normalized(heading) : fallback);
  }

  // The normalised average of the recorded headings (the last `samples` of them, oldest first);
  // `fallback` when there are none or they cancel out (e.g. exactly opposite headings).
  Vec2 smoothed(Vec2 fallback) const { return smoothed(K, fallback); }
  Vec2 smoothed(std::size_t samples, Vec2 fallback) const {
    const std::size_t m = std::min(samples, count_);
    Vec2 sum{};
    for (std::size_t i = 0; i < m; ++i) sum += history_[(next_ + K - m + i) % K];
    return normalizedOr(sum, fallback);
  }

  std::size_t size() const { return count_; }
  static constexpr std::size_t capacity() { return K; }

 private:
  std::array<Vec2, K> history_{};
  std::size_t next_ = 0;
  std::size_t count_ = 0;
};

}  // namespace steer
