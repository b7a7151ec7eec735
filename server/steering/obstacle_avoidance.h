// Obstacle avoidance against circles with a detection box (STEERING.md section 3; Buckland,
// "Programming Game AI by Example" ch. 3; seed 000 slides 40-44).
//
// The box extends from the body's centre along its heading, length L (grows with speed), width 2r.
// The world calls this per agent with only the few obstacles from nearby grid cells, so it is one
// pass over the span with no allocation and no sort.
#pragma once

#include <algorithm>
#include <cmath>
#include <span>

#include "body.h"
#include "world_view.h"

namespace steer {

struct ObstacleAvoidanceParams {
  // Box length at rest; it doubles at maxSpeed. [Limit: >= 0] <= 0 switches avoidance off.
  float minDetectionLength = 2.0f;
  // Scales the braking (local -x) part. Buckland uses 0.2; seed 000 writes 2.0, which lets the
  // braking term swamp the lateral one for any obstacle more than a radius away.
  float brakingWeight = 0.2f;
};

// L = minLen + (|v| / maxSpeed) * minLen (Buckland). Speed above maxSpeed (only possible before the
// locomotion step truncates it) counts as maxSpeed, and maxSpeed <= 0 as standing still, so L is
// always within [minLen, 2 * minLen] and finite.
inline float detectionBoxLength(const Body& body, float minDetectionLength) {
  if (!(minDetectionLength > 0.0f)) return 0.0f;
  const float maxSpeed = body.limits.maxSpeed;
  const float ratio = maxSpeed > 0.0f ? std::clamp(length(body.velocity) / maxSpeed, 0.0f, 1.0f) : 0.0f;
  return minDetectionLength + ratio * minDetectionLength;
}

// Whether obstacle `o` can be in the detection box of a body of radius `r` at `position`, whatever
// its heading, for a box at most `maxBoxLength` long: the box's reach, centre line x in [0, L + o.r]
// and |y| < o.r + r, lies within the disc of radius^2 (L + o.r)^2 + (o.r + r)^2 round the body. An
// obstacle outside it is skipped by obstacleAvoidance's own tests, so leaving it out changes
// nothing; the crowd's four-lane path uses it to skip lanes with no obstacle that can matter.
inline bool obstacleInReach(Vec2 position, float maxBoxLength, float r, const CircleObstacle& o) {
  const float oRadius = std::max(o.radius, 0.0f);
  const float ahead = maxBoxLength + oRadius, side = oRadius + r;
  return distanceSq(o.center, position) <= (ahead * ahead + side * side) * 1.0001f;
}

// The steering force, in world space, away from the closest obstacle whose expanded circle
// (o.r + r) the box's centre line enters. Zero when nothing is in the box.
//
// Lateral force: seed 000 and Buckland write (o.r - local.y) * multiplier, which is only "away"
// when the obstacle is on the right or more than o.r to the left; for 0 < local.y < o.r it pushes
// TOWARDS the obstacle's centre and the long way round (the slip STEERING.md notes as "sign away
// from the obstacle"). We keep the intended meaning: magnitude (o.r + r - |local.y|), the sideways
// distance the path must move to clear the expanded circle, so it is 0 for a grazing obstacle and
// largest head-on; sign away from the obstacle; an obstacle dead ahead (local.y == 0) is passed on
// its left, as Buckland's form also does, so the choice is deterministic.
//
// Braking is Buckland's unchanged: (o.r - local.x) * brakingWeight. It is negative (brakes) while
// the obstacle's centre is further ahead than its radius.
inline SteeringOutput obstacleAvoidance(const Body& body, std::span<const CircleObstacle> obstacles,
                                        const ObstacleAvoidanceParams& params = {}) {
  if (obstacles.empty()) return {};
  const float boxLength = detectionBoxLength(body, params.minDetectionLength);
  if (boxLength <= kEpsilon) return {};
  const Vec2 heading = normalizedOr(body.heading, Vec2{1.0f, 0.0f});
  const float r = std::max(body.limits.radius, 0.0f);

  bool found = false;
  float closestHit = 0.0f;
  Vec2 closestLocal;
  float closestRadius = 0.0f;
  for (const CircleObstacle& o : obstacles) {
    const float oRadius = std::max(o.radius, 0.0f);
    const Vec2 local = toLocal(o.center, body.position, heading);
    // Behind: Buckland drops an obstacle whose centre is behind the body; the body is moving away
    // from it. Beyond the box: its nearest point is further ahead than L.
    if (local.x < 0.0f || local.x - oRadius > boxLength) continue;
    const float expanded = oRadius + r;
    if (std::abs(local.y) >= expanded) continue;
    // Where the local x axis enters the expanded circle: cx -/+ sqrt(R^2 - cy^2). When the body is
    // already inside it the near root is behind, so the far root is the hit (Buckland).
    const float sqrtPart = std::sqrt(expanded * expanded - local.y * local.y);
    float hit = local.x - sqrtPart;
    if (hit <= 0.0f) hit = local.x + sqrtPart;
    if (!found || hit < closestHit) {
      found = true;
      closestHit = hit;
      closestLocal = local;
      closestRadius = oRadius;
    }
  }
  if (!found) return {};

  // 1 at the far end of the box, 2 at the body: the closer, the harder.
  const float multiplier = 1.0f + (boxLength - closestLocal.x) / boxLength;
  const float away = closestLocal.y > 0.0f ? -1.0f : 1.0f;
  const float lateral = away * (closestRadius + r - std::abs(closestLocal.y)) * multiplier;
  const float braking = (closestRadius - closestLocal.x) * params.brakingWeight;
  return {rotate(Vec2{braking, lateral}, heading), 0.0f};
}

}  // namespace steer
