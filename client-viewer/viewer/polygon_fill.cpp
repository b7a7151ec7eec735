#include "viewer/polygon_fill.h"

#include <cstddef>

namespace steerd::viewer {

namespace {

float cross(Point o, Point a, Point b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

// p inside triangle abc or on its edges, for a triangle wound as `orientation` (+1 CCW, -1 CW).
bool inside(Point p, Point a, Point b, Point c, float orientation) {
  return cross(a, b, p) * orientation >= 0.0f && cross(b, c, p) * orientation >= 0.0f &&
         cross(c, a, p) * orientation >= 0.0f;
}

}  // namespace

std::vector<Triangle> triangulate(const std::vector<Point>& polygon) {
  std::vector<Triangle> out;
  const std::size_t n = polygon.size();
  if (n < 3) return out;
  float area2 = 0.0f;
  for (std::size_t i = 0; i < n; ++i) {
    const Point a = polygon[i], b = polygon[(i + 1) % n];
    area2 += a.x * b.y - b.x * a.y;
  }
  const float orientation = area2 >= 0.0f ? 1.0f : -1.0f;
  std::vector<std::uint32_t> left(n);
  for (std::size_t i = 0; i < n; ++i) left[i] = static_cast<std::uint32_t>(i);
  out.reserve(n - 2);
  while (left.size() > 3) {
    const std::size_t m = left.size();
    bool clipped = false;
    for (std::size_t i = 0; i < m && !clipped; ++i) {
      const std::uint32_t ia = left[(i + m - 1) % m], ib = left[i], ic = left[(i + 1) % m];
      const Point a = polygon[ia], b = polygon[ib], c = polygon[ic];
      if (cross(a, b, c) * orientation <= 0.0f) continue;  // reflex, or on a straight line
      bool empty = true;
      for (std::size_t k = 0; k < m && empty; ++k) {
        const std::uint32_t ip = left[k];
        if (ip == ia || ip == ib || ip == ic) continue;
        const Point p = polygon[ip];
        if (p == a || p == b || p == c) continue;  // a repeated vertex, not one inside
        empty = !inside(p, a, b, c, orientation);
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
    const Point a = polygon[left[0]], b = polygon[left[i]], c = polygon[left[i + 1]];
    if (cross(a, b, c) != 0.0f) out.push_back({left[0], left[i], left[i + 1]});
  }
  return out;
}

}  // namespace steerd::viewer
