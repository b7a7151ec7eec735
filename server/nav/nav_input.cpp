#include "nav/nav_input.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include <xxhash.h>

#include "nav/nav_build_estimate.h"

namespace steerd::nav {

namespace {

// Bump when the builder changes what it makes from the same input, so old cache files miss.
constexpr std::uint32_t kBuilderVersion = 2;  // 2: wall strips at least a cell wide

class KeyHasher {
 public:
  KeyHasher() : state_(XXH3_createState()) { XXH3_64bits_reset(state_); }
  ~KeyHasher() { XXH3_freeState(state_); }
  KeyHasher(const KeyHasher&) = delete;
  KeyHasher& operator=(const KeyHasher&) = delete;

  template <class T>
  void add(const T& v) {
    XXH3_64bits_update(state_, &v, sizeof v);
  }
  void add(steer::Vec2 v) { add(v.x), add(v.y); }
  void add(const Polygon& p) {
    add(static_cast<std::uint64_t>(p.size()));
    for (const auto& v : p) add(v);
  }
  void add(const std::string& s) {
    add(static_cast<std::uint64_t>(s.size()));
    XXH3_64bits_update(state_, s.data(), s.size());
  }
  template <class T, class F>
  void addAll(const std::vector<T>& items, F&& each) {
    add(static_cast<std::uint64_t>(items.size()));
    for (const auto& i : items) each(i);
  }
  std::uint64_t digest() const { return XXH3_64bits_digest(state_); }
  XXH3_state_t* raw() { return state_; }

 private:
  XXH3_state_t* state_;
};

bool finite(steer::Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }

// Convex with a non-zero area, in either winding. Collinear runs are allowed.
std::string polygonProblem(const Polygon& p) {
  if (p.size() < 3) return "needs at least 3 points, has " + std::to_string(p.size());
  for (const auto& v : p) {
    if (!finite(v)) return "a point is not finite";
  }
  float area2 = 0.0f;
  int sign = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const steer::Vec2 a = p[i], b = p[(i + 1) % p.size()], c = p[(i + 2) % p.size()];
    area2 += steer::cross(a, b);
    const float turn = steer::cross(b - a, c - b);
    if (std::fabs(turn) < 1e-6f) continue;
    const int s = turn > 0.0f ? 1 : -1;
    if (sign != 0 && s != sign) return "not convex (split it into convex pieces)";
    sign = s;
  }
  if (std::fabs(area2) < 1e-6f) return "has no area";
  return {};
}

std::string decimal(double v, int digits) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

// The build's estimated time against kMaxNavBuildSeconds, with what to change: empty when within.
std::string buildTimeProblem(const NavInput& in, double w, double h) {
  const NavBuildEstimate e = estimateNavBuild(in);
  if (e.seconds <= kMaxNavBuildSeconds) return {};
  std::string advice = "raise cell_size (the time goes with 1 / cell_size^2) or make the world smaller";
  if (e.clipSeconds > e.cellSeconds)
    advice = "raise tile_size (every tile clips every shape) or use fewer shapes";
  return "navmesh: the build is estimated at " + decimal(e.seconds, 1) + " s (" + decimal(w, 0) + " x " +
         decimal(h, 0) + " m at cell_size " + decimal(in.settings.cellSize, 2) + ": " + decimal(e.tiles, 0) +
         " tiles, " + decimal(e.cells, 0) + " cells with their borders, " + decimal(e.shapeChecks, 0) +
         " shape clips), over the limit of " + decimal(kMaxNavBuildSeconds, 0) + " s: " + advice;
}

}  // namespace

std::uint64_t navInputKey(const NavInput& in) {
  KeyHasher h;
  h.add(kBuilderVersion);
  h.add(in.boundsMin), h.add(in.boundsMax);
  h.addAll(in.walkable, [&](const Polygon& p) { h.add(p); });
  h.addAll(in.blocking, [&](const Polygon& p) { h.add(p); });
  h.addAll(in.cylinders, [&](const Cylinder& c) { h.add(c.center), h.add(c.radius); });
  h.addAll(in.walls, [&](const NavInput::Segment& w) { h.add(w.from), h.add(w.to); });
  h.add(in.wallThickness);
  // Costs do not change the mesh (they are the query filter's), but area shapes do.
  h.addAll(in.areas, [&](const CostArea& a) { h.add(a.polygon); });
  h.addAll(in.links, [&](const OffMeshLink& l) {
    h.add(l.from), h.add(l.to), h.add(l.radius), h.add(static_cast<std::uint8_t>(l.bidirectional)),
        h.add(l.area);
  });
  const NavBuildSettings& s = in.settings;
  h.add(s.cellSize), h.add(s.agentRadius), h.add(s.agentHeight), h.add(s.tileSize);
  h.add(s.maxEdgeLength), h.add(s.maxSimplificationError);
  h.add(s.walkableClimb), h.add(s.walkableSlopeDeg);
  // A level's triangles: what the file's content became after the import's scale and axes.
  h.add(static_cast<std::uint64_t>(in.mesh.verts.size()));
  XXH3_64bits_update(h.raw(), in.mesh.verts.data(), in.mesh.verts.size() * sizeof(float));
  h.add(static_cast<std::uint64_t>(in.mesh.tris.size()));
  XXH3_64bits_update(h.raw(), in.mesh.tris.data(), in.mesh.tris.size() * sizeof(int));
  XXH3_64bits_update(h.raw(), in.mesh.walkable.data(), in.mesh.walkable.size());
  return h.digest();
}

std::vector<std::string> validateNavInput(const NavInput& in) {
  std::vector<std::string> errors;
  const auto bad = [&](const std::string& what) { errors.push_back(what); };
  if (!finite(in.boundsMin) || !finite(in.boundsMax) || !(in.boundsMax.x > in.boundsMin.x) ||
      !(in.boundsMax.y > in.boundsMin.y)) {
    bad("bounds: empty or not finite");
  }
  const NavBuildSettings& s = in.settings;
  const auto positive = [&](const char* name, float v, float lo, float hi) {
    if (!(v >= lo && v <= hi)) {
      bad(std::string("navmesh.") + name + ": " + std::to_string(v) + " is outside [" + std::to_string(lo) +
          ", " + std::to_string(hi) + "]");
    }
  };
  positive("cell_size", s.cellSize, 0.05f, 4.0f);
  positive("agent_radius", s.agentRadius, 0.0f, 20.0f);
  positive("agent_height", s.agentHeight, 0.1f, 20.0f);
  positive("tile_size", s.tileSize, 8.0f, 4096.0f);
  positive("walkable_climb", s.walkableClimb, 0.0f, 5.0f);
  positive("walkable_slope_deg", s.walkableSlopeDeg, 0.0f, 89.0f);
  if (in.mesh.tris.size() % 3 != 0 || in.mesh.verts.size() % 3 != 0 ||
      in.mesh.walkable.size() * 3 != in.mesh.tris.size())
    bad("level mesh: its arrays do not match");
  for (const int i : in.mesh.tris) {
    if (i < 0 || static_cast<std::size_t>(i) >= in.mesh.verts.size() / 3) {
      bad("level mesh: a triangle names a vertex that does not exist");
      break;
    }
  }
  float low = 0.0f, high = 0.0f;
  for (std::size_t i = 0; i < in.mesh.verts.size(); ++i) {
    const float v = in.mesh.verts[i];
    if (!std::isfinite(v)) {
      bad("level mesh: a vertex is not finite");
      break;
    }
    if (i % 3 == 1) low = i == 1 ? v : std::min(low, v), high = i == 1 ? v : std::max(high, v);
  }
  // Recast's spans hold 13 bits of height: 819 m at its 0.1 m cells, less the head room.
  if (high - low > kMaxLevelHeight)
    bad("level mesh: " + std::to_string(high - low) +
        " m from its lowest to its highest point, over the limit of " + std::to_string(kMaxLevelHeight) +
        " m (wrong --level-scale or --level-up?)");
  if (s.tileSize / s.cellSize > 2048.0f)
    bad("navmesh.tile_size: more than 2048 cells across; raise cell_size");
  // A bound on the build: a 370-byte file (a 20 km world) kept --check-scenario busy past 45 s.
  if (s.cellSize >= 0.05f && s.tileSize >= 8.0f && in.boundsMax.x > in.boundsMin.x &&
      in.boundsMax.y > in.boundsMin.y && finite(in.boundsMin) && finite(in.boundsMax)) {
    const double w = in.boundsMax.x - in.boundsMin.x, h = in.boundsMax.y - in.boundsMin.y;
    const double cells = std::ceil(w / s.cellSize) * std::ceil(h / s.cellSize);
    const double tiles = std::ceil(w / s.tileSize) * std::ceil(h / s.tileSize);
    // Printed as doubles: a hostile world's counts do not fit an integer (1.2e19 cells once did).
    const auto whole = [](double v) {
      char text[48];
      std::snprintf(text, sizeof text, "%.0f", v);
      return std::string(text);
    };
    if (cells > kMaxNavCells) {
      bad("navmesh: " + whole(w) + " x " + whole(h) + " m at cell_size " + std::to_string(s.cellSize) +
          " is " + whole(cells) + " cells, over the limit of " +
          std::to_string(static_cast<long long>(kMaxNavCells)) +
          " (raise cell_size, or make the world smaller)");
    }
    if (tiles > kMaxNavTiles) {
      bad("navmesh: " + whole(tiles) + " tiles of tile_size " + std::to_string(s.tileSize) +
          ", over the limit of " + std::to_string(static_cast<long long>(kMaxNavTiles)) +
          " (raise tile_size)");
    }
    // Within those, a bound on the time: small tiles, a wide agent and many shapes cost more than
    // the cells say (a 20 km world at 2.8 m cells, inside the cell bound, took 43 s).
    if (cells <= kMaxNavCells && tiles <= kMaxNavTiles) {
      const std::string problem = buildTimeProblem(in, w, h);
      if (!problem.empty()) bad(problem);
    }
  }
  const auto polygons = [&](const char* field, const std::vector<Polygon>& ps) {
    for (std::size_t i = 0; i < ps.size(); ++i) {
      const std::string p = polygonProblem(ps[i]);
      if (!p.empty()) bad(std::string(field) + "[" + std::to_string(i) + "]: " + p);
    }
  };
  polygons("navmesh.walkable", in.walkable);
  polygons("navmesh.blocking", in.blocking);
  for (std::size_t i = 0; i < in.cylinders.size(); ++i) {
    if (!finite(in.cylinders[i].center) || !(in.cylinders[i].radius > 0.0f))
      bad("cylinder[" + std::to_string(i) + "]: radius must be > 0 and the centre finite");
  }
  if (in.areas.size() > 62) bad("navmesh.areas: at most 62, has " + std::to_string(in.areas.size()));
  for (std::size_t i = 0; i < in.areas.size(); ++i) {
    const std::string p = polygonProblem(in.areas[i].polygon);
    const std::string name = "navmesh.areas[" + std::to_string(i) + "] (\"" + in.areas[i].name + "\")";
    if (!p.empty()) bad(name + ".polygon: " + p);
    if (!(in.areas[i].cost > 0.0f) || !std::isfinite(in.areas[i].cost))
      bad(name + ".cost: " + std::to_string(in.areas[i].cost) + " (must be > 0)");
  }
  for (std::size_t i = 0; i < in.links.size(); ++i) {
    const OffMeshLink& l = in.links[i];
    if (!finite(l.from) || !finite(l.to) || !(l.radius > 0.0f))
      bad("navmesh.links[" + std::to_string(i) + "]: ends must be finite and radius > 0");
  }
  return errors;
}

}  // namespace steerd::nav
