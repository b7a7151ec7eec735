#include "net/debug_info.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>
#include <utility>
#include <vector>

#include "steering/obstacle_avoidance.h"
#include "steering/wall_avoidance.h"
#include "world/agent_inspect.h"
#include "world/brain_think.h"

namespace steerd::net {

namespace {

std::string archetypeName(const World& world, ArchetypeIndex a) {
  if (a < world.archetypes().size()) return world.archetypes()[a].name;
  std::string unknown = "#";  // appended, not "#" + ...: GCC 12 warns falsely on that (-Wrestrict)
  unknown += std::to_string(a);
  return unknown;
}

// Which agent of the target archetype a targeted behaviour aims at, when not the nearest.
std::string targetKindSuffix(TargetKind target) {
  switch (target) {
    case TargetKind::kNearest:
      return {};
    case TargetKind::kGroupLeader:
      return " (leader)";
    case TargetKind::kGroupCentroid:
      return " (centroid)";
    case TargetKind::kFetchOrder:
      return " (fetch order)";
    case TargetKind::kAgent:
      return " (goal)";
  }
  return {};
}

// What a behaviour is about, for a person telling two of the same kind apart: "player",
// "boid (leader)", "stray > cow (fetch order)", "path 2".
std::string detailOf(const World& world, const BehaviourSpec& spec) {
  if (spec.target == TargetKind::kAgent)
    return "agent " + std::to_string(spec.agent) + targetKindSuffix(spec.target);
  switch (spec.kind) {
    case BehaviourKind::kDriveGroup:
      return archetypeName(world, spec.targetArchetype);
    case BehaviourKind::kPursueNearest:
    case BehaviourKind::kEvadeNearest:
    case BehaviourKind::kHideFromNearest:
    case BehaviourKind::kOffsetPursuitNearest:
    case BehaviourKind::kVelocityMatch:
    case BehaviourKind::kAlign:
      return archetypeName(world, spec.targetArchetype) + targetKindSuffix(spec.target);
    case BehaviourKind::kSeek:
    case BehaviourKind::kFlee:
    case BehaviourKind::kArrive:
    case BehaviourKind::kFace:
      if (spec.atPoint) {
        char at[48];
        std::snprintf(at, sizeof(at), "(%.1f, %.1f)", static_cast<double>(spec.point.x),
                      static_cast<double>(spec.point.y));
        return at;
      }
      return archetypeName(world, spec.targetArchetype) + targetKindSuffix(spec.target);
    case BehaviourKind::kInterposeNearest:
    case BehaviourKind::kFetchStray:
      return archetypeName(world, spec.targetArchetype) + " > " + archetypeName(world, spec.secondArchetype) +
             targetKindSuffix(spec.target);
    case BehaviourKind::kFollowPath:
    case BehaviourKind::kContextSeekWaypoints:
      return spec.pathIndex >= 0 ? "path " + std::to_string(spec.pathIndex) : std::string("own path");
    // Every kind is listed (no default), so a kind added to behaviour_table.h fails -Wswitch here
    // until it says what its detail is.
    case BehaviourKind::kWander:
    case BehaviourKind::kSeparation:
    case BehaviourKind::kAlignment:
    case BehaviourKind::kCohesion:
    case BehaviourKind::kObstacleAvoidance:
    case BehaviourKind::kWallAvoidance:
    case BehaviourKind::kArriveAt:
    case BehaviourKind::kWhiskerAvoidance:
    case BehaviourKind::kCollisionAvoidance:
    case BehaviourKind::kNavigate:
    case BehaviourKind::kLookWhereGoing:
      return {};  // no target or path to tell two apart
  }
  return {};  // a value no kind names
}

}  // namespace

wire::DebugStates debugStatesOf(const World& world, float x, float y, float radius, std::size_t limit) {
  wire::DebugStates out;
  const AgentColumns& agents = world.agents();
  const auto& archetypes = world.archetypes();
  struct Near {
    float d2;
    std::uint32_t slot;
  };
  std::vector<Near> inside;
  const float r2 = radius * radius;
  for (std::uint32_t slot = 0; slot < agents.size(); ++slot) {
    const ArchetypeIndex a = agents.archetype[slot];
    if (a >= archetypes.size() || !archetypes[a].brain) continue;
    const float dx = agents.px[slot] - x, dy = agents.py[slot] - y;
    const float d2 = dx * dx + dy * dy;
    if (d2 <= r2) inside.push_back({d2, slot});
  }
  // Nearest first; ties by id, so the same world gives the same list.
  const auto nearer = [&](const Near& l, const Near& r) {
    return l.d2 != r.d2 ? l.d2 < r.d2 : agents.id[l.slot] < agents.id[r.slot];
  };
  if (inside.size() > limit) {
    std::partial_sort(inside.begin(), inside.begin() + static_cast<std::ptrdiff_t>(limit), inside.end(),
                      nearer);
    inside.resize(limit);
    out.set_truncated(true);
  } else {
    std::sort(inside.begin(), inside.end(), nearer);
  }
  std::unordered_map<std::string, std::uint32_t> index;
  for (const Near& n : inside) {
    const ArchetypeIndex a = agents.archetype[n.slot];
    std::string name = brainStateName(*archetypes[a].brain, agents.memory(n.slot).brainState);
    auto [it, added] = index.try_emplace(std::move(name), static_cast<std::uint32_t>(out.names_size()));
    if (added) out.add_names(it->first);
    out.add_agent_id(agents.id[n.slot]);
    out.add_state(it->second);
  }
  return out;
}

void trimStates(wire::DebugStates& states) {
  const int n = states.agent_id_size();
  const int keep = std::max(0, n - std::max(1, n / 4));
  states.mutable_agent_id()->Truncate(keep);
  states.mutable_state()->Truncate(keep);
  states.set_truncated(true);
  // Only the names still used, renumbered in their order, so the table shrinks with the list.
  std::vector<int> renumber(static_cast<std::size_t>(states.names_size()), -1);
  google::protobuf::RepeatedPtrField<std::string> names;
  for (int i = 0; i < keep; ++i) {
    const std::uint32_t s = states.state(i);
    if (s >= renumber.size()) continue;
    if (renumber[s] < 0) {
      renumber[s] = names.size();
      *names.Add() = states.names(static_cast<int>(s));
    }
    states.set_state(i, static_cast<std::uint32_t>(renumber[s]));
  }
  states.mutable_names()->Swap(&names);
}

wire::DebugHover debugHoverOf(const World& world, AgentId id) {
  wire::DebugHover hover;
  hover.set_agent_id(id);
  if (!world.isAlive(id)) return hover;  // found = false
  hover.set_found(true);
  const std::uint32_t slot = world.slotOf(id);
  const ArchetypeIndex a = world.agents().archetype[slot];
  if (a < world.archetypes().size() && world.archetypes()[a].brain) {
    hover.set_brain_state(
        brainStateName(*world.archetypes()[a].brain, world.agents().memory(slot).brainState));
  }
  return hover;
}

namespace {

// What each of the brain's senses reaches from `slot` now, as brain_think's senses() judges it
// (range, the cone along the heading, a line of sight past obstacles and walls).
void addSenses(const World& world, std::uint32_t slot, const brain::Brain& brain, wire::DebugInfo& info) {
  constexpr std::size_t kMaxSeen = 16;
  const AgentColumns& a = world.agents();
  const steer::Vec2 p{a.px[slot], a.py[slot]}, heading{a.hx[slot], a.hy[slot]};
  for (const brain::Sense& sense : brain.senses) {
    wire::DebugSense* out = info.add_senses();
    out->set_name(sense.name);
    out->set_range(sense.range);
    out->set_fov_deg(sense.cosHalfFov <= -1.0f
                         ? 360.0f
                         : 2.0f * std::acos(std::clamp(sense.cosHalfFov, -1.0f, 1.0f)) * 180.0f / steer::kPi);
    std::vector<std::pair<float, std::uint32_t>> near;
    for (std::uint32_t j = 0; j < a.size(); ++j) {
      if (j == slot || a.archetype[j] != sense.archetype) continue;
      const steer::Vec2 d = steer::Vec2{a.px[j], a.py[j]} - p;
      const float dist = steer::length(d);
      if (dist > sense.range) continue;
      if (sense.cosHalfFov > -1.0f && dist > 0.0f && steer::dot(heading, d / dist) < sense.cosHalfFov)
        continue;
      near.emplace_back(dist, j);
    }
    std::sort(near.begin(), near.end());
    for (std::size_t k = 0; k < near.size() && k < kMaxSeen; ++k) {
      const std::uint32_t j = near[k].second;
      out->add_agent_id(a.id[j]);
      out->add_agent_x(a.px[j]);
      out->add_agent_y(a.py[j]);
      out->add_visible(!sightBlocked(world.geometry(), p, {a.px[j], a.py[j]}));
    }
  }
}

}  // namespace

namespace {

// The brain's state, when it entered it, and the watched agent's transitions, by state name.
void addBrainHistory(const World& world, AgentId id, const brain::Brain& brain, const AgentMemory& memory,
                     std::span<const BrainTransition> transitions, wire::DebugInfo& info) {
  info.set_brain_state(brainStateName(brain, memory.brainState));
  info.set_state_entered_tick(static_cast<std::uint32_t>(world.brainMemoryOf(id).enteredTick));
  for (const BrainTransition& t : transitions) {
    auto* w = info.add_transitions();
    w->set_tick(static_cast<std::uint32_t>(t.tick));
    w->set_from(brainStateName(brain, t.from));
    w->set_to(brainStateName(brain, t.to));
  }
}

// The detection box and the feelers as the body stands now (the position and heading above,
// state[n+1]), not as the last tick began (state[n], which the forces are about): drawn on a
// body that turned sharply in that tick, the old ones pointed behind it.
void addAvoidanceProbes(const World& world, std::uint32_t slot, const Archetype& arch,
                        wire::DebugInfo& info) {
  const AgentColumns& a = world.agents();
  const ArchetypeRuntime& rt = world.lastStepContext().runtime[a.archetype[slot]];
  steer::Body body;
  body.position = {a.px[slot], a.py[slot]};
  body.velocity = {a.vx[slot], a.vy[slot]};
  body.heading = {a.hx[slot], a.hy[slot]};
  body.limits = arch.limits;
  info.set_detection_box_length(steer::detectionBoxLength(body, rt.obstacles.minDetectionLength));
  for (const steer::Vec2 tip : steer::wallFeelers(body, rt.walls)) {
    info.add_feeler_x(tip.x - body.position.x);
    info.add_feeler_y(tip.y - body.position.y);
  }
}

// What each behaviour asked for on the last tick, and what the combiner made of them.
void addForces(const World& world, const AgentInspection& r, wire::DebugInfo& info) {
  for (const BehaviourInspection& b : r.behaviours) {
    auto* w = info.add_behaviours();
    w->set_kind(behaviourKindName(b.spec.kind));
    w->set_weight(b.spec.weight);
    w->set_priority(b.spec.priority);
    w->set_detail(detailOf(world, b.spec));
    w->set_force_x(b.force.x);
    w->set_force_y(b.force.y);
    w->set_evaluated(b.evaluated);
  }
  info.set_force_x(r.combined.x);
  info.set_force_y(r.combined.y);
}

// The path it follows and the waypoint it steers to, from the memory the tick wrote (-1: none).
void addPath(const World& world, const AgentMemory& memory, const AgentInspection& r, wire::DebugInfo& info) {
  info.set_path_id(-1);
  info.set_path_waypoint(-1);
  for (const BehaviourInspection& b : r.behaviours) {
    if (b.spec.kind != BehaviourKind::kFollowPath && b.spec.kind != BehaviourKind::kContextSeekWaypoints)
      continue;
    const std::int32_t path = b.spec.pathIndex >= 0 ? b.spec.pathIndex : memory.assignedPath;
    if (path >= 0 && static_cast<std::size_t>(path) < world.geometry().paths.size()) {
      info.set_path_id(path);
      info.set_path_waypoint(memory.pathIndex);
    }
    break;
  }
}

// A navigating agent's corridor, from the corner before the one it steers to (the leg it is on),
// kMaxCorridorPoints at most, and its navmesh goal.
void addNavigation(const AgentInspection& r, wire::DebugInfo& info) {
  info.set_navigating(true);
  const std::size_t n = r.corridor.size();
  const std::size_t first = r.corridorCorner > 0 ? std::min(r.corridorCorner - 1, n) : 0;
  const std::size_t last = std::min(n, first + kMaxCorridorPoints);
  for (std::size_t k = first; k < last; ++k) {
    info.add_corridor_x(r.corridor[k].x);
    info.add_corridor_y(r.corridor[k].y);
  }
  info.set_corridor_corner(static_cast<std::uint32_t>(std::min(r.corridorCorner, n) - first));
  info.set_nav_has_goal(r.navHasGoal);
  if (r.navHasGoal) {
    info.set_nav_goal_x(r.navGoal.x);
    info.set_nav_goal_y(r.navGoal.y);
  }
  info.set_nav_waiting(r.navWaiting);
}

// Context steering's interest and danger maps, a byte a slot (0..1 as 0..255), and the chosen
// slot (-1: no context steering).
void addContextMaps(const AgentInspection& r, wire::DebugInfo& info) {
  if (!r.context) {
    info.set_context_slot(-1);
    return;
  }
  info.set_context_slot(r.contextSlot);
  const auto bytesOf = [](const std::vector<float>& values) {
    std::string out(values.size(), '\0');
    for (std::size_t k = 0; k < values.size(); ++k) {
      const float v = std::isfinite(values[k]) ? std::clamp(values[k], 0.0f, 1.0f) : 0.0f;
      out[k] = static_cast<char>(static_cast<std::uint8_t>(std::lround(v * 255.0f)));
    }
    return out;
  };
  info.set_context_interest(bytesOf(r.contextInterest));
  info.set_context_danger(bytesOf(r.contextDanger));
}

}  // namespace

std::string waitingFor(const World& world, AgentId id, const AgentInspection& r) {
  if (!world.isAlive(id)) return {};
  const AgentColumns& a = world.agents();
  const std::uint32_t slot = world.slotOf(id);
  const AgentMemory& memory = a.memory(slot);
  const steer::Vec2 p{a.px[slot], a.py[slot]}, v{a.vx[slot], a.vy[slot]};
  steer::Vec2 goal{memory.goalX, memory.goalY};
  if (r.found && r.navigating && r.navHasGoal) goal = r.navGoal;
  const bool hasGoal = steer::isFinite(goal);
  if (hasGoal) {
    for (const Door& d : world.doors()) {
      if (d.open) continue;
      if (d.link) {
        // A shut link: at one of its ends, bound for somewhere nearer the other.
        const bool atFrom = steer::distance(p, d.from) <= kWaitingDoorReach;
        const bool atTo = steer::distance(p, d.to) <= kWaitingDoorReach;
        if ((atFrom && steer::distance(goal, d.to) < steer::distance(goal, d.from)) ||
            (atTo && steer::distance(goal, d.from) < steer::distance(goal, d.to)))
          return "door " + d.name;
        continue;
      }
      if (steer::distanceToSegment(p, d.from, d.to) > kWaitingDoorReach + d.thickness * 0.5f) continue;
      if (steer::properlyCross(p, goal, d.from, d.to)) return "door " + d.name;
    }
  }
  const float maxSpeed = world.archetypes()[a.archetype[slot]].limits.maxSpeed;
  if (steer::length(v) >= kWaitingSlowShare * maxSpeed) return {};
  const steer::Vec2 ahead = steer::normalizedOr(hasGoal ? goal - p : v, v);
  if (steer::lengthSq(ahead) == 0.0f) return {};
  const float radius = world.archetypes()[a.archetype[slot]].limits.radius;
  for (const LiveObstacle& o : world.liveObstacles()) {
    const steer::Vec2 to = o.shape.center - p;
    float size = o.shape.walled() ? steer::length(o.shape.halfSize) : o.shape.radius;
    for (const steer::Vec2 corner : o.shape.points) size = std::max(size, steer::length(corner));
    if (steer::length(to) - size - radius > kWaitingObstacleReach || steer::dot(to, ahead) <= 0.0f) continue;
    return o.name.empty() ? "obstacle " + std::to_string(o.id)
                          : "obstacle " + std::to_string(o.id) + " (" + o.name + ")";
  }
  return {};
}

wire::DebugInfo debugInfoOf(const World& world, AgentId id, std::span<const BrainTransition> transitions) {
  wire::DebugInfo info;
  info.set_agent_id(id);
  info.set_tick(static_cast<std::uint32_t>(world.tick()));
  if (!world.isAlive(id)) return info;  // found = false
  info.set_found(true);
  const AgentColumns& a = world.agents();
  const std::uint32_t slot = world.slotOf(id);
  const Archetype& arch = world.archetypes()[a.archetype[slot]];
  const AgentMemory& memory = a.memory(slot);
  info.set_archetype(arch.name);
  info.set_external((memory.flags & kAgentExternal) != 0);
  if (arch.brain) addBrainHistory(world, id, *arch.brain, memory, transitions, info);
  info.set_combiner(combinerKindName(arch.combiner));
  info.set_x(a.px[slot]);
  info.set_y(a.py[slot]);
  info.set_vx(a.vx[slot]);
  info.set_vy(a.vy[slot]);
  info.set_heading_x(a.hx[slot]);
  info.set_heading_y(a.hy[slot]);
  const bool hasGoal = std::isfinite(memory.goalX) && std::isfinite(memory.goalY);
  info.set_has_goal(hasGoal);
  if (hasGoal) {
    info.set_goal_x(memory.goalX);
    info.set_goal_y(memory.goalY);
  }
  info.set_target_id(memory.targetId);
  if (arch.brain) addSenses(world, slot, *arch.brain, info);
  info.set_radius(arch.limits.radius);
  info.set_max_speed(arch.limits.maxSpeed);
  info.set_max_force(arch.limits.maxForce);
  info.set_neighbour_radius(arch.flock.radius);

  const AgentInspection r = inspectAgent(world, id);
  info.set_forces_known(r.found && !r.external);
  if (!r.found) return info;
  addAvoidanceProbes(world, slot, arch, info);
  addForces(world, r, info);
  addPath(world, memory, r, info);
  if (r.navigating) addNavigation(r, info);
  addContextMaps(r, info);
  info.set_waiting_for(waitingFor(world, id, r));
  return info;
}

}  // namespace steerd::net
