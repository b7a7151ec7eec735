// Collision avoidance between moving bodies: Millington's closest-time-of-approach test
// (STEERING.md section 3; seed 003: "intersection test, not overlap").
//
// Overlap tests react to bodies that are near; this reacts to bodies that WILL be near: for each
// other body, the time at which the two would be closest if both kept their velocities, and how far
// apart they would then be. Only the soonest predicted collision is avoided.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>

#include "body.h"

namespace steer {

// Which side an oncoming body is dodged to.
enum class KeepTo : std::uint8_t { kEither, kLeft, kRight };

struct CollisionAvoidanceParams {
  // Predicted collisions later than this (seconds) are ignored. [Limit: > 0]
  float timeHorizon = 3.0f;
  // kLeft / kRight: a threat moving against this body (dot(v_other, v) < 0) is dodged to that
  // side of the heading; kEither: away from where it will be (Millington).
  KeepTo keepTo = KeepTo::kEither;
};

struct ClosestApproach {
  float time = 0.0f;        // seconds from now; <= 0 when the bodies are not closing
  float separation = 0.0f;  // distance between centres at that time
};

// relPos = other.p - p, relVel = other.v - v: t = -dot(relPos, relVel) / |relVel|^2 and separation
// = |relPos + relVel * t|. (Millington's printed form has the sign of t flipped and computes the
// separation as distance - relativeSpeed * t, which is only right for a head-on approach.) With no
// relative motion the distance never changes: time 0, separation = current distance.
// The time of closest approach alone: what the soonest-threat search rejects on before it pays for
// the square root of the separation.
inline float closestApproachTime(Vec2 relPos, Vec2 relVel) {
  const float speedSq = lengthSq(relVel);
  if (speedSq <= kEpsilon * kEpsilon) return 0.0f;
  return -dot(relPos, relVel) / speedSq;
}

inline ClosestApproach closestApproach(Vec2 relPos, Vec2 relVel) {
  const float t = closestApproachTime(relPos, relVel);
  return {t, length(relPos + relVel * t)};
}

// The soonest predicted collision among the bodies offered one at a time (so a caller walking a
// spatial grid needs no list), then the force that avoids it (collisionAvoidance below).
class CollisionThreat {
 public:
  void consider(const Body& body, Vec2 otherPosition, Vec2 otherVelocity, float otherRadius,
                const CollisionAvoidanceParams& params) {
    const Vec2 relPos = otherPosition - body.position;
    const Vec2 relVel = otherVelocity - body.velocity;
    offer(body, relPos, relVel, closestApproachTime(relPos, relVel), otherRadius, params);
  }

  // consider() for a caller that computed relPos, relVel and t = closestApproachTime(relPos,
  // relVel) itself (several bodies at once, in SIMD lanes).
  void offer(const Body& body, Vec2 relPos, Vec2 relVel, float t, float otherRadius,
             const CollisionAvoidanceParams& params) {
    // The cheap rejections first (a crowd offers many bodies that are not closing, or not soon),
    // the square root only for the few that pass.
    if (!(t > 0.0f) || t > params.timeHorizon || t >= soonest_) return;
    const ClosestApproach ca{t, length(relPos + relVel * t)};
    const float radii = body.limits.radius + otherRadius;
    if (ca.separation > radii) return;
    found_ = true;
    soonest_ = ca.time;
    relPos_ = relPos;
    relVel_ = relVel;
    separation_ = ca.separation;
    radii_ = radii;
  }

  // Millington's maxAcceleration is maxForce / mass, so maxAcceleration * mass = maxForce, directed
  // away from where the soonest threat will be at closest approach. When that threat already
  // overlaps the body, or the two would pass through each other's centres (separation ~0, no
  // sideways direction), away from the threat's current position instead.
  //
  // Keeping to a side (params.keepTo, an extension for crowds): when the threat is oncoming, a
  // threat point on the side to keep to is mirrored across the heading, so the force points to
  // that side. With both bodies keeping right, each dodges to its own right and they pass left
  // side to left side; in a corridor the two flows sort themselves into lanes. Without it a
  // near head-on threat is dodged to whichever side rounding put it, and opposing flows mix.
  SteeringOutput force(const Body& body, const CollisionAvoidanceParams& params = {}) const {
    if (!found_) return {};
    const bool overlapping = lengthSq(relPos_) < radii_ * radii_;
    const Vec2 future = relPos_ + relVel_ * soonest_;
    Vec2 from = overlapping || separation_ <= kEpsilon ? relPos_ : future;
    const Vec2 otherVelocity = body.velocity + relVel_;
    if (params.keepTo != KeepTo::kEither && dot(otherVelocity, body.velocity) < 0.0f) {
      const Vec2 side = params.keepTo == KeepTo::kRight ? -perp(body.heading) : perp(body.heading);
      const float onThatSide = dot(from, side);
      if (onThatSide > 0.0f) from = from - side * (2.0f * onThatSide);
      // Sideways only: braking for an oncoming body stalls both flows (the other brakes too).
      const float ahead = dot(from, body.heading);
      const Vec2 away = -(from - body.heading * std::max(ahead, 0.0f));
      return {normalizedOr(away, side) * body.limits.maxForce, 0.0f};
    }
    // from != 0 here: t > 0 needs dot(relPos, relVel) < 0, so relPos != 0; the fallback is belt and braces.
    return {-normalizedOr(from, body.heading) * body.limits.maxForce, 0.0f};
  }

 private:
  bool found_ = false;
  float soonest_ = std::numeric_limits<float>::infinity();
  Vec2 relPos_, relVel_;
  float separation_ = 0.0f, radii_ = 0.0f;
};

// Returns a force (like every dynamic behaviour; the world integrates F/m) away from the soonest
// predicted collision (CollisionThreat). Bodies moving apart (t <= 0), beyond the horizon, or
// passing further than the sum of radii apart give nothing; so do coincident bodies and bodies
// with no relative motion (t == 0): that overlap is separation's job.
inline SteeringOutput collisionAvoidance(const Body& body, std::span<const Kinematic> others,
                                         const CollisionAvoidanceParams& params = {}) {
  CollisionThreat threat;
  for (const Kinematic& other : others)
    threat.consider(body, other.position, other.velocity, other.radius, params);
  return threat.force(body, params);
}

}  // namespace steer
