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
  // A link's door goes with no thickness: clients draw it as the link's line and wall nothing.
  for (const Door& d : geometry.doors)
    s.doors.push_back({point(d.from), point(d.to), d.link ? 0.0f : d.thickness, d.name, d.open});
  return s;
}

wire::SceneGeometry wireSceneOf(const World& world) {
  wire::SceneGeometry s = wireSceneOf(world.geometry());
  s.obstacles.clear();
  for (const auto& o : world.baseObstacles()) s.obstacles.push_back({point(o.center), o.radius});
  s.walls.clear();
  for (const auto& w : world.baseWalls()) s.walls.push_back({point(w.from), point(w.to)});
  return s;
}

std::vector<bool> doorStatesOf(const World& world) {
  std::vector<bool> open;
  open.reserve(world.doors().size());
  for (const Door& d : world.doors()) open.push_back(d.open);
  return open;
}

std::vector<wire::SceneObstacle> sceneObstaclesOf(const World& world) {
  std::vector<wire::SceneObstacle> out;
  out.reserve(world.liveObstacles().size());
  for (const LiveObstacle& o : world.liveObstacles()) {
    const std::uint32_t shape = o.shape.polygon()  ? wire::kObstaclePolygon
                                : o.shape.walled() ? wire::kObstacleBox
                                                   : 0u;
    const std::uint32_t flags =
        shape | (o.carve ? wire::kObstacleCarves : 0u) | (o.path >= 0 ? wire::kObstacleMoves : 0u);
    std::vector<wire::ScenePoint> points;
    for (const steer::Vec2 p : o.shape.points) points.push_back(point(p));
    out.push_back(wire::quantizedObstacle(o.id, flags, point(o.shape.center), o.shape.radius,
                                          point(o.shape.halfSize), o.shape.angleDeg, points));
  }
  return out;
}

}  // namespace steerd::net
