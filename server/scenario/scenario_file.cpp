#include "scenario/scenario_file.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "proto/scenario.pb.h"
#include "proto/session_seal.h"
#include "scenario/default_scenario.h"
#include "scenario/scenario_brains.h"
#include "scenario/scenario_check.h"
#include "scenario/scenario_enums.h"
#include "scenario/scenario_hints.h"
#include "scenario/scenario_nav.h"
#include "scenario/scenario_tile.h"

namespace steerd {

namespace {

namespace pb = steerd::scenario;
using steer::Vec2;

// Limits that keep a bad file from asking for more than a server can give.
constexpr float kMaxWorldSide = 20000.0f;        // m
constexpr std::uint64_t kMaxAgents = 4'000'000;  // under kMaxAgentIndices, with room for players
constexpr std::size_t kMaxBehaviours = 16;
constexpr std::uint32_t kMaxContactPasses = 8;
constexpr int kMaxGates = 64;  // the report walks every agent for each gate, every tick

class ParseErrors : public google::protobuf::io::ErrorCollector {
 public:
  ParseErrors(std::string file, std::vector<std::string>& out) : file_(std::move(file)), out_(out) {}
  void AddError(int line, google::protobuf::io::ColumnNumber column, const std::string& message) override {
    out_.push_back(file_ + ":" + std::to_string(line + 1) + ":" + std::to_string(column + 1) + ": " +
                   message + scenario_hints::hintFor(message));
  }

 private:
  std::string file_;
  std::vector<std::string>& out_;
};

using namespace scenario_check;

bool inside(const pb::Bounds& b, const pb::Vec2& p) {
  return p.x() >= b.min().x() && p.x() <= b.max().x() && p.y() >= b.min().y() && p.y() <= b.max().y();
}

std::string archetypeField(int i, const pb::Archetype& a) {
  return "archetypes[" + std::to_string(i) + "] (" + quoted(a.name()) + ")";
}

// The file's kinds are scenario.proto's BehaviourKind values after BEHAVIOUR_UNSPECIFIED (1 to
// BehaviourKind_MAX, in the table's order; tests/world/behaviour_table_test.cpp checks the names).
// A kind appended to the proto with no row in kBehaviourTable fails here.
static_assert(pb::BEHAVIOUR_UNSPECIFIED == 0 && pb::BehaviourKind_MIN == 0 &&
                  kBehaviourTable.size() == static_cast<std::size_t>(pb::BehaviourKind_MAX),
              "every scenario.proto BehaviourKind has a row in kBehaviourTable (world/behaviour_table.h)");

// The table's row for a file's kind (null for BEHAVIOUR_UNSPECIFIED or a number no row has).
const BehaviourRow* rowOf(pb::BehaviourKind k) { return behaviourRowNamed(pb::BehaviourKind_Name(k)); }
bool reads(const pb::Behaviour& b, std::uint32_t field) {
  const BehaviourRow* row = rowOf(b.kind());
  return row != nullptr && (row->reads & field) != 0;
}
// SEEK, FLEE, ARRIVE: a waypoint, or the nearest agent of target_archetype.
bool pointOrAgent(const pb::Behaviour& b) {
  const BehaviourRow* row = rowOf(b.kind());
  return row != nullptr && (row->reads & kPointOrAgent) == kPointOrAgent;
}
// Aims at an agent of target_archetype (or its group).
bool needsTarget(const pb::Behaviour& b) {
  return reads(b, kFieldTargetArchetype) && !(pointOrAgent(b) && !b.waypoint().empty());
}
bool followsPath(pb::BehaviourKind k) { return k == pb::FOLLOW_PATH || k == pb::CONTEXT_SEEK_WAYPOINTS; }

// A field given to a kind that never reads it: a warning, not an error (the file still works).
void warnIgnoredFields(const pb::Behaviour& b, const std::string& bf, Checker& c) {
  const BehaviourRow* row = rowOf(b.kind());
  if (row == nullptr) return;
  const auto ignored = [&](std::uint32_t field, bool given, const char* name) {
    if (given && (row->reads & field) == 0)
      c.warn(bf + "." + name, std::string(row->fileName) + " does not read it: ignored");
  };
  ignored(kFieldTargetArchetype, !b.target_archetype().empty(), "target_archetype");
  ignored(kFieldRange, b.range() != 0.0f, "range");
  ignored(kFieldPath, !b.path().empty(), "path");
  ignored(kFieldWaypoint, !b.waypoint().empty(), "waypoint");
  ignored(kFieldSecondArchetype, !b.second_archetype().empty(), "second_archetype");
  ignored(kFieldOffset, b.has_offset(), "offset");
  ignored(kFieldStandOff, b.stand_off() != 0.0f, "stand_off");
  ignored(kFieldArrival, b.deceleration() != pb::DECELERATION_NORMAL, "deceleration");
  ignored(kFieldArrival, b.slow_radius() != 0.0f, "slow_radius");
  ignored(kFieldArrival, b.target_radius() != 0.0f, "target_radius");
  ignored(kFieldTimeToTarget, b.time_to_target() != 0.0f, "time_to_target");
  ignored(kFieldMaxPrediction, b.max_prediction() != 0.0f, "max_prediction");
  ignored(kFieldRayLength, b.ray_length() != 0.0f, "ray_length");
  ignored(kFieldTimeHorizon, b.time_horizon() != 0.0f, "time_horizon");
  ignored(kFieldDangerTolerance, b.danger_tolerance() != 0.0f, "danger_tolerance");
  ignored(kFieldContext, b.context_chooser() != pb::CONTEXT_MASKED, "context_chooser");
  ignored(kFieldContext, b.context_danger() != pb::DANGER_DISC, "context_danger");
  ignored(kFieldLookAhead, b.look_ahead() != 0.0f, "look_ahead");
  ignored(kFieldKeepTo, b.keep_to() != pb::SIDE_UNSPECIFIED, "keep_to");
}

}  // namespace

void validateBehaviour(const pb::Scenario& s, const std::string& archetype, const pb::Behaviour& beh,
                       const std::string& bf, const NameSets& names, Checker& c) {
  const auto& archetypes = names.archetypes;
  const auto& paths = names.paths;
  const auto& waypoints = names.waypoints;
  if (beh.kind() == pb::BEHAVIOUR_UNSPECIFIED) c.error(bf + ".kind", "missing");
  c.nonNegative(bf + ".weight", beh.weight());
  c.nonNegative(bf + ".probability", beh.probability());
  if (beh.has_probability() && beh.probability() > 1.0f && std::isfinite(beh.probability()))
    c.warn(bf + ".probability", num(beh.probability()) + " is over 1: the same as 1 (always)");
  warnIgnoredFields(beh, bf, c);
  for (const auto& a : s.archetypes()) {
    // Millington's kinematic forms exist for these; a force (avoidance, flocking) is no velocity.
    const pb::BehaviourKind k = beh.kind();
    if (a.name() == archetype && a.locomotion() == pb::KINEMATIC && k != pb::SEEK && k != pb::FLEE &&
        k != pb::ARRIVE && k != pb::WANDER && k != pb::BEHAVIOUR_UNSPECIFIED)
      c.error(bf + ".kind", pb::BehaviourKind_Name(k) + " on KINEMATIC " + quoted(archetype) +
                                ": kinematic movement takes SEEK, FLEE, ARRIVE and WANDER only");
  }
  c.nonNegative(bf + ".time_to_target", beh.time_to_target());
  c.nonNegative(bf + ".max_prediction", beh.max_prediction());
  c.nonNegative(bf + ".ray_length", beh.ray_length());
  c.nonNegative(bf + ".time_horizon", beh.time_horizon());
  c.nonNegative(bf + ".look_ahead", beh.look_ahead());
  if (!finite(beh.danger_tolerance()) || beh.danger_tolerance() < 0.0f || beh.danger_tolerance() > 1.0f)
    c.error(bf + ".danger_tolerance", "from 0 to 1, not " + num(beh.danger_tolerance()));
  if (pointOrAgent(beh)) {
    const std::string kind = pb::BehaviourKind_Name(beh.kind());
    if (beh.waypoint().empty() == beh.target_archetype().empty()) {
      c.error(bf, kind + " needs a waypoint or a target_archetype (one of them)");
    } else if (!beh.waypoint().empty() && !waypoints.count(beh.waypoint())) {
      c.error(bf + ".waypoint", "no waypoint named " + quoted(beh.waypoint()));
    }
    if (!beh.waypoint().empty()) c.nonNegative(bf + ".range", beh.range());
    c.nonNegative(bf + ".slow_radius", beh.slow_radius());
    c.nonNegative(bf + ".target_radius", beh.target_radius());
    if (beh.slow_radius() > 0.0f && beh.target_radius() >= beh.slow_radius())
      c.error(bf + ".target_radius",
              "must be below slow_radius (" + num(beh.slow_radius()) + "), not " + num(beh.target_radius()));
  }
  if (needsTarget(beh)) {
    if (!archetypes.count(beh.target_archetype())) {
      c.error(bf + ".target_archetype", "no archetype named " + quoted(beh.target_archetype()));
    }
    // A leader, a centroid or an ordered agent is aimed at at any range; hiding spots and
    // interpose's second agent are still looked for within it.
    if (beh.target() == pb::NEAREST || beh.kind() == pb::HIDE_FROM_NEAREST ||
        beh.kind() == pb::INTERPOSE_NEAREST) {
      c.positive(bf + ".range", beh.range());
    } else {
      c.nonNegative(bf + ".range", beh.range());
    }
  }
  if (beh.target() != pb::NEAREST) {
    const std::string target = pb::TargetKind_Name(beh.target());
    if (!needsTarget(beh)) {
      c.error(bf + ".target",
              target + " on " + pb::BehaviourKind_Name(beh.kind()) +
                  ", which has no target agent (PURSUE_NEAREST, EVADE_NEAREST, HIDE_FROM_NEAREST, "
                  "INTERPOSE_NEAREST, OFFSET_PURSUIT_NEAREST, FETCH_STRAY, and SEEK, FLEE "
                  "or ARRIVE without a waypoint)");
    } else if (beh.kind() == pb::DRIVE_GROUP) {
      c.error(bf + ".target",
              "DRIVE_GROUP drives the whole group of target_archetype (leave target out), not " + target);
    } else if (beh.kind() == pb::FETCH_STRAY && beh.target() != pb::FETCH_ORDER) {
      c.error(
          bf + ".target",
          "FETCH_STRAY herds the farthest stray (NEAREST) or the ordered one (FETCH_ORDER), not " + target);
    } else if (beh.target() == pb::FETCH_ORDER) {
      // Someone must be able to send an agent of this archetype after one of target_archetype.
      bool ordered = false;
      for (const auto& brain : s.brains()) {
        for (const auto& state : brain.states()) {
          for (const auto& o : state.orders()) {
            ordered = ordered || (o.to() == archetype && o.stray() == beh.target_archetype());
          }
        }
      }
      if (!ordered) {
        c.error(bf + ".target", "FETCH_ORDER, but no brain state's orders send a " + quoted(archetype) +
                                    " to fetch a " + quoted(beh.target_archetype()) +
                                    " (brains.states.orders { stray to })");
      }
    }
  }
  if (beh.kind() == pb::INTERPOSE_NEAREST && !archetypes.count(beh.second_archetype())) {
    c.error(bf + ".second_archetype", "no archetype named " + quoted(beh.second_archetype()));
  }
  c.nonNegative(bf + ".stand_off", beh.stand_off());
  if ((beh.kind() == pb::FETCH_STRAY || beh.kind() == pb::DRIVE_GROUP) && !beh.second_archetype().empty() &&
      !archetypes.count(beh.second_archetype())) {
    c.error(bf + ".second_archetype", "no archetype named " + quoted(beh.second_archetype()));
  }
  if (beh.kind() == pb::OFFSET_PURSUIT_NEAREST) c.finitePoint(bf + ".offset", beh.offset());
  if (beh.kind() == pb::COLLISION_AVOIDANCE) c.positive(bf + ".range", beh.range());
  if (followsPath(beh.kind())) {
    if (!beh.path().empty() && !paths.count(beh.path())) {
      c.error(bf + ".path", "no path named " + quoted(beh.path()));
    }
    if (beh.path().empty()) {
      for (int g = 0; g < s.spawns_size(); ++g) {
        if (s.spawns(g).archetype() == archetype && s.spawns(g).path().empty()) {
          c.error(bf + ".path", "empty, so it follows its spawn group's path, but spawns[" +
                                    std::to_string(g) + "] names none");
        }
      }
    }
  }
  if ((beh.kind() == pb::ARRIVE_AT || beh.kind() == pb::DRIVE_GROUP) && !waypoints.count(beh.waypoint())) {
    c.error(bf + ".waypoint", "no waypoint named " + quoted(beh.waypoint()));
  }
  if (beh.kind() == pb::NAVIGATE) {
    if (!beh.waypoint().empty() && !waypoints.count(beh.waypoint()))
      c.error(bf + ".waypoint", "no waypoint named " + quoted(beh.waypoint()));
    if (!beh.path().empty() && !paths.count(beh.path()))
      c.error(bf + ".path", "no path named " + quoted(beh.path()));
  }
}

namespace {

// The largest Accept datagram a world from this file sends (every number at its widest).
std::size_t acceptBytes(const pb::Scenario& s, bool builtinPlayer) {
  wire::Packet p;
  wire::Accept* a = p.mutable_accept();
  a->set_client_id(0xffffffffu);
  a->set_player_entity(0xffffffffu);
  a->set_server_tick(0xffffffffu);
  // Floats are fixed 4 bytes whatever their value: any non-zero one counts them.
  a->set_tick_rate(1.0f);
  a->set_send_rate(1.0f);
  a->set_min_x(1.0f);
  a->set_min_y(1.0f);
  a->set_max_x(1.0f);
  a->set_max_y(1.0f);
  a->set_player_max_speed(1.0f);
  a->set_interest_radius(1.0f);
  a->set_debug_allowed(true);
  a->set_control_allowed(true);
  a->set_public_key(std::string(wire::kPublicKeyBytes, 'k'));
  wire::PlayerLimits* limits = a->mutable_player_limits();
  limits->set_radius(1.0f);
  limits->set_mass(1.0f);
  limits->set_max_speed(1.0f);
  limits->set_max_force(1.0f);
  limits->set_max_turn_rate(1.0f);
  a->set_player_intents(true);
  for (const auto& arch : s.archetypes()) a->add_archetypes(arch.name());
  if (builtinPlayer) a->add_archetypes(kPlayerArchetypeName);
  return wire::kHeaderBytes + p.ByteSizeLong();
}

// Regions (simple polygons with names) and expectations on them, for the headless report.
void validateRegions(const pb::Scenario& s, Checker& c) {
  std::map<std::string, int> seen;
  for (int i = 0; i < s.regions_size(); ++i) {
    const pb::Region& r = s.regions(i);
    const std::string f = "regions[" + std::to_string(i) + "]";
    if (r.name().empty()) c.error(f + ".name", "missing");
    if (!seen.emplace(r.name(), i).second) c.error(f + ".name", "a second region named " + quoted(r.name()));
    if (r.points_size() < 3 || r.points_size() > 1024)
      c.error(f + ".points", "a region needs 3 to 1024 points, not " + std::to_string(r.points_size()));
    for (int k = 0; k < r.points_size(); ++k)
      c.finitePoint(f + ".points[" + std::to_string(k) + "]", r.points(k));
  }
  std::map<std::string, int> gates;
  if (s.gates_size() > kMaxGates)
    c.error("gates",
            "at most " + std::to_string(kMaxGates) + " gates, not " + std::to_string(s.gates_size()));
  for (int i = 0; i < s.gates_size(); ++i) {
    const pb::Gate& g = s.gates(i);
    const std::string f = "gates[" + std::to_string(i) + "]";
    if (g.name().empty()) c.error(f + ".name", "missing");
    if (!gates.emplace(g.name(), i).second) c.error(f + ".name", "a second gate named " + quoted(g.name()));
    c.finitePoint(f + ".from", g.from());
    c.finitePoint(f + ".to", g.to());
    if (g.from().x() == g.to().x() && g.from().y() == g.to().y())
      c.error(f + ".to", "the same point as from");
    if (!finite(g.near_radius()) || g.near_radius() < 0.0f)
      c.error(f + ".near_radius",
              "a distance of 0 or more (0: the default, 3 m), not " + num(g.near_radius()));
  }
  for (int i = 0; i < s.expect_size(); ++i) {
    const pb::Expectation& e = s.expect(i);
    const std::string f = "expect[" + std::to_string(i) + "]";
    if (!seen.count(e.region())) c.error(f + ".region", "no region named " + quoted(e.region()));
    bool known = e.archetype() == kPlayerArchetypeName;
    for (const auto& a : s.archetypes()) known = known || a.name() == e.archetype();
    if (!known) c.error(f + ".archetype", "no archetype named " + quoted(e.archetype()));
    if (!finite(e.at_least()) || e.at_least() < 0.0f || e.at_least() > 1.0f)
      c.error(f + ".at_least", "a share from 0 to 1, not " + num(e.at_least()));
    c.nonNegative(f + ".after_seconds", e.after_seconds());
  }
}

void validate(const pb::Scenario& s, Checker& c) {
  validateRegions(s, c);
  // World.
  const auto& b = s.bounds();
  c.finitePoint("bounds.min", b.min());
  c.finitePoint("bounds.max", b.max());
  const float w = b.max().x() - b.min().x(), h = b.max().y() - b.min().y();
  if (!(w > 0.0f) || !(h > 0.0f)) {
    c.error("bounds", "max must be greater than min on both axes (size " + num(w) + " x " + num(h) + ")");
  } else if (w > kMaxWorldSide || h > kMaxWorldSide) {
    c.error("bounds", "at most " + num(kMaxWorldSide) + " m on a side, not " + num(w) + " x " + num(h));
  }
  for (int i = 0; i < s.obstacles_size(); ++i) {
    const std::string f = "obstacles[" + std::to_string(i) + "]";
    c.finitePoint(f + ".center", s.obstacles(i).center());
    c.positive(f + ".radius", s.obstacles(i).radius());
    if (s.obstacles(i).radius() > kMaxWorldSide)
      c.error(f + ".radius", "at most " + num(kMaxWorldSide) + " m (the largest world's side), not " +
                                 num(s.obstacles(i).radius()));
    if (!inside(b, s.obstacles(i).center())) c.error(f + ".center", "outside the world bounds");
  }
  for (int i = 0; i < s.walls_size(); ++i) {
    const std::string f = "walls[" + std::to_string(i) + "]";
    const auto& wall = s.walls(i);
    c.finitePoint(f + ".from", wall.from());
    c.finitePoint(f + ".to", wall.to());
    if (wall.from().x() == wall.to().x() && wall.from().y() == wall.to().y()) c.error(f, "has zero length");
  }
  NameSets names;
  auto& waypoints = names.waypoints;
  auto& paths = names.paths;
  auto& archetypes = names.archetypes;
  for (int i = 0; i < s.waypoints_size(); ++i) {
    const auto& wp = s.waypoints(i);
    const std::string f = "waypoints[" + std::to_string(i) + "]";
    if (wp.name().empty()) c.error(f + ".name", "is empty");
    if (!waypoints.emplace(wp.name(), i).second)
      c.error(f + ".name", "duplicate waypoint " + quoted(wp.name()));
    c.finitePoint(f + ".position", wp.position());
    if (!inside(b, wp.position())) c.error(f + ".position", "outside the world bounds");
  }
  for (int i = 0; i < s.paths_size(); ++i) {
    const auto& p = s.paths(i);
    const std::string f = "paths[" + std::to_string(i) + "] (" + quoted(p.name()) + ")";
    if (p.name().empty()) c.error(f + ".name", "is empty");
    if (!paths.emplace(p.name(), i).second) c.error(f + ".name", "duplicate path " + quoted(p.name()));
    if (p.waypoints_size() < 2) {
      c.error(f + ".waypoints",
              "a path needs at least two waypoints, not " + std::to_string(p.waypoints_size()));
    }
    for (int k = 0; k < p.waypoints_size(); ++k) {
      if (!waypoints.count(p.waypoints(k))) {
        c.error(f + ".waypoints[" + std::to_string(k) + "]", "no waypoint named " + quoted(p.waypoints(k)));
      }
    }
  }
  // Archetypes.
  if (s.archetypes_size() == 0) c.error("archetypes", "a scenario needs at least one archetype");
  for (int i = 0; i < s.archetypes_size(); ++i) {
    const auto& a = s.archetypes(i);
    if (a.name().empty()) c.error(archetypeField(i, a) + ".name", "is empty");
    if (!archetypes.emplace(a.name(), i).second) {
      c.error(archetypeField(i, a) + ".name", "duplicate archetype " + quoted(a.name()));
    }
  }
  // Connected clients' bodies: a file that defines no "player" still lets behaviours, senses and
  // conditions name one (the world appends the built-in player archetype after the file's).
  const bool builtinPlayer = archetypes.emplace(kPlayerArchetypeName, s.archetypes_size()).second;
  // Every client's Accept lists the archetype names, and it must fit under the padded request
  // that asks for it (wire::kMinConnectResponseBytes), or clients would hold a slot and never get in.
  if (const std::size_t bytes = acceptBytes(s, builtinPlayer); bytes > wire::kMinConnectResponseBytes) {
    c.error("archetypes",
            "the names take the clients' Accept to " + std::to_string(bytes) + " bytes, over the " +
                std::to_string(wire::kMinConnectResponseBytes) +
                " a datagram answering a connect allows: shorten names or use fewer archetypes");
  }
  for (int i = 0; i < s.archetypes_size(); ++i) {
    const auto& a = s.archetypes(i);
    const std::string f = archetypeField(i, a);
    if (!a.has_limits()) c.error(f + ".limits", "missing (radius, mass, max_speed, max_force are needed)");
    c.positive(f + ".limits.radius", a.limits().radius());
    c.positive(f + ".limits.mass", a.limits().mass());
    c.nonNegative(f + ".limits.max_speed", a.limits().max_speed());
    c.nonNegative(f + ".limits.max_force", a.limits().max_force());
    c.nonNegative(f + ".limits.max_rotation_deg", a.limits().max_rotation_deg());
    c.nonNegative(f + ".limits.max_angular_acceleration_deg", a.limits().max_angular_acceleration_deg());
    // Behaviours that move a body that cannot move (a post has none, a turret only turns: no warning).
    bool moves = false;
    for (const auto& b : a.behaviours()) {
      const BehaviourRow* row = rowOf(b.kind());
      moves = moves || (row != nullptr && !row->turns);
    }
    for (const auto& [field, value] :
         {std::pair{"max_speed", a.limits().max_speed()}, std::pair{"max_force", a.limits().max_force()}}) {
      if (moves && value == 0.0f)
        c.warn(f + ".limits." + field, std::string("0 with behaviours that move it: they never can"));
    }
    c.nonNegative(f + ".limits.max_turn_rate_deg", a.limits().max_turn_rate_deg());
    for (const auto& [name, v] : {std::pair{".flock_radius", a.flock_radius()},
                                  {".field_of_view_deg", a.field_of_view_deg()},
                                  {".wander_radius", a.wander_radius()},
                                  {".wander_distance", a.wander_distance()},
                                  {".wander_jitter_per_second", a.wander_jitter_per_second()},
                                  {".obstacle_detection_length", a.obstacle_detection_length()},
                                  {".wall_feeler_length", a.wall_feeler_length()},
                                  {".hide_distance_from_boundary", a.hide_distance_from_boundary()},
                                  {".path_seek_distance", a.path_seek_distance()},
                                  {".contact_skin", a.contact_skin()},
                                  {".catch_distance", a.catch_distance()}}) {
      c.nonNegative(f + name, v);
    }
    if (a.context_slots() < 0 || a.context_slots() > 64) {
      c.error(f + ".context_slots", "must be 1..64 (0: default), not " + std::to_string(a.context_slots()));
    }
    if (!finite(a.heading_blend()) || a.heading_blend() < 0.0f || a.heading_blend() > 1.0f) {
      c.error(f + ".heading_blend", "must be in (0, 1] (0: default), not " + num(a.heading_blend()));
    }
    if (a.lod_distances_size() != 0) {
      const auto& d = a.lod_distances();
      const bool ascending = d.size() == 3 && finite(d[0]) && finite(d[1]) && finite(d[2]) && d[0] > 0.0f &&
                             d[0] < d[1] && d[1] < d[2];
      if (!ascending)
        c.error(f + ".lod_distances",
                "three ascending distances > 0 (every 2nd, 4th, 8th tick beyond them), not " +
                    std::to_string(d.size()) + " values" + (d.size() == 3 ? " in that order" : ""));
    }
    if (a.heading_samples() > kMaxHeadingSamples) {
      c.error(f + ".heading_samples", "must be 1.." + std::to_string(kMaxHeadingSamples) +
                                          " (0: heading_blend), not " + std::to_string(a.heading_samples()));
    } else if (a.heading_samples() > 0 && a.heading_blend() != 0.0f) {
      c.warn(f + ".heading_blend", "not used: heading_samples smooths the heading instead");
    }
    if (a.behaviours_size() > static_cast<int>(kMaxBehaviours)) {
      c.error(f + ".behaviours",
              "at most " + std::to_string(kMaxBehaviours) + ", not " + std::to_string(a.behaviours_size()));
    }
    for (int k = 0; k < a.behaviours_size(); ++k) {
      validateBehaviour(s, a.name(), a.behaviours(k), f + ".behaviours[" + std::to_string(k) + "]", names, c);
    }
  }
  for (int i = 0; builtinPlayer && i < s.brains_size(); ++i) {
    if (s.brains(i).archetype() == kPlayerArchetypeName) {
      c.error("brains[" + std::to_string(i) + "].archetype",
              "\"player\" is the built-in archetype of connected clients, which have no brain; define an "
              "archetype named \"player\" for a stand-in NPC with one");
    }
  }
  validateBrains(s, names, c);
  validateNavigation(s, c);
  if (s.contact_passes() > kMaxContactPasses) {
    c.error("contact_passes",
            "at most " + std::to_string(kMaxContactPasses) + ", not " + std::to_string(s.contact_passes()));
  }
  // Spawns.
  std::uint64_t agents = 0;
  for (int i = 0; i < s.spawns_size(); ++i) {
    const auto& g = s.spawns(i);
    const std::string f = "spawns[" + std::to_string(i) + "]";
    if (!archetypes.count(g.archetype()))
      c.error(f + ".archetype", "no archetype named " + quoted(g.archetype()));
    if (g.count() == 0) c.error(f + ".count", "must be at least 1");
    agents += g.count();
    c.finitePoint(f + ".min", g.min());
    c.finitePoint(f + ".max", g.max());
    if (g.min().x() > g.max().x() || g.min().y() > g.max().y())
      c.error(f, "min must not be greater than max");
    if (!inside(b, g.min()) || !inside(b, g.max())) c.error(f, "the spawn box lies outside the world bounds");
    c.nonNegative(f + ".speed", g.speed());
    if (!g.path().empty() && !paths.count(g.path()))
      c.error(f + ".path", "no path named " + quoted(g.path()));
  }
  if (agents > kMaxAgents)
    c.error("spawns", "at most " + std::to_string(kMaxAgents) + " agents, not " + std::to_string(agents));
}

float orDefault(float v, float fallback) { return v > 0.0f ? v : fallback; }

// The builder's enums from the file's. Every number reaching them was checked (checkEnumValues,
// and validate's "kind: missing"), so one that no case names is a bug in that check: it throws,
// and never becomes some other value. A value appended to a proto enum fails the static_assert
// beside its function until the function maps it.
[[noreturn]] void unchecked(const char* what, int number) {
  throw std::logic_error(std::string("scenario builder: ") + what + " " + std::to_string(number) +
                         " was not refused by the check");
}

BehaviourKind kindOf(pb::BehaviourKind k) {
  const BehaviourRow* row = rowOf(k);  // every kind has a row (behaviour_table.h's static_assert)
  if (row == nullptr) unchecked("BehaviourKind", k);
  return row->kind;
}

static_assert(pb::TargetKind_MAX == pb::FETCH_ORDER, "targetOf maps every TargetKind");
TargetKind targetOf(pb::TargetKind t) {
  switch (t) {
    case pb::NEAREST:
      return TargetKind::kNearest;
    case pb::GROUP_LEADER:
      return TargetKind::kGroupLeader;
    case pb::GROUP_CENTROID:
      return TargetKind::kGroupCentroid;
    case pb::FETCH_ORDER:
      return TargetKind::kFetchOrder;
    default:  // proto's sentinels, and numbers the check refused
      unchecked("TargetKind", t);
  }
}

static_assert(pb::Combiner_MAX == pb::PRIORITY_GROUPS, "combinerOf maps every Combiner");
CombinerKind combinerOf(pb::Combiner c) {
  switch (c) {
    case pb::COMBINER_UNSPECIFIED:
    case pb::WEIGHTED_TRUNCATED_RUNNING_SUM:
      return CombinerKind::kWeightedTruncatedRunningSum;
    case pb::WEIGHTED_BLEND:
      return CombinerKind::kWeightedBlend;
    case pb::PRIORITY:
      return CombinerKind::kPriority;
    case pb::PRIORITISED_DITHERING:
      return CombinerKind::kPrioritisedDithering;
    case pb::PRIORITY_GROUPS:
      return CombinerKind::kPriorityGroups;
    default:
      unchecked("Combiner", c);
  }
}

static_assert(pb::Deceleration_MAX == pb::DECELERATION_FAST, "decelerationOf maps every Deceleration");
float decelerationOf(pb::Deceleration d) {  // Buckland's: seconds to cover the distance
  switch (d) {
    case pb::DECELERATION_NORMAL:
      return 2.0f;
    case pb::DECELERATION_SLOW:
      return 3.0f;
    case pb::DECELERATION_FAST:
      return 1.0f;
    default:
      unchecked("Deceleration", d);
  }
}

static_assert(pb::Side_MAX == pb::RIGHT, "keepToOf maps every Side");
steer::KeepTo keepToOf(pb::Side side) {
  switch (side) {
    case pb::SIDE_UNSPECIFIED:
      return steer::KeepTo::kEither;
    case pb::LEFT:
      return steer::KeepTo::kLeft;
    case pb::RIGHT:
      return steer::KeepTo::kRight;
    default:
      unchecked("Side", side);
  }
}

Names namesOf(const pb::Scenario& s) {
  Names n;
  for (const auto& wp : s.waypoints()) n.waypoints[wp.name()] = vec(wp.position());
  for (int i = 0; i < s.paths_size(); ++i) n.paths[s.paths(i).name()] = i;
  for (int i = 0; i < s.archetypes_size(); ++i) n.archetypes[s.archetypes(i).name()] = i;
  n.archetypes.emplace(kPlayerArchetypeName, s.archetypes_size());  // as World appends it
  return n;
}

}  // namespace

BehaviourSpec specOf(const pb::Behaviour& beh, const Names& names) {
  BehaviourSpec spec;
  spec.kind = kindOf(beh.kind());
  spec.weight = beh.has_weight() ? beh.weight() : 1.0f;
  spec.priority = beh.priority();
  spec.probability = beh.has_probability() ? beh.probability() : 1.0f;
  if (needsTarget(beh)) {
    spec.targetArchetype = static_cast<ArchetypeIndex>(names.archetypes.at(beh.target_archetype()));
    spec.target = targetOf(beh.target());
  }
  if (pointOrAgent(beh)) {
    spec.atPoint = !beh.waypoint().empty();
    if (spec.atPoint) spec.point = names.waypoints.at(beh.waypoint());
    spec.deceleration = decelerationOf(beh.deceleration());
    spec.slowRadius = beh.slow_radius();
    if (beh.target_radius() > 0.0f) spec.targetRadius = beh.target_radius();
  }
  if (beh.time_to_target() > 0.0f) spec.timeToTarget = beh.time_to_target();
  spec.maxPrediction = beh.max_prediction();
  if (beh.ray_length() > 0.0f) spec.rayLength = beh.ray_length();
  if (beh.time_horizon() > 0.0f) spec.timeHorizon = beh.time_horizon();
  spec.lookAhead = beh.look_ahead();
  spec.keepTo = keepToOf(beh.keep_to());
  if (beh.danger_tolerance() > 0.0f) spec.dangerTolerance = beh.danger_tolerance();
  spec.contextArgmax = beh.context_chooser() == pb::CONTEXT_ARGMAX;
  spec.contextDotDanger = beh.context_danger() == pb::DANGER_DOT;
  spec.range = beh.range() > 0.0f ? beh.range() : spec.range;
  // FLEE from a point: range is the panic distance, and 0 (left out) means always.
  if (beh.kind() == pb::FLEE && spec.atPoint) spec.range = beh.range();
  spec.pathIndex = beh.path().empty() ? -1 : names.paths.at(beh.path());
  if (beh.kind() == pb::ARRIVE_AT || beh.kind() == pb::DRIVE_GROUP)
    spec.point = names.waypoints.at(beh.waypoint());
  if (beh.kind() == pb::OFFSET_PURSUIT_NEAREST) spec.point = vec(beh.offset());
  if (beh.kind() == pb::INTERPOSE_NEAREST) {
    spec.secondArchetype = static_cast<ArchetypeIndex>(names.archetypes.at(beh.second_archetype()));
  }
  if (beh.kind() == pb::NAVIGATE) {
    spec.range = beh.range() > 0.0f ? beh.range() : 1.0f;
    if (!beh.waypoint().empty()) {
      spec.navGoal = NavGoal::kPoint;
      spec.point = names.waypoints.at(beh.waypoint());
    } else {
      spec.navGoal = beh.path().empty() ? NavGoal::kRandom : NavGoal::kPath;
    }
  }
  if (beh.kind() == pb::FETCH_STRAY || beh.kind() == pb::DRIVE_GROUP) {
    if (beh.stand_off() > 0.0f) spec.standOff = beh.stand_off();
    spec.secondArchetype = beh.second_archetype().empty()
                               ? spec.targetArchetype
                               : static_cast<ArchetypeIndex>(names.archetypes.at(beh.second_archetype()));
  }
  return spec;
}

namespace {

std::vector<Archetype> archetypesOf(const pb::Scenario& s, const Names& names) {
  std::vector<Archetype> archetypes;
  for (const auto& a : s.archetypes()) {
    Archetype arch;
    arch.name = a.name();
    arch.limits.radius = a.limits().radius();
    arch.limits.mass = a.limits().mass();
    arch.limits.maxSpeed = a.limits().max_speed();
    arch.limits.maxForce = a.limits().max_force();
    arch.limits.maxTurnRate = a.limits().max_turn_rate_deg() * steer::kPi / 180.0f;
    arch.limits.maxRotation = orDefault(a.limits().max_rotation_deg(), 180.0f) * steer::kPi / 180.0f;
    arch.limits.maxAngularAcceleration =
        orDefault(a.limits().max_angular_acceleration_deg(), 720.0f) * steer::kPi / 180.0f;
    arch.combiner = combinerOf(a.combiner());
    arch.kinematic = a.locomotion() == pb::KINEMATIC;
    arch.flock.radius = orDefault(a.flock_radius(), arch.flock.radius);
    arch.flock.fovDegrees = orDefault(a.field_of_view_deg(), arch.flock.fovDegrees);
    arch.wander.radius = orDefault(a.wander_radius(), arch.wander.radius);
    arch.wander.distance = orDefault(a.wander_distance(), arch.wander.distance);
    arch.wander.jitterPerSecond = orDefault(a.wander_jitter_per_second(), arch.wander.jitterPerSecond);
    arch.obstacleMinDetectionLength =
        orDefault(a.obstacle_detection_length(), arch.obstacleMinDetectionLength);
    arch.wallFeelerLength = orDefault(a.wall_feeler_length(), arch.wallFeelerLength);
    arch.hideDistanceFromBoundary = orDefault(a.hide_distance_from_boundary(), arch.hideDistanceFromBoundary);
    arch.pathSeekDistance = orDefault(a.path_seek_distance(), arch.pathSeekDistance);
    arch.contextSlots = a.context_slots() > 0 ? a.context_slots() : arch.contextSlots;
    arch.headingBlend = orDefault(a.heading_blend(), arch.headingBlend);
    if (a.lod_distances_size() == 3) {
      for (int i = 0; i < 3; ++i) arch.lodDistances[i] = a.lod_distances(i);
    }
    if (a.heading_samples() <= kMaxHeadingSamples)
      arch.headingSamples = static_cast<std::uint8_t>(a.heading_samples());
    arch.contactSkin = a.contact_skin();
    arch.catchDistance = a.catch_distance();
    for (const auto& beh : a.behaviours()) arch.behaviours.push_back(specOf(beh, names));
    archetypes.push_back(std::move(arch));
  }
  return archetypes;
}

// Where spawned bodies stand, hashed by 8 m cell (two bodies overlap only within their radii's sum,
// under 8 m for any body a scenario has), to keep later spawns off them.
class TakenSpots {
 public:
  void add(Vec2 p, float radius) { cells_[cellOf(p)].push_back({p, radius}); }
  bool overlaps(Vec2 p, float radius) const {
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const auto it = cells_.find(cellOf(p + Vec2{dx * kCell, dy * kCell}));
        if (it == cells_.end()) continue;
        for (const auto& [q, r] : it->second) {
          if (steer::distanceSq(p, q) < (radius + r) * (radius + r)) return true;
        }
      }
    }
    return false;
  }

 private:
  static constexpr float kCell = 8.0f;
  static std::int64_t cellOf(Vec2 p) {
    // Through int64 first: a negative coordinate's cell is negative, and a negative float does not
    // convert to an unsigned integer (found by the scenario fuzzer: bounds below zero).
    const auto cx = static_cast<std::uint64_t>(static_cast<std::int64_t>(std::floor(p.x / kCell)));
    const auto cy = static_cast<std::uint64_t>(static_cast<std::int64_t>(std::floor(p.y / kCell)));
    return static_cast<std::int64_t>((cx << 32) ^ (cy & 0xffffffffu));
  }
  std::unordered_map<std::int64_t, std::vector<std::pair<Vec2, float>>> cells_;
};

std::unique_ptr<World> build(const pb::Scenario& s, const Names& names, std::vector<Archetype> archetypes,
                             const ScenarioOptions& options, std::shared_ptr<const nav::NavMesh> navMesh,
                             const std::vector<nav::NavMesh::Edge>& outline,
                             const std::vector<int>& spreadGroups) {
  StaticGeometry g;
  g.bounds = {s.bounds().min().x(), s.bounds().min().y(), s.bounds().max().x(), s.bounds().max().y()};
  for (const auto& o : s.obstacles()) g.obstacles.push_back({vec(o.center()), o.radius()});
  for (const auto& w : s.walls()) {
    g.walls.push_back(steer::makeWall(vec(w.from()), vec(w.to())));
    if (w.two_sided()) g.walls.push_back(steer::makeWall(vec(w.to()), vec(w.from())));
  }
  for (const auto& p : s.paths()) {
    Path path;
    for (const auto& name : p.waypoints()) path.points.push_back(names.waypoints.at(name));
    path.looped = p.looped();
    path.name = p.name();
    g.paths.push_back(std::move(path));
  }
  for (const auto& w : s.waypoints()) g.waypoints.push_back({w.name(), vec(w.position())});
  addBlockingWalls(s, g);
  for (const auto& e : outline) g.walls.push_back(steer::makeWall(e.from, e.to));  // a level's edges
  if (navMesh) g.navPolygons = navMesh->polygons();
  g.navMesh = navMesh;

  WorldConfig config;
  config.seed = options.seed;
  config.threads = options.threads;
  config.contactPasses = static_cast<int>(s.contact_passes());
  if (s.navmesh().planner_iterations_per_tick() > 0)
    config.planner.iterationsPerServe = static_cast<int>(s.navmesh().planner_iterations_per_tick());
  auto world = std::make_unique<World>(std::move(g), std::move(archetypes), config);
  steer::Rng rng(steer::mix64(options.seed) ^ 0x5ce4a210ULL);
  TakenSpots taken;
  for (int groupIndex = 0; groupIndex < s.spawns_size(); ++groupIndex) {
    const auto& group = s.spawns(groupIndex);
    const bool spread = std::find(spreadGroups.begin(), spreadGroups.end(), groupIndex) != spreadGroups.end();
    const auto archetype = static_cast<ArchetypeIndex>(names.archetypes.at(group.archetype()));
    const std::int32_t path = group.path().empty() ? -1 : names.paths.at(group.path());
    const float radius = world->archetypes()[archetype].limits.radius;
    const float pad = radius + 0.5f;
    for (Vec2 p :
         latticePoints(world->geometry(), rng, group.count(), vec(group.min()), vec(group.max()), pad)) {
      // Nobody starts on top of an agent of an earlier group (spawn boxes may cross) or, with a
      // navmesh, inside a box or off the walkable ground: such a point is drawn again inside the
      // spawn box, and only as a last resort moved to the nearest ground.
      auto onGround = [&](Vec2 q) {
        const nav::NavPoint on = navMesh->nearest(q, 0.05f);
        return on && (!spread || navMesh->islandOf(on.poly) == navMesh->largestIsland());
      };
      auto fits = [&](Vec2 q) { return !taken.overlaps(q, radius) && (!navMesh || onGround(q)); };
      std::optional<Vec2> groundSeen;  // spread groups: a drawn point on the ground, if crowded
      for (int attempt = 0; attempt < 32 && !fits(p); ++attempt) {
        if (spread && !groundSeen && onGround(p)) groundSeen = p;
        p = {group.min().x() + rng.uniform() * (group.max().x() - group.min().x()),
             group.min().y() + rng.uniform() * (group.max().y() - group.min().y())};
      }
      if (navMesh && !onGround(p)) {
        // A level packed fuller than its ground: on the ground among others rather than in the
        // void between its parts (the contact pass parts them).
        if (groundSeen) {
          p = *groundSeen;
        } else if (const nav::NavPoint on = navMesh->nearest(p, 20.0f)) {
          p = on.position;
        }
        // A spread group keeps to the largest ground: more draws, overlap allowed.
        for (int attempt = 0; spread && attempt < 256 && !onGround(p); ++attempt) {
          p = {group.min().x() + rng.uniform() * (group.max().x() - group.min().x()),
               group.min().y() + rng.uniform() * (group.max().y() - group.min().y())};
        }
      }
      taken.add(p, radius);
      world->spawn(archetype, p, randomVelocity(rng, group.speed()), path);
    }
  }
  return world;
}

}  // namespace

namespace {

// Everything after the parse: the level, the checks, the navmesh, the world.
// `where`: the text parser's field locations, for errors with the file's line:col (none for a
// generated scenario).
ScenarioLoad loadScenarioProto(pb::Scenario scenario, const std::string& displayName,
                               const std::string& baseDir, const ScenarioOptions& options, bool buildWorld,
                               const google::protobuf::TextFormat::ParseInfoTree* where = nullptr) {
  ScenarioLoad result;
  // Numbers no enum value names (`kind: 99` parses: proto3's enums are open) are refused first:
  // everything after reads the enums as their values.
  if (checkEnumValues(scenario, displayName, where, result.errors) > 0) return result;
  LevelData level;
  if (!applyLevel(scenario, baseDir, level, result.errors)) return result;
  result.warnings = level.warnings;
  Checker checker(displayName, result.errors, &result.warnings);
  validate(scenario, checker);
  if (!result.errors.empty()) return result;
  for (const auto& r : scenario.regions()) {
    ReportRegion region{r.name(), {}};
    for (const auto& p : r.points()) region.points.push_back(vec(p));
    result.regions.push_back(std::move(region));
  }
  for (const auto& g : scenario.gates())
    result.gates.push_back({g.name(), vec(g.from()), vec(g.to()),
                            g.near_radius() > 0.0f ? g.near_radius() : ReportGate{}.nearRadius});
  for (const auto& e : scenario.expect())
    result.expectations.push_back({e.region(), e.archetype(), e.at_least(), e.after_seconds()});
  std::uint64_t agents = 0;
  for (const auto& g : scenario.spawns()) agents += g.count();
  const std::uint32_t tiles = scenario.has_level() ? 1 : tilesFor(options.agents, agents);
  if (tiles > 1) {
    checkTileable(scenario, checker);
    const float side = std::ceil(std::sqrt(static_cast<float>(tiles))) *
                       std::max(scenario.bounds().max().x() - scenario.bounds().min().x(),
                                scenario.bounds().max().y() - scenario.bounds().min().y());
    if (agents * tiles > kMaxAgents || side > kMaxWorldSide) {
      checker.error("--agents", std::to_string(options.agents) + " agents need " + std::to_string(tiles) +
                                    " copies of this world, more than the limits (" +
                                    std::to_string(kMaxAgents) + " agents, " + num(kMaxWorldSide) +
                                    " m on a side)");
    }
    if (!result.errors.empty()) return result;
    tileScenario(scenario, tiles);
    agents *= tiles;
  }
  result.summary =
      "scenario " + quoted(scenario.name()) + ": " + std::to_string(scenario.archetypes_size()) +
      " archetypes, " + std::to_string(agents) + " agents, " + std::to_string(scenario.obstacles_size()) +
      " obstacles, " + std::to_string(scenario.walls_size()) + " walls, " +
      std::to_string(scenario.boxes_size()) + " boxes, " + std::to_string(scenario.paths_size()) + " paths";
  if (tiles > 1)
    result.summary += " (" + std::to_string(tiles) + " copies of the file's world, for --agents)";
  if (!level.note.empty()) result.summary += "; " + level.note;
  std::shared_ptr<const nav::NavMesh> navMesh;
  std::vector<nav::NavMesh::Edge> outline;
  if (scenario.has_navmesh()) {
    NavLoad nav = loadNavMesh(scenario, options.navCacheDir, level.mesh.get());
    if (!nav.warning.empty()) result.warnings.push_back(displayName + ": " + nav.warning);
    if (!nav.error.empty()) {
      result.errors.push_back(displayName + ": navmesh: " + nav.error);
      return result;
    }
    checkAgainstNavMesh(scenario, *nav.mesh, checker);
    if (!result.errors.empty()) return result;
    result.summary += "; " + nav.note;
    navMesh = std::move(nav.mesh);
    outline = std::move(nav.outline);
  }
  const Names names = namesOf(scenario);
  {
    pb::Scenario rest = scenario;
    rest.clear_archetypes();
    rest.clear_brains();
    rest.clear_name();
    result.startOnly = rest.SerializeAsString();
  }
  result.archetypes = archetypesOf(scenario, names);
  attachBrains(scenario, names, result.archetypes);
  if (buildWorld)
    result.world =
        build(scenario, names, result.archetypes, options, std::move(navMesh), outline, level.spreadGroups);
  return result;
}

}  // namespace

ScenarioLoad loadScenarioText(const std::string& text, const std::string& displayName,
                              const ScenarioOptions& options, bool buildWorld, const std::string& baseDir) {
  ScenarioLoad result;
  pb::Scenario scenario;
  ParseErrors parseErrors(displayName, result.errors);
  google::protobuf::TextFormat::Parser parser;
  parser.RecordErrorsTo(&parseErrors);
  google::protobuf::TextFormat::ParseInfoTree where;
  parser.WriteLocationsTo(&where);
  if (!parser.ParseFromString(text, &scenario)) {
    // The parser finds a missing '}' only at the end of the file: say where the block opened.
    for (const scenario_hints::Position& at : scenario_hints::unclosedBraces(text)) {
      result.errors.push_back(displayName + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) +
                              ": this '{' is never closed");
    }
    if (result.errors.empty()) result.errors.push_back(displayName + ": not a valid scenario");
    return result;
  }
  return loadScenarioProto(std::move(scenario), displayName, baseDir, options, buildWorld, &where);
}

LevelRunOptions levelRunOptionsOf(const ScenarioOptions& o) {
  LevelRunOptions level;
  if (o.agents > 0) level.agents = o.agents;
  level.scale = o.levelScale;
  level.upAxis = o.levelUp;
  level.walkable = o.levelWalkable;
  level.blocking = o.levelBlocking;
  level.metresPerTile = o.levelMetresPerTile;
  return level;
}

std::string levelScenarioText(const std::string& path, const ScenarioOptions& options) {
  std::string text;
  google::protobuf::TextFormat::PrintToString(levelScenario(path, levelRunOptionsOf(options)), &text);
  return "# steerd --level " + path + "\n" + text;
}

ScenarioLoad loadLevelFile(const std::string& path, const LevelRunOptions& level,
                           const ScenarioOptions& options, bool buildWorld) {
  return loadScenarioProto(levelScenario(path, level), path, {}, options, buildWorld);
}

std::vector<std::string> scenarioNames() {
  std::vector<std::string> names{kDefaultScenarioName};
  for (auto& n : builtinScenarioNames()) names.push_back(std::move(n));
  return names;
}

ScenarioLoad openScenario(const std::string& nameOrPath, const ScenarioOptions& options) {
  for (const auto& name : builtinScenarioNames()) {  // generated ones; "default" is a file
    if (name == nameOrPath) {
      ScenarioLoad result;
      result.world = makeScenario(name, options);
      result.summary = "built-in scenario " + quoted(name);
      return result;
    }
  }
  return loadScenarioFile(nameOrPath, options, true);
}

ScenarioLoad loadScenarioFile(const std::string& path, const ScenarioOptions& options, bool buildWorld) {
  if (path == kDefaultScenarioName) {
    return loadScenarioText(std::string(defaultScenarioText()), "default (built-in)", options, buildWorld);
  }
  if (levelKindOf(path) != LevelKind::kNone)  // a level file itself: run it as steerd --level would
    return loadLevelFile(path, levelRunOptionsOf(options), options, buildWorld);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ScenarioLoad result;
    result.errors.push_back(path + ": cannot open the file");
    return result;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    ScenarioLoad result;
    result.errors.push_back(path + ": cannot read the file");
    return result;
  }
  return loadScenarioText(text.str(), path, options, buildWorld,
                          std::filesystem::path(path).parent_path().string());
}

}  // namespace steerd
