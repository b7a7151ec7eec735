#include "scenario/scenario_build.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "scenario/scenario_behaviour_rules.h"
#include "scenario/scenario_changes.h"
#include "scenario/scenario_check.h"
#include "scenario/scenario_nav.h"
#include "steering/random.h"

namespace steerd {

namespace {

namespace pb = steerd::scenario;
using namespace behaviour_rules;
using scenario_check::vec;
using steer::Vec2;

float orDefault(float v, float fallback) { return v > 0.0f ? v : fallback; }

// The builder's enums from the file's. Each switch names every value of its proto enum, and the two
// sentinels protoc adds among them, with no default: a value added to scenario.proto and not mapped
// fails -Wswitch (an error in CI) and, in any build, the static_assert on the enum's last value. A
// number no value names was refused by the check (checkEnumValues), so one reaching here is a bug
// in it: it throws, and never becomes some other value.
[[noreturn]] void unchecked(const char* what, int number) {
  throw std::logic_error(std::string("scenario builder: ") + what + " " + std::to_string(number) +
                         " was not refused by the check");
}

BehaviourKind kindOf(pb::BehaviourKind k) {
  const BehaviourRow* row = rowOf(k);  // every kind has a row (the static_assert beside rowOf)
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
    case pb::TargetKind_INT_MIN_SENTINEL_DO_NOT_USE_:
    case pb::TargetKind_INT_MAX_SENTINEL_DO_NOT_USE_:
      break;
  }
  unchecked("TargetKind", t);
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
    case pb::Combiner_INT_MIN_SENTINEL_DO_NOT_USE_:
    case pb::Combiner_INT_MAX_SENTINEL_DO_NOT_USE_:
      break;
  }
  unchecked("Combiner", c);
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
    case pb::Deceleration_INT_MIN_SENTINEL_DO_NOT_USE_:
    case pb::Deceleration_INT_MAX_SENTINEL_DO_NOT_USE_:
      break;
  }
  unchecked("Deceleration", d);
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
    case pb::Side_INT_MIN_SENTINEL_DO_NOT_USE_:
    case pb::Side_INT_MAX_SENTINEL_DO_NOT_USE_:
      break;
  }
  unchecked("Side", side);
}

static_assert(pb::ContextChooser_MAX == pb::CONTEXT_ARGMAX, "argmaxOf maps every ContextChooser");
bool argmaxOf(pb::ContextChooser chooser) {  // context steering's choice of slot
  switch (chooser) {
    case pb::CONTEXT_MASKED:
      return false;
    case pb::CONTEXT_ARGMAX:
      return true;
    case pb::ContextChooser_INT_MIN_SENTINEL_DO_NOT_USE_:
    case pb::ContextChooser_INT_MAX_SENTINEL_DO_NOT_USE_:
      break;
  }
  unchecked("ContextChooser", chooser);
}

static_assert(pb::ContextDanger_MAX == pb::DANGER_DOT, "dotDangerOf maps every ContextDanger");
bool dotDangerOf(pb::ContextDanger danger) {  // how context steering writes danger
  switch (danger) {
    case pb::DANGER_DISC:
      return false;
    case pb::DANGER_DOT:
      return true;
    case pb::ContextDanger_INT_MIN_SENTINEL_DO_NOT_USE_:
    case pb::ContextDanger_INT_MAX_SENTINEL_DO_NOT_USE_:
      break;
  }
  unchecked("ContextDanger", danger);
}

static_assert(pb::Locomotion_MAX == pb::KINEMATIC, "kinematicOf maps every Locomotion");
bool kinematicOf(pb::Locomotion locomotion) {
  switch (locomotion) {
    case pb::DYNAMIC:
      return false;
    case pb::KINEMATIC:
      return true;
    case pb::Locomotion_INT_MIN_SENTINEL_DO_NOT_USE_:
    case pb::Locomotion_INT_MAX_SENTINEL_DO_NOT_USE_:
      break;
  }
  unchecked("Locomotion", locomotion);
}

ArchetypeIndex archetypeIndex(const Names& names, const std::string& name) {
  return static_cast<ArchetypeIndex>(names.archetypes.at(name));
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

StaticGeometry geometryOf(const pb::Scenario& s, const Names& names, const NavBuilt& built) {
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
  for (const auto& e : built.outline) g.walls.push_back(steer::makeWall(e.from, e.to));  // a level's edges
  if (built.mesh) g.navPolygons = built.mesh->polygons();
  g.navMesh = built.mesh;
  g.navInput = built.input;
  g.doors = doorsOf(s);
  for (const auto& a : s.navmesh().areas()) g.areaNames.push_back(a.name());
  return g;
}

// Spawns one group's agents on a jittered lattice over its box.
void spawnGroup(World& world, const pb::SpawnGroup& group, const Names& names, bool spread,
                const nav::NavMesh* navMesh, steer::Rng& rng, TakenSpots& taken) {
  const auto archetype = archetypeIndex(names, group.archetype());
  const std::int32_t path = group.path().empty() ? -1 : names.paths.at(group.path());
  const float radius = world.archetypes()[archetype].limits.radius;
  const float pad = radius + 0.5f;
  const auto drawInBox = [&] {
    return Vec2{group.min().x() + rng.uniform() * (group.max().x() - group.min().x()),
                group.min().y() + rng.uniform() * (group.max().y() - group.min().y())};
  };
  for (Vec2 p :
       latticePoints(world.geometry(), rng, group.count(), vec(group.min()), vec(group.max()), pad)) {
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
      p = drawInBox();
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
      for (int attempt = 0; spread && attempt < 256 && !onGround(p); ++attempt) p = drawInBox();
    }
    taken.add(p, radius);
    world.spawn(archetype, p, randomVelocity(rng, group.speed()), path);
  }
}

}  // namespace

Names namesOf(const pb::Scenario& s) {
  Names n;
  for (const auto& wp : s.waypoints()) n.waypoints[wp.name()] = vec(wp.position());
  for (int i = 0; i < s.paths_size(); ++i) n.paths[s.paths(i).name()] = i;
  for (int i = 0; i < s.archetypes_size(); ++i) n.archetypes[s.archetypes(i).name()] = i;
  for (int i = 0; i < s.doors_size(); ++i) n.doors[s.doors(i).name()] = i;
  n.archetypes.emplace(kPlayerArchetypeName, s.archetypes_size());  // as World appends it
  return n;
}

BehaviourSpec specOf(const pb::Behaviour& beh, const Names& names) {
  const pb::BehaviourKind k = beh.kind();
  BehaviourSpec spec;
  spec.kind = kindOf(k);
  spec.weight = beh.has_weight() ? beh.weight() : 1.0f;
  spec.priority = beh.priority();
  spec.probability = beh.has_probability() ? beh.probability() : 1.0f;
  if (needsTarget(beh)) {
    spec.targetArchetype = archetypeIndex(names, beh.target_archetype());
    spec.target = targetOf(beh.target());
  }
  if (pointOrAgent(k)) {
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
  spec.contextArgmax = argmaxOf(beh.context_chooser());
  spec.contextDotDanger = dotDangerOf(beh.context_danger());
  spec.range = beh.range() > 0.0f ? beh.range() : spec.range;
  // FLEE from a point: range is the panic distance, and 0 (left out) means always.
  if (k == pb::FLEE && spec.atPoint) spec.range = beh.range();
  // Names only where the kind reads them: the check let an ignored one through with a warning.
  spec.pathIndex = reads(k, kFieldPath) && !beh.path().empty() ? names.paths.at(beh.path()) : -1;
  if (needsWaypoint(k)) spec.point = names.waypoints.at(beh.waypoint());
  if (reads(k, kFieldOffset)) spec.point = vec(beh.offset());
  if (needsSecondArchetype(k)) spec.secondArchetype = archetypeIndex(names, beh.second_archetype());
  if (goesToWaypointOrPath(k)) {  // NAVIGATE: within 1 m unless told, of a waypoint, along a path, or roaming
    spec.range = beh.range() > 0.0f ? beh.range() : 1.0f;
    if (!beh.waypoint().empty()) {
      spec.navGoal = NavGoal::kPoint;
      spec.point = names.waypoints.at(beh.waypoint());
    } else {
      spec.navGoal = beh.path().empty() ? NavGoal::kRandom : NavGoal::kPath;
    }
  }
  if (herds(k)) {  // home: second_archetype's group, else the target's own
    if (beh.stand_off() > 0.0f) spec.standOff = beh.stand_off();
    spec.secondArchetype =
        beh.second_archetype().empty() ? spec.targetArchetype : archetypeIndex(names, beh.second_archetype());
  }
  return spec;
}

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
    arch.kinematic = kinematicOf(a.locomotion());
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

std::unique_ptr<World> buildWorld(const pb::Scenario& s, const Names& names,
                                  std::vector<Archetype> archetypes, const ScenarioOptions& options,
                                  NavBuilt built, const std::vector<int>& spreadGroups) {
  WorldConfig config;
  config.seed = options.seed;
  config.threads = options.threads;
  config.contactPasses = static_cast<int>(s.contact_passes());
  if (s.navmesh().planner_iterations_per_tick() > 0)
    config.planner.iterationsPerServe = static_cast<int>(s.navmesh().planner_iterations_per_tick());
  auto world = std::make_unique<World>(geometryOf(s, names, built), std::move(archetypes), config);
  world->setSchedule(scheduleOf(s, names, config.dt));
  steer::Rng rng(steer::mix64(options.seed) ^ 0x5ce4a210ULL);
  TakenSpots taken;
  for (int groupIndex = 0; groupIndex < s.spawns_size(); ++groupIndex) {
    const bool spread = std::find(spreadGroups.begin(), spreadGroups.end(), groupIndex) != spreadGroups.end();
    spawnGroup(*world, s.spawns(groupIndex), names, spread, built.mesh.get(), rng, taken);
  }
  return world;
}

}  // namespace steerd
