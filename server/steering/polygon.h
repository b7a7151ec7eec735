// Simple polygons on the ground plane: the checks and cuts that polygon obstacles need (a wall
// piece, an L-shaped barricade, a cart's outline) and that the viewer uses to fill navmesh
// polygons. One definition of each, header-only like the rest of steering.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "steering/vec2.h"

namespace steer {

// Twice the signed area: > 0 counter-clockwise, < 0 clockwise.
inline float signedArea2(std::span<const Vec2> p) {
  float a = 0.0f;
  for (std::size_t i = 0; i < p.size(); ++i) a += cross(p[i], p[(i + 1) % p.size()]);
  return a;
}

// Whether a counter-clockwise polygon turns left (or runs straight) at every corner.
inline bool isConvexCcw(std::span<const Vec2> p) {
  const std::size_t n = p.size();
  for (std::size_t i = 0; i < n; ++i)
    if (cross(p[(i + 1) % n] - p[i], p[(i + 2) % n] - p[(i + 1) % n]) < 0.0f) return false;
  return true;
}

// Whether p lies inside the polygon (crossing count; either winding; a point on an edge may go
// either way).
inline bool insidePolygon(Vec2 p, std::span<const Vec2> poly) {
  bool in = false;
  for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
    const Vec2 a = poly[i], b = poly[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) in = !in;
  }
  return in;
}

// Whether segments [a, b] and [c, d] share any point (crossing, touching, or overlapping on one
// line).
inline bool segmentsTouch(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const float d1 = cross(b - a, c - a), d2 = cross(b - a, d - a);
  const float d3 = cross(d - c, a - c), d4 = cross(d - c, b - c);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  // An end on the other segment (collinear cases included).
  const auto on = [](Vec2 p, Vec2 q, Vec2 r, float side) {  // r on [p, q], given side = cross(q-p, r-p)
    return side == 0.0f && std::min(p.x, q.x) <= r.x && r.x <= std::max(p.x, q.x) &&
           std::min(p.y, q.y) <= r.y && r.y <= std::max(p.y, q.y);
  };
  return on(a, b, c, d1) || on(a, b, d, d2) || on(c, d, a, d3) || on(c, d, b, d4);
}

// What keeps `p` from being a simple polygon (a closed outline that never touches itself, with
// an area), as a phrase ("edges 0 and 2 cross"); empty when it is one. O(n^2): for outlines of a
// few dozen points.
inline std::string simplePolygonProblem(std::span<const Vec2> p) {
  const std::size_t n = p.size();
  if (n < 3) return "needs at least 3 points, has " + std::to_string(n);
  for (const Vec2 v : p)
    if (!isFinite(v)) return "a point is not finite";
  for (std::size_t i = 0; i < n; ++i)
    if (p[i] == p[(i + 1) % n]) return "points " + std::to_string(i) + " and next are the same";
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      const bool adjacent = j == i + 1 || (i == 0 && j == n - 1);
      const Vec2 a = p[i], b = p[(i + 1) % n], c = p[j], d = p[(j + 1) % n];
      if (adjacent) {
        // Neighbours share one end; they must not fold back over each other.
        const Vec2 shared = j == i + 1 ? b : a, far1 = j == i + 1 ? a : b, far2 = j == i + 1 ? d : c;
        if (cross(far1 - shared, far2 - shared) == 0.0f && dot(far1 - shared, far2 - shared) > 0.0f)
          return "edges " + std::to_string(i) + " and " + std::to_string(j) + " fold back over each other";
        continue;
      }
      if (segmentsTouch(a, b, c, d))
        return "edges " + std::to_string(i) + " and " + std::to_string(j) + " cross (not a simple polygon)";
    }
  }
  if (signedArea2(p) == 0.0f) return "has no area";
  return {};
}

using Triangle = std::array<std::uint32_t, 3>;  // indices into the polygon's points

// The triangles of a simple polygon by ear clipping (either winding; at most n - 2 for n points).
// Points on a straight line add no triangle of their own. A polygon that is not simple gets a fan
// for what cannot be clipped: something comes out, never an endless loop.
inline std::vector<Triangle> triangulate(std::span<const Vec2> polygon) {
  const auto turn = [](Vec2 o, Vec2 a, Vec2 b) { return cross(a - o, b - o); };
  std::vector<Triangle> out;
  const std::size_t n = polygon.size();
  if (n < 3) return out;
  const float orientation = signedArea2(polygon) >= 0.0f ? 1.0f : -1.0f;
  // p inside triangle abc or on its edges.
  const auto inside = [&](Vec2 p, Vec2 a, Vec2 b, Vec2 c) {
    return turn(a, b, p) * orientation >= 0.0f && turn(b, c, p) * orientation >= 0.0f &&
           turn(c, a, p) * orientation >= 0.0f;
  };
  std::vector<std::uint32_t> left(n);
  for (std::size_t i = 0; i < n; ++i) left[i] = static_cast<std::uint32_t>(i);
  out.reserve(n - 2);
  while (left.size() > 3) {
    const std::size_t m = left.size();
    bool clipped = false;
    for (std::size_t i = 0; i < m && !clipped; ++i) {
      const std::uint32_t ia = left[(i + m - 1) % m], ib = left[i], ic = left[(i + 1) % m];
      const Vec2 a = polygon[ia], b = polygon[ib], c = polygon[ic];
      if (turn(a, b, c) * orientation <= 0.0f) continue;  // reflex, or on a straight line
      bool empty = true;
      for (std::size_t k = 0; k < m && empty; ++k) {
        const std::uint32_t ip = left[k];
        if (ip == ia || ip == ib || ip == ic) continue;
        const Vec2 p = polygon[ip];
        if (p == a || p == b || p == c) continue;  // a repeated vertex, not one inside
        empty = !inside(p, a, b, c);
      }
      if (!empty) continue;
      out.push_back({ia, ib, ic});
      left.erase(left.begin() + static_cast<std::ptrdiff_t>(i));
      clipped = true;
    }
    if (!clipped) break;  // not simple, or only straight runs left
  }
  // Three left (the last ear), or what could not be clipped: a fan.
  for (std::size_t i = 1; i + 1 < left.size(); ++i) {
    const Vec2 a = polygon[left[0]], b = polygon[left[i]], c = polygon[left[i + 1]];
    if (turn(a, b, c) != 0.0f) out.push_back({left[0], left[i], left[i + 1]});
  }
  return out;
}

}  // namespace steer
