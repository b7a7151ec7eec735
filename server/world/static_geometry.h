// The parts of the world that do not move: bounds, circle obstacles, walls, paths.
//
// Obstacles are also bucketed into a coarse grid once at load time, each cell listing the
// obstacles within reach of any agent standing in it (cell padded by the longest detection box),
// so an agent's obstacle avoidance looks at a handful of circles, not all of them.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "steering/world_view.h"
#include "world/spatial_grid.h"

namespace steerd {

struct Path {
  std::vector<steer::Vec2> points;
  bool looped = true;
};

class StaticGeometry {
 public:
  Bounds bounds;
  std::vector<steer::CircleObstacle> obstacles;
  std::vector<steer::Wall> walls;
  std::vector<Path> paths;

  // Builds the obstacle buckets; `reach` is the farthest an agent looks for obstacles.
  void index(float cellSize, float reach);

  // Obstacles that may matter to an agent at (x, y).
  std::span<const steer::CircleObstacle> obstaclesNear(float x, float y) const;

 private:
  float cellSize_ = 16.0f;
  int nx_ = 1, ny_ = 1;
  std::vector<std::uint32_t> cellStart_;
  std::vector<steer::CircleObstacle> bucketed_;  // obstacles copied per cell, contiguous
};

}  // namespace steerd
