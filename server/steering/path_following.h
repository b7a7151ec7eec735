// Path following (STEERING.md section 3): seek waypoint after waypoint; arrive at the end of an open
// path, go round again on a looped one. The per-agent memory is the index of the current waypoint;
// the path itself is a read-only view (PathView) the agent does not own.
#pragma once

#include <cstddef>

#include "arrive.h"
#include "seek.h"
#include "world_view.h"

namespace steer {

// Where to start on a path (seed 003: "locate the closest point"): the closest point on any segment
// of the path, answered as the index of that segment's end waypoint, so the body heads on along the
// path rather than back to a waypoint it is already past. Closest exactly at a segment's start (t <=
// 0: the body is before the start of an open path, or level with a corner) answers that start
// waypoint. Looped paths include the closing segment (last -> first). Empty path: 0.
// Ties go to the earlier segment, so the answer is deterministic.
inline int closestWaypointIndex(PathView path, Vec2 p) {
  const std::size_t n = path.points.size();
  if (n <= 1) return 0;
  const std::size_t segments = path.looped ? n : n - 1;
  std::size_t best = 0;
  float bestDistSq = 0.0f;
  for (std::size_t i = 0; i < segments; ++i) {
    const Vec2 a = path.points[i];
    const std::size_t endIndex = (i + 1) % n;
    const Vec2 seg = path.points[endIndex] - a;
    const float segLenSq = lengthSq(seg);
    float t = segLenSq > kEpsilon * kEpsilon ? dot(p - a, seg) / segLenSq : 0.0f;
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    const float dsq = distanceSq(a + seg * t, p);
    if (i == 0 || dsq < bestDistSq) {
      bestDistSq = dsq;
      best = t > 0.0f ? endIndex : i;
    }
  }
  return static_cast<int>(best);
}

struct PathFollowParams {
  // Advance to the next waypoint when closer than this. Tight for corridors, loose outdoors (seed
  // 000); it trades corner-cutting against the body's maxForce/maxSpeed ratio. [Limit: > 0]
  float seekDistance = 1.0f;
  // Buckland arrives at the last waypoint of an open path with `normal`.
  float deceleration = kDecelerationNormal;
};

struct PathFollowResult {
  SteeringOutput steering;
  int index = 0;  // the new current waypoint: the agent stores it and passes it back next tick
};

// Buckland's FollowPath. The index is clamped into the path first (a stale index after the path
// changed must not read out of bounds). While the current waypoint is within seekDistance the index
// advances (wrapping on a looped path, stopping at the last waypoint of an open one): several per
// call if waypoints are dense, at most one lap, so a path whose points all lie within seekDistance
// still terminates. Then: last waypoint of an open path -> arrive at it; otherwise seek it.
// Empty path: no output. A one-point path is a destination, looped or not: arrive at it.
inline PathFollowResult followPath(const Body& body, PathView path, int currentIndex,
                                   const PathFollowParams& params = {}) {
  const std::size_t n = path.points.size();
  if (n == 0) return {{}, 0};
  std::size_t index = currentIndex < 0 ? 0 : static_cast<std::size_t>(currentIndex);
  if (index >= n) index = n - 1;
  const ArriveParams arriveParams{.deceleration = params.deceleration};
  if (n == 1) return {arrive(body, path.points[0], arriveParams), 0};

  const float seekDistSq = params.seekDistance * params.seekDistance;
  for (std::size_t step = 0; step < n; ++step) {
    const bool last = index == n - 1;
    if (last && !path.looped) break;
    if (!(distanceSq(path.points[index], body.position) < seekDistSq)) break;
    index = last ? 0 : index + 1;
  }

  const Vec2 waypoint = path.points[index];
  const bool finishing = !path.looped && index == n - 1;
  const SteeringOutput out = finishing ? arrive(body, waypoint, arriveParams) : seek(body, waypoint);
  return {out, static_cast<int>(index)};
}

// Path smoothing by look-ahead (Reynolds' path following; seed 004's ghost following): the body
// steers at a "ghost" `lookAhead` metres further along the path than its own projection on the
// current segment, so it rounds corners instead of reaching each waypoint and turning on it.
//   current segment a -> b (b the current waypoint; before the first waypoint of an open path, a is
//   the body itself); the index advances while the projection t = dot(p - a, b - a) / |b - a|^2
//   is >= 1 or b is within seekDistance (at most one lap);
//   ghost = walk lookAhead from a + (b - a) * clamp(t, 0, 1) along the path (stopping at the end of
//   an open path); seek the ghost, or arrive at the last waypoint once the ghost has reached it.
// lookAhead <= 0 (or not finite) is Buckland's waypoint-to-waypoint followPath above.
struct PathLookAheadResult {
  SteeringOutput steering;
  int index = 0;  // the new current waypoint, as followPath's
  Vec2 ghost;     // the point steered at
};

inline PathLookAheadResult followPathLookAhead(const Body& body, PathView path, int currentIndex,
                                               float lookAhead, const PathFollowParams& params = {}) {
  const std::size_t n = path.points.size();
  if (!(lookAhead > 0.0f) || !isFinite(lookAhead) || n <= 1) {
    const PathFollowResult r = followPath(body, path, currentIndex, params);
    const std::size_t i = static_cast<std::size_t>(r.index);
    return {r.steering, r.index, n == 0 ? body.position : path.points[i < n ? i : n - 1]};
  }
  std::size_t index = currentIndex < 0 ? 0 : static_cast<std::size_t>(currentIndex);
  if (index >= n) index = n - 1;
  const auto segmentStart = [&](std::size_t i) {
    if (i == 0) return path.looped ? path.points[n - 1] : body.position;
    return path.points[i - 1];
  };
  const auto along = [&](Vec2 a, Vec2 b) {
    const Vec2 seg = b - a;
    const float segLenSq = lengthSq(seg);
    return segLenSq > kEpsilon * kEpsilon ? dot(body.position - a, seg) / segLenSq : 1.0f;
  };

  const float seekDistSq = params.seekDistance * params.seekDistance;
  for (std::size_t step = 0; step < n; ++step) {
    const bool last = index == n - 1;
    if (last && !path.looped) break;
    const Vec2 b = path.points[index];
    if (!(along(segmentStart(index), b) >= 1.0f) && !(distanceSq(b, body.position) < seekDistSq)) break;
    index = last ? 0 : index + 1;
  }

  // The body's projection on its segment, then lookAhead further along the path.
  const Vec2 a = segmentStart(index);
  float t = along(a, path.points[index]);
  t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
  Vec2 ghost = a + (path.points[index] - a) * t;
  float left = lookAhead;
  std::size_t next = index;
  bool atEnd = false;
  for (std::size_t step = 0; step <= n; ++step) {
    if (!(left > 0.0f)) break;
    const Vec2 b = path.points[next];
    const float d = distance(ghost, b);
    if (d >= left) {
      ghost = ghost + (b - ghost) * (left / d);
      break;
    }
    left -= d;
    ghost = b;
    if (next == n - 1 && !path.looped) {
      atEnd = true;
      break;
    }
    next = next == n - 1 ? 0 : next + 1;
  }

  const ArriveParams arriveParams{.deceleration = params.deceleration};
  const SteeringOutput out = atEnd ? arrive(body, ghost, arriveParams) : seek(body, ghost);
  return {out, static_cast<int>(index), ghost};
}

}  // namespace steer
