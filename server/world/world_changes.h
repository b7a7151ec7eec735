// What changes in a world while it runs: doors opened and closed, navmesh areas switched off or
// re-costed, obstacles added, moved (by the game, or along a path) and removed. The control API
// and a scenario's `schedule` blocks both ask for changes; the world applies them at the start of
// its next tick, in the order asked (World::applyChange, the changes phase), so a recording that
// holds the commands replays tick for tick.
//
// A door's toggle changes only its navmesh polygons' flags (no rebuild); while it is shut its
// rectangle stops bodies as four walls. Obstacles here do not carve the navmesh: bodies avoid them
// (obstacle and wall avoidance) and are pushed out of them by the contacts, and a walker whose
// path runs into one is blocked and replans round it as it would round a crowd.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "nav/nav_input.h"
#include "steering/vec2.h"
#include "steering/world_view.h"
#include "world/spatial_grid.h"

namespace steerd {

// A door declared by the scenario: the segment across the opening (jamb to jamb), `thickness`
// deep. `area` is its navmesh area id (0: the world has no navmesh).
struct Door {
  std::string name;
  steer::Vec2 from, to;
  float thickness = 1.0f;
  bool open = true;  // at the start
  std::uint8_t area = 0;
  // A navmesh link's door (a ladder, a drawbridge): from and to are the link's ends, thickness
  // its width (twice its radius); shut, paths leave it out, and nothing is walled.
  bool link = false;
};
// Its rectangle, counter-clockwise.
nav::Polygon doorRectangle(const Door& door);

// A circle (radius > 0), a box (halfSize > 0 on both axes) or a simple polygon (points, relative
// to the centre, convex or not), the last two turned by angleDeg about the centre. Circles are
// steered round as obstacles; boxes and polygons as the walls of their outline.
struct ObstacleShape {
  steer::Vec2 center;
  float radius = 0.0f;
  steer::Vec2 halfSize;
  float angleDeg = 0.0f;
  std::vector<steer::Vec2> points;                // a polygon's corners, counter-clockwise once added
  bool walled() const { return radius <= 0.0f; }  // a box or a polygon
  bool polygon() const { return !points.empty(); }
};
// A box's or polygon's outline in the world, counter-clockwise.
nav::Polygon obstacleOutline(const ObstacleShape& shape);

// Bounds on what the world accepts (the control API's and the scenario's errors name them).
inline constexpr std::size_t kMaxLiveObstacles = 1024;
inline constexpr float kMaxObstacleSize = 50.0f;  // m: a circle's radius, a box's half size, a
                                                  // polygon's farthest corner from its centre
inline constexpr std::size_t kMaxPolygonPoints = 64;
// Navmesh tiles built again per tick for carving obstacles (a count, not a time: the world stays
// the same for any machine). The rest wait in order for the next ticks.
inline constexpr std::size_t kCarveTilesPerTick = 1;

// What is wrong with a shape in a world of `bounds`, naming the field ("radius: ..."); empty when
// none: finite numbers, a size in (0, kMaxObstacleSize], the centre inside the bounds, one kind
// of shape, a polygon simple with 3 to kMaxPolygonPoints points.
std::string obstacleShapeProblem(const ObstacleShape& shape, const Bounds& bounds);
// The shape with a clockwise polygon turned counter-clockwise (the world keeps them so).
ObstacleShape counterClockwise(ObstacleShape shape);

struct LiveObstacle {
  std::uint32_t id = 0;  // from 1, never reused in a world's life
  std::string name;      // a scenario's (schedule entries remove it by name); may be empty
  ObstacleShape shape;
  std::int32_t path = -1;  // moved along this path of the scenario at `speed` m/s (-1: still)
  float speed = 0.0f;
  float along = 0.0f;  // m travelled along the path
  bool carve = false;  // cut out of the navmesh (a barricade): its tiles are built again
};

struct WorldChange {
  enum class Kind : std::uint8_t { kSetDoor, kSetArea, kAddObstacle, kMoveObstacle, kRemoveObstacle };
  Kind kind = Kind::kSetDoor;
  std::uint32_t index = 0;  // door index; area id; obstacle id (move, remove)
  bool on = true;           // door open; area enabled
  float cost = 0.0f;        // area: its cost per metre (0: unchanged)
  LiveObstacle obstacle;    // add: the obstacle (its id is given by the world); move: shape.center, angle

  // Each kind as the control API, a schedule, a test or a bench asks for it.
  static WorldChange setDoor(std::uint32_t door, bool open) {
    WorldChange c;
    c.kind = Kind::kSetDoor;
    c.index = door;
    c.on = open;
    return c;
  }
  static WorldChange setArea(std::uint8_t area, bool enabled, float cost) {
    WorldChange c;
    c.kind = Kind::kSetArea;
    c.index = area;
    c.on = enabled;
    c.cost = cost;
    return c;
  }
  static WorldChange add(LiveObstacle obstacle) {
    WorldChange c;
    c.kind = Kind::kAddObstacle;
    c.obstacle = std::move(obstacle);
    return c;
  }
  static WorldChange add(ObstacleShape shape) {
    LiveObstacle o;
    o.shape = shape;
    return add(std::move(o));
  }
  static WorldChange move(std::uint32_t obstacle, steer::Vec2 center, float angleDeg) {
    WorldChange c;
    c.kind = Kind::kMoveObstacle;
    c.index = obstacle;
    c.obstacle.shape.center = center;
    c.obstacle.shape.angleDeg = angleDeg;
    return c;
  }
  static WorldChange remove(std::uint32_t obstacle) {
    WorldChange c;
    c.kind = Kind::kRemoveObstacle;
    c.index = obstacle;
    return c;
  }
};

struct ScheduledChange {
  std::uint64_t tick = 0;  // applied at the start of this tick
  WorldChange change;
};

// Per door, for the report.
struct DoorFigures {
  std::uint64_t closedTicks = 0;
  std::uint64_t replans = 0;  // paths planned again because it closed or opened
  std::uint64_t toggles = 0;
};

}  // namespace steerd

namespace steerd {

// A navmesh tile by its grid position.
struct TileKey {
  int x = 0, y = 0;
  bool operator==(const TileKey&) const = default;
};

// A world's changes so far and what the next changes phase still has to do (World holds one).
struct WorldChangeState {
  std::vector<steer::CircleObstacle> baseObstacles;  // the scenario's own shapes
  std::vector<steer::Wall> baseWalls;
  std::vector<Door> doors;  // `open`: as they are now
  std::vector<DoorFigures> doorFigures;
  std::vector<LiveObstacle> obstacles;  // by id, ascending
  std::uint32_t nextObstacleId = 1;
  std::vector<ScheduledChange> schedule;  // by tick (stable)
  std::size_t scheduleNext = 0;
  float reach = 1.0f;         // the obstacle buckets' (World::prepareArchetypes)
  std::uint64_t version = 0;  // +1 for every tick whose changes phase changed something
  // For the next changes phase:
  bool shapesChanged = false;  // rebuild the geometry's obstacles (and, when wallsChanged, its walls)
  bool wallsChanged = false;   // a box or a door changed
  std::vector<std::uint32_t> doorsClosed;  // push bodies out of them, replan paths through them
  std::vector<std::uint32_t> doorsOpened;  // replan
  std::vector<std::uint32_t> boxesPlaced;  // obstacle ids: push bodies out of them
  std::vector<TileKey> tileQueue;          // tiles to build again for carving obstacles, first asked first
  std::size_t tileNext = 0;                // tileQueue's first still waiting
  std::uint64_t tilesRebuilt = 0;
  std::string carveError;  // the last tile build that failed (that tile is left as it was)
};

}  // namespace steerd
