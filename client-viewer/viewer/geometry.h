// The viewer's small 2-D types: a point (world metres or screen pixels, the name says which) and
// a world rectangle. Kept apart from the server's steer::Vec2 so the viewer depends only on the
// client library.
#pragma once

#include <algorithm>
#include <cmath>

namespace steerd::viewer {

struct Point {
  float x = 0.0f, y = 0.0f;

  friend Point operator+(Point a, Point b) { return {a.x + b.x, a.y + b.y}; }
  friend Point operator-(Point a, Point b) { return {a.x - b.x, a.y - b.y}; }
  friend Point operator*(Point a, float s) { return {a.x * s, a.y * s}; }
  friend bool operator==(Point a, Point b) = default;
};

inline float length(Point p) { return std::hypot(p.x, p.y); }

// Axis-aligned world rectangle, metres (y up).
struct WorldRect {
  float minX = 0.0f, minY = 0.0f, maxX = 0.0f, maxY = 0.0f;

  float width() const { return maxX - minX; }
  float height() const { return maxY - minY; }
  Point centre() const { return {(minX + maxX) * 0.5f, (minY + maxY) * 0.5f}; }
  bool valid() const {
    return std::isfinite(width()) && std::isfinite(height()) && width() > 0 && height() > 0;
  }
  bool contains(Point p) const { return p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY; }
  // The rectangle shrunk by `margin` on every side (never past its centre).
  WorldRect inset(float margin) const {
    const float mx = std::min(margin, width() * 0.5f), my = std::min(margin, height() * 0.5f);
    return {minX + mx, minY + my, maxX - mx, maxY - my};
  }
  Point clamp(Point p) const { return {std::clamp(p.x, minX, maxX), std::clamp(p.y, minY, maxY)}; }
};

}  // namespace steerd::viewer
