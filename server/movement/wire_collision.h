// The scene a player collides with, from the static scene as clients decode it (wire::SceneGeometry,
// 1/64 m) and the world's bounds: one conversion for the server and the client library, so both
// step players against the same floats.
#pragma once

#include "movement/player_motion.h"
#include "proto/scene_codec.h"

namespace steerd::movement {

inline CollisionScene collisionSceneOf(const wire::SceneGeometry& scene, float minX, float minY, float maxX,
                                       float maxY) {
  std::vector<Circle> circles;
  circles.reserve(scene.obstacles.size());
  for (const auto& o : scene.obstacles) circles.push_back({{o.centre.x, o.centre.y}, o.radius});
  std::vector<Segment> walls;
  walls.reserve(scene.walls.size());
  for (const auto& w : scene.walls) walls.push_back({{w.from.x, w.from.y}, {w.to.x, w.to.y}});
  return CollisionScene(minX, minY, maxX, maxY, std::move(circles), std::move(walls));
}

}  // namespace steerd::movement
