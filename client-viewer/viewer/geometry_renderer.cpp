#include "viewer/geometry_renderer.h"

#include <algorithm>
#include <cmath>

#include "viewer/palette.h"

namespace steerd::viewer {

namespace {

Point toPoint(wire::ScenePoint p) { return {p.x, p.y}; }

bool overlaps(const WorldRect& a, const WorldRect& b) {
  return a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;
}

WorldRect boxOf(Point a, Point b, float pad = 0.0f) {
  return {std::min(a.x, b.x) - pad, std::min(a.y, b.y) - pad, std::max(a.x, b.x) + pad,
          std::max(a.y, b.y) + pad};
}

}  // namespace

void GeometryRenderer::reset() { nav_.clear(); }

void GeometryRenderer::draw(SDL_Renderer* renderer, const Camera& camera, const wire::SceneGeometry* scene,
                            const wire::SceneLive* live, const GeometrySettings& settings) {
  if (scene == nullptr) return;
  const WorldRect seen = camera.visibleWorld();
  if (settings.navmesh) drawNavmesh(camera, *scene, seen);
  if (settings.paths) drawPaths(camera, *scene);
  if (settings.obstaclesAndWalls) {
    drawObstacles(camera, *scene, seen);
    if (live != nullptr) drawBoxes(camera, *live);
    drawDoors(camera, *scene);
    drawWalls(camera, *scene, seen);
  }
  canvas_.flush(renderer);
}

void GeometryRenderer::drawNavmesh(const Camera& camera, const wire::SceneGeometry& scene,
                                   const WorldRect& seen) {
  if (nav_.size() > scene.navPolygons.size()) nav_.clear();  // a new scene
  while (nav_.size() < scene.navPolygons.size()) {
    const auto& polygon = scene.navPolygons[nav_.size()];
    std::vector<Point> points;
    points.reserve(polygon.size());
    for (const auto& p : polygon) points.push_back(toPoint(p));
    NavPolygon n;
    n.triangles = triangulate(points);
    if (!points.empty()) n.box = boxOf(points.front(), points.front());
    for (const Point& p : points) {
      n.box = {std::min(n.box.minX, p.x), std::min(n.box.minY, p.y), std::max(n.box.maxX, p.x),
               std::max(n.box.maxY, p.y)};
    }
    nav_.push_back(std::move(n));
  }
  for (std::size_t i = 0; i < nav_.size(); ++i) {
    if (!overlaps(nav_[i].box, seen)) continue;
    const auto& polygon = scene.navPolygons[i];
    screen_.clear();
    for (const auto& p : polygon) screen_.push_back(camera.worldToScreen(toPoint(p)));
    for (const Triangle& t : nav_[i].triangles) {
      canvas_.triangle(screen_[t[0]], screen_[t[1]], screen_[t[2]], palette::kNavFill);
    }
    for (std::size_t k = 0; k < screen_.size(); ++k) {
      canvas_.line(screen_[k], screen_[(k + 1) % screen_.size()], 1.0f, palette::kNavEdge);
    }
  }
}

void GeometryRenderer::drawPaths(const Camera& camera, const wire::SceneGeometry& scene) {
  for (const wire::ScenePolyline& path : scene.paths) {
    if (path.points.empty()) continue;
    float phase = 0.0f;
    const std::size_t segments = path.looped ? path.points.size() : path.points.size() - 1;
    for (std::size_t k = 0; k < segments; ++k) {
      const Point a = camera.worldToScreen(toPoint(path.points[k]));
      const Point b = camera.worldToScreen(toPoint(path.points[(k + 1) % path.points.size()]));
      phase = canvas_.dashedLine(a, b, 1.5f, 7.0f, 5.0f, palette::kPath, phase);
    }
    for (const auto& p : path.points) canvas_.disc(camera.worldToScreen(toPoint(p)), 2.5f, palette::kPath, 8);
  }
}

void GeometryRenderer::drawObstacles(const Camera& camera, const wire::SceneGeometry& scene,
                                     const WorldRect& seen) {
  for (const wire::SceneCircle& o : scene.obstacles) {
    const Point c = toPoint(o.centre);
    if (!overlaps(boxOf(c, c, o.radius), seen)) continue;
    const float r = std::max(camera.metresToPixels(o.radius), 1.5f);
    const int segments = std::clamp(static_cast<int>(r * 0.6f), 12, 64);
    const Point s = camera.worldToScreen(c);
    canvas_.disc(s, r, palette::kObstacle, segments);
    canvas_.ring(s, r, std::min(1.5f, r * 0.5f), palette::kObstacleEdge, segments);
  }
}

void GeometryRenderer::drawDoors(const Camera& camera, const wire::SceneGeometry& scene) {
  for (const wire::SceneDoor& door : scene.doors) {
    if (!(door.thickness > 0.0f)) {  // on a navmesh link: its line, solid while shut
      const Point a = camera.worldToScreen(toPoint(door.from)), b = camera.worldToScreen(toPoint(door.to));
      if (door.open)
        canvas_.dashedLine(a, b, 2.0f, 5.0f, 4.0f, palette::kDoorOpen);
      else
        canvas_.line(a, b, 3.0f, palette::kDoorShut);
      continue;
    }
    const std::vector<wire::ScenePoint> r = wire::doorRectangle(door);
    if (r.size() != 4) continue;
    screen_.clear();
    for (const auto& p : r) screen_.push_back(camera.worldToScreen(toPoint(p)));
    if (!door.open) {
      canvas_.quad(screen_[0], screen_[1], screen_[2], screen_[3], palette::kDoorShut);
      continue;
    }
    float phase = 0.0f;
    for (std::size_t k = 0; k < 4; ++k)
      phase =
          canvas_.dashedLine(screen_[k], screen_[(k + 1) % 4], 1.5f, 5.0f, 4.0f, palette::kDoorOpen, phase);
  }
}

void GeometryRenderer::drawBoxes(const Camera& camera, const wire::SceneLive& live) {
  for (const wire::SceneObstacle& o : live.obstacles) {
    if (!o.box() && !o.polygon()) continue;
    const std::vector<wire::ScenePoint> c = wire::obstacleOutline(o);
    const Rgba fill = (o.flags & wire::kObstacleCarves) != 0 ? palette::kCarving : palette::kObstacle;
    screen_.clear();
    for (const wire::ScenePoint& p : c) screen_.push_back(camera.worldToScreen(toPoint(p)));
    if (o.box()) {  // convex: two triangles (a four-cornered polygon may be concave)
      canvas_.quad(screen_[0], screen_[1], screen_[2], screen_[3], fill);
      continue;
    }
    for (const Triangle& t : triangulate(screen_))
      canvas_.triangle(screen_[t[0]], screen_[t[1]], screen_[t[2]], fill);
  }
}

void GeometryRenderer::drawWalls(const Camera& camera, const wire::SceneGeometry& scene,
                                 const WorldRect& seen) {
  const float width = std::clamp(camera.metresToPixels(0.25f), 2.0f, 6.0f);
  const float tickMetres = std::clamp(camera.metresToPixels(0.6f), 4.0f, 10.0f) / camera.scale();
  for (const wire::SceneSegment& w : scene.walls) {
    const Point from = toPoint(w.from), to = toPoint(w.to);
    if (!overlaps(boxOf(from, to, tickMetres), seen)) continue;
    const Point a = camera.worldToScreen(from), b = camera.worldToScreen(to);
    canvas_.line(a, b, width, palette::kWall);
    // The side bodies belong on: the left of from -> to (a two-sided fence gets a tick each side).
    const Point d = to - from;
    const float len = length(d);
    if (!(len > 0.0f)) continue;
    const Point normal{-d.y / len, d.x / len};
    const Point mid = (from + to) * 0.5f;
    canvas_.line(camera.worldToScreen(mid), camera.worldToScreen(mid + normal * tickMetres), width * 0.6f,
                 palette::kWall);
  }
}

}  // namespace steerd::viewer
