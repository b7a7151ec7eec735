#include "viewer/polygon_fill.h"

#include "steering/polygon.h"

namespace steerd::viewer {

std::vector<Triangle> triangulate(const std::vector<Point>& polygon) {
  std::vector<steer::Vec2> points;
  points.reserve(polygon.size());
  for (const Point p : polygon) points.push_back({p.x, p.y});
  return steer::triangulate(points);
}

}  // namespace steerd::viewer
