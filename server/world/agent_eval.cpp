#include "world/agent_eval.h"

#include "world/brain_think.h"
#include "world/navigation.h"
#include "world/simd.h"

namespace steerd::agent_internal {

namespace {

// DRIVE_GROUP keeps this fraction of its `range` behind the group's centroid. On
// scenarios/sheepdog.txtpb (seeds 1-10): at 0.6 all 40 sheep are penned by 80 s (one seed 100 s);
// 0.5 and 0.7 pen at least 39 by 120 s, but at 0.7 two seeds only in the last 20 s; at 1.0 (behind
// the farthest a member may be) the dog hardly pressed the flock, which never reached the pen.
constexpr float kDriveKeepBack = 0.6f;

}  // namespace

// The stray: with target FETCH_ORDER the agent this one was ordered to fetch (home: the order's
// group), until the order ends; otherwise the member of targetArchetype farthest from the centroid
// of secondArchetype, once farther than `range`.
SteeringOutput AgentEval::hideFromNearest(const BehaviourSpec& spec) {
  steer::Kinematic hunter;
  if (!target(spec, hunter)) return {};
  steer::HideParams params;
  params.distanceFromBoundary = arch.hideDistanceFromBoundary;
  // Hiding spots come from every obstacle within the hunt range, not only the nearby bucket:
  // the best spot may be some way off.
  steer::CircleObstacle candidates[32];
  const std::size_t n =
      ctx.geometry.obstaclesInRange(body.position.x, body.position.y, spec.range, candidates);
  const std::span<const steer::CircleObstacle> spots(candidates, n);
  // Walls and boxes shade too (steer::hidingSpotBehindWall).
  steer::Wall wallCandidates[32];
  const std::span<const steer::Wall> walls(
      wallCandidates,
      ctx.geometry.wallsInRange(body.position.x, body.position.y, spec.range, wallCandidates));
  // The goal is the hiding spot (none while there is nowhere to hide and it just evades).
  if (const auto spot = steer::nearestHidingSpot(body.position, hunter.position, spots, walls,
                                                 params.distanceFromBoundary)) {
    goal = *spot;
  }
  return steer::hide(body, hunter, spots, walls, params);
}

SteeringOutput AgentEval::followPath(const BehaviourSpec& spec) {
  const Path* found = pathFor(spec);
  if (!found) return {};
  const Path& path = *found;
  const steer::PathView view{path.points, path.looped};
  if (pathIndex < 0) pathIndex = steer::closestWaypointIndex(view, body.position);
  steer::PathFollowParams params;
  params.seekDistance = arch.pathSeekDistance;
  const steer::PathLookAheadResult r =
      steer::followPathLookAhead(body, view, pathIndex, spec.lookAhead, params);
  pathIndex = r.index;
  if (!path.points.empty()) goal = path.points[std::clamp<std::size_t>(pathIndex, 0, path.points.size() - 1)];
  return r.steering;
}

SteeringOutput AgentEval::interposeNearest(const BehaviourSpec& spec) {
  steer::Kinematic ka;
  const bool a = target(spec, ka);
  const std::int32_t b = nearestOfArchetype(ctx, slot, spec.secondArchetype, spec.range);
  if (!a || b < 0) return {};
  const steer::Kinematic kb = kinematicAt(ctx, static_cast<std::uint32_t>(b));
  goal = steer::interposeTarget(body, ka, kb);
  return steer::interpose(body, ka, kb);
}

SteeringOutput AgentEval::fetchStray(const BehaviourSpec& spec) {
  if (ctx.groups == nullptr) return {};
  if (spec.target == TargetKind::kFetchOrder) {
    const std::int32_t s = orderedSlot(spec);
    if (s < 0 || static_cast<std::uint32_t>(s) == slot) return {};
    const auto k = static_cast<std::size_t>(s);
    const ArchetypeIndex group = ctx.groups->fetchOf(ctx.in.id[slot])->group;  // non-null: s >= 0
    if (ctx.groups->count[group] == 0) return {};
    if (targetId < 0) targetId = static_cast<std::int32_t>(ctx.in.id[k]);
    return herd({ctx.in.px[k], ctx.in.py[k]}, ctx.groups->centroid[group], spec.standOff);
  }
  const std::int32_t p = ctx.groups->find(spec.targetArchetype, spec.secondArchetype);
  if (p < 0 || ctx.groups->strayDistance[static_cast<std::size_t>(p)] <= spec.range) return {};
  const std::int32_t s = ctx.groups->straySlot[static_cast<std::size_t>(p)];
  if (s < 0 || static_cast<std::uint32_t>(s) == slot) return {};
  const steer::Vec2 stray{ctx.in.px[static_cast<std::size_t>(s)], ctx.in.py[static_cast<std::size_t>(s)]};
  return herd(stray, ctx.groups->centroid[spec.secondArchetype], spec.standOff);
}

// Driving a group to a fixed place (a sheepdog penning sheep). A member of targetArchetype farther
// than `range` from the centroid of secondArchetype (and from the point: one already there stays) is
// fetched back to the centroid first, as FETCH_STRAY does. Otherwise the group's centroid is the
// thing to push: from behind it (the far side from the point) the herder keeps 0.6 x `range` behind
// the centroid on the line from the point (closer in, it would split the group), and the group,
// fleeing, moves towards the point; from in front of it, it rides round it, `standOff` out, to the
// far side. The group is there once its centroid is within 0.6 x `range` of the point, or within
// `range` with the herder in front of it (a penned flock drifting about inside the pen): the herder
// then holds 0.6 x `range` from the point on its own side (a dog at the pen's gate) instead of
// riding round a centroid that sways about the point.
SteeringOutput AgentEval::driveGroup(const BehaviourSpec& spec) {
  if (ctx.groups == nullptr || ctx.groups->count[spec.secondArchetype] == 0) return {};
  const Vec2 centroid = ctx.groups->centroid[spec.secondArchetype];
  const std::int32_t p = ctx.groups->find(spec.targetArchetype, spec.secondArchetype);
  if (p >= 0 && ctx.groups->strayDistance[static_cast<std::size_t>(p)] > spec.range) {
    const std::int32_t s = ctx.groups->straySlot[static_cast<std::size_t>(p)];
    if (s >= 0 && static_cast<std::uint32_t>(s) != slot) {
      const auto k = static_cast<std::size_t>(s);
      const Vec2 stray{ctx.in.px[k], ctx.in.py[k]};
      if (steer::distanceSq(stray, spec.point) > spec.range * spec.range) {
        if (targetId < 0) targetId = static_cast<std::int32_t>(ctx.in.id[k]);
        return herd(stray, centroid, spec.standOff);
      }
    }
  }
  const float keepBack = kDriveKeepBack * spec.range;
  const Vec2 fromPoint = centroid - spec.point;
  const float toPoint2 = steer::lengthSq(fromPoint);
  const Vec2 away = steer::normalizedOr(fromPoint, {1.0f, 0.0f});
  const bool behind = steer::dot(body.position - centroid, away) >= 0.0f;
  if (toPoint2 <= keepBack * keepBack || (!behind && toPoint2 <= spec.range * spec.range)) {
    goal = spec.point + steer::normalizedOr(body.position - spec.point, away) * keepBack;
    return steer::arrive(body, goal);
  }
  if (!behind) return herd(centroid, spec.point, spec.standOff);
  goal = centroid + away * keepBack;
  return steer::arrive(body, goal);
}

// Herding (a cowboy, a sheepdog): a stray flees a rider that comes near, so a rider coming
// straight at it from the herd's side would drive it farther out. The rider rides round it
// instead, `standOff` metres out (outside its flight distance), until it is on the far side from
// the herd, then closes in: the stray, fleeing, runs home.
SteeringOutput AgentEval::herd(Vec2 stray, Vec2 home, float standOff) {
  const steer::Vec2 away = steer::normalizedOr(stray - home, {1.0f, 0.0f});
  const steer::Vec2 bearing = steer::normalizedOr(body.position - stray, away);
  constexpr float kBehind = 0.8f;  // cos of the angle within which the rider counts as behind
  if (steer::dot(bearing, away) >= kBehind) {
    // Behind it: close in (an arrive on a point just past the stray, on the herd's side).
    goal = stray - away * 2.0f;
    return steer::seek(body, goal);
  }
  // Ride round: a point on the stand-off circle, 60 degrees further round towards `away` on the
  // shorter side. Against a fence or a rock, the circle is cut short: the point in that direction
  // the stray can see at half or a quarter of the stand-off (so a stray near the fence still gets
  // a rider between it and the fence, instead of one riding to and fro beside it, pushing it along
  // the fence), else the next direction round.
  const float side = steer::cross(bearing, away) >= 0.0f ? 1.0f : -1.0f;
  constexpr float kCos60 = 0.5f, kSin60 = 0.8660254f;
  steer::Vec2 dir = steer::rotate(bearing, {kCos60, side * kSin60});
  if (steer::dot(dir, away) > steer::dot(bearing, away) && steer::dot(dir, away) > kBehind) dir = away;
  steer::Vec2 target = stray + dir * standOff;
  auto reachable = [&] {
    for (const float part : {1.0f, 0.5f, 0.25f}) {
      target = stray + dir * (standOff * part);
      if (!sightBlocked(ctx.geometry, stray, target)) return true;
    }
    return false;
  };
  for (int k = 0; k < 3 && !reachable(); ++k) dir = steer::rotate(dir, {kCos60, side * kSin60});
  goal = target;
  return steer::seek(body, target);
}

// Seek the corridor's current corner; arrive at the last one when it is the goal. Until the first
// corridor comes back from the planner, head straight for the goal.
SteeringOutput AgentEval::navigate(const BehaviourSpec&) {
  if (ctx.nav == nullptr) return {};
  const NavSteer& t = ctx.nav[slot];
  if (t.mode == NavSteer::kNone) return {};
  goal = t.goal;
  return t.mode == NavSteer::kArrive ? steer::arrive(body, t.point, steer::ArriveParams{})
                                     : steer::seek(body, t.point);
}

// Millington's closest-time-of-approach test against the agents within spec.range (the first 16
// in slot order), offered to the threat in slot order: no list, no allocation. The grid's rows are
// contiguous slot ranges, so four neighbours at a time get their distance, relative velocity and
// time of closest approach in SIMD lanes (the same expressions as steer::CollisionThreat::consider,
// so the same bits); only the few in range go on, one at a time, to the threat.
SteeringOutput AgentEval::collisionAvoidance(const BehaviourSpec& spec) {
  using namespace simd;
  constexpr int kMaxOthers = 16;
  int n = 0;
  const steer::CollisionAvoidanceParams params{spec.timeHorizon, spec.keepTo};
  steer::CollisionThreat threat;
  const AgentColumns& in = ctx.in;
  const F4 px = splat(body.position.x), py = splat(body.position.y);
  const F4 bvx = splat(body.velocity.x), bvy = splat(body.velocity.y);
  const F4 range2 = splat(spec.range * spec.range);
  const F4 still2 = splat(steer::kEpsilon * steer::kEpsilon);
  const I4 lane{0, 1, 2, 3};
  const float r = spec.range;
  const int x0 = ctx.grid.cellX(body.position.x - r), x1 = ctx.grid.cellX(body.position.x + r);
  const int y0 = ctx.grid.cellY(body.position.y - r), y1 = ctx.grid.cellY(body.position.y + r);
  for (int row = y0; row <= y1; ++row) {
    const SlotRange range = ctx.grid.rowRange(row, x0, x1);
    // Lanes past the range's end read the grid's padding (SpatialGrid::kScanPadding) and are
    // masked, as is the agent itself.
    for (std::uint32_t j = range.begin; j < range.end; j += kLanes) {
      const I4 slots = splat32(static_cast<std::int32_t>(j)) + lane;
      const I4 valid = (slots < splat32(static_cast<std::int32_t>(range.end))) &
                       (slots != splat32(static_cast<std::int32_t>(slot)));
      const F4 dx = load(&in.px[j]) - px, dy = load(&in.py[j]) - py;
      // !(d2 > range2), as the scalar test: a NaN distance is not rejected here (nor used: its t
      // is NaN, which the threat rejects).
      const I4 near = valid & ~(dx * dx + dy * dy > range2);
      if (!any(near)) continue;
      const F4 dvx = load(&in.vx[j]) - bvx, dvy = load(&in.vy[j]) - bvy;
      const F4 speedSq = dvx * dvx + dvy * dvy;
      // steer::closestApproachTime
      const F4 t = select(~(speedSq <= still2), -(dx * dvx + dy * dvy) / speedSq);
      for (int k = 0; k < kLanes; ++k) {
        if (!near[k]) continue;
        threat.offer(body, {dx[k], dy[k]}, {dvx[k], dvy[k]}, t[k], in.radius[j + k], params);
        if (++n >= kMaxOthers) return threat.force(body, params);
      }
    }
  }
  return threat.force(body, params);
}

// Seed 001's racer: chase the current waypoint of a path through the interest map; obstacles and
// nearby agents write the danger map; Fray's masking chooses.
SteeringOutput AgentEval::contextSeekWaypoints(const BehaviourSpec& spec) {
  steer::ContextMap map(arch.contextSlots);
  steer::ContextChoice choice;
  if (!contextDecide(spec, map, choice)) return {};
  return steer::contextSteer(body, choice);
}

bool AgentEval::contextDecide(const BehaviourSpec& spec, steer::ContextMap& map,
                              steer::ContextChoice& choice) {
  const Path* found = pathFor(spec);
  if (!found) return false;
  const Path& path = *found;
  if (path.points.empty()) return false;
  const int n = static_cast<int>(path.points.size());
  if (pathIndex < 0 || pathIndex >= n)
    pathIndex = steer::closestWaypointIndex({path.points, path.looped}, body.position);
  if (steer::distance(path.points[pathIndex], body.position) < arch.pathSeekDistance) {
    pathIndex = path.looped ? (pathIndex + 1) % n : std::min(pathIndex + 1, n - 1);
  }
  goal = path.points[pathIndex];

  const Vec2 targets[1] = {goal};
  steer::writeChase(map, body.position, targets);
  // Danger: obstacles and other agents close ahead, scaled by closeness so a far one only dims its
  // own direction while a near one masks it.
  const float lookahead = arch.obstacleMinDetectionLength * 2.0f;
  for (const auto& o : near.obstacles) {
    if (spec.contextDotDanger) {
      const Vec2 threat[1] = {o.center};
      steer::writeAvoid(map, body.position, threat, {lookahead + o.radius});
    } else {
      steer::writeAvoidDisc(map, body.position, o.center, o.radius + arch.limits.radius, lookahead);
    }
  }
  const float personalSpace = 4.0f * arch.limits.radius;
  ctx.grid.forEachNear(body.position.x, body.position.y, personalSpace, [&](std::uint32_t j) {
    if (j == slot) return;
    if (spec.contextDotDanger) {
      const Vec2 threat[1] = {{ctx.in.px[j], ctx.in.py[j]}};
      steer::writeAvoid(map, body.position, threat, {personalSpace});
    } else {
      steer::writeAvoidDisc(map, body.position, {ctx.in.px[j], ctx.in.py[j]}, 2.0f * arch.limits.radius,
                            personalSpace);
    }
  });
  if (spec.contextArgmax) {
    choice = steer::chooseArgmax(map);  // seed 001: no mask, so it never has to relax one
    return true;
  }
  // Fray's masking, strict first. When every interesting slot is masked (a gap narrower than
  // the slots can resolve, a crowd ahead) Fray stops; an agent that stops for good looks broken,
  // so the mask is relaxed step by step and the agent edges along the least dangerous way.
  steer::MaskParams mask;
  for (const float tolerance :
       {spec.dangerTolerance, std::max(spec.dangerTolerance, 0.5f), std::max(spec.dangerTolerance, 0.9f)}) {
    mask.dangerTolerance = tolerance;
    choice = steer::chooseMasked(map, mask);
    if (choice.slot >= 0) break;
  }
  return true;
}

// Static contacts after the move: project out of obstacles and walls, and drop the velocity
// into them. Returns kContactObstacle if anything was touched.
std::uint8_t resolveStaticContacts(const steer::Body& body, steer::Body& next,
                                   const StaticGeometry::Near& near, float r) {
  std::uint8_t flags = kContactNone;
  for (const auto& o : near.obstacles) {
    const Vec2 away = next.position - o.center;
    const float reach = o.radius + r;
    const float d2 = steer::lengthSq(away);
    if (d2 < reach * reach) {
      const Vec2 n = steer::normalizedOr(away, steer::perp(body.heading));
      next.position = o.center + n * reach;
      const float into = steer::dot(next.velocity, n);
      if (into < 0.0f) next.velocity -= n * into;
      flags |= kContactObstacle;
    }
  }
  for (const auto& w : near.walls) {
    const Vec2 seg = w.to - w.from;
    const float len2 = steer::lengthSq(seg);
    const float t =
        len2 > 0.0f ? std::clamp(steer::dot(next.position - w.from, seg) / len2, 0.0f, 1.0f) : 0.0f;
    const Vec2 closest = w.from + seg * t;
    const float side = steer::dot(next.position - closest, w.normal);
    // Only bodies on the wall's front side (or that crossed it this tick) are pushed back out.
    const float sidePrev = steer::dot(body.position - closest, w.normal);
    if (steer::distanceSq(next.position, closest) < r * r && sidePrev >= 0.0f) {
      // Off the segment's end (a box's corner), in front: out radially from the end point, the
      // shortest way. Along the normal by r - side it was up to a radius at once (0.45 m in one
      // tick at crowd-crossing's box corners, into whoever stood there).
      const bool offEnd = (t <= 0.0f || t >= 1.0f) && side > 0.0f;
      const Vec2 out = offEnd ? steer::normalizedOr(next.position - closest, w.normal) : w.normal;
      next.position = offEnd ? closest + out * r : next.position + w.normal * (r - side);
      const float into = steer::dot(next.velocity, out);
      if (into < 0.0f) next.velocity -= out * into;
      flags |= kContactObstacle;
    }
  }
  return flags;
}

// The end of an agent's update, after integration: static contacts, bounds clamp, heading
// smoothing, and the writes of its slot of state[n+1]. Returns its ContactFlag bits.
std::uint8_t finishAgent(const StepContext& ctx, const steer::Body& body, steer::Body next,
                         const AgentEval& eval, AgentColumns& out) {
  const AgentColumns& in = ctx.in;
  const Archetype& arch = eval.arch;
  const std::uint32_t slot = eval.slot;
  const Bounds& bounds = ctx.geometry.bounds;
  std::uint8_t flags = resolveStaticContacts(body, next, eval.near, arch.limits.radius);

  if (clampToBounds(bounds, next.position, next.velocity)) flags |= kContactBounds;
  // A non-finite position can only come from a bug upstream; keep the old state rather than
  // poisoning the neighbours and the hash.
  next.position = lanes::finiteOr(next.position, body.position);
  next.velocity = lanes::finiteOrZero(next.velocity);
  const std::uint32_t index = agentIndex(in.id[slot]);
  const bool averaged =
      arch.headingSamples > 0 && !arch.faces && !arch.kinematic && index < ctx.headingHistoryCount;
  const Vec2 heading = averaged
                           ? ctx.headingHistory[index].update(next.heading, arch.headingSamples, body.heading)
                           : blendHeading(body.heading, next.heading, headingBlendOf(arch));

  out.px[slot] = next.position.x;
  out.py[slot] = next.position.y;
  out.vx[slot] = next.velocity.x;
  out.vy[slot] = next.velocity.y;
  out.hx[slot] = heading.x;
  out.hy[slot] = heading.y;
  storeMemory(ctx, slot, eval, eval.rotation);
  out.radius[slot] = in.radius[slot];
  out.id[slot] = in.id[slot];
  out.home[slot] = in.home[slot];
  out.archetype[slot] = in.archetype[slot];
  return flags;
}

}  // namespace steerd::agent_internal
