// Hide (STEERING.md section 3): put an obstacle between us and a hunter. Whether to hide at all (the
// hunter can see us, or saw us in the last n seconds; a panic distance) is action selection's call;
// lineOfSightBlocked() is here for it.
#pragma once

#include <optional>
#include <span>

#include "arrive.h"
#include "pursue.h"
#include "world_view.h"

namespace steer {

struct HideParams {
  // Gap between an obstacle's edge and the hiding spot. 1.0 = two default body radii (0.5): a body
  // standing there clears the obstacle by its own radius, and the spot stays close, where the
  // obstacle's shadow is widest. (Buckland's 30 is in his pixel units.) [Limit: >= 0]
  float distanceFromBoundary = 1.0f;
  // Buckland arrives at the spot with `fast`.
  float deceleration = kDecelerationFast;
  // Used when there is nowhere to hide.
  EvadeParams evade{};
};

// o.c + normalize(o.c - hunter) * (o.r + distanceFromBoundary): on the far side of the obstacle from
// the hunter. A hunter exactly at the centre gives no "far side": the spot is then taken on +x.
inline Vec2 hidingSpot(const CircleObstacle& obstacle, Vec2 hunterPos, float distanceFromBoundary) {
  const Vec2 away = normalizedOr(obstacle.center - hunterPos, Vec2{1.0f, 0.0f});
  return obstacle.center + away * (obstacle.radius + distanceFromBoundary);
}

// The hiding spot nearest to `from` (by straight-line distance), or none without obstacles. Ties go
// to the first obstacle, so the answer does not depend on float noise in the order of evaluation.
inline std::optional<Vec2> nearestHidingSpot(Vec2 from, Vec2 hunterPos,
                                             std::span<const CircleObstacle> obstacles,
                                             float distanceFromBoundary) {
  std::optional<Vec2> best;
  float bestDistSq = 0.0f;
  for (const CircleObstacle& o : obstacles) {
    const Vec2 spot = hidingSpot(o, hunterPos, distanceFromBoundary);
    const float dsq = distanceSq(spot, from);
    if (!best || dsq < bestDistSq) {
      best = spot;
      bestDistSq = dsq;
    }
  }
  return best;
}

// Behind a wall: Buckland hides behind circles only, but a wall shades too, and so does a box
// (four outward walls: the ones whose backs face the hunter are its far side). A wall shades its
// front (the side its normal points to, where bodies belong) from a hunter behind it. The spot
// stands distanceFromBoundary in front of the wall, as near `from` as it can while the line from
// the hunter to it still crosses the wall at least `inset` from either end, where
//   inset = min(distanceFromBoundary, length / 4);
// in the wall's frame (t along it from `from`, hunter at t = H, h behind it) the spot's t is
// `from`'s clamped to [H + (inset - H) k, H + (length - inset - H) k], k = (h + d) / h. None when
// the hunter is not behind the wall (nothing to shade it from, or it is level with the wall).
inline std::optional<Vec2> hidingSpotBehindWall(const Wall& wall, Vec2 hunterPos, Vec2 from,
                                                float distanceFromBoundary) {
  const Vec2 along = wall.to - wall.from;
  const float len = length(along);
  const float h = -dot(hunterPos - wall.from, wall.normal);
  if (!(len > kEpsilon) || !(h > kEpsilon)) return std::nullopt;
  const Vec2 u = along / len;
  const float d = distanceFromBoundary > 0.0f ? distanceFromBoundary : 0.0f;
  const float inset = d < 0.25f * len ? d : 0.25f * len;
  const float k = (h + d) / h;
  const float hunterT = dot(hunterPos - wall.from, u);
  const float lo = hunterT + (inset - hunterT) * k, hi = hunterT + (len - inset - hunterT) * k;
  float t = dot(from - wall.from, u);
  t = t < lo ? lo : (t > hi ? hi : t);
  const Vec2 spot = wall.from + u * t + wall.normal * d;
  if (!isFinite(spot)) return std::nullopt;
  return spot;
}

// The hiding spot nearest to `from` behind any obstacle or wall; obstacles first, then walls,
// each in order, on ties.
inline std::optional<Vec2> nearestHidingSpot(Vec2 from, Vec2 hunterPos,
                                             std::span<const CircleObstacle> obstacles,
                                             std::span<const Wall> walls, float distanceFromBoundary) {
  std::optional<Vec2> best = nearestHidingSpot(from, hunterPos, obstacles, distanceFromBoundary);
  float bestDistSq = best ? distanceSq(*best, from) : 0.0f;
  for (const Wall& w : walls) {
    const std::optional<Vec2> spot = hidingSpotBehindWall(w, hunterPos, from, distanceFromBoundary);
    if (!spot) continue;
    const float dsq = distanceSq(*spot, from);
    if (!best || dsq < bestDistSq) {
      best = spot;
      bestDistSq = dsq;
    }
  }
  return best;
}

// Arrive at the nearest hiding spot; with no obstacles (or walls), evade the hunter (Buckland).
inline SteeringOutput hide(const Body& body, const Kinematic& hunter,
                           std::span<const CircleObstacle> obstacles, std::span<const Wall> walls,
                           const HideParams& params = {}) {
  const std::optional<Vec2> spot =
      nearestHidingSpot(body.position, hunter.position, obstacles, walls, params.distanceFromBoundary);
  if (!spot) return evade(body, hunter, params.evade);
  return arrive(body, *spot, {.deceleration = params.deceleration});
}
inline SteeringOutput hide(const Body& body, const Kinematic& hunter,
                           std::span<const CircleObstacle> obstacles, const HideParams& params = {}) {
  return hide(body, hunter, obstacles, {}, params);
}

// True when the segment from -> to passes strictly through some obstacle (closest approach to the
// centre < radius). Grazing an edge does not block. An end point inside an obstacle counts as
// blocked: a body inside a bush is hidden.
inline bool lineOfSightBlocked(Vec2 from, Vec2 to, std::span<const CircleObstacle> obstacles) {
  const Vec2 seg = to - from;
  const float segLenSq = lengthSq(seg);
  for (const CircleObstacle& o : obstacles) {
    float t = segLenSq > kEpsilon * kEpsilon ? dot(o.center - from, seg) / segLenSq : 0.0f;
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    const Vec2 closest = from + seg * t;
    if (distanceSq(closest, o.center) < o.radius * o.radius) return true;
  }
  return false;
}

}  // namespace steer
