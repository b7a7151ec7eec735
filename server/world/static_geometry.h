// The parts of the world that do not move on their own: bounds, circle obstacles, walls, paths.
// (Doors and obstacles that change at run time: world_changes.h; World keeps `obstacles` and
// `walls` up to date with them.)
//
// Obstacles and walls are also bucketed into a coarse grid once at load time, each cell holding
// copies of the obstacles and walls within reach of any agent standing in it (cell padded by the
// longest detection box or feeler), so an agent's avoidance looks at a handful of shapes, not all
// of them, however large the world.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "nav/navmesh.h"
#include "steering/world_view.h"
#include "world/spatial_grid.h"
#include "world/world_changes.h"

namespace steerd {

struct Path {
  std::vector<steer::Vec2> points;
  bool looped = true;
  std::string name = {};  // the scenario file's (empty for generated worlds)
};

// A scenario file's named point (the control API's MoveToWaypoint).
struct NamedPoint {
  std::string name;
  steer::Vec2 position;
};

class StaticGeometry {
 public:
  Bounds bounds;
  std::vector<steer::CircleObstacle> obstacles;
  std::vector<steer::Wall> walls;
  std::vector<Path> paths;
  std::vector<NamedPoint> waypoints;
  // The navmesh's polygons (world x, y, counter-clockwise), filled when the scenario builds one;
  // for drawing and debugging only (navigation queries go through server/nav).
  std::vector<std::vector<steer::Vec2>> navPolygons;
  // The navmesh NAVIGATE behaviours walk (null: none; the behaviour then does nothing).
  std::shared_ptr<nav::NavMesh> navMesh;
  // What navMesh was built from (null: unknown, e.g. a test's mesh): tiles an obstacle carves are
  // built again from it plus the carving obstacles.
  std::shared_ptr<const nav::NavInput> navInput;
  // Doors as the scenario declares them, with their state at the start (the world opens and
  // closes them: World::doors()), and the navmesh's named areas (area id i + 1 is areaNames[i]).
  std::vector<Door> doors;
  std::vector<std::string> areaNames;

  // Builds the buckets of side `cellSize` (larger if the world would need more than 262,144);
  // `reach` is the farthest an agent looks for obstacles and walls.
  void index(float cellSize, float reach);
  // The obstacles' buckets again, after `obstacles` changed (walls and cells as the last index()):
  // what the changes phase does when only circles moved.
  void reindexObstacles();

  // Obstacles and walls that may matter to an agent at (x, y).
  std::span<const steer::CircleObstacle> obstaclesNear(float x, float y) const;
  std::span<const steer::Wall> wallsNear(float x, float y) const;
  // Both at once (one cell lookup).
  struct Near {
    std::span<const steer::CircleObstacle> obstacles;
    std::span<const steer::Wall> walls;
  };
  Near near(float x, float y) const;

  // Copies into `out` the obstacles whose edge is within `range` of (x, y), up to out.size();
  // returns how many. For far-looking behaviours (hide) that need more than the buckets hold.
  std::size_t obstaclesInRange(float x, float y, float range, std::span<steer::CircleObstacle> out) const;
  // The same for walls (boxes' walls included) with some point within `range` of (x, y).
  std::size_t wallsInRange(float x, float y, float range, std::span<steer::Wall> out) const;
  // Whether index() has run (before it, the InRange queries find nothing).
  bool indexed() const { return !ownWallStart_.empty(); }

 private:
  std::size_t cellOf(float x, float y) const;
  template <class Shape, class Within>
  std::size_t collectInRange(float x, float y, float range, const std::vector<std::uint32_t>& start,
                             const std::vector<std::uint32_t>& index, const std::vector<Shape>& shapes,
                             Within within, std::span<Shape> out) const;

  void indexShapes(float cellSize, float reach, bool withWalls);
  float cellSize_ = 16.0f;
  float reach_ = 0.0f;
  int nx_ = 1, ny_ = 1;
  CellAxis axisX_, axisY_;
  std::vector<std::uint32_t> obstacleStart_, wallStart_;  // per cell, prefix sums
  std::vector<steer::CircleObstacle> bucketedObstacles_;  // copies per cell, contiguous
  std::vector<steer::Wall> bucketedWalls_;
  std::vector<std::uint32_t> ownStart_;  // per cell: obstacles whose circle overlaps the cell itself
  std::vector<std::uint32_t> ownIndex_;  // indices into `obstacles`
  // indexShapes' scratch, kept so a cart moved every tick costs no allocation: each (cell,
  // obstacle) pair in the order visited, with whether the obstacle is near the cell and in it.
  struct CellVisit {
    std::uint32_t cell = 0, shape = 0;
    bool near = false, own = false;
  };
  std::vector<CellVisit> visits_;
  std::vector<std::uint32_t> cursor_, ownCursor_;
  std::vector<std::uint32_t> ownWallStart_;  // per cell: walls whose bounding box overlaps the cell
  std::vector<std::uint32_t> ownWallIndex_;  // indices into `walls`
};

// Whether the segment from -> to passes through an obstacle or crosses a wall (sight; a corner's
// next corner in view).
bool sightBlocked(const StaticGeometry& geometry, steer::Vec2 from, steer::Vec2 to);

}  // namespace steerd
