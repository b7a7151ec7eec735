#include "net/wire_scene.h"

namespace steerd::net {

namespace {

wire::ScenePoint point(steer::Vec2 v) { return {v.x, v.y}; }

}  // namespace

wire::SceneGeometry wireSceneOf(const StaticGeometry& geometry) {
  wire::SceneGeometry s;
  s.obstacles.reserve(geometry.obstacles.size());
  for (const auto& o : geometry.obstacles) s.obstacles.push_back({point(o.center), o.radius});
  s.walls.reserve(geometry.walls.size());
  for (const auto& w : geometry.walls) s.walls.push_back({point(w.from), point(w.to)});
  s.paths.reserve(geometry.paths.size());
  for (const auto& p : geometry.paths) {
    wire::ScenePolyline line;
    line.looped = p.looped;
    for (const auto& v : p.points) line.points.push_back(point(v));
    s.paths.push_back(std::move(line));
  }
  s.navPolygons.reserve(geometry.navPolygons.size());
  for (const auto& polygon : geometry.navPolygons) {
    std::vector<wire::ScenePoint> vertices;
    vertices.reserve(polygon.size());
    for (const auto& v : polygon) vertices.push_back(point(v));
    s.navPolygons.push_back(std::move(vertices));
  }
  return s;
}

}  // namespace steerd::net
