// Goals: MoveTo, MoveToWaypoint, FollowPath, Follow, Guard, Stop and Release. Each ends in
// ControlContext::setGoal, which gives the world its directive and has afterTick watch it.
#include <algorithm>

#include "control/handlers/checks.h"
#include "control/handlers/handlers.h"
#include "control/points.h"

namespace steerd::control {

namespace {

constexpr float kDefaultArrivalRadius = 1.0f;  // m
constexpr float kDefaultGuardRadius = 5.0f;    // m
constexpr steer::Vec2 kDefaultFollowOffset{-2.0f, 0.0f};

CommandResult give(ControlContext& context, AgentId id, const Directive& goal) {
  context.setGoal(id, goal);
  return succeeded(id);
}

Directive moveToGoal(steer::Vec2 point, float radius, bool releaseOnArrival) {
  Directive d;
  d.kind = DirectiveKind::kMoveTo;
  d.point = point;
  d.radius = radius > 0.0f ? radius : kDefaultArrivalRadius;
  d.releaseOnArrival = releaseOnArrival;
  return d;
}

}  // namespace

CommandResult handleMoveTo(ControlContext& context, const MoveTo& m) {
  const World& world = context.world();
  if (Problem p = checkAgent(world, "move_to.agent", m.agent())) return failed(p);
  if (!m.has_position()) return failed({"move_to.position", "missing"});
  if (Problem p = checkGoal(world, "move_to.position", m.agent(), m.position())) return failed(p);
  if (Problem p = checkRadius("move_to.radius", m.radius())) return failed(p);
  return give(context, m.agent(), moveToGoal(vecOf(m.position()), m.radius(), m.release_on_arrival()));
}

CommandResult handleMoveToWaypoint(ControlContext& context, const MoveToWaypoint& m) {
  const World& world = context.world();
  if (Problem p = checkAgent(world, "move_to_waypoint.agent", m.agent())) return failed(p);
  const auto& points = world.geometry().waypoints;
  const auto w =
      std::find_if(points.begin(), points.end(), [&](const NamedPoint& n) { return n.name == m.waypoint(); });
  if (w == points.end()) return failed({"move_to_waypoint.waypoint", "no waypoint \"" + m.waypoint() + "\""});
  Point at;
  setPoint(&at, w->position);
  if (Problem p = checkGoal(world, "move_to_waypoint.waypoint", m.agent(), at)) return failed(p);
  if (Problem p = checkRadius("move_to_waypoint.radius", m.radius())) return failed(p);
  return give(context, m.agent(), moveToGoal(w->position, m.radius(), m.release_on_arrival()));
}

CommandResult handleFollowPath(ControlContext& context, const FollowPath& f) {
  const World& world = context.world();
  if (Problem p = checkAgent(world, "follow_path.agent", f.agent())) return failed(p);
  const std::int32_t path = pathIndexOf(world, f.path());
  if (path < 0) return failed({"follow_path.path", "no path \"" + f.path() + "\""});
  const Path& found = world.geometry().paths[static_cast<std::size_t>(path)];
  if (found.points.empty()) return failed({"follow_path.path", "has no points"});
  Directive d;
  d.kind = DirectiveKind::kPath;
  d.path = path;
  d.point = found.points.back();
  d.radius = std::max(kDefaultArrivalRadius, archetypeOf(world, f.agent()).pathSeekDistance);
  d.releaseOnArrival = f.release_on_arrival();
  return give(context, f.agent(), d);
}

CommandResult handleFollow(ControlContext& context, const Follow& f) {
  const World& world = context.world();
  if (Problem p = checkAgent(world, "follow.agent", f.agent())) return failed(p);
  if (Problem p = checkAgent(world, "follow.target", f.target(), true)) return failed(p);
  if (f.target() == f.agent()) return failed({"follow.target", "an agent cannot follow itself"});
  Directive d;
  d.kind = DirectiveKind::kFollow;
  d.target = f.target();
  d.offset = f.has_offset() ? vecOf(f.offset()) : kDefaultFollowOffset;
  if (!finite(d.offset.x) || !finite(d.offset.y)) return failed({"follow.offset", "not finite"});
  return give(context, f.agent(), d);
}

CommandResult handleGuard(ControlContext& context, const Guard& g) {
  const World& world = context.world();
  if (Problem p = checkAgent(world, "guard.agent", g.agent())) return failed(p);
  if (Problem p = checkAgent(world, "guard.target", g.target(), true)) return failed(p);
  if (g.target() == g.agent()) return failed({"guard.target", "an agent cannot guard itself"});
  if (Problem p = checkRadius("guard.radius", g.radius())) return failed(p);
  Directive d;
  d.kind = DirectiveKind::kGuard;
  d.target = g.target();
  d.radius = g.radius() > 0.0f ? g.radius() : kDefaultGuardRadius;
  return give(context, g.agent(), d);
}

CommandResult handleStop(ControlContext& context, const Stop& s) {
  const World& world = context.world();
  if (Problem p = checkAgent(world, "stop.agent", s.agent())) return failed(p);
  Directive d;
  d.kind = DirectiveKind::kStop;
  const std::uint32_t slot = world.slotOf(s.agent());
  d.point = {world.agents().px[slot], world.agents().py[slot]};
  return give(context, s.agent(), d);
}

CommandResult handleRelease(ControlContext& context, const Release& r) {
  if (Problem p = checkAgent(context.world(), "release.agent", r.agent())) return failed(p);
  return give(context, r.agent(), Directive{});
}

}  // namespace steerd::control
