#include "world/world_changes.h"

#include <cmath>

namespace steerd {

nav::Polygon doorRectangle(const Door& door) {
  const steer::Vec2 along = steer::normalizedOr(door.to - door.from, {1.0f, 0.0f});
  const steer::Vec2 across = steer::perp(along) * (0.5f * door.thickness);
  return {door.from - across, door.to - across, door.to + across, door.from + across};
}

nav::Polygon boxOutline(const ObstacleShape& shape) {
  const float a = shape.angleDeg * static_cast<float>(M_PI) / 180.0f;
  const steer::Vec2 u{std::cos(a), std::sin(a)}, v{-u.y, u.x};
  const steer::Vec2 c = shape.center, hx = u * shape.halfSize.x, hy = v * shape.halfSize.y;
  return {c - hx - hy, c + hx - hy, c + hx + hy, c - hx + hy};
}

std::string obstacleShapeProblem(const ObstacleShape& s, const Bounds& b) {
  const auto finite = [](float x) { return std::isfinite(x); };
  if (!finite(s.center.x) || !finite(s.center.y)) return "position: not a finite point";
  if (s.center.x < b.minX || s.center.x > b.maxX || s.center.y < b.minY || s.center.y > b.maxY)
    return "position: outside the world's bounds";
  if (!finite(s.radius) || !finite(s.halfSize.x) || !finite(s.halfSize.y) || !finite(s.angleDeg))
    return "radius: sizes and angle must be finite";
  const std::string limit = " (at most " + std::to_string(static_cast<int>(kMaxObstacleSize)) + " m)";
  if (s.radius > 0.0f) {
    if (s.radius > kMaxObstacleSize) return "radius: too large" + limit;
    if (s.halfSize.x != 0.0f || s.halfSize.y != 0.0f) return "half_size: a circle has no half_size";
    return {};
  }
  if (s.radius < 0.0f) return "radius: negative";
  if (!(s.halfSize.x > 0.0f && s.halfSize.y > 0.0f))
    return "half_size: a box needs both half sizes > 0 (or give a radius for a circle)";
  if (s.halfSize.x > kMaxObstacleSize || s.halfSize.y > kMaxObstacleSize)
    return "half_size: too large" + limit;
  return {};
}

}  // namespace steerd
