#include "scenario/scenario_validate.h"

#include <map>
#include <utility>

#include "proto/session_seal.h"
#include "scenario/scenario_behaviour_rules.h"
#include "scenario/scenario_brains.h"
#include "scenario/scenario_changes.h"
#include "scenario/scenario_nav.h"
#include "world/archetype.h"

namespace steerd {

namespace {

namespace pb = steerd::scenario;
using namespace scenario_check;

constexpr std::size_t kMaxBehaviours = 16;
constexpr std::uint32_t kMaxContactPasses = 8;
constexpr int kMaxGates = 64;  // the report walks every agent for each gate, every tick

bool inside(const pb::Bounds& b, const pb::Vec2& p) {
  return p.x() >= b.min().x() && p.x() <= b.max().x() && p.y() >= b.min().y() && p.y() <= b.max().y();
}

std::string archetypeField(int i, const pb::Archetype& a) {
  return "archetypes[" + std::to_string(i) + "] (" + quoted(a.name()) + ")";
}

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

// Regions (simple polygons with names) for the headless report; returns their names.
std::map<std::string, int> validateRegions(const pb::Scenario& s, Checker& c) {
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
  return seen;
}

// Gates (segments the report counts crossings of).
void validateGates(const pb::Scenario& s, Checker& c) {
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
}

// Expectations on the regions (a share of an archetype inside by a time).
void validateExpectations(const pb::Scenario& s, const std::map<std::string, int>& regions, Checker& c) {
  for (int i = 0; i < s.expect_size(); ++i) {
    const pb::Expectation& e = s.expect(i);
    const std::string f = "expect[" + std::to_string(i) + "]";
    if (!regions.count(e.region())) c.error(f + ".region", "no region named " + quoted(e.region()));
    bool known = e.archetype() == kPlayerArchetypeName;
    for (const auto& a : s.archetypes()) known = known || a.name() == e.archetype();
    if (!known) c.error(f + ".archetype", "no archetype named " + quoted(e.archetype()));
    if (!finite(e.at_least()) || e.at_least() < 0.0f || e.at_least() > 1.0f)
      c.error(f + ".at_least", "a share from 0 to 1, not " + num(e.at_least()));
    c.nonNegative(f + ".after_seconds", e.after_seconds());
  }
}

// The world: bounds, obstacles and walls.
void validateGeometry(const pb::Scenario& s, Checker& c) {
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
}

// Waypoints (named, inside the bounds) and paths through them; fills their names.
void validateWaypointsAndPaths(const pb::Scenario& s, NameSets& names, Checker& c) {
  for (int i = 0; i < s.waypoints_size(); ++i) {
    const auto& wp = s.waypoints(i);
    const std::string f = "waypoints[" + std::to_string(i) + "]";
    if (wp.name().empty()) c.error(f + ".name", "is empty");
    if (!names.waypoints.emplace(wp.name(), i).second)
      c.error(f + ".name", "duplicate waypoint " + quoted(wp.name()));
    c.finitePoint(f + ".position", wp.position());
    if (!inside(s.bounds(), wp.position())) c.error(f + ".position", "outside the world bounds");
  }
  for (int i = 0; i < s.paths_size(); ++i) {
    const auto& p = s.paths(i);
    const std::string f = "paths[" + std::to_string(i) + "] (" + quoted(p.name()) + ")";
    if (p.name().empty()) c.error(f + ".name", "is empty");
    if (!names.paths.emplace(p.name(), i).second) c.error(f + ".name", "duplicate path " + quoted(p.name()));
    if (p.waypoints_size() < 2) {
      c.error(f + ".waypoints",
              "a path needs at least two waypoints, not " + std::to_string(p.waypoints_size()));
    }
    for (int k = 0; k < p.waypoints_size(); ++k) {
      if (!names.waypoints.count(p.waypoints(k))) {
        c.error(f + ".waypoints[" + std::to_string(k) + "]", "no waypoint named " + quoted(p.waypoints(k)));
      }
    }
  }
}

// The archetypes' names, each once, and all of them in a client's Accept; fills the names and
// returns whether the world appends the built-in player archetype.
bool validateArchetypeNames(const pb::Scenario& s, NameSets& names, Checker& c) {
  if (s.archetypes_size() == 0) c.error("archetypes", "a scenario needs at least one archetype");
  for (int i = 0; i < s.archetypes_size(); ++i) {
    const auto& a = s.archetypes(i);
    if (a.name().empty()) c.error(archetypeField(i, a) + ".name", "is empty");
    if (!names.archetypes.emplace(a.name(), i).second) {
      c.error(archetypeField(i, a) + ".name", "duplicate archetype " + quoted(a.name()));
    }
  }
  // Connected clients' bodies: a file that defines no "player" still lets behaviours, senses and
  // conditions name one (the world appends the built-in player archetype after the file's).
  const bool builtinPlayer = names.archetypes.emplace(kPlayerArchetypeName, s.archetypes_size()).second;
  // Every client's Accept lists the archetype names, and it must fit under the padded request
  // that asks for it (wire::kMinConnectResponseBytes), or clients would hold a slot and never get in.
  if (const std::size_t bytes = acceptBytes(s, builtinPlayer); bytes > wire::kMinConnectResponseBytes) {
    c.error("archetypes",
            "the names take the clients' Accept to " + std::to_string(bytes) + " bytes, over the " +
                std::to_string(wire::kMinConnectResponseBytes) +
                " a datagram answering a connect allows: shorten names or use fewer archetypes");
  }
  return builtinPlayer;
}

// An archetype's body limits, and a warning when behaviours would move a body that cannot move.
void validateLimits(const pb::Archetype& a, const std::string& f, Checker& c) {
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
    const BehaviourRow* row = behaviour_rules::rowOf(b.kind());
    moves = moves || (row != nullptr && !row->turns());
  }
  for (const auto& [field, value] :
       {std::pair{"max_speed", a.limits().max_speed()}, std::pair{"max_force", a.limits().max_force()}}) {
    if (moves && value == 0.0f)
      c.warn(f + ".limits." + field, std::string("0 with behaviours that move it: they never can"));
  }
  c.nonNegative(f + ".limits.max_turn_rate_deg", a.limits().max_turn_rate_deg());
}

// An archetype's tuning: distances, smoothing, level of detail.
void validateTuning(const pb::Archetype& a, const std::string& f, Checker& c) {
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
}

void validateArchetype(const pb::Scenario& s, int i, const NameSets& names, Checker& c) {
  const auto& a = s.archetypes(i);
  const std::string f = archetypeField(i, a);
  validateLimits(a, f, c);
  validateTuning(a, f, c);
  if (a.behaviours_size() > static_cast<int>(kMaxBehaviours)) {
    c.error(f + ".behaviours",
            "at most " + std::to_string(kMaxBehaviours) + ", not " + std::to_string(a.behaviours_size()));
  }
  for (int k = 0; k < a.behaviours_size(); ++k) {
    validateBehaviour(s, a.name(), a.behaviours(k), f + ".behaviours[" + std::to_string(k) + "]", names, c);
  }
}

// Clients' bodies have no brain: a brain for the built-in player archetype is a mistake.
void validateNoPlayerBrain(const pb::Scenario& s, bool builtinPlayer, Checker& c) {
  for (int i = 0; builtinPlayer && i < s.brains_size(); ++i) {
    if (s.brains(i).archetype() == kPlayerArchetypeName) {
      c.error("brains[" + std::to_string(i) + "].archetype",
              "\"player\" is the built-in archetype of connected clients, which have no brain; define an "
              "archetype named \"player\" for a stand-in NPC with one");
    }
  }
}

// Spawn groups: a known archetype, a box inside the bounds, and the agents in all under kMaxAgents.
void validateSpawns(const pb::Scenario& s, const NameSets& names, Checker& c) {
  std::uint64_t agents = 0;
  for (int i = 0; i < s.spawns_size(); ++i) {
    const auto& g = s.spawns(i);
    const std::string f = "spawns[" + std::to_string(i) + "]";
    if (!names.archetypes.count(g.archetype()))
      c.error(f + ".archetype", "no archetype named " + quoted(g.archetype()));
    if (g.count() == 0) c.error(f + ".count", "must be at least 1");
    agents += g.count();
    c.finitePoint(f + ".min", g.min());
    c.finitePoint(f + ".max", g.max());
    if (g.min().x() > g.max().x() || g.min().y() > g.max().y())
      c.error(f, "min must not be greater than max");
    if (!inside(s.bounds(), g.min()) || !inside(s.bounds(), g.max()))
      c.error(f, "the spawn box lies outside the world bounds");
    c.nonNegative(f + ".speed", g.speed());
    if (!g.path().empty() && !names.paths.count(g.path()))
      c.error(f + ".path", "no path named " + quoted(g.path()));
  }
  if (agents > kMaxAgents)
    c.error("spawns", "at most " + std::to_string(kMaxAgents) + " agents, not " + std::to_string(agents));
}

}  // namespace

void validateScenario(const pb::Scenario& s, Checker& c) {
  const std::map<std::string, int> regions = validateRegions(s, c);
  validateGates(s, c);
  validateExpectations(s, regions, c);
  validateGeometry(s, c);
  NameSets names;
  for (int i = 0; i < s.doors_size(); ++i) names.doors.emplace(s.doors(i).name(), i);
  validateWaypointsAndPaths(s, names, c);
  const bool builtinPlayer = validateArchetypeNames(s, names, c);
  for (int i = 0; i < s.archetypes_size(); ++i) validateArchetype(s, i, names, c);
  validateNoPlayerBrain(s, builtinPlayer, c);
  validateBrains(s, names, c);
  validateNavigation(s, c);
  validateChanges(s, c);
  if (s.contact_passes() > kMaxContactPasses) {
    c.error("contact_passes",
            "at most " + std::to_string(kMaxContactPasses) + ", not " + std::to_string(s.contact_passes()));
  }
  validateSpawns(s, names, c);
}

}  // namespace steerd
