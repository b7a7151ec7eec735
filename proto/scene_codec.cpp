#include "proto/scene_codec.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>

#include "proto/snapshot_codec.h"
#include "proto/varint_size.h"

namespace steerd::wire {

namespace {

// Coordinates stay one unit inside the snapshots' +-2^30 so the difference of two always fits a
// sint32.
constexpr std::int32_t kCoordinateLimit = (1 << 30) - 1;
// Upper bound of what a part costs besides its values: part and part_count (tag + 5-byte varint
// each), and for each of the 12 lists a tag and a length prefix (2 bytes below 16,384).
constexpr std::size_t kPartOverhead = 2 * 6 + 12 * 3;
// The door lists (door_x, door_y, door_thickness, door_open: tag and length each), paid by a part
// only once it holds a door, so a scene without doors is what it was before doors existed.
constexpr std::size_t kDoorListsOverhead = 4 * 3;
// A polyline or polygon's point count (a varint, 2 bytes below 16,384) plus its looped flag.
constexpr std::size_t kShapeHeaderBytes = 3;
// Budgets below this could not hold two points of a polyline next to the overhead.
constexpr std::size_t kMinPartBytes = 128;

struct QPoint {
  std::int32_t x = 0, y = 0;
};

QPoint quantize(ScenePoint p) {
  return {std::clamp(quantizePosition(p.x), -kCoordinateLimit, kCoordinateLimit),
          std::clamp(quantizePosition(p.y), -kCoordinateLimit, kCoordinateLimit)};
}

std::uint32_t quantizeRadius(float r) {
  return static_cast<std::uint32_t>(std::clamp(quantizePosition(r), 0, kCoordinateLimit));
}

// One delta-coded point list of a part (x and y fields side by side).
class PointList {
 public:
  PointList(google::protobuf::RepeatedField<std::int32_t>* xs,
            google::protobuf::RepeatedField<std::int32_t>* ys)
      : xs_(xs), ys_(ys) {}
  std::size_t cost(QPoint p) const {
    return zigzagBytes(std::int64_t{p.x} - prev_.x) + zigzagBytes(std::int64_t{p.y} - prev_.y);
  }
  void add(QPoint p) {
    xs_->Add(p.x - prev_.x);
    ys_->Add(p.y - prev_.y);
    prev_ = p;
  }
  // What `points` would cost appended after the current last point.
  std::size_t cost(const std::vector<QPoint>& points) const {
    std::size_t c = 0;
    QPoint prev = prev_;
    for (const QPoint& p : points) {
      c += zigzagBytes(std::int64_t{p.x} - prev.x) + zigzagBytes(std::int64_t{p.y} - prev.y);
      prev = p;
    }
    return c;
  }

 private:
  google::protobuf::RepeatedField<std::int32_t>* xs_;
  google::protobuf::RepeatedField<std::int32_t>* ys_;
  QPoint prev_;
};

// One part being filled, with an upper bound of its serialized size.
class Part {
 public:
  Part()
      : obstacles_(scene_.mutable_obstacle_x(), scene_.mutable_obstacle_y()),
        walls_(scene_.mutable_wall_x(), scene_.mutable_wall_y()),
        paths_(scene_.mutable_path_x(), scene_.mutable_path_y()),
        nav_(scene_.mutable_nav_x(), scene_.mutable_nav_y()),
        doors_(scene_.mutable_door_x(), scene_.mutable_door_y()) {}
  // The point lists point into this part's own Scene.
  Part(const Part&) = delete;
  Part& operator=(const Part&) = delete;

  std::size_t used() const { return used_; }
  bool empty() const { return used_ == kPartOverhead; }

  std::size_t obstacleCost(QPoint c, std::uint32_t r) const { return obstacles_.cost(c) + varintBytes(r); }
  void addObstacle(QPoint c, std::uint32_t r) {
    used_ += obstacleCost(c, r);
    obstacles_.add(c);
    scene_.add_obstacle_radius(r);
  }

  std::size_t wallCost(QPoint from, QPoint to) const { return walls_.cost(std::vector<QPoint>{from, to}); }
  void addWall(QPoint from, QPoint to) {
    used_ += wallCost(from, to);
    walls_.add(from);
    walls_.add(to);
  }

  std::size_t pathCost(const std::vector<QPoint>& points) const {
    return kShapeHeaderBytes + paths_.cost(points);
  }
  void addPath(const std::vector<QPoint>& points, bool looped) {
    used_ += pathCost(points);
    scene_.add_path_points(static_cast<std::uint32_t>(points.size()));
    scene_.add_path_looped(looped);
    for (const QPoint& p : points) paths_.add(p);
  }

  std::size_t polygonCost(const std::vector<QPoint>& points) const {
    return kShapeHeaderBytes + nav_.cost(points);
  }
  void addPolygon(const std::vector<QPoint>& points) {
    used_ += polygonCost(points);
    scene_.add_nav_points(static_cast<std::uint32_t>(points.size()));
    for (const QPoint& p : points) nav_.add(p);
  }

  std::size_t doorCost(QPoint from, QPoint to, std::uint32_t thickness, const std::string& name) const {
    // The first door of a part adds the four door lists' tags and lengths.
    const std::size_t lists = scene_.door_thickness_size() == 0 ? kDoorListsOverhead : 0;
    return lists + doors_.cost(std::vector<QPoint>{from, to}) + varintBytes(thickness) + 2 + name.size() + 1;
  }
  void addDoor(QPoint from, QPoint to, std::uint32_t thickness, const std::string& name, bool open) {
    used_ += doorCost(from, to, thickness, name);
    doors_.add(from);
    doors_.add(to);
    scene_.add_door_thickness(thickness);
    scene_.add_door_name(name);
    scene_.add_door_open(open);
  }

  Scene take() { return std::move(scene_); }

 private:
  Scene scene_;
  PointList obstacles_, walls_, paths_, nav_, doors_;
  std::size_t used_ = kPartOverhead;
};

// Fills parts in order: a shape goes into the current part when it fits, else into a new one.
class Encoder {
 public:
  explicit Encoder(std::size_t budget) : budget_(std::max(budget, kMinPartBytes)) {
    current_ = std::make_unique<Part>();
  }

  // Places a shape whose cost in a part is cost(part): true when it fits a part at all.
  bool place(const std::function<std::size_t(const Part&)>& cost, const std::function<void(Part&)>& add) {
    if (current_->used() + cost(*current_) > budget_) {
      if (current_->empty()) return false;
      flush();
      if (current_->used() + cost(*current_) > budget_) return false;
    }
    add(*current_);
    return true;
  }

  // A polyline too long for one part: open pieces that share their end points.
  void placeSplit(const std::vector<QPoint>& points) {
    std::size_t start = 0;
    while (start + 1 < points.size()) {
      if (!current_->empty()) flush();
      // Two points always fit an empty part (kMinPartBytes); then as many more as fit.
      std::vector<QPoint> piece{points[start], points[start + 1]};
      std::size_t end = start + 2;
      for (; end < points.size(); ++end) {
        piece.push_back(points[end]);
        if (current_->used() + current_->pathCost(piece) > budget_) {
          piece.pop_back();
          break;
        }
      }
      current_->addPath(piece, false);
      start = end - 1;  // the next piece begins where this one ended
    }
  }

  std::vector<Scene> finish() {
    flush();
    const auto count = static_cast<std::uint32_t>(parts_.size());
    for (std::uint32_t i = 0; i < count; ++i) {
      parts_[i].set_part(i);
      parts_[i].set_part_count(count);
    }
    return std::move(parts_);
  }

 private:
  void flush() {
    parts_.push_back(current_->take());
    current_ = std::make_unique<Part>();
  }

  std::size_t budget_;
  std::unique_ptr<Part> current_;  // on the heap: its point lists point into its own Scene
  std::vector<Scene> parts_;
};

// At most kMaxDoorNameBytes, cut before a UTF-8 sequence rather than inside it (a protobuf string
// must stay valid UTF-8).
std::string cutName(const std::string& name) {
  if (name.size() <= kMaxDoorNameBytes) return name;
  std::size_t n = kMaxDoorNameBytes;
  while (n > 0 && (static_cast<unsigned char>(name[n]) & 0xC0) == 0x80) --n;
  return name.substr(0, n);
}

std::vector<QPoint> quantize(const std::vector<ScenePoint>& points) {
  std::vector<QPoint> q;
  q.reserve(points.size());
  for (const ScenePoint& p : points) q.push_back(quantize(p));
  return q;
}

// Undoes PointList: running sums, each checked against the coordinate range.
bool readPoints(const google::protobuf::RepeatedField<std::int32_t>& xs,
                const google::protobuf::RepeatedField<std::int32_t>& ys, std::vector<ScenePoint>& out) {
  std::int64_t x = 0, y = 0;
  out.reserve(static_cast<std::size_t>(xs.size()));
  for (int i = 0; i < xs.size(); ++i) {
    x += xs[i];
    y += ys[i];
    if (x < -kCoordinateLimit || x > kCoordinateLimit || y < -kCoordinateLimit || y > kCoordinateLimit) {
      return false;
    }
    out.push_back(
        {positionMetres(static_cast<std::int32_t>(x)), positionMetres(static_cast<std::int32_t>(y))});
  }
  return true;
}

// Cuts `points` into shapes of `counts` points each. False when the counts do not add up.
bool splitByCounts(const google::protobuf::RepeatedField<std::uint32_t>& counts,
                   const std::vector<ScenePoint>& points, std::vector<std::vector<ScenePoint>>& out) {
  std::uint64_t total = 0;
  for (std::uint32_t c : counts) total += c;
  if (total != points.size()) return false;
  std::size_t at = 0;
  for (std::uint32_t c : counts) {
    out.emplace_back(points.begin() + static_cast<std::ptrdiff_t>(at),
                     points.begin() + static_cast<std::ptrdiff_t>(at + c));
    at += c;
  }
  return true;
}

}  // namespace

EncodedScene encodeScene(const SceneGeometry& geometry, std::size_t maxPartBytes) {
  EncodedScene result;
  Encoder encoder(maxPartBytes);
  for (const SceneCircle& o : geometry.obstacles) {
    const QPoint c = quantize(o.centre);
    const std::uint32_t r = quantizeRadius(o.radius);
    encoder.place([&](const Part& p) { return p.obstacleCost(c, r); }, [&](Part& p) { p.addObstacle(c, r); });
  }
  for (const SceneSegment& w : geometry.walls) {
    const QPoint from = quantize(w.from), to = quantize(w.to);
    encoder.place([&](const Part& p) { return p.wallCost(from, to); }, [&](Part& p) { p.addWall(from, to); });
  }
  for (const ScenePolyline& path : geometry.paths) {
    std::vector<QPoint> points = quantize(path.points);
    const bool whole = encoder.place([&](const Part& p) { return p.pathCost(points); },
                                     [&](Part& p) { p.addPath(points, path.looped); });
    if (whole) continue;
    if (path.looped && !points.empty()) points.push_back(points.front());  // the closing segment
    encoder.placeSplit(points);
  }
  for (const auto& polygon : geometry.navPolygons) {
    const std::vector<QPoint> points = quantize(polygon);
    const bool placed = encoder.place([&](const Part& p) { return p.polygonCost(points); },
                                      [&](Part& p) { p.addPolygon(points); });
    if (!placed) ++result.polygonsLeftOut;
  }
  for (const SceneDoor& door : geometry.doors) {
    const QPoint from = quantize(door.from), to = quantize(door.to);
    const std::uint32_t thickness = quantizeRadius(door.thickness);
    const std::string name = cutName(door.name);
    encoder.place([&](const Part& p) { return p.doorCost(from, to, thickness, name); },
                  [&](Part& p) { p.addDoor(from, to, thickness, name, door.open); });
  }
  result.parts = encoder.finish();
  return result;
}

std::vector<ScenePoint> doorRectangle(const SceneDoor& door) {
  const float dx = door.to.x - door.from.x, dy = door.to.y - door.from.y;
  const float length = std::sqrt(dx * dx + dy * dy);
  if (!(length > 0.0f)) return {};
  // Half the thickness along the opening's left normal, each way.
  const float nx = -dy / length * door.thickness * 0.5f, ny = dx / length * door.thickness * 0.5f;
  return {{door.from.x - nx, door.from.y - ny},
          {door.to.x - nx, door.to.y - ny},
          {door.to.x + nx, door.to.y + ny},
          {door.from.x + nx, door.from.y + ny}};
}

std::string decodeScenePart(const Scene& part, SceneGeometry& out) {
  if (part.part_count() == 0 || part.part() >= part.part_count()) return "part index out of range";
  if (part.obstacle_x_size() != part.obstacle_y_size() ||
      part.obstacle_x_size() != part.obstacle_radius_size())
    return "obstacle lists of different lengths";
  if (part.wall_x_size() != part.wall_y_size() || part.wall_x_size() % 2 != 0)
    return "wall lists of different lengths, or half a wall";
  if (part.path_x_size() != part.path_y_size() || part.path_points_size() != part.path_looped_size())
    return "path lists of different lengths";
  if (part.nav_x_size() != part.nav_y_size()) return "navmesh lists of different lengths";
  if (part.door_x_size() != part.door_y_size() || part.door_x_size() != 2 * part.door_thickness_size() ||
      part.door_name_size() != part.door_thickness_size() ||
      part.door_open_size() != part.door_thickness_size())
    return "door lists of different lengths";

  SceneGeometry g;
  std::vector<ScenePoint> points;
  if (!readPoints(part.obstacle_x(), part.obstacle_y(), points)) return "obstacle out of range";
  for (int i = 0; i < part.obstacle_radius_size(); ++i) {
    const std::uint32_t r = part.obstacle_radius(i);
    if (r > static_cast<std::uint32_t>(kCoordinateLimit)) return "obstacle radius out of range";
    g.obstacles.push_back(
        {points[static_cast<std::size_t>(i)], positionMetres(static_cast<std::int32_t>(r))});
  }
  points.clear();
  if (!readPoints(part.wall_x(), part.wall_y(), points)) return "wall out of range";
  for (std::size_t i = 0; i + 1 < points.size(); i += 2) g.walls.push_back({points[i], points[i + 1]});
  points.clear();
  std::vector<std::vector<ScenePoint>> shapes;
  if (!readPoints(part.path_x(), part.path_y(), points)) return "path point out of range";
  if (!splitByCounts(part.path_points(), points, shapes)) return "path point counts do not add up";
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    g.paths.push_back({std::move(shapes[i]), part.path_looped(static_cast<int>(i))});
  }
  points.clear();
  shapes.clear();
  if (!readPoints(part.nav_x(), part.nav_y(), points)) return "navmesh vertex out of range";
  if (!splitByCounts(part.nav_points(), points, g.navPolygons)) return "navmesh vertex counts do not add up";
  points.clear();
  if (!readPoints(part.door_x(), part.door_y(), points)) return "door out of range";
  for (int i = 0; i < part.door_thickness_size(); ++i) {
    const std::uint32_t t = part.door_thickness(i);
    if (t > static_cast<std::uint32_t>(kCoordinateLimit)) return "door thickness out of range";
    if (part.door_name(i).size() > kMaxDoorNameBytes) return "door name too long";
    const auto k = static_cast<std::size_t>(i);
    g.doors.push_back({points[2 * k], points[2 * k + 1], positionMetres(static_cast<std::int32_t>(t)),
                       part.door_name(i), part.door_open(i)});
  }

  out.obstacles.insert(out.obstacles.end(), g.obstacles.begin(), g.obstacles.end());
  out.walls.insert(out.walls.end(), g.walls.begin(), g.walls.end());
  for (auto& p : g.paths) out.paths.push_back(std::move(p));
  for (auto& p : g.navPolygons) out.navPolygons.push_back(std::move(p));
  for (auto& d : g.doors) out.doors.push_back(std::move(d));
  return {};
}

}  // namespace steerd::wire
