// The read-only slice of the world a behaviour may look at: static geometry.
#pragma once

#include <span>

#include "vec2.h"

namespace steer {

struct CircleObstacle {
  Vec2 center;
  float radius = 0.0f;
};

// A one-sided wall segment. `normal` is unit and points to the side bodies are meant to be on;
// makeWall() computes it as the left-hand normal of (to - from).
struct Wall {
  Vec2 from;
  Vec2 to;
  Vec2 normal;
};

inline Wall makeWall(Vec2 from, Vec2 to) {
  return {from, to, normalizedOr(perp(to - from), Vec2{0.0f, 1.0f})};
}

// An ordered list of waypoints; a looped path goes back from the last to the first.
struct PathView {
  std::span<const Vec2> points;
  bool looped = false;
};

struct WorldView {
  std::span<const CircleObstacle> obstacles;
  std::span<const Wall> walls;
};

}  // namespace steer
