#include "scenario/scenario_level.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

#include "level/level_mesh.h"
#include "level/tiled_map.h"

namespace steerd {

namespace pb = scenario;

namespace {

std::string num(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", static_cast<double>(v));
  return text;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string resolve(const std::string& path, const std::string& baseDir) {
  if (path.empty() || path.front() == '/' || baseDir.empty()) return path;
  return (std::filesystem::path(baseDir) / path).lexically_normal().string();
}

template <class T>
void append(google::protobuf::RepeatedPtrField<T>* to, const google::protobuf::RepeatedPtrField<T>& from) {
  for (const auto& x : from) *to->Add() = x;
}

// A Tiled map's parts after the scenario's own (names the file gives win nothing: a clash is
// reported by the scenario's own name checks).
void mergeTiled(pb::Scenario& s, const pb::Scenario& parts) {
  if (!s.has_bounds()) *s.mutable_bounds() = parts.bounds();
  append(s.mutable_boxes(), parts.boxes());
  append(s.mutable_obstacles(), parts.obstacles());
  append(s.mutable_walls(), parts.walls());
  append(s.mutable_waypoints(), parts.waypoints());
  append(s.mutable_paths(), parts.paths());
  append(s.mutable_regions(), parts.regions());
  append(s.mutable_spawns(), parts.spawns());
  append(s.mutable_navmesh()->mutable_blocking(), parts.navmesh().blocking());
}

bool loadMesh(const pb::Scenario& s, const std::string& path, LevelKind kind, LevelData& out,
              std::vector<std::string>& errors) {
  const pb::Level& l = s.level();
  level::MeshImportOptions o;
  if (l.scale() != 0.0f) o.scale = l.scale();
  if (!(o.scale > 0.0f) || !std::isfinite(o.scale)) {
    errors.push_back(path + ": level.scale must be a number above 0, not " + std::to_string(l.scale()));
    return false;
  }
  const std::string up = lower(l.up_axis());
  if (!up.empty() && up != "y" && up != "z") {
    errors.push_back(path + ": level.up_axis must be \"y\" or \"z\", not \"" + l.up_axis() + "\"");
    return false;
  }
  o.up = up == "z" ? level::UpAxis::kZ : level::UpAxis::kY;
  if (!l.walkable().empty()) o.walkable = l.walkable();
  o.blocking = l.blocking();
  const level::MeshLoad m =
      kind == LevelKind::kObj ? level::loadObjFile(path, o) : level::loadGltfFile(path, o);
  if (!m.error.empty()) {
    errors.push_back(m.error);
    return false;
  }
  auto mesh = std::make_shared<nav::TriangleMesh>();
  mesh->verts = m.mesh.verts;
  mesh->tris.assign(m.mesh.tris.begin(), m.mesh.tris.end());
  mesh->walkable.assign(m.mesh.walkable.begin(), m.mesh.walkable.end());
  std::size_t walkable = 0;
  for (const auto w : m.mesh.walkable) walkable += w;
  out.note = "level " + path + ": " + std::to_string(m.mesh.triangleCount()) + " triangles (" +
             std::to_string(walkable) + " may be walked on)";
  out.warnings.insert(out.warnings.end(), m.mesh.warnings.begin(), m.mesh.warnings.end());
  out.mesh = std::move(mesh);
  return true;
}

// The mesh's extent in the world's (x, y), a metre out on every side.
void boundsOfMesh(const nav::TriangleMesh& m, pb::Scenario& s) {
  float x0 = std::numeric_limits<float>::max(), y0 = x0, x1 = std::numeric_limits<float>::lowest(), y1 = x1;
  for (std::size_t i = 0; i + 2 < m.verts.size(); i += 3) {
    x0 = std::min(x0, m.verts[i]), x1 = std::max(x1, m.verts[i]);
    y0 = std::min(y0, m.verts[i + 2]), y1 = std::max(y1, m.verts[i + 2]);
  }
  auto* b = s.mutable_bounds();
  b->mutable_min()->set_x(x0 - 1.0f);
  b->mutable_min()->set_y(y0 - 1.0f);
  b->mutable_max()->set_x(x1 + 1.0f);
  b->mutable_max()->set_y(y1 + 1.0f);
}

// Settings the scenario gives for the level: finite, in range, and meant for its kind of file.
bool checkLevelFields(const pb::Level& l, LevelKind kind, const std::string& path,
                      std::vector<std::string>& warnings, std::vector<std::string>& errors) {
  const std::size_t before = errors.size();
  const auto range = [&](const char* field, float v, float lo, float hi) {
    // 0 is "the default"; anything else must be a number in range (NaN fails every comparison).
    if (v != 0.0f && !(v >= lo && v <= hi))
      errors.push_back(path + ": level." + field + " must be within [" + num(lo) + ", " + num(hi) +
                       "], not " + num(v));
  };
  range("scale", l.scale(), 1e-4f, 1e4f);
  range("metres_per_tile", l.metres_per_tile(), 1e-3f, 1e3f);
  range("walkable_climb", l.walkable_climb(), 0.01f, 5.0f);
  range("walkable_slope_deg", l.walkable_slope_deg(), 1.0f, 89.0f);
  range("agent_height", l.agent_height(), 0.1f, 20.0f);
  const bool tiled = kind == LevelKind::kTiledXml || kind == LevelKind::kTiledJson;
  const auto unused = [&](const char* field, bool set) {
    if (set)
      warnings.push_back(path + ": level." + field + " is for " + (tiled ? "meshes" : "Tiled maps") +
                         "; ignored for this file");
  };
  if (tiled) {
    unused("scale", l.scale() != 0.0f);
    unused("up_axis", !l.up_axis().empty());
    unused("walkable", !l.walkable().empty());
    unused("blocking", !l.blocking().empty());
    unused("walkable_climb", l.walkable_climb() != 0.0f);
    unused("walkable_slope_deg", l.walkable_slope_deg() != 0.0f);
    unused("agent_height", l.agent_height() != 0.0f);
  } else {
    unused("metres_per_tile", l.metres_per_tile() != 0.0f);
  }
  return errors.size() == before;
}

}  // namespace

LevelKind levelKindOf(const std::string& path) {
  const std::string ext = lower(std::filesystem::path(path).extension().string());
  if (ext == ".obj") return LevelKind::kObj;
  if (ext == ".gltf") return LevelKind::kGltf;
  if (ext == ".glb") return LevelKind::kGlb;
  if (ext == ".tmx") return LevelKind::kTiledXml;
  if (ext == ".tmj" || ext == ".json") return LevelKind::kTiledJson;
  return LevelKind::kNone;
}

bool applyLevel(pb::Scenario& s, const std::string& baseDir, LevelData& out,
                std::vector<std::string>& errors) {
  if (!s.has_level()) return true;
  const std::string path = resolve(s.level().path(), baseDir);
  if (s.level().path().empty()) {
    errors.push_back("level.path: empty (name the level file, relative to the scenario)");
    return false;
  }
  const LevelKind kind = levelKindOf(path);
  if (!checkLevelFields(s.level(), kind, path, out.warnings, errors)) return false;
  switch (kind) {
    case LevelKind::kNone:
      errors.push_back(path + ": not a level file steerd reads (.obj, .gltf, .glb, .tmx, .tmj)");
      return false;
    case LevelKind::kTiledXml:
    case LevelKind::kTiledJson: {
      level::TiledImportOptions o;
      if (s.level().metres_per_tile() != 0.0f) o.metresPerTile = s.level().metres_per_tile();
      if (!(o.metresPerTile > 0.0f) || !std::isfinite(o.metresPerTile)) {
        errors.push_back(path + ": level.metres_per_tile must be a number above 0");
        return false;
      }
      level::TiledLoad t = level::loadTiledFile(path, o);
      if (!t.error.empty()) {
        errors.push_back(t.error);
        return false;
      }
      mergeTiled(s, t.parts);
      out.warnings.insert(out.warnings.end(), t.warnings.begin(), t.warnings.end());
      out.note = "level " + path + ": " + std::to_string(t.parts.boxes_size()) + " boxes, " +
                 std::to_string(t.parts.walls_size()) + " walls, " +
                 std::to_string(t.parts.waypoints_size()) + " waypoints";
      break;
    }
    case LevelKind::kObj:
    case LevelKind::kGltf:
    case LevelKind::kGlb:
      if (!loadMesh(s, path, kind, out, errors)) return false;
      if (!s.has_bounds()) boundsOfMesh(*out.mesh, s);
      break;
  }
  s.mutable_navmesh();  // present, so the level gets a navmesh with the defaults
  for (int i = 0; i < s.spawns_size(); ++i) {
    auto& g = *s.mutable_spawns(i);
    if (!g.has_min() && !g.has_max()) {
      *g.mutable_min() = s.bounds().min();
      *g.mutable_max() = s.bounds().max();
      out.spreadGroups.push_back(i);
    }
  }
  return true;
}

pb::Scenario levelScenario(const std::string& path, const LevelRunOptions& o) {
  pb::Scenario s;
  s.set_name("level " + std::filesystem::path(path).filename().string());
  pb::Level* l = s.mutable_level();
  l->set_path(std::filesystem::absolute(path).lexically_normal().string());
  l->set_scale(o.scale);
  l->set_up_axis(o.upAxis);
  l->set_walkable(o.walkable);
  l->set_blocking(o.blocking);
  l->set_metres_per_tile(o.metresPerTile);
  pb::Navmesh* n = s.mutable_navmesh();
  n->set_agent_radius(0.5f);
  n->set_cell_size(0.25f);
  n->set_tile_size(48.0f);
  // The crowd-crossing walker (scenarios/crowd-crossing.txtpb says why each number is what it is).
  pb::Archetype* a = s.add_archetypes();
  a->set_name("walker");
  pb::BodyLimits* lim = a->mutable_limits();
  lim->set_radius(0.5f);
  lim->set_mass(1.0f);
  lim->set_max_speed(3.5f);
  lim->set_max_force(30.0f);
  lim->set_max_turn_rate_deg(540.0f);
  a->set_combiner(pb::WEIGHTED_TRUNCATED_RUNNING_SUM);
  a->set_flock_radius(1.0f);
  a->set_path_seek_distance(1.5f);
  a->set_heading_blend(0.3f);
  a->set_obstacle_detection_length(2.5f);
  a->set_wall_feeler_length(2.0f);
  const auto behaviour = [&](pb::BehaviourKind kind, float weight, std::uint32_t priority) {
    pb::Behaviour* b = a->add_behaviours();
    b->set_kind(kind);
    b->set_weight(weight);
    b->set_priority(priority);
    return b;
  };
  behaviour(pb::WALL_AVOIDANCE, 2, 0);
  behaviour(pb::OBSTACLE_AVOIDANCE, 2, 1);
  pb::Behaviour* ca = behaviour(pb::COLLISION_AVOIDANCE, 2, 2);
  ca->set_range(2.5f);
  ca->set_time_horizon(2.0f);
  behaviour(pb::SEPARATION, 4, 2);
  behaviour(pb::NAVIGATE, 1, 3)->set_range(1.5f);
  pb::SpawnGroup* g = s.add_spawns();
  g->set_archetype("walker");
  g->set_count(static_cast<std::uint32_t>(o.agents));
  s.set_contact_passes(3);
  return s;
}

}  // namespace steerd
