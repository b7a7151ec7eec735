#include "world/world_changes.h"

#include <algorithm>
#include <cmath>

#include "steering/polygon.h"

namespace steerd {

nav::Polygon doorRectangle(const Door& door) {
  const steer::Vec2 along = steer::normalizedOr(door.to - door.from, {1.0f, 0.0f});
  const steer::Vec2 across = steer::perp(along) * (0.5f * door.thickness);
  return {door.from - across, door.to - across, door.to + across, door.from + across};
}

nav::Polygon obstacleOutline(const ObstacleShape& shape) {
  const float a = shape.angleDeg * static_cast<float>(M_PI) / 180.0f;
  const steer::Vec2 u{std::cos(a), std::sin(a)}, v{-u.y, u.x};
  const steer::Vec2 c = shape.center;
  if (shape.polygon()) {
    nav::Polygon out;
    out.reserve(shape.points.size());
    for (const steer::Vec2 p : shape.points) out.push_back(c + u * p.x + v * p.y);
    return out;
  }
  const steer::Vec2 hx = u * shape.halfSize.x, hy = v * shape.halfSize.y;
  return {c - hx - hy, c + hx - hy, c + hx + hy, c - hx + hy};
}

ObstacleShape counterClockwise(ObstacleShape shape) {
  if (steer::signedArea2(shape.points) < 0.0f) std::reverse(shape.points.begin(), shape.points.end());
  return shape;
}

std::string obstacleShapeProblem(const ObstacleShape& s, const Bounds& b) {
  const auto finite = [](float x) { return std::isfinite(x); };
  if (!finite(s.center.x) || !finite(s.center.y)) return "position: not a finite point";
  if (s.center.x < b.minX || s.center.x > b.maxX || s.center.y < b.minY || s.center.y > b.maxY)
    return "position: outside the world's bounds";
  if (!finite(s.radius) || !finite(s.halfSize.x) || !finite(s.halfSize.y) || !finite(s.angleDeg))
    return "radius: sizes and angle must be finite";
  const std::string limit = " (at most " + std::to_string(static_cast<int>(kMaxObstacleSize)) + " m)";
  if (s.polygon()) {
    if (s.radius != 0.0f || s.halfSize.x != 0.0f || s.halfSize.y != 0.0f)
      return "points: a polygon has no radius or half_size";
    if (s.points.size() > kMaxPolygonPoints)
      return "points: at most " + std::to_string(kMaxPolygonPoints) + ", has " +
             std::to_string(s.points.size());
    const std::string simple = steer::simplePolygonProblem(s.points);
    if (!simple.empty()) return "points: " + simple;
    for (const steer::Vec2 p : s.points)
      if (steer::length(p) > kMaxObstacleSize) return "points: a corner too far from position" + limit;
    return {};
  }
  if (s.radius > 0.0f) {
    if (s.radius > kMaxObstacleSize) return "radius: too large" + limit;
    if (s.halfSize.x != 0.0f || s.halfSize.y != 0.0f) return "half_size: a circle has no half_size";
    return {};
  }
  if (s.radius < 0.0f) return "radius: negative";
  if (!(s.halfSize.x > 0.0f && s.halfSize.y > 0.0f))
    return "half_size: a box needs both half sizes > 0 (or give a radius for a circle, points for "
           "a polygon)";
  if (s.halfSize.x > kMaxObstacleSize || s.halfSize.y > kMaxObstacleSize)
    return "half_size: too large" + limit;
  return {};
}

}  // namespace steerd
