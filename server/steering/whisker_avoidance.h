// Ray-cast avoidance: a central ray plus two whiskers, against walls and circles (STEERING.md
// section 3, seed 003 "Ray casting" and "Problems: corner trap").
//
// Each ray that hits a surface pushes along the surface normal by how far the ray reaches past the
// hit (as wall feelers do). Summed naively, that gets trapped in a concave corner: the left whisker
// sees one wall and the right whisker the other, their sideways pushes cancel, only the backward
// parts remain, and a body that is also seeking past the corner grinds to a halt nose-first in it.
//
// The fix here is seed 003's "special treatment of corners". When the body is trapped (the central
// ray meets a surface nearly head-on, or both whiskers meet surfaces that face the body), the
// sideways force no longer comes from the sum: the body turns towards the side that needs the
// smaller turn to run parallel to every surface the rays touch (the escape along the walls). That
// measure depends only on the heading, not on the position, so turning one way makes that side
// cheaper still: the choice holds from tick to tick without per-agent memory. Comparing whisker hit
// distances ("more free space") was tried and flips more: turning towards the freer side moves the
// body towards that side's wall, which then looks less free. An exact tie (the symmetric corner)
// goes left, so the result is deterministic.
//
// Limit: a memoryless agent seeking a point behind a wall still comes back to the corner after
// turning away (a local minimum; that target needs a path, seed 003). The fix stops it stalling
// nose-first in the corner; it does not make the target reachable.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <span>

#include "body.h"
#include "wall_avoidance.h"
#include "world_view.h"

namespace steer {

struct RayHit {
  float distance = 0.0f;  // from the ray origin, in [0, maxDistance]
  Vec2 point;
  Vec2 normal;  // unit, facing back along the ray
};

// Nearest hit of origin + dir * t, t in [0, maxDistance] (dir unit), against front-facing walls and
// against circles grown by `inflate` (the body's radius, so a ray from the centre clears the body's
// edge). A ray starting inside a circle hits at distance 0 with the normal pointing out.
// Surfaces hit at the same distance (a ray into the vertex of two walls) share the hit and their
// normals are averaged: the vertex of a concave corner then faces straight out of the corner
// instead of being whichever wall came first in the span.
inline std::optional<RayHit> castRay(Vec2 origin, Vec2 dir, float maxDistance, std::span<const Wall> walls,
                                     std::span<const CircleObstacle> obstacles, float inflate) {
  if (!(maxDistance > 0.0f)) return std::nullopt;
  const float tieTolerance = 1e-5f * maxDistance;
  bool found = false;
  float best = 0.0f;
  Vec2 normalSum;
  const auto consider = [&](float distance, Vec2 normal) {
    if (!found || distance < best - tieTolerance) {
      found = true;
      best = distance;
      normalSum = normal;
    } else if (distance <= best + tieTolerance) {
      best = std::min(best, distance);
      normalSum += normal;
    }
  };

  const Vec2 end = origin + dir * maxDistance;
  for (const Wall& wall : walls) {
    if (dot(dir, wall.normal) >= 0.0f) continue;  // one-sided, as in wallAvoidance
    if (const auto hit = segmentIntersection(origin, end, wall.from, wall.to)) {
      consider(hit->t * maxDistance, wall.normal);
    }
  }
  for (const CircleObstacle& o : obstacles) {
    const float radius = std::max(o.radius, 0.0f) + std::max(inflate, 0.0f);
    const Vec2 m = origin - o.center;
    const float c = lengthSq(m) - radius * radius;
    if (c <= 0.0f) {
      consider(0.0f, normalizedOr(m, -dir));
      continue;
    }
    const float b = dot(m, dir);
    if (b >= 0.0f) continue;  // outside and pointing away
    const float disc = b * b - c;
    if (disc < 0.0f) continue;
    const float t = -b - std::sqrt(disc);
    if (t > maxDistance) continue;
    consider(t, normalizedOr(origin + dir * t - o.center, -dir));
  }
  if (!found) return std::nullopt;
  return RayHit{best, origin + dir * best, normalizedOr(normalSum, -dir)};
}

struct WhiskerParams {
  // Central ray length. [Limit: >= 0] 0 switches avoidance off.
  float rayLength = 3.0f;
  // Whiskers are this fraction of rayLength: a wall beside the body matters only once it is close.
  float whiskerFraction = 0.75f;
  // Whiskers point this far either side of the heading, radians.
  float whiskerAngle = kPi / 4.0f;
  // The central ray meeting a surface within this angle of head-on counts as trapped: its normal
  // has almost no sideways part, so the sum could only brake.
  float headOnAngle = kPi / 6.0f;
  // Both whiskers meeting surfaces tilted more than this towards the body counts as a corner. Walls
  // of a corridor run parallel to the heading (tilt ~0) and keep the naive, centring sum.
  float cornerTiltAngle = kPi / 9.0f;
};

// Hits of the three rays; empty optional = that ray is clear.
struct WhiskerHits {
  std::optional<RayHit> centre;
  std::optional<RayHit> left;
  std::optional<RayHit> right;
};

inline WhiskerHits castWhiskers(const Body& body, std::span<const Wall> walls,
                                std::span<const CircleObstacle> obstacles, const WhiskerParams& params = {}) {
  const Vec2 heading = normalizedOr(body.heading, Vec2{1.0f, 0.0f});
  const float whiskerLength = params.rayLength * params.whiskerFraction;
  const float r = body.limits.radius;
  return {castRay(body.position, heading, params.rayLength, walls, obstacles, r),
          castRay(body.position, rotate(fromAngle(params.whiskerAngle), heading), whiskerLength, walls,
                  obstacles, r),
          castRay(body.position, rotate(fromAngle(-params.whiskerAngle), heading), whiskerLength, walls,
                  obstacles, r)};
}

// The naive sum: every ray that hits pushes along the hit normal by its overshoot. This is what
// gets trapped in a corner; kept public so a test can show it cancelling.
inline SteeringOutput naiveWhiskerSum(const WhiskerHits& hits, const WhiskerParams& params = {}) {
  const float whiskerLength = params.rayLength * params.whiskerFraction;
  Vec2 force;
  if (hits.centre) force += hits.centre->normal * (params.rayLength - hits.centre->distance);
  if (hits.left) force += hits.left->normal * (whiskerLength - hits.left->distance);
  if (hits.right) force += hits.right->normal * (whiskerLength - hits.right->distance);
  return {force, 0.0f};
}

// +1 (turn left) or -1 (turn right): the side needing the smaller turn to run parallel to every
// surface hit. For a surface with normal n facing the heading h, the left escape direction is
// -perp(n), reached by turning atan2(a, -b) to the left, and the right one perp(n), reached by
// atan2(a, b) to the right, with a = -dot(h, n) > 0 and b = dot(h, perp(n)). A surface that does
// not face the heading (a <= 0) needs no turn either way. Ties go left.
inline float cornerTurnSide(Vec2 heading, const WhiskerHits& hits) {
  float needLeft = 0.0f;
  float needRight = 0.0f;
  for (const std::optional<RayHit>* hit : {&hits.centre, &hits.left, &hits.right}) {
    if (!*hit) continue;
    const Vec2 n = (*hit)->normal;
    const float a = -dot(heading, n);
    if (a <= 0.0f) continue;
    const float b = dot(heading, perp(n));
    needLeft = std::max(needLeft, std::atan2(a, -b));
    needRight = std::max(needRight, std::atan2(a, b));
  }
  return needLeft <= needRight ? 1.0f : -1.0f;
}

// The naive sum, except when trapped (see the top of this file), where the sideways part is
// replaced by a turn of strength (sum of all overshoots) towards cornerTurnSide, and the
// along-heading part is kept only when it brakes.
inline SteeringOutput whiskerAvoidance(const Body& body, std::span<const Wall> walls,
                                       std::span<const CircleObstacle> obstacles,
                                       const WhiskerParams& params = {}) {
  if (!(params.rayLength > 0.0f)) return {};
  const Vec2 heading = normalizedOr(body.heading, Vec2{1.0f, 0.0f});
  const WhiskerHits hits = castWhiskers(body, walls, obstacles, params);
  const SteeringOutput naive = naiveWhiskerSum(hits, params);

  const bool headOn = hits.centre && -dot(heading, hits.centre->normal) >= std::cos(params.headOnAngle);
  const float tilt = std::sin(params.cornerTiltAngle);
  const bool corner = hits.left && hits.right && -dot(heading, hits.left->normal) > tilt &&
                      -dot(heading, hits.right->normal) > tilt;
  if (!headOn && !corner) return naive;

  const float whiskerLength = params.rayLength * params.whiskerFraction;
  float overshoot = 0.0f;
  if (hits.centre) overshoot += params.rayLength - hits.centre->distance;
  if (hits.left) overshoot += whiskerLength - hits.left->distance;
  if (hits.right) overshoot += whiskerLength - hits.right->distance;
  const Vec2 local = unrotate(naive.linear, heading);
  const float side = cornerTurnSide(heading, hits);
  return {rotate(Vec2{std::min(local.x, 0.0f), side * overshoot}, heading), 0.0f};
}

}  // namespace steer
