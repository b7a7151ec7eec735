// The world's side of run-time changes (world_changes.h): applyChange records a change at once,
// and the changes phase, first in step(), makes bodies, paths and the obstacle buckets follow.
#include <algorithm>
#include <cmath>

#include "nav/navmesh_build.h"
#include "steering/polygon.h"
#include "world/world.h"

namespace steerd {

namespace {

using steer::Vec2;

// The point `along` m along a path (a looped one wraps; an open one stops at its end).
Vec2 pointAlong(const Path& path, float& along) {
  const auto& p = path.points;
  if (p.size() < 2) return p.empty() ? Vec2{} : p[0];
  const std::size_t legs = path.looped ? p.size() : p.size() - 1;
  float total = 0.0f;
  for (std::size_t i = 0; i < legs; ++i) total += steer::distance(p[i], p[(i + 1) % p.size()]);
  if (!(total > 0.0f)) return p[0];
  if (path.looped) {
    along = std::fmod(along, total);
  } else {
    along = std::min(along, total);
  }
  float left = along;
  for (std::size_t i = 0; i < legs; ++i) {
    const Vec2 a = p[i], b = p[(i + 1) % p.size()];
    const float len = steer::distance(a, b);
    if (left <= len && len > 0.0f) return a + (b - a) * (left / len);
    left -= len;
  }
  return path.looped ? p[0] : p.back();
}

// Walls facing out of a closed outline (bodies keep to a wall's left).
void addOutwardWalls(const nav::Polygon& ccw, std::vector<steer::Wall>& walls) {
  for (std::size_t i = 0; i < ccw.size(); ++i)
    walls.push_back(steer::makeWall(ccw[(i + 1) % ccw.size()], ccw[i]));
}

// A carving outline as navmesh blocking polygons, which Recast takes convex: a concave one in
// triangles.
void addBlocking(const nav::Polygon& ccw, std::vector<nav::Polygon>& blocking) {
  if (steer::isConvexCcw(ccw)) {
    blocking.push_back(ccw);
    return;
  }
  for (const steer::Triangle& t : steer::triangulate(ccw))
    blocking.push_back({ccw[t[0]], ccw[t[1]], ccw[t[2]]});
}

// The shape's box in (x, y).
void boundsOf(const ObstacleShape& shape, Vec2& lo, Vec2& hi) {
  if (!shape.walled()) {
    lo = shape.center - Vec2{shape.radius, shape.radius};
    hi = shape.center + Vec2{shape.radius, shape.radius};
    return;
  }
  lo = hi = shape.center;
  for (const Vec2 p : obstacleOutline(shape)) {
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
  }
}

}  // namespace

// The tiles a carving shape touches (with the border a tile's build reads round it) join the queue.
void World::queueTilesUnder(const ObstacleShape& shape) {
  if (!geometry_.navMesh || !geometry_.navInput) return;
  const nav::NavMeshTiles& layout = geometry_.navMesh->layout();
  const nav::NavBuildSettings& settings = geometry_.navInput->settings;
  Vec2 lo, hi;
  boundsOf(shape, lo, hi);
  const float pad = settings.agentRadius + 4.0f * settings.cellSize;
  const auto tileOf = [&](float v, float origin, int count) {
    return std::clamp(static_cast<int>(std::floor((v - origin) / layout.tileWidth)), 0, count - 1);
  };
  const int x0 = tileOf(lo.x - pad, layout.origin[0], layout.tilesX),
            x1 = tileOf(hi.x + pad, layout.origin[0], layout.tilesX);
  const int y0 = tileOf(lo.y - pad, layout.origin[2], layout.tilesY),
            y1 = tileOf(hi.y + pad, layout.origin[2], layout.tilesY);
  auto& q = changes_.tileQueue;
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const TileKey key{x, y};
      if (std::find(q.begin() + static_cast<std::ptrdiff_t>(changes_.tileNext), q.end(), key) == q.end())
        q.push_back(key);
    }
  }
}

// Up to kCarveTilesPerTick queued tiles built again from the scenario's input plus every carving
// obstacle live now; paths are planned again on the mesh as it is.
void World::carveTiles() {
  WorldChangeState& c = changes_;
  if (c.tileNext >= c.tileQueue.size() || !geometry_.navMesh || !geometry_.navInput) return;
  nav::NavInput in = *geometry_.navInput;
  for (const LiveObstacle& o : c.obstacles) {
    if (!o.carve) continue;
    if (o.shape.walled()) {
      addBlocking(obstacleOutline(o.shape), in.blocking);
    } else {
      in.cylinders.push_back({o.shape.center, o.shape.radius});
    }
  }
  nav::NavMesh& mesh = *geometry_.navMesh;
  for (std::size_t n = 0; n < kCarveTilesPerTick && c.tileNext < c.tileQueue.size(); ++n) {
    const TileKey key = c.tileQueue[c.tileNext++];
    std::vector<unsigned char> data;
    std::string error;
    if (!nav::buildNavMeshTile(in, mesh.layout(), key.x, key.y, data, error) ||
        !mesh.replaceTile(key.x, key.y, data, error)) {
      c.carveError = error;
      continue;
    }
    ++c.tilesRebuilt;
  }
  // The done part goes once it is half the queue: the waiting part is never longer than the
  // mesh's tiles (a tile is queued once while it waits), so neither is the whole.
  if (c.tileNext * 2 >= c.tileQueue.size()) {
    c.tileQueue.erase(c.tileQueue.begin(), c.tileQueue.begin() + static_cast<std::ptrdiff_t>(c.tileNext));
    c.tileNext = 0;
  }
  geometry_.navPolygons = mesh.polygons();
  if (navigation_) {
    navigation_->meshChanged();
    navigation_->replanAll();
  }
}

std::int32_t World::doorIndex(const std::string& name) const {
  for (std::size_t i = 0; i < changes_.doors.size(); ++i)
    if (changes_.doors[i].name == name) return static_cast<std::int32_t>(i);
  return -1;
}

std::uint8_t World::areaId(const std::string& name) const {
  for (std::size_t i = 0; i < geometry_.areaNames.size(); ++i)
    if (geometry_.areaNames[i] == name) return static_cast<std::uint8_t>(i + 1);
  return 0;
}

const LiveObstacle* World::liveObstacle(std::uint32_t id) const {
  const auto& o = changes_.obstacles;
  const auto it = std::lower_bound(o.begin(), o.end(), id,
                                   [](const LiveObstacle& a, std::uint32_t v) { return a.id < v; });
  return it != o.end() && it->id == id ? &*it : nullptr;
}

void World::setSchedule(std::vector<ScheduledChange> changes) {
  std::stable_sort(changes.begin(), changes.end(),
                   [](const ScheduledChange& a, const ScheduledChange& b) { return a.tick < b.tick; });
  changes_.schedule = std::move(changes);
  changes_.scheduleNext = 0;
}

std::uint32_t World::applyChange(const WorldChange& change) {
  WorldChangeState& c = changes_;
  switch (change.kind) {
    case WorldChange::Kind::kSetDoor: {
      Door& door = c.doors.at(change.index);
      if (door.open == change.on) return 0;
      door.open = change.on;
      ++c.doorFigures[change.index].toggles;
      if (geometry_.navMesh) geometry_.navMesh->setAreaPassable(door.area, change.on);
      (change.on ? c.doorsOpened : c.doorsClosed).push_back(change.index);
      c.shapesChanged = c.wallsChanged = true;
      return 0;
    }
    case WorldChange::Kind::kSetArea:
      if (geometry_.navMesh) {
        geometry_.navMesh->setAreaPassable(static_cast<std::uint8_t>(change.index), change.on);
        if (change.cost > 0.0f)
          geometry_.navMesh->setAreaCost(static_cast<std::uint8_t>(change.index), change.cost);
      }
      c.doorsOpened.push_back(0xffffffffu);  // every path may be better now: replan all
      return 0;
    case WorldChange::Kind::kAddObstacle: {
      LiveObstacle o = change.obstacle;
      o.id = c.nextObstacleId++;
      o.shape = counterClockwise(std::move(o.shape));
      if (o.shape.walled()) c.boxesPlaced.push_back(o.id);
      c.wallsChanged = c.wallsChanged || o.shape.walled();
      if (o.carve) queueTilesUnder(o.shape);
      c.obstacles.push_back(std::move(o));
      c.shapesChanged = true;
      return c.obstacles.back().id;
    }
    case WorldChange::Kind::kMoveObstacle:
      for (LiveObstacle& o : c.obstacles) {
        if (o.id != change.index) continue;
        if (o.carve) queueTilesUnder(o.shape);  // where it stood
        o.shape.center = change.obstacle.shape.center;
        o.shape.angleDeg = change.obstacle.shape.angleDeg;
        if (o.shape.walled()) c.boxesPlaced.push_back(o.id);
        c.wallsChanged = c.wallsChanged || o.shape.walled();
        if (o.carve) queueTilesUnder(o.shape);  // where it stands now
        c.shapesChanged = true;
      }
      return 0;
    case WorldChange::Kind::kRemoveObstacle:
      for (const LiveObstacle& o : c.obstacles) {
        if (o.id != change.index) continue;
        c.wallsChanged = c.wallsChanged || o.shape.walled();
        if (o.carve) queueTilesUnder(o.shape);
      }
      std::erase_if(c.obstacles, [&](const LiveObstacle& o) { return o.id == change.index; });
      c.shapesChanged = true;
      return 0;
  }
  return 0;
}

// The geometry's lists from the scenario's own shapes and the live ones; only the obstacles' buckets
// again when no wall changed (circles moving: a cart).
void World::rebuildShapes() {
  geometry_.obstacles = changes_.baseObstacles;
  for (const LiveObstacle& o : changes_.obstacles)
    if (!o.shape.walled()) geometry_.obstacles.push_back({o.shape.center, o.shape.radius});
  if (!changes_.wallsChanged) {
    geometry_.reindexObstacles();
    return;
  }
  geometry_.walls = changes_.baseWalls;
  for (const LiveObstacle& o : changes_.obstacles)
    if (o.shape.walled()) addOutwardWalls(obstacleOutline(o.shape), geometry_.walls);
  for (const Door& d : changes_.doors)
    if (!d.open && !d.link) addOutwardWalls(doorRectangle(d), geometry_.walls);
  geometry_.index(4.0f, changes_.reach);
}

// A body pushed out of a shape: to `at`, keeping none of its velocity into the shape (`out` is
// the unit direction it was pushed).
void World::placeOutside(std::size_t slot, Vec2 at, Vec2 out) {
  current_.px[slot] = at.x;
  current_.py[slot] = at.y;
  const float into = current_.vx[slot] * out.x + current_.vy[slot] * out.y;
  if (into < 0.0f) {
    current_.vx[slot] -= out.x * into;
    current_.vy[slot] -= out.y * into;
  }
}

// Bodies (not connected players: their server moves them) whose centre lies inside a convex
// counter-clockwise outline go out by its nearest edge to a radius beyond it; `acrossOnly` (a
// door) uses only edges 0 and 2, the two faces of the doorway, never its jambs (into the wall).
void World::pushOutOf(const nav::Polygon& outline, bool acrossOnly) {
  const std::size_t k = outline.size();
  if (!steer::isConvexCcw(outline)) {
    pushOutOfConcave(outline);
    return;
  }
  for (std::size_t s = 0; s < current_.size(); ++s) {
    if (current_.memory(s).flags & kAgentExternal) continue;
    const Vec2 p{current_.px[s], current_.py[s]};
    float best = -1e30f;
    Vec2 out{};
    bool inside = true;
    for (std::size_t i = 0; i < k && inside; ++i) {
      const Vec2 a = outline[i], b = outline[(i + 1) % k];
      const Vec2 normal = steer::normalizedOr(Vec2{b.y - a.y, a.x - b.x}, {0.0f, 1.0f});  // outward
      const float d = steer::dot(p - a, normal);                                          // < 0 inside
      if (d >= 0.0f) inside = false;
      if (acrossOnly && (i % 2) == 1) continue;
      if (d > best) {
        best = d;
        out = normal;
      }
    }
    if (!inside) continue;
    const float r = archetypes_[current_.archetype[s]].limits.radius;
    const Vec2 q = p + out * (r - best + 0.01f);
    placeOutside(s, q, out);
  }
}

// The same for a concave outline (a polygon obstacle): a body inside goes to the nearest point of
// the outline and a radius beyond it, straight away from where it stood.
void World::pushOutOfConcave(const nav::Polygon& outline) {
  const std::size_t k = outline.size();
  for (std::size_t s = 0; s < current_.size(); ++s) {
    if (current_.memory(s).flags & kAgentExternal) continue;
    const Vec2 p{current_.px[s], current_.py[s]};
    if (!steer::insidePolygon(p, outline)) continue;
    float best = 1e30f;
    Vec2 nearest = p, edgeOut{0.0f, 1.0f};
    for (std::size_t i = 0; i < k; ++i) {
      const Vec2 a = outline[i], b = outline[(i + 1) % k];
      const Vec2 q = steer::nearestOnSegment(p, a, b);
      const float d = steer::distanceSq(p, q);
      if (d < best) {
        best = d;
        nearest = q;
        edgeOut = steer::normalizedOr(Vec2{b.y - a.y, a.x - b.x}, {0.0f, 1.0f});
      }
    }
    const Vec2 out = steer::normalizedOr(nearest - p, edgeOut);
    const float r = archetypes_[current_.archetype[s]].limits.radius;
    const Vec2 q = nearest + out * (r + 0.01f);
    placeOutside(s, q, out);
  }
}

// changes: scheduled changes due now, obstacles on paths moved, then what every change since the
// last tick asks of bodies, paths and the buckets (in the order asked; serial, so the same for any
// thread count).
void World::changesPhase() {
  WorldChangeState& c = changes_;
  while (c.scheduleNext < c.schedule.size() && c.schedule[c.scheduleNext].tick <= tick_) {
    WorldChange change = c.schedule[c.scheduleNext++].change;
    // A schedule names obstacles, not ids: the id is the live obstacle of that name.
    if (change.kind == WorldChange::Kind::kRemoveObstacle ||
        change.kind == WorldChange::Kind::kMoveObstacle) {
      const auto it = std::find_if(c.obstacles.begin(), c.obstacles.end(),
                                   [&](const LiveObstacle& o) { return o.name == change.obstacle.name; });
      if (it == c.obstacles.end()) continue;  // removed already (validated: it was added before)
      change.index = it->id;
    }
    applyChange(change);
  }
  for (LiveObstacle& o : c.obstacles) {
    if (o.path < 0 || o.path >= static_cast<std::int32_t>(geometry_.paths.size()) || o.speed <= 0.0f)
      continue;
    o.along += o.speed * config_.dt;
    o.shape.center = pointAlong(geometry_.paths[static_cast<std::size_t>(o.path)], o.along);
    c.shapesChanged = true;
    if (o.shape.walled()) {
      c.boxesPlaced.push_back(o.id);
      c.wallsChanged = true;
    }
  }
  for (std::size_t i = 0; i < c.doors.size(); ++i)
    if (!c.doors[i].open) ++c.doorFigures[i].closedTicks;
  const bool carving = c.tileNext < c.tileQueue.size();
  if (carving) carveTiles();
  if (!c.shapesChanged && c.doorsClosed.empty() && c.doorsOpened.empty() && !carving) return;
  ++c.version;
  if (c.shapesChanged) rebuildShapes();
  for (const std::uint32_t d : c.doorsClosed) {
    if (c.doors[d].open) continue;  // opened again since
    if (c.doors[d].link) {
      // A corridor runs along a link, never across it: everyone with a goal plans again.
      if (navigation_) c.doorFigures[d].replans += navigation_->replanAll();
      continue;
    }
    pushOutOf(doorRectangle(c.doors[d]), true);
    if (navigation_) c.doorFigures[d].replans += navigation_->replanCrossing(c.doors[d].from, c.doors[d].to);
  }
  for (const std::uint32_t id : c.boxesPlaced)
    if (const LiveObstacle* o = liveObstacle(id)) pushOutOf(obstacleOutline(o->shape), false);
  for (const std::uint32_t d : c.doorsOpened) {
    if (!navigation_) break;
    const std::size_t n = navigation_->replanAll();
    if (d < c.doorFigures.size() && c.doors[d].open) c.doorFigures[d].replans += n;
  }
  c.shapesChanged = c.wallsChanged = false;
  c.doorsClosed.clear();
  c.doorsOpened.clear();
  c.boxesPlaced.clear();
}

}  // namespace steerd
