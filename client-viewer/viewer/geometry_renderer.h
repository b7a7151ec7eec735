// Draws the static scene the server sent (client::Client::scene()): navmesh polygons as faint
// filled shapes with outlines, paths as dashed lines with their waypoints, obstacles as filled
// discs, walls as thick lines with a tick on the side they face, doors as rectangles (filled when
// shut, dashed when open), live boxes filled (brown when they carve the navmesh). Only what
// arrived is drawn: while parts are missing the picture fills in as they come, and a change is
// drawn from the frame after its page came.
#pragma once

#include <SDL.h>

#include <vector>

#include "proto/scene_changes_codec.h"
#include "proto/scene_codec.h"
#include "viewer/camera.h"
#include "viewer/canvas.h"
#include "viewer/polygon_fill.h"

namespace steerd::viewer {

struct GeometrySettings {
  bool obstaclesAndWalls = true;
  bool paths = true;
  bool navmesh = true;
};

class GeometryRenderer {
 public:
  // Forgets what was cached about the previous connection's scene.
  void reset();
  void draw(SDL_Renderer* renderer, const Camera& camera, const wire::SceneGeometry* scene,
            const wire::SceneLive* live, const GeometrySettings& settings);

 private:
  struct NavPolygon {
    std::vector<Triangle> triangles;
    WorldRect box;
  };
  void drawNavmesh(const Camera& camera, const wire::SceneGeometry& scene, const WorldRect& seen);
  void drawPaths(const Camera& camera, const wire::SceneGeometry& scene);
  void drawObstacles(const Camera& camera, const wire::SceneGeometry& scene, const WorldRect& seen);
  void drawWalls(const Camera& camera, const wire::SceneGeometry& scene, const WorldRect& seen);
  void drawDoors(const Camera& camera, const wire::SceneGeometry& scene);
  void drawBoxes(const Camera& camera, const wire::SceneLive& live);

  Canvas canvas_;
  std::vector<NavPolygon> nav_;  // triangulated once, as the polygons arrive
  std::vector<Point> screen_;    // scratch
};

}  // namespace steerd::viewer
