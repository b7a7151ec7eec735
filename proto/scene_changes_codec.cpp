#include "proto/scene_changes_codec.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "proto/snapshot_codec.h"
#include "proto/varint_size.h"

namespace steerd::wire {

namespace {

constexpr std::int32_t kCoordinateLimit = (1 << 30) - 1;  // as the static scene's
constexpr std::uint32_t kAngleSteps = 65536;
// What a page costs besides its obstacles: have, after_obstacle, version and through (a tag and a
// 5-byte varint each), whole, and for each of the ten packed lists a tag and a 2-byte length.
constexpr std::size_t kPageOverhead = 4 * 6 + 2 + 10 * 3;
// The polygons' four lists (a 2-byte tag each), once a page has a polygon.
constexpr std::size_t kPolygonListsOverhead = 4 * 4;
constexpr std::size_t kMinPageBytes = 256;

std::int32_t quantizeCoordinate(float metres) {
  return std::clamp(quantizePosition(metres), -kCoordinateLimit, kCoordinateLimit);
}
std::uint32_t quantizeLength(float metres) {
  return static_cast<std::uint32_t>(std::clamp(quantizePosition(metres), 0, kCoordinateLimit));
}
float metres(std::int64_t units) { return positionMetres(static_cast<std::int32_t>(units)); }

std::uint32_t quantizeAngle(float radians) {
  const double turns = static_cast<double>(radians) / (2.0 * std::numbers::pi);
  const double wrapped = turns - std::floor(turns);
  return static_cast<std::uint32_t>(std::lround(wrapped * kAngleSteps)) % kAngleSteps;
}
float angleRadians(std::uint32_t steps) {
  return static_cast<float>(static_cast<double>(steps) * 2.0 * std::numbers::pi / kAngleSteps);
}

// One obstacle's values on the wire.
struct WireObstacle {
  std::int32_t x = 0, y = 0;
  std::uint32_t radius = 0, halfX = 0, halfY = 0, angle = 0;
  std::vector<std::int32_t> px, py;  // a polygon's corners, delta coded
};
WireObstacle toWire(const SceneObstacle& o) {
  WireObstacle w{quantizeCoordinate(o.centre.x), quantizeCoordinate(o.centre.y), 0, 0, 0, 0, {}, {}};
  if (o.polygon()) {
    w.angle = quantizeAngle(o.angle);
    std::int32_t lastX = 0, lastY = 0;
    for (const ScenePoint& p : o.points) {
      const std::int32_t x = quantizeCoordinate(p.x), y = quantizeCoordinate(p.y);
      w.px.push_back(x - lastX);
      w.py.push_back(y - lastY);
      lastX = x;
      lastY = y;
    }
  } else if (o.box()) {
    w.halfX = quantizeLength(o.halfSize.x);
    w.halfY = quantizeLength(o.halfSize.y);
    w.angle = quantizeAngle(o.angle);
  } else {
    w.radius = quantizeLength(o.radius);
  }
  return w;
}

// Fills one page in id order up to a byte budget, counting as it goes.
class Page {
 public:
  Page(std::uint32_t after, std::size_t budget, std::size_t doors) : lastId_(after), lastRemoved_(after) {
    used_ = kPageOverhead + doors;
    budget_ = std::max(budget, kMinPageBytes);
  }

  bool addObstacle(const SceneObstacle& o) {
    const WireObstacle w = toWire(o);
    std::size_t cost = varintBytes(o.id - lastId_) + varintBytes(o.flags) +
                       zigzagBytes(std::int64_t{w.x} - prevX_) + zigzagBytes(std::int64_t{w.y} - prevY_);
    if (o.polygon()) {
      cost += (polygons_ ? 0 : kPolygonListsOverhead) + varintBytes(o.points.size()) + varintBytes(w.angle);
      for (std::size_t i = 0; i < w.px.size(); ++i) cost += zigzagBytes(w.px[i]) + zigzagBytes(w.py[i]);
    } else if (o.box()) {
      cost += varintBytes(w.halfX) + varintBytes(w.halfY) + varintBytes(w.angle);
    } else {
      cost += varintBytes(w.radius);
    }
    if (used_ + cost > budget_) return false;
    used_ += cost;
    page_.add_obstacle_id(o.id - lastId_);
    page_.add_obstacle_flags(o.flags);
    page_.add_obstacle_x(w.x - prevX_);
    page_.add_obstacle_y(w.y - prevY_);
    if (o.polygon()) {
      polygons_ = true;
      page_.add_polygon_points(static_cast<std::uint32_t>(o.points.size()));
      page_.add_polygon_angle(w.angle);
      for (std::size_t i = 0; i < w.px.size(); ++i) {
        page_.add_polygon_x(w.px[i]);
        page_.add_polygon_y(w.py[i]);
      }
    } else if (o.box()) {
      page_.add_box_half_x(w.halfX);
      page_.add_box_half_y(w.halfY);
      page_.add_box_angle(w.angle);
    } else {
      page_.add_circle_radius(w.radius);
    }
    lastId_ = o.id;
    prevX_ = w.x;
    prevY_ = w.y;
    return true;
  }

  bool addRemoval(std::uint32_t id) {
    const std::size_t cost = varintBytes(id - lastRemoved_);
    if (used_ + cost > budget_) return false;
    used_ += cost;
    page_.add_removed(id - lastRemoved_);
    lastRemoved_ = id;
    return true;
  }

  SceneChanges& page() { return page_; }

 private:
  SceneChanges page_;
  std::uint32_t lastId_, lastRemoved_;
  std::int32_t prevX_ = 0, prevY_ = 0;
  std::size_t used_ = 0, budget_ = 0;
  bool polygons_ = false;  // the page has one
};

}  // namespace

SceneObstacle quantizedObstacle(std::uint32_t id, std::uint32_t flags, ScenePoint centre, float radius,
                                ScenePoint halfSize, float angleDeg, const std::vector<ScenePoint>& points) {
  SceneObstacle o;
  o.id = id;
  o.flags = flags & kObstacleFlagsKnown;
  if (o.polygon()) o.flags &= ~kObstacleBox;
  o.centre = {metres(quantizeCoordinate(centre.x)), metres(quantizeCoordinate(centre.y))};
  const double radians =
      std::isfinite(angleDeg) ? static_cast<double>(angleDeg) * std::numbers::pi / 180.0 : 0.0;
  if (o.polygon()) {
    o.angle = angleRadians(quantizeAngle(static_cast<float>(radians)));
    for (std::size_t i = 0; i < points.size() && i < kMaxObstaclePolygonPoints; ++i)
      o.points.push_back({metres(quantizeCoordinate(points[i].x)), metres(quantizeCoordinate(points[i].y))});
  } else if (o.box()) {
    o.halfSize = {metres(quantizeLength(halfSize.x)), metres(quantizeLength(halfSize.y))};
    o.angle = angleRadians(quantizeAngle(static_cast<float>(radians)));
  } else {
    o.radius = metres(quantizeLength(radius));
  }
  return o;
}

std::vector<ScenePoint> boxCorners(const SceneObstacle& box) {
  const float c = std::cos(box.angle), s = std::sin(box.angle);
  const float hx = box.halfSize.x, hy = box.halfSize.y;
  std::vector<ScenePoint> corners;
  for (const auto& [u, v] : {std::pair{-hx, -hy}, std::pair{hx, -hy}, std::pair{hx, hy}, std::pair{-hx, hy}})
    corners.push_back({box.centre.x + u * c - v * s, box.centre.y + u * s + v * c});
  return corners;
}

std::vector<ScenePoint> obstacleOutline(const SceneObstacle& o) {
  if (o.box()) return boxCorners(o);
  std::vector<ScenePoint> outline;
  if (!o.polygon()) return outline;
  const float c = std::cos(o.angle), s = std::sin(o.angle);
  outline.reserve(o.points.size());
  for (const ScenePoint& p : o.points)
    outline.push_back({o.centre.x + p.x * c - p.y * s, o.centre.y + p.x * s + p.y * c});
  return outline;
}

void recordScene(SceneChangeLog& log, std::uint32_t version, std::vector<bool> doorOpen,
                 const std::vector<SceneObstacle>& obstacles) {
  log.version = version;
  log.doorOpen = std::move(doorOpen);
  std::vector<SceneChangeLog::Entry> now;
  now.reserve(obstacles.size());
  std::size_t i = 0;  // walks log.obstacles, both lists ascending by id
  for (const SceneObstacle& o : obstacles) {
    while (i < log.obstacles.size() && log.obstacles[i].obstacle.id < o.id)
      log.removed.push_back({log.obstacles[i++].obstacle.id, version});
    if (i < log.obstacles.size() && log.obstacles[i].obstacle.id == o.id) {
      const SceneChangeLog::Entry& was = log.obstacles[i++];
      now.push_back({o, was.obstacle == o ? was.changed : version});
    } else {
      now.push_back({o, version});
    }
  }
  for (; i < log.obstacles.size(); ++i) log.removed.push_back({log.obstacles[i].obstacle.id, version});
  log.obstacles = std::move(now);
  // Ids are never reused, so a removal is never of an id already removed; keep them by id.
  std::sort(log.removed.begin(), log.removed.end(),
            [](const SceneChangeLog::Removal& a, const SceneChangeLog::Removal& b) { return a.id < b.id; });
  if (log.removed.size() > kMaxRemovalsKept) {
    // Forget the older half: everything removed at or before the median version.
    std::vector<std::uint32_t> versions;
    versions.reserve(log.removed.size());
    for (const auto& r : log.removed) versions.push_back(r.version);
    std::nth_element(versions.begin(), versions.begin() + static_cast<std::ptrdiff_t>(versions.size() / 2),
                     versions.end());
    const std::uint32_t cut = versions[versions.size() / 2];
    log.forgotten = std::max(log.forgotten, cut);
    std::erase_if(log.removed, [&](const SceneChangeLog::Removal& r) { return r.version <= cut; });
  }
}

SceneChanges encodeSceneChanges(const SceneChangeLog& log, std::uint32_t have, std::uint32_t afterObstacle,
                                std::size_t maxBytes) {
  const bool whole = have == 0 || have > log.version || have < log.forgotten;
  Page page(afterObstacle, maxBytes, log.doorOpen.size());
  SceneChanges& out = page.page();
  out.set_have(have);
  out.set_after_obstacle(afterObstacle);
  out.set_version(log.version);
  out.set_whole(whole);
  for (const bool open : log.doorOpen) out.add_door_open(open);

  auto o =
      std::lower_bound(log.obstacles.begin(), log.obstacles.end(), afterObstacle + 1ull,
                       [](const SceneChangeLog::Entry& e, std::uint64_t id) { return e.obstacle.id < id; });
  auto r = std::lower_bound(log.removed.begin(), log.removed.end(), afterObstacle + 1ull,
                            [](const SceneChangeLog::Removal& e, std::uint64_t id) { return e.id < id; });
  const auto skip = [&] {
    while (o != log.obstacles.end() && !whole && o->changed <= have) ++o;
    while (r != log.removed.end() && (whole || r->version <= have)) ++r;
  };
  std::uint32_t lastPlaced = afterObstacle;
  for (skip(); o != log.obstacles.end() || r != log.removed.end(); skip()) {
    const bool obstacleNext = r == log.removed.end() || (o != log.obstacles.end() && o->obstacle.id < r->id);
    const std::uint32_t id = obstacleNext ? o->obstacle.id : r->id;
    if (!(obstacleNext ? page.addObstacle(o->obstacle) : page.addRemoval(id))) {
      out.set_through(lastPlaced);  // full: the rest come on the next page
      break;
    }
    lastPlaced = id;
    if (obstacleNext)
      ++o;
    else
      ++r;
  }
  return std::move(out);
}

std::string applySceneChanges(const SceneChanges& page, SceneLive& held) {
  const int n = page.obstacle_id_size();
  if (page.obstacle_flags_size() != n || page.obstacle_x_size() != n || page.obstacle_y_size() != n)
    return "obstacle lists of different lengths";
  if (page.box_half_x_size() != page.box_half_y_size() || page.box_half_x_size() != page.box_angle_size())
    return "box lists of different lengths";
  if (page.polygon_points_size() != page.polygon_angle_size() ||
      page.polygon_x_size() != page.polygon_y_size())
    return "polygon lists of different lengths";
  const std::uint64_t after = page.after_obstacle();
  const std::uint64_t through = page.through() == 0 ? UINT32_MAX : page.through();
  if (page.through() != 0 && page.through() <= page.after_obstacle()) return "page range is empty";

  std::vector<SceneObstacle> listed;
  listed.reserve(static_cast<std::size_t>(n));
  std::uint64_t id = after;
  std::int64_t x = 0, y = 0;
  int circles = 0, boxes = 0, polygons = 0, corners = 0;
  for (int i = 0; i < n; ++i) {
    if (page.obstacle_id(i) == 0) return "obstacle ids not ascending";
    id += page.obstacle_id(i);
    if (id > through) return "obstacle id outside the page's range";
    const std::uint32_t flags = page.obstacle_flags(i);
    if ((flags & ~kObstacleFlagsKnown) != 0) return "unknown obstacle flags";
    if ((flags & kObstacleBox) != 0 && (flags & kObstaclePolygon) != 0)
      return "an obstacle both box and polygon";
    x += page.obstacle_x(i);
    y += page.obstacle_y(i);
    if (x < -kCoordinateLimit || x > kCoordinateLimit || y < -kCoordinateLimit || y > kCoordinateLimit)
      return "obstacle out of range";
    SceneObstacle o;
    o.id = static_cast<std::uint32_t>(id);
    o.flags = flags;
    o.centre = {metres(x), metres(y)};
    if (o.polygon()) {
      if (polygons >= page.polygon_points_size()) return "more polygons than corner counts";
      const std::uint32_t count = page.polygon_points(polygons), a = page.polygon_angle(polygons);
      ++polygons;
      if (count < 3 || count > kMaxObstaclePolygonPoints) return "polygon corner count out of range";
      if (a >= kAngleSteps) return "polygon angle out of range";
      if (static_cast<std::size_t>(page.polygon_x_size() - corners) < count)
        return "more corners than listed";
      o.angle = angleRadians(a);
      std::int64_t cx = 0, cy = 0;
      for (std::uint32_t k = 0; k < count; ++k, ++corners) {
        cx += page.polygon_x(corners);
        cy += page.polygon_y(corners);
        if (cx < -kCoordinateLimit || cx > kCoordinateLimit || cy < -kCoordinateLimit ||
            cy > kCoordinateLimit)
          return "polygon corner out of range";
        o.points.push_back({metres(cx), metres(cy)});
      }
    } else if (o.box()) {
      if (boxes >= page.box_half_x_size()) return "more boxes than box sizes";
      const std::uint32_t hx = page.box_half_x(boxes), hy = page.box_half_y(boxes), a = page.box_angle(boxes);
      ++boxes;
      if (hx > static_cast<std::uint32_t>(kCoordinateLimit) ||
          hy > static_cast<std::uint32_t>(kCoordinateLimit))
        return "box size out of range";
      if (a >= kAngleSteps) return "box angle out of range";
      o.halfSize = {metres(hx), metres(hy)};
      o.angle = angleRadians(a);
    } else {
      if (circles >= page.circle_radius_size()) return "more circles than radii";
      const std::uint32_t radius = page.circle_radius(circles++);
      if (radius > static_cast<std::uint32_t>(kCoordinateLimit)) return "radius out of range";
      o.radius = metres(radius);
    }
    listed.push_back(o);
  }
  if (circles != page.circle_radius_size() || boxes != page.box_half_x_size() ||
      polygons != page.polygon_points_size() || corners != page.polygon_x_size())
    return "shape lists do not match the obstacles";
  std::vector<std::uint32_t> removed;
  removed.reserve(static_cast<std::size_t>(page.removed_size()));
  id = after;
  for (const std::uint32_t step : page.removed()) {
    if (step == 0) return "removed ids not ascending";
    id += step;
    if (id > through) return "removed id outside the page's range";
    removed.push_back(static_cast<std::uint32_t>(id));
  }
  if (page.whole() && !removed.empty()) return "a whole page lists removals";
  // An id both listed and removed.
  for (std::size_t a = 0, b = 0; a < listed.size() && b < removed.size();) {
    if (listed[a].id == removed[b]) return "an obstacle both listed and removed";
    if (listed[a].id < removed[b])
      ++a;
    else
      ++b;
  }

  // Merge: held outside the range stays; inside it, listed ones replace, removed (or, for a whole
  // page, unlisted) ones go.
  std::vector<SceneObstacle> merged;
  merged.reserve(held.obstacles.size() + listed.size());
  std::size_t a = 0, b = 0, c = 0;
  const auto inRange = [&](std::uint32_t v) { return v > after && v <= through; };
  while (a < held.obstacles.size() || b < listed.size()) {
    if (b == listed.size() || (a < held.obstacles.size() && held.obstacles[a].id < listed[b].id)) {
      const SceneObstacle& h = held.obstacles[a++];
      while (c < removed.size() && removed[c] < h.id) ++c;
      const bool gone = inRange(h.id) && (page.whole() || (c < removed.size() && removed[c] == h.id));
      if (!gone) merged.push_back(h);
    } else {
      if (a < held.obstacles.size() && held.obstacles[a].id == listed[b].id) ++a;  // replaced
      merged.push_back(listed[b++]);
    }
  }
  if (merged.size() > kMaxSceneObstacles) return "more obstacles than a client holds";
  held.obstacles = std::move(merged);
  held.doorOpen.assign(page.door_open().begin(), page.door_open().end());
  return {};
}

SceneGeometry currentScene(const SceneGeometry& base, const SceneLive& live) {
  SceneGeometry scene = base;
  // Walls facing out of a counter-clockwise outline: each edge reversed (a wall faces its left).
  const auto addOutline = [&](const std::vector<ScenePoint>& corners) {
    for (std::size_t i = 0; i < corners.size(); ++i)
      scene.walls.push_back({corners[(i + 1) % corners.size()], corners[i]});
  };
  for (const SceneObstacle& o : live.obstacles) {
    if (o.box() || o.polygon())
      addOutline(obstacleOutline(o));
    else
      scene.obstacles.push_back({o.centre, o.radius});
  }
  for (std::size_t d = 0; d < scene.doors.size(); ++d) {
    if (d < live.doorOpen.size()) scene.doors[d].open = live.doorOpen[d];
    // A door of no thickness is on a navmesh link: it walls nothing.
    if (!scene.doors[d].open && scene.doors[d].thickness > 0.0f) addOutline(doorRectangle(scene.doors[d]));
  }
  return scene;
}

}  // namespace steerd::wire
