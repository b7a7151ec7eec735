#include "scenario/scenario_nav.h"

#include <chrono>
#include <cmath>
#include <map>

#include "nav/navmesh_build.h"
#include "nav/navmesh_cache.h"
#include "scenario/scenario_changes.h"

namespace steerd {

namespace {

namespace pb = steerd::scenario;
using namespace scenario_check;
using steer::Vec2;

nav::Polygon polygonOf(const pb::Polygon& p) {
  nav::Polygon out;
  for (const auto& v : p.points()) out.push_back(vec(v));
  return out;
}

nav::Polygon boxCorners(const pb::Box& b) {
  const float a = b.angle_deg() * steer::kPi / 180.0f;
  const Vec2 ax{std::cos(a), std::sin(a)}, ay{-std::sin(a), std::cos(a)};
  const Vec2 c = vec(b.center()), hx = ax * b.half_size().x(), hy = ay * b.half_size().y();
  return {c - hx - hy, c + hx - hy, c + hx + hy, c - hx + hy};  // counter-clockwise
}

float signedArea(const nav::Polygon& p) {
  float a = 0.0f;
  for (std::size_t i = 0; i < p.size(); ++i) a += steer::cross(p[i], p[(i + 1) % p.size()]);
  return 0.5f * a;
}

// Every NAVIGATE behaviour of an archetype: its own set and its brain's states'.
template <class F>
void forEachNavigate(const pb::Scenario& s, F&& f) {
  for (int i = 0; i < s.archetypes_size(); ++i) {
    const auto& a = s.archetypes(i);
    for (int k = 0; k < a.behaviours_size(); ++k) {
      if (a.behaviours(k).kind() == pb::NAVIGATE)
        f(a.name(), a.behaviours(k),
          "archetypes[" + std::to_string(i) + "] (" + quoted(a.name()) + ").behaviours[" + std::to_string(k) +
              "]");
    }
  }
  for (int i = 0; i < s.brains_size(); ++i) {
    const auto& b = s.brains(i);
    for (int st = 0; st < b.states_size(); ++st) {
      for (int k = 0; k < b.states(st).behaviours_size(); ++k) {
        if (b.states(st).behaviours(k).kind() == pb::NAVIGATE)
          f(b.archetype(), b.states(st).behaviours(k),
            "brains[" + std::to_string(i) + "].states[" + std::to_string(st) + "] (" +
                quoted(b.states(st).name()) + ").behaviours[" + std::to_string(k) + "]");
      }
    }
  }
}

}  // namespace

void validateNavigation(const pb::Scenario& s, Checker& c) {
  for (int i = 0; i < s.boxes_size(); ++i) {
    const std::string f = "boxes[" + std::to_string(i) + "]";
    c.finitePoint(f + ".center", s.boxes(i).center());
    c.positive(f + ".half_size.x", s.boxes(i).half_size().x());
    c.positive(f + ".half_size.y", s.boxes(i).half_size().y());
    if (!finite(s.boxes(i).angle_deg())) c.error(f + ".angle_deg", "not a finite number");
  }
  forEachNavigate(s, [&](const std::string&, const pb::Behaviour& beh, const std::string& f) {
    if (!s.has_navmesh()) c.error(f, "NAVIGATE needs a navmesh { } block in the scenario");
    if (!beh.waypoint().empty() && !beh.path().empty())
      c.error(f, "NAVIGATE goes to a waypoint or along a path, not both");
    c.nonNegative(f + ".range", beh.range());
  });
  if (!s.has_navmesh()) return;
  const auto& n = s.navmesh();
  for (const auto& [name, v] : {std::pair{"navmesh.cell_size", n.cell_size()},
                                {"navmesh.agent_radius", n.agent_radius()},
                                {"navmesh.tile_size", n.tile_size()}}) {
    c.nonNegative(name, v);
  }
  for (int i = 0; i < n.links_size(); ++i) {
    c.finitePoint("navmesh.links[" + std::to_string(i) + "].from", n.links(i).from());
    c.finitePoint("navmesh.links[" + std::to_string(i) + "].to", n.links(i).to());
    c.nonNegative("navmesh.links[" + std::to_string(i) + "].radius", n.links(i).radius());
  }
  // Polygon shapes, costs and settings ranges, worded by the nav library.
  for (const std::string& e : nav::validateNavInput(navInputOf(s))) {
    const auto colon = e.find(": ");
    c.error(e.substr(0, colon), colon == std::string::npos ? e : e.substr(colon + 2));
  }
}

void addBlockingWalls(const pb::Scenario& s, StaticGeometry& g) {
  const auto addOutward = [&](nav::Polygon p) {
    if (p.size() < 3) return;
    // Bodies keep to a wall's left; walking a counter-clockwise outline backwards keeps them out.
    if (signedArea(p) < 0.0f) std::reverse(p.begin(), p.end());
    for (std::size_t i = 0; i < p.size(); ++i)
      g.walls.push_back(steer::makeWall(p[(i + 1) % p.size()], p[i]));
  };
  for (const auto& b : s.boxes()) addOutward(boxCorners(b));
  if (s.has_navmesh()) {
    for (const auto& p : s.navmesh().blocking()) addOutward(polygonOf(p));
  }
}

nav::NavInput navInputOf(const pb::Scenario& s, const nav::TriangleMesh* levelMesh) {
  nav::NavInput in;
  in.boundsMin = vec(s.bounds().min());
  in.boundsMax = vec(s.bounds().max());
  const auto& n = s.navmesh();
  for (const auto& p : n.walkable()) in.walkable.push_back(polygonOf(p));
  for (const auto& p : n.blocking()) in.blocking.push_back(polygonOf(p));
  for (const auto& b : s.boxes()) in.blocking.push_back(boxCorners(b));
  for (const auto& o : s.obstacles()) in.cylinders.push_back({vec(o.center()), o.radius()});
  for (const auto& w : s.walls()) in.walls.push_back({vec(w.from()), vec(w.to())});
  for (const auto& a : n.areas()) in.areas.push_back({a.name(), polygonOf(a.polygon()), a.cost()});
  for (auto& door : doorAreasOf(s)) in.areas.push_back(std::move(door));  // area ids after the areas'
  const std::vector<std::uint8_t> linkAreas = linkAreasOf(s);             // doors on links
  for (int i = 0; i < n.links_size(); ++i) {
    const auto& l = n.links(i);
    in.links.push_back({vec(l.from()), vec(l.to()), l.radius() > 0.0f ? l.radius() : 0.5f, !l.one_way(),
                        linkAreas[static_cast<std::size_t>(i)]});
  }
  if (n.cell_size() > 0.0f) in.settings.cellSize = n.cell_size();
  if (n.agent_radius() > 0.0f) in.settings.agentRadius = n.agent_radius();
  if (n.tile_size() > 0.0f) in.settings.tileSize = n.tile_size();
  if (levelMesh != nullptr) {
    in.mesh = *levelMesh;
    const auto& l = s.level();
    if (l.walkable_climb() > 0.0f) in.settings.walkableClimb = l.walkable_climb();
    if (l.walkable_slope_deg() > 0.0f) in.settings.walkableSlopeDeg = l.walkable_slope_deg();
    if (l.agent_height() > 0.0f) in.settings.agentHeight = l.agent_height();
  }
  return in;
}

namespace {

NavLoad loadNavInput(const nav::NavInput& in, std::string cacheDir);

}  // namespace

NavLoad loadNavMesh(const pb::Scenario& s, const std::string& cacheDir, const nav::TriangleMesh* levelMesh) {
  nav::NavInput in = navInputOf(s, levelMesh);
  NavLoad out = loadNavInput(in, cacheDir);
  if (out.error.empty()) out.input = std::make_shared<const nav::NavInput>(in);
  if (!out.error.empty() || levelMesh == nullptr) return out;
  // The outline comes from the same ground unshrunk, so walls stand where the level's walls and
  // drops are, and a body's radius keeps it inside (the shrunk mesh is for paths).
  in.settings.agentRadius = 0.0f;
  NavLoad whole = loadNavInput(in, cacheDir);
  if (!whole.error.empty()) {
    out.error = "the walkable outline: " + whole.error;
    return out;
  }
  // Ground too narrow for a body (a wall's top, a thin pillar's inside) is left out.
  const std::vector<bool> keep = whole.mesh->islandsWithRoom(*out.mesh);
  const std::string overlap = whole.mesh->floorOverlap(0.25f, keep);
  if (!overlap.empty()) {
    out.error = overlap +
                "; steerd's steering world has one floor (agents on different floors would collide), so "
                "make the lower one blocking (level.blocking) or split the level";
    return out;
  }
  out.outline = whole.mesh->boundaryEdges(keep);
  out.note += "; outline " + std::to_string(out.outline.size()) + " edges";
  return out;
}

namespace {

NavLoad loadNavInput(const nav::NavInput& in, std::string cacheDir) {
  NavLoad out;
  if (!cacheDir.empty()) {
    if (const std::string problem = nav::cacheKeyProblem(cacheDir); !problem.empty()) {
      out.warning = "the navmesh cache " + cacheDir + " is not used: " + problem;
      cacheDir.clear();
    }
  }
  std::vector<float> costs;
  for (const auto& a : in.areas) costs.push_back(a.cost);
  const std::uint64_t key = nav::navInputKey(in);
  std::string why;
  if (!cacheDir.empty()) {
    if (auto cached = nav::loadCachedTiles(cacheDir, key, why)) {
      std::string error;
      if (auto mesh = nav::NavMesh::fromTiles(*cached, costs, error)) {
        out.note = "navmesh from cache " + nav::cacheFilePath(cacheDir, key) + " (" +
                   std::to_string(mesh->polygonCount()) + " polygons)";
        out.mesh = std::move(mesh);
        return out;
      }
      why = error + "; rebuilding";
    }
  }
  const auto t0 = std::chrono::steady_clock::now();
  const nav::NavBuildResult built = nav::buildNavMeshTiles(in);
  if (!built.error.empty()) {
    out.error = built.error;
    return out;
  }
  auto mesh = nav::NavMesh::fromTiles(built.tiles, costs, out.error);
  if (!mesh) return out;
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  out.note = "navmesh built in " + std::to_string(static_cast<long>(ms)) + " ms (" +
             std::to_string(built.tiles.tiles.size()) + " tiles, " + std::to_string(built.polygons) +
             " polygons)";
  if (!why.empty()) out.note += "; " + why;
  if (!cacheDir.empty()) {
    const std::string stored = nav::storeCachedTiles(cacheDir, key, built.tiles);
    out.note +=
        stored.empty() ? ", cached as " + nav::cacheFilePath(cacheDir, key) : "; not cached: " + stored;
  }
  out.mesh = std::move(mesh);
  return out;
}

}  // namespace

void checkAgainstNavMesh(const pb::Scenario& s, const nav::NavMesh& mesh, Checker& c) {
  // Each spawn box must hold ground; remember where its agents stand, by archetype.
  std::multimap<std::string, std::pair<int, std::uint32_t>> spawnIslands;  // archetype -> (group, island)
  for (int i = 0; i < s.spawns_size(); ++i) {
    const auto& g = s.spawns(i);
    const Vec2 lo = vec(g.min()), hi = vec(g.max());
    const Vec2 center = (lo + hi) * 0.5f;
    const float half = std::max({0.5f * (hi.x - lo.x), 0.5f * (hi.y - lo.y), 0.5f});
    const nav::NavPoint p = mesh.nearest(center, half);
    if (!p) {
      c.error("spawns[" + std::to_string(i) + "]",
              "the spawn box (" + num(lo.x) + ", " + num(lo.y) + ") - (" + num(hi.x) + ", " + num(hi.y) +
                  ") holds no walkable ground (outside navmesh.walkable, or covered by what blocks it)");
      continue;
    }
    spawnIslands.emplace(g.archetype(), std::pair{i, mesh.islandOf(p.poly)});
  }
  std::map<std::string, Vec2> waypoints;
  for (const auto& w : s.waypoints()) waypoints[w.name()] = vec(w.position());
  std::map<std::string, const pb::Path*> paths;
  for (const auto& p : s.paths()) paths[p.name()] = &p;
  const float onMesh = 1.0f + (s.navmesh().agent_radius() > 0.0f ? s.navmesh().agent_radius() : 0.5f);
  forEachNavigate(s, [&](const std::string& archetype, const pb::Behaviour& beh, const std::string& f) {
    std::vector<std::pair<std::string, std::string>> goals;  // (field, waypoint name)
    if (!beh.waypoint().empty()) goals.push_back({f + ".waypoint", beh.waypoint()});
    if (!beh.path().empty() && paths.count(beh.path())) {
      const auto* p = paths[beh.path()];
      for (int k = 0; k < p->waypoints_size(); ++k)
        goals.push_back(
            {f + ".path (" + quoted(beh.path()) + ").waypoints[" + std::to_string(k) + "]", p->waypoints(k)});
    }
    for (const auto& [field, name] : goals) {
      if (!waypoints.count(name)) continue;  // reported by the name checks
      const nav::NavPoint p = mesh.nearest(waypoints[name], onMesh);
      if (!p) {
        c.error(field, "waypoint " + quoted(name) + " is not on the walkable area (no navmesh within " +
                           num(onMesh) + " m)");
        continue;
      }
      const auto [from, to] = spawnIslands.equal_range(archetype);
      for (auto it = from; it != to; ++it) {
        if (it->second.second != mesh.islandOf(p.poly)) {
          c.error(field, "unreachable goal: waypoint " + quoted(name) + " cannot be reached from spawns[" +
                             std::to_string(it->second.first) + "] (no walkable way between them)");
        }
      }
    }
  });
}

}  // namespace steerd
