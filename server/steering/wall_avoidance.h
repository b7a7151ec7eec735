// Wall avoidance with three feelers (STEERING.md section 3; Buckland ch. 3; seed 000 slide 48).
//
// Feelers, as in Buckland's CreateFeelers: one straight ahead of length L, and one each side at
// +-45 degrees of length L/2. The side ones are shorter because a wall beside the body is only a
// threat once it is close; full-length side feelers make bodies shy away from corridor walls.
#pragma once

#include <array>
#include <cmath>
#include <optional>
#include <span>

#include "body.h"
#include "world_view.h"

namespace steer {

struct SegmentHit {
  float t = 0.0f;  // along the first segment, in [0, 1]
  float u = 0.0f;  // along the second segment, in [0, 1]
  Vec2 point;
};

// Where segment a0-a1 crosses segment b0-b1, endpoints included (a feeler that just touches a wall
// end counts). Parallel segments, collinear ones included, and zero-length segments have no single
// crossing point and give nullopt: a feeler lying along a wall is not penetrating it.
inline std::optional<SegmentHit> segmentIntersection(Vec2 a0, Vec2 a1, Vec2 b0, Vec2 b1) {
  const Vec2 r = a1 - a0;
  const Vec2 s = b1 - b0;
  const float denom = cross(r, s);
  // |r x s| = |r||s| sin(angle): compared relative to the lengths (squared, no sqrt), so a short
  // wall is not mistaken for a parallel one. Also true when either segment has zero length.
  if (denom * denom <= (kEpsilon * kEpsilon) * lengthSq(r) * lengthSq(s)) return std::nullopt;
  const Vec2 qp = b0 - a0;
  const float t = cross(qp, s) / denom;
  const float u = cross(qp, r) / denom;
  if (!(t >= 0.0f && t <= 1.0f && u >= 0.0f && u <= 1.0f)) return std::nullopt;
  return SegmentHit{t, u, a0 + r * t};
}

struct WallAvoidanceParams {
  // Length of the straight-ahead feeler. [Limit: >= 0]
  float feelerLength = 2.0f;
  // Side feelers are this fraction of feelerLength (Buckland: 0.5).
  float sideFeelerFraction = 0.5f;
  // Side feelers point this far either side of the heading, radians (Buckland: 45 degrees).
  float sideAngle = kPi / 4.0f;
};

// Feeler tips in world space: [0] ahead, [1] left (+sideAngle), [2] right (-sideAngle).
inline std::array<Vec2, 3> wallFeelers(const Body& body, const WallAvoidanceParams& params = {}) {
  const Vec2 heading = normalizedOr(body.heading, Vec2{1.0f, 0.0f});
  const float side = params.feelerLength * params.sideFeelerFraction;
  const Vec2 p = body.position;
  // One sine and cosine for both sides: cos(-a) = cos(a) and sin(-a) = -sin(a), exactly in IEEE.
  const Vec2 left = fromAngle(params.sideAngle);
  const Vec2 right{left.x, -left.y};
  return {p + heading * params.feelerLength, p + rotate(left, heading) * side,
          p + rotate(right, heading) * side};
}

// For each feeler, the closest wall it crosses pushes along that wall's normal by the penetration
// depth (how far the feeler tip is beyond the crossing point). Forces of the feelers add up.
// Buckland assigns instead of adding (SteeringForce = ...), so only the last feeler that hit
// counted; seed 000 says "closest intersection", STEERING.md sums per feeler, and so do we.
//
// Walls are one-sided (world_view.h): a feeler only sees a wall it crosses from the front (moving
// against the normal). A two-sided fence is two walls back to back; without this test a feeler
// would hit both at the same distance and could pick the back one, whose normal pushes the body
// into the fence.
inline SteeringOutput wallAvoidance(const Body& body, std::span<const Wall> walls,
                                    const WallAvoidanceParams& params = {}) {
  if (walls.empty() || !(params.feelerLength > 0.0f)) return {};
  const std::array<Vec2, 3> feelers = wallFeelers(body, params);
  struct Closest {
    const Wall* wall = nullptr;
    float t = 0.0f;
    Vec2 point;
  };
  std::array<Closest, 3> closest;
  const Vec2 p = body.position;
  // A feeler can only cross a wall from the front if the body is in front of the wall's line and
  // the tip behind it. Both are tested on signed distances (scaled by |normal|) before the
  // intersection test, with a slack far above float rounding, so they only skip walls that
  // cannot be crossed: most walls in a bucket are behind the body or out of the feelers' reach.
  const float slack = 1e-3f + 1e-4f * (std::abs(p.x) + std::abs(p.y));
  for (const Wall& wall : walls) {
    const float ahead = dot(p - wall.from, wall.normal);
    if (ahead < -slack) continue;
    for (std::size_t k = 0; k < feelers.size(); ++k) {
      const float along = dot(feelers[k] - p, wall.normal);
      if (along >= 0.0f || ahead + along > slack) continue;
      const std::optional<SegmentHit> hit = segmentIntersection(p, feelers[k], wall.from, wall.to);
      if (hit && (closest[k].wall == nullptr || hit->t < closest[k].t))
        closest[k] = {&wall, hit->t, hit->point};
    }
  }
  Vec2 force;
  for (std::size_t k = 0; k < feelers.size(); ++k) {
    if (closest[k].wall != nullptr) force += closest[k].wall->normal * length(feelers[k] - closest[k].point);
  }
  return {force, 0.0f};
}

}  // namespace steer
