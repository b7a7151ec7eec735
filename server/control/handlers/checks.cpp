#include "control/handlers/checks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "control/points.h"

namespace steerd::control {

namespace {

using steer::Vec2;

// Appends its pieces: GCC 12 warns falsely (-Wrestrict) on long chains of std::string operator+.
template <class... Parts>
std::string cat(const Parts&... parts) {
  std::string out;
  (out += ... += parts);
  return out;
}

bool navigates(const Archetype& a) {
  if (Navigation::navigateSpec(a.behaviours)) return true;
  for (const auto& set : a.stateBehaviours) {
    if (Navigation::navigateSpec(set)) return true;
  }
  return false;
}

}  // namespace

CommandResult failed(const Problem& problem) {
  CommandResult r;
  r.set_status(STATUS_ERROR);
  r.set_error(problem.field + ": " + problem.why);
  return r;
}

CommandResult succeeded() { return CommandResult{}; }

CommandResult succeeded(AgentId agent) {
  CommandResult r;
  r.set_agent(agent);
  return r;
}

std::string fmt(float v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", static_cast<double>(v));
  return b;
}

bool finite(float v) { return std::isfinite(v); }

Problem checkAgent(const World& world, const std::string& field, AgentId id, bool playerOk) {
  if (!world.isAlive(id)) return {field, "no live agent " + std::to_string(id)};
  if (!playerOk && (world.agents().memory(world.slotOf(id)).flags & kAgentExternal))
    return {field, "agent " + std::to_string(id) + " is a connected player's body (moved by its client)"};
  return {};
}

Problem checkRadius(const std::string& field, float v) {
  if (!finite(v) || v < 0.0f) return {field, fmt(v) + " must be finite and >= 0"};
  return {};
}

Problem checkPlace(const World& world, const std::string& field, const Point& point, float radius,
                   nav::NavPoint* onMesh) {
  const Vec2 p = vecOf(point);
  if (!finite(p.x) || !finite(p.y)) return {field, "not a finite point"};
  const Bounds& b = world.geometry().bounds;
  if (p.x < b.minX || p.x > b.maxX || p.y < b.minY || p.y > b.maxY) {
    return {field, cat("(", fmt(p.x), ", ", fmt(p.y), ") is outside the world bounds (", fmt(b.minX), ", ",
                       fmt(b.minY), ") - (", fmt(b.maxX), ", ", fmt(b.maxY), ")")};
  }
  // The point's bucket holds every obstacle and wall within an agent's reach of it (more than a
  // body's radius), so it is enough to look there.
  const StaticGeometry::Near near = world.geometry().near(p.x, p.y);
  for (const auto& o : near.obstacles) {
    if (steer::distance(p, o.center) < o.radius + radius) return {field, "inside an obstacle"};
  }
  for (const auto& w : near.walls) {
    if (steer::distanceToSegment(p, w.from, w.to) < radius) return {field, "inside a wall"};
  }
  if (const auto& mesh = world.geometry().navMesh) {
    const nav::NavPoint at = mesh->nearest(p, radius + 0.5f);
    if (!at) return {field, "not on the navmesh's walkable ground"};
    if (onMesh != nullptr) *onMesh = at;
  }
  return {};
}

Problem checkGoal(const World& world, const std::string& field, AgentId id, const Point& point) {
  const Archetype& a = archetypeOf(world, id);
  nav::NavPoint to;
  if (Problem p = checkPlace(world, field, point, a.limits.radius, &to)) return p;
  const auto& mesh = world.geometry().navMesh;
  if (mesh && navigates(a)) {
    const std::uint32_t s = world.slotOf(id);
    const nav::NavPoint from = mesh->nearest({world.agents().px[s], world.agents().py[s]});
    if (!from || mesh->islandOf(from.poly) != mesh->islandOf(to.poly))
      return {field, "not reachable on the navmesh from agent " + std::to_string(id)};
  }
  return {};
}

std::int32_t pathIndexOf(const World& world, const std::string& name) {
  const auto& paths = world.geometry().paths;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    if (!name.empty() && paths[i].name == name) return static_cast<std::int32_t>(i);
  }
  return -1;
}

std::int32_t stateIndexOf(const brain::Brain& brain, const std::string& name) {
  for (std::size_t i = 0; i < brain.states.size(); ++i) {
    if (brain.states[i].name == name || brain::statePath(brain, static_cast<std::uint8_t>(i)) == name)
      return static_cast<std::int32_t>(i);
  }
  return -1;
}

const Archetype& archetypeOf(const World& world, AgentId id) {
  return world.archetypes()[world.agents().archetype[world.slotOf(id)]];
}

bool actsOnOrdersFor(const Archetype& a, ArchetypeIndex stray) {
  auto acts = [&](const std::vector<BehaviourSpec>& set) {
    return std::any_of(set.begin(), set.end(), [&](const BehaviourSpec& b) {
      return b.kind == BehaviourKind::kFetchStray && b.target == TargetKind::kFetchOrder &&
             b.targetArchetype == stray;
    });
  };
  return acts(a.behaviours) || std::any_of(a.stateBehaviours.begin(), a.stateBehaviours.end(), acts);
}

}  // namespace steerd::control
