#include "world/agent_update.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "steering/arrive.h"
#include "steering/combiners.h"
#include "steering/context_steering.h"
#include "steering/hide.h"
#include "steering/locomotion.h"
#include "steering/neighbours.h"
#include "steering/obstacle_avoidance.h"
#include "steering/path_following.h"
#include "steering/pursue.h"
#include "steering/seek.h"
#include "steering/wall_avoidance.h"
#include "steering/wander.h"
#include "world/neighbour_scan.h"
#include "world/simd.h"

namespace steerd {

using steer::SteeringOutput;
using steer::Vec2;

ArchetypeRuntime prepareArchetype(const Archetype& a, float dt) {
  ArchetypeRuntime r;
  r.neighbours.radius = a.flock.radius;
  r.neighbours.cosHalfFov = steer::cosHalfFovFromDegrees(a.flock.fovDegrees);
  r.neighbours.selfRadius = a.limits.radius;
  r.combine = steer::forceLimitsOf(a.limits);
  r.step = steer::DynamicStep::of(a.limits, dt);
  r.obstacles.minDetectionLength = a.obstacleMinDetectionLength;
  r.walls.feelerLength = a.wallFeelerLength;
  r.wander.radius = a.wander.radius;
  r.wander.distance = a.wander.distance;
  r.wander.jitterPerSecond = a.wander.jitterPerSecond;
  return r;
}

std::int32_t nearestOfArchetype(const StepContext& ctx, std::uint32_t self, ArchetypeIndex archetype,
                                float range) {
  const AgentColumns& in = ctx.in;
  const float px = in.px[self], py = in.py[self];
  std::int32_t best = -1;
  float bestD2 = range * range;
  ctx.grid.forEachNear(px, py, range, [&](std::uint32_t j) {
    if (j == self || in.archetype[j] != archetype) return;
    const float dx = in.px[j] - px, dy = in.py[j] - py;
    const float d2 = dx * dx + dy * dy;
    if (d2 < bestD2 || (d2 == bestD2 && best >= 0 && in.id[j] < in.id[best])) {
      bestD2 = d2;
      best = static_cast<std::int32_t>(j);
    }
  });
  return best;
}

namespace {

steer::Kinematic kinematicAt(const StepContext& ctx, std::uint32_t slot) {
  const AgentColumns& in = ctx.in;
  return {{in.px[slot], in.py[slot]},
          {in.vx[slot], in.vy[slot]},
          {in.hx[slot], in.hy[slot]},
          ctx.archetypes[in.archetype[slot]].limits.radius};
}

// One agent's evaluation of its behaviour set, with the per-agent memory it updates.
struct AgentEval {
  AgentEval(const StepContext& c, std::uint32_t s, const Archetype& a, const ArchetypeRuntime& r,
            const steer::Body& b, const NeighbourSums& n)
      : ctx(c),
        slot(s),
        arch(a),
        rt(r),
        body(b),
        sums(n),
        near(c.geometry.near(b.position.x, b.position.y)),
        rng(steer::Rng::forAgent(c.seed, c.in.id[s], c.tick)),
        wanderTarget{c.in.memory[s].wanderX, c.in.memory[s].wanderY},
        pathIndex(c.in.memory[s].pathIndex),
        assignedPath(c.in.memory[s].assignedPath) {}

  const StepContext& ctx;
  std::uint32_t slot;
  const Archetype& arch;
  const ArchetypeRuntime& rt;
  // Both outlive the evaluation (they live in the caller's frame); referenced, not copied.
  const steer::Body& body;
  const NeighbourSums& sums;
  // Obstacles near the agent. Buckets are padded by the longest reach (static_geometry.h), far
  // more than a body moves in a tick, so the same list also serves the contacts after the move.
  StaticGeometry::Near near;
  steer::Rng rng;
  // Memory for state[n+1], starting as state[n].
  Vec2 wanderTarget;
  std::int32_t pathIndex;
  std::int32_t assignedPath;
  std::int32_t targetId = -1;
  Vec2 goal{std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::quiet_NaN()};

  // Inlined into the combiner's loop: the call was a fifth of the tick's cost in the crowd.
  [[gnu::always_inline]] inline SteeringOutput run(const BehaviourSpec& spec);
  SteeringOutput contextSeekWaypoints(const BehaviourSpec& spec);
  // The path a behaviour follows: its own, or (path -1) the one this agent was given.
  const Path* pathFor(const BehaviourSpec& spec) const {
    const std::int32_t p = spec.pathIndex >= 0 ? spec.pathIndex : assignedPath;
    return p >= 0 && static_cast<std::size_t>(p) < ctx.geometry.paths.size() ? &ctx.geometry.paths[p]
                                                                             : nullptr;
  }
  std::int32_t target(const BehaviourSpec& spec) {
    const std::int32_t t = nearestOfArchetype(ctx, slot, spec.targetArchetype, spec.range);
    if (t >= 0) targetId = static_cast<std::int32_t>(ctx.in.id[t]);
    return t;
  }
};

// Adapter the steering library's combiners read (weight, priority, probability and an evaluate()
// found by argument-dependent lookup), so behaviours a combiner skips are never computed.
struct SpecRef {
  static constexpr bool kSortedByPriority = true;  // World sorts every archetype's set at load
  const BehaviourSpec* spec;
  AgentEval* eval;
  float weight;
  int priority;
  float probability;
};
SteeringOutput evaluate(const SpecRef& r) { return r.eval->run(*r.spec); }

SteeringOutput AgentEval::run(const BehaviourSpec& spec) {
  switch (spec.kind) {
    case BehaviourKind::kWander: {
      const steer::WanderResult w = steer::wander(body, wanderTarget, ctx.dt, rng, rt.wander);
      wanderTarget = w.target;
      return w.steering;
    }
    case BehaviourKind::kSeparation:
      return {{sums.sepX, sums.sepY}, 0.0f};
    case BehaviourKind::kAlignment:
      if (sums.fovCount <= 0.0f) return {};
      return {Vec2{sums.headingX, sums.headingY} / sums.fovCount - body.heading, 0.0f};
    case BehaviourKind::kCohesion:
      if (sums.fovCount <= 0.0f) return {};
      return steer::seek(body, body.position + Vec2{sums.offsetX, sums.offsetY} / sums.fovCount);
    case BehaviourKind::kObstacleAvoidance:
      return steer::obstacleAvoidance(body, near.obstacles, rt.obstacles);
    case BehaviourKind::kWallAvoidance:
      return steer::wallAvoidance(body, near.walls, rt.walls);
    case BehaviourKind::kPursueNearest: {
      const std::int32_t t = target(spec);
      if (t < 0) return {};
      goal = {ctx.in.px[t], ctx.in.py[t]};
      return steer::pursue(body, kinematicAt(ctx, static_cast<std::uint32_t>(t)));
    }
    case BehaviourKind::kEvadeNearest: {
      const std::int32_t t = target(spec);
      if (t < 0) return {};
      return steer::evade(body, kinematicAt(ctx, static_cast<std::uint32_t>(t)));
    }
    case BehaviourKind::kHideFromNearest: {
      const std::int32_t t = target(spec);
      if (t < 0) return {};
      steer::HideParams params;
      params.distanceFromBoundary = arch.hideDistanceFromBoundary;
      // Hiding spots come from every obstacle within the hunt range, not only the nearby bucket:
      // the best spot may be some way off.
      steer::CircleObstacle candidates[32];
      const std::size_t n =
          ctx.geometry.obstaclesInRange(body.position.x, body.position.y, spec.range, candidates);
      const std::span<const steer::CircleObstacle> spots(candidates, n);
      const steer::Kinematic hunter = kinematicAt(ctx, static_cast<std::uint32_t>(t));
      // The goal is the hiding spot (none while there is nowhere to hide and it just evades).
      if (const auto spot =
              steer::nearestHidingSpot(body.position, hunter.position, spots, params.distanceFromBoundary)) {
        goal = *spot;
      }
      return steer::hide(body, hunter, spots, params);
    }
    case BehaviourKind::kFollowPath: {
      const Path* found = pathFor(spec);
      if (!found) return {};
      const Path& path = *found;
      const steer::PathView view{path.points, path.looped};
      if (pathIndex < 0) pathIndex = steer::closestWaypointIndex(view, body.position);
      steer::PathFollowParams params;
      params.seekDistance = arch.pathSeekDistance;
      const steer::PathFollowResult r = steer::followPath(body, view, pathIndex, params);
      pathIndex = r.index;
      if (!path.points.empty())
        goal = path.points[std::clamp<std::size_t>(pathIndex, 0, path.points.size() - 1)];
      return r.steering;
    }
    case BehaviourKind::kArriveAt:
      goal = spec.point;
      return steer::arrive(body, spec.point);
    case BehaviourKind::kContextSeekWaypoints:
      return contextSeekWaypoints(spec);
  }
  return {};
}

// Seed 001's racer: chase the current waypoint of a path through the interest map; obstacles and
// nearby agents write the danger map; Fray's masking chooses.
SteeringOutput AgentEval::contextSeekWaypoints(const BehaviourSpec& spec) {
  const Path* found = pathFor(spec);
  if (!found) return {};
  const Path& path = *found;
  if (path.points.empty()) return {};
  const int n = static_cast<int>(path.points.size());
  if (pathIndex < 0 || pathIndex >= n)
    pathIndex = steer::closestWaypointIndex({path.points, path.looped}, body.position);
  if (steer::distance(path.points[pathIndex], body.position) < arch.pathSeekDistance) {
    pathIndex = path.looped ? (pathIndex + 1) % n : std::min(pathIndex + 1, n - 1);
  }
  goal = path.points[pathIndex];

  steer::ContextMap map(arch.contextSlots);
  const Vec2 targets[1] = {goal};
  steer::writeChase(map, body.position, targets);
  // Danger: obstacles and other agents close ahead, scaled by closeness so a far one only dims its
  // own direction while a near one masks it.
  const float lookahead = arch.obstacleMinDetectionLength * 2.0f;
  for (const auto& o : near.obstacles) {
    steer::writeAvoidDisc(map, body.position, o.center, o.radius + arch.limits.radius, lookahead);
  }
  const float personalSpace = 4.0f * arch.limits.radius;
  ctx.grid.forEachNear(body.position.x, body.position.y, personalSpace, [&](std::uint32_t j) {
    if (j == slot) return;
    steer::writeAvoidDisc(map, body.position, {ctx.in.px[j], ctx.in.py[j]}, 2.0f * arch.limits.radius,
                          personalSpace);
  });
  // Fray's masking, strict first. When every interesting slot is masked (a gap narrower than
  // the slots can resolve, a crowd ahead) Fray stops; an agent that stops for good looks broken,
  // so the mask is relaxed step by step and the agent edges along the least dangerous way.
  steer::MaskParams mask;
  steer::ContextChoice choice;
  for (const float tolerance : {0.1f, 0.5f, 0.9f}) {
    mask.dangerTolerance = tolerance;
    choice = steer::chooseMasked(map, mask);
    if (choice.slot >= 0) break;
  }
  return steer::contextSteer(body, choice);
}

Vec2 finiteOr(Vec2 v, Vec2 fallback) { return steer::isFinite(v) ? v : fallback; }

constexpr std::size_t kMaxBehaviours = 16;  // per archetype (checked at load)
constexpr NeighbourSums kNoSums{};

// The neighbour sums of a chunk, one array per field, so a quad of slots loads each as a vector.
struct SumsBlock {
  float sepX[kMaxChunk], sepY[kMaxChunk], headingX[kMaxChunk], headingY[kMaxChunk];
  float offsetX[kMaxChunk], offsetY[kMaxChunk], fovCount[kMaxChunk], count[kMaxChunk];
  float pushX[kMaxChunk], pushY[kMaxChunk];

  void put(std::uint32_t i, const NeighbourSums& s) {
    sepX[i] = s.sepX, sepY[i] = s.sepY, headingX[i] = s.headingX, headingY[i] = s.headingY;
    offsetX[i] = s.offsetX, offsetY[i] = s.offsetY, fovCount[i] = s.fovCount, count[i] = s.count;
    pushX[i] = s.pushX, pushY[i] = s.pushY;
  }
  NeighbourSums get(std::uint32_t i) const {
    return {sepX[i],    sepY[i],     headingX[i], headingY[i], offsetX[i],
            offsetY[i], fovCount[i], count[i],    pushX[i],    pushY[i]};
  }
};

steer::Body bodyAt(const StepContext& ctx, std::uint32_t slot, const Archetype& arch) {
  const AgentColumns& in = ctx.in;
  steer::Body body;
  body.position = {in.px[slot], in.py[slot]};
  body.velocity = {in.vx[slot], in.vy[slot]};
  body.heading = {in.hx[slot], in.hy[slot]};
  body.limits = arch.limits;
  return body;
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
      next.position += w.normal * (r - side);
      const float into = steer::dot(next.velocity, w.normal);
      if (into < 0.0f) next.velocity -= w.normal * into;
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

  const Vec2 clamped{std::clamp(next.position.x, bounds.minX, bounds.maxX),
                     std::clamp(next.position.y, bounds.minY, bounds.maxY)};
  if (!(clamped == next.position)) {
    if (clamped.x != next.position.x) next.velocity.x = 0.0f;
    if (clamped.y != next.position.y) next.velocity.y = 0.0f;
    next.position = clamped;
    flags |= kContactBounds;
  }
  // A non-finite position can only come from a bug upstream; keep the old state rather than
  // poisoning the neighbours and the hash.
  next.position = finiteOr(next.position, body.position);
  next.velocity = finiteOr(next.velocity, Vec2{});

  const Vec2 blended = body.heading * (1.0f - arch.headingBlend) + next.heading * arch.headingBlend;
  const Vec2 heading = steer::normalizedOr(blended, next.heading);

  out.px[slot] = next.position.x;
  out.py[slot] = next.position.y;
  out.vx[slot] = next.velocity.x;
  out.vy[slot] = next.velocity.y;
  out.hx[slot] = heading.x;
  out.hy[slot] = heading.y;
  out.memory[slot] = {eval.wanderTarget.x, eval.wanderTarget.y, eval.pathIndex,   eval.targetId,
                      eval.goal.x,         eval.goal.y,         eval.assignedPath};
  out.radius[slot] = in.radius[slot];
  out.id[slot] = in.id[slot];
  out.archetype[slot] = in.archetype[slot];
  return flags;
}

// World bounds policy: steer back. Inside a margin band along the edges the body seeks the
// nearest point of the inner rectangle on top of whatever else it wants; a hard clamp
// (finishAgent) is the backstop.
Vec2 steerBack(const StepContext& ctx, const steer::Body& body, Vec2 force) {
  const Bounds& bounds = ctx.geometry.bounds;
  const float m = ctx.boundsMargin;
  const Vec2 inner{std::clamp(body.position.x, bounds.minX + m, std::max(bounds.minX + m, bounds.maxX - m)),
                   std::clamp(body.position.y, bounds.minY + m, std::max(bounds.minY + m, bounds.maxY - m))};
  if (inner == body.position) return force;
  return steer::truncate(force + steer::seek(body, inner).linear, body.limits.maxForce);
}

// Overlap resolution: half of each overlap, pushed apart along the line of centres (the other
// agent does the other half from its own update), capped so a crowded body does not jump.
Vec2 overlapPush(const NeighbourSums& sums, float radius) {
  return steer::truncate({sums.pushX, sums.pushY}, radius * 0.5f);
}

// The scalar update of one agent: any archetype, any combiner.
std::uint8_t updateAgentScalar(const StepContext& ctx, std::uint32_t slot, const NeighbourSums& sums,
                               AgentColumns& out) {
  const Archetype& arch = ctx.archetypes[ctx.in.archetype[slot]];
  const ArchetypeRuntime& rt = ctx.runtime[ctx.in.archetype[slot]];
  const steer::Body body = bodyAt(ctx, slot, arch);
  AgentEval eval(ctx, slot, arch, rt, body, sums);

  SpecRef refs[kMaxBehaviours];
  const std::size_t count = std::min(arch.behaviours.size(), kMaxBehaviours);
  for (std::size_t b = 0; b < count; ++b) {
    const BehaviourSpec& s = arch.behaviours[b];
    refs[b] = {&s, &eval, s.weight, s.priority, s.probability};
  }
  const std::span<const SpecRef> set(refs, count);
  const steer::CombineLimits& limits = rt.combine;
  SteeringOutput force;
  switch (arch.combiner) {
    case CombinerKind::kWeightedBlend:
      force = steer::weightedBlend(set, limits);
      break;
    case CombinerKind::kPriority:
      force = steer::prioritised(set, limits);
      break;
    case CombinerKind::kWeightedTruncatedRunningSum:
      force = steer::runningSum(set, limits);
      break;
    case CombinerKind::kPrioritisedDithering:
      force = steer::dithered(set, limits, eval.rng);
      break;
  }

  steer::Body next = steer::integrateDynamicStep(body, steerBack(ctx, body, force.linear), rt.step);
  next.position += overlapPush(sums, arch.limits.radius);
  return finishAgent(ctx, body, next, eval, out);
}

// ---- The quad path: four consecutive slots of one archetype with the running-sum combiner ----
//
// The same computation as updateAgentScalar, lane for lane, with the parts that are the same
// for every agent (the flocking forces from the neighbour sums, Buckland's running sum, the
// bounds steer-back, the point-mass integration and the overlap push) done on four agents at once.
// Behaviours that look things up (wander's random stream, obstacle lists, targets, paths) still
// run per lane through AgentEval. Every lane mirrors the scalar expression order exactly, so the
// two paths give identical bits (tests/world/quad_path_test.cpp checks it on whole worlds).
namespace quad {

using namespace simd;

struct V2 {
  F4 x, y;
};

V2 operator+(V2 a, V2 b) { return {a.x + b.x, a.y + b.y}; }
V2 operator-(V2 a, V2 b) { return {a.x - b.x, a.y - b.y}; }
V2 operator*(V2 a, F4 s) { return {a.x * s, a.y * s}; }
V2 operator/(V2 a, F4 s) { return {a.x / s, a.y / s}; }
V2 select(I4 m, V2 a, V2 b) { return {simd::select(m, a.x, b.x), simd::select(m, a.y, b.y)}; }
F4 dot(V2 a, V2 b) { return a.x * b.x + a.y * b.y; }
F4 length(V2 v) { return sqrt4(dot(v, v)); }
// steer::normalizedOr
V2 normalizedOr(V2 v, V2 fallback) {
  const F4 len = length(v);
  return select(len > splat(steer::kEpsilon), v / len, fallback);
}
// steer::truncate with a positive `max` (the caller handles max <= 0)
V2 truncatePositive(V2 v, float max) {
  const F4 lsq = dot(v, v);
  const V2 cut = v * (splat(max) / sqrt4(lsq));
  return select(lsq <= splat(max * max), v, cut);
}
V2 truncate(V2 v, float max) {
  if (!(max > 0.0f)) return {splat(0.0f), splat(0.0f)};
  return truncatePositive(v, max);
}
// locomotion_detail::finiteOrZero
V2 finiteOrZero(V2 v) {
  const I4 ok = finite(v.x) & finite(v.y);
  return {simd::select(ok, v.x), simd::select(ok, v.y)};
}

// steer::integrateDynamicStep for four bodies with the same limits; orientation is not kept by
// the world, so it is not computed.
void integrate(const steer::BodyLimits& lim, const steer::DynamicStep& step, V2 position, V2 velocity0,
               V2 heading0, V2 force, V2& nextPosition, V2& nextVelocity, V2& nextHeading) {
  const F4 zero = splat(0.0f);
  if (!(step.dt > 0.0f)) {
    nextPosition = position, nextVelocity = velocity0, nextHeading = heading0;
    return;
  }
  V2 accel{zero, zero};
  if (lim.mass > 0.0f && steer::isFinite(lim.mass)) {
    accel = finiteOrZero(truncate(finiteOrZero(force), lim.maxForce) / splat(lim.mass));
  }
  V2 velocity = truncate(finiteOrZero(velocity0 + accel * splat(step.dt)), lim.maxSpeed);
  if (step.limitTurn) {
    const F4 speed0 = length(velocity0);
    const I4 moving = speed0 > splat(steer::kEpsilon);
    const V2 prev = velocity0 / speed0;
    // locomotion_detail::limitTurn(prev, velocity, cos, sin)
    const F4 speed = length(velocity);
    const V2 dir = velocity / speed;
    const I4 within = dot(prev, dir) >= splat(step.cosMaxTurn);
    const F4 cross = prev.x * dir.y - prev.y * dir.x;
    const F4 side = simd::select(cross < zero, splat(-step.sinMaxTurn), splat(step.sinMaxTurn));
    const F4 c = splat(step.cosMaxTurn);
    const V2 turned = V2{prev.x * c - prev.y * side, prev.x * side + prev.y * c} * speed;
    const I4 keep = (speed <= splat(steer::kEpsilon)) | within;
    velocity = select(moving, select(keep, velocity, turned), velocity);
  }
  velocity = finiteOrZero(velocity);
  nextVelocity = velocity;
  nextPosition = position + velocity * splat(step.dt);
  const F4 speed = length(velocity);
  nextHeading = select(speed > splat(steer::kEpsilon), velocity / speed, heading0);
}

bool allSame(const AgentColumns& in, std::uint32_t slot) {
  const ArchetypeIndex a = in.archetype[slot];
  return in.archetype[slot + 1] == a && in.archetype[slot + 2] == a && in.archetype[slot + 3] == a;
}

// Slots slot..slot+3 (all of one archetype whose combiner is the running sum); `sums` at index i..i+3.
void update(const StepContext& ctx, std::uint32_t slot, const SumsBlock& sums, std::uint32_t i,
            AgentColumns& out, std::uint8_t* flags) {
  const AgentColumns& in = ctx.in;
  const ArchetypeIndex a = in.archetype[slot];
  const Archetype& arch = ctx.archetypes[a];
  const ArchetypeRuntime& rt = ctx.runtime[a];
  const F4 zero = splat(0.0f);

  steer::Body bodies[kLanes];
  std::optional<AgentEval> evals[kLanes];
  for (int k = 0; k < kLanes; ++k) {
    bodies[k] = bodyAt(ctx, slot + k, arch);
    // The quad computes the flocking forces from the sums itself; the per-lane evaluations never
    // read theirs.
    evals[k].emplace(ctx, slot + k, arch, rt, bodies[k], kNoSums);
  }
  const V2 p{load(&in.px[slot]), load(&in.py[slot])};
  const V2 v{load(&in.vx[slot]), load(&in.vy[slot])};
  const V2 h{load(&in.hx[slot]), load(&in.hy[slot])};
  const F4 fovCount = load(&sums.fovCount[i]);
  const I4 hasFov = fovCount > zero;

  // Buckland's running sum (steer::detail::runningSum), lane by lane.
  const float maxLinear = rt.combine.maxLinear > 0.0f ? rt.combine.maxLinear : 0.0f;
  V2 total{zero, zero};
  F4 angular = zero;
  I4 running = splatMask(true);
  const std::size_t count = std::min(arch.behaviours.size(), kMaxBehaviours);
  for (std::size_t b = 0; b < count; ++b) {
    const F4 remaining = splat(maxLinear) - length(total);
    running &= remaining > zero;
    if (!any(running)) break;
    const BehaviourSpec& spec = arch.behaviours[b];
    V2 s;
    F4 sAngular = zero;
    switch (spec.kind) {
      case BehaviourKind::kSeparation:
        s = {load(&sums.sepX[i]), load(&sums.sepY[i])};
        break;
      case BehaviourKind::kAlignment: {
        const V2 aligned = V2{load(&sums.headingX[i]), load(&sums.headingY[i])} / fovCount - h;
        s = select(hasFov, aligned, V2{zero, zero});
        break;
      }
      case BehaviourKind::kCohesion: {
        // steer::seek(body, p + offset / count)
        const V2 centre = p + V2{load(&sums.offsetX[i]), load(&sums.offsetY[i])} / fovCount;
        const V2 desired = normalizedOr(centre - p, V2{zero, zero}) * splat(arch.limits.maxSpeed);
        s = select(hasFov, desired - v, V2{zero, zero});
        break;
      }
      case BehaviourKind::kWander: {
        // steer::wander, lane by lane: the random draws come from each lane's own stream, and
        // only lanes still running draw or move their target (as the lazy scalar combiner).
        const float jitter =
            (ctx.dt > 0.0f && steer::isFinite(ctx.dt)) ? rt.wander.jitterPerSecond * ctx.dt : 0.0f;
        F4 jx = zero, jy = zero;
        V2 target{zero, zero};
        for (int k = 0; k < kLanes; ++k) {
          if (!running[k]) continue;
          jx[k] = evals[k]->rng.clamped();
          jy[k] = evals[k]->rng.clamped();
          target.x[k] = evals[k]->wanderTarget.x, target.y[k] = evals[k]->wanderTarget.y;
        }
        V2 next = select(finite(target.x) & finite(target.y), target, V2{zero, zero});
        next = next + V2{jx * splat(jitter), jy * splat(jitter)};
        next = normalizedOr(next, V2{splat(1.0f), zero}) * splat(rt.wander.radius);
        next = select(finite(next.x) & finite(next.y), next, V2{zero, zero});
        const V2 heading = normalizedOr(h, V2{splat(1.0f), zero});
        const V2 local = next + V2{splat(rt.wander.distance), zero};
        const V2 world =
            p + V2{local.x * heading.x - local.y * heading.y, local.x * heading.y + local.y * heading.x};
        s = world - p;
        for (int k = 0; k < kLanes; ++k) {
          if (running[k]) evals[k]->wanderTarget = {next.x[k], next.y[k]};
        }
        break;
      }
      default:
        // Per lane, and only for lanes still running: a lane past its budget must not advance
        // its memory (wander target, path index), exactly as the lazy scalar combiner.
        for (int k = 0; k < kLanes; ++k) {
          SteeringOutput o;
          if (running[k]) o = evals[k]->run(spec);
          s.x[k] = o.linear.x, s.y[k] = o.linear.y, sAngular[k] = o.angular;
        }
        break;
    }
    const F4 w = splat(spec.weight);
    s = s * w;
    sAngular = sAngular * w;
    angular = simd::select(running, angular + sAngular, angular);
    const F4 magnitude = length(s);
    const I4 overflows = magnitude >= remaining;
    const V2 added = total + s * simd::select(overflows, remaining / magnitude, splat(1.0f));
    total = select(running, added, total);
    running &= ~overflows;
  }
  (void)angular;  // the point mass has no angular state (as in the scalar path)

  // steerBack, lane by lane.
  const Bounds& bounds = ctx.geometry.bounds;
  const float m = ctx.boundsMargin;
  const float loX = bounds.minX + m, hiX = std::max(bounds.minX + m, bounds.maxX - m);
  const float loY = bounds.minY + m, hiY = std::max(bounds.minY + m, bounds.maxY - m);
  // std::clamp(v, lo, hi) == v < lo ? lo : (hi < v ? hi : v)
  const V2 inner{simd::select(p.x < splat(loX), splat(loX), simd::select(splat(hiX) < p.x, splat(hiX), p.x)),
                 simd::select(p.y < splat(loY), splat(loY), simd::select(splat(hiY) < p.y, splat(hiY), p.y))};
  const I4 outside = (inner.x != p.x) | (inner.y != p.y);
  V2 force = total;
  if (any(outside)) {
    const V2 seek = normalizedOr(inner - p, V2{zero, zero}) * splat(arch.limits.maxSpeed) - v;
    force = select(outside, truncate(total + seek, arch.limits.maxForce), total);
  }

  V2 nextP, nextV, nextH;
  integrate(arch.limits, rt.step, p, v, h, force, nextP, nextV, nextH);
  // overlapPush
  nextP = nextP + truncate(V2{load(&sums.pushX[i]), load(&sums.pushY[i])}, arch.limits.radius * 0.5f);

  // finishAgent, four at a time: contacts per lane (most lanes have no obstacle or wall near),
  // then the bounds clamp, the finite fallback and the heading smoothing as vectors.
  std::uint8_t laneFlags[kLanes] = {};
  for (int k = 0; k < kLanes; ++k) {
    if (evals[k]->near.obstacles.empty() && evals[k]->near.walls.empty()) continue;
    steer::Body next = bodies[k];
    next.position = {nextP.x[k], nextP.y[k]};
    next.velocity = {nextV.x[k], nextV.y[k]};
    laneFlags[k] = resolveStaticContacts(bodies[k], next, evals[k]->near, arch.limits.radius);
    nextP.x[k] = next.position.x, nextP.y[k] = next.position.y;
    nextV.x[k] = next.velocity.x, nextV.y[k] = next.velocity.y;
  }
  // std::clamp(v, lo, hi) == v < lo ? lo : (hi < v ? hi : v); NaN passes through and then
  // counts as clamped (NaN != NaN), as in the scalar path.
  const F4 minX = splat(bounds.minX), maxX = splat(bounds.maxX);
  const F4 minY = splat(bounds.minY), maxY = splat(bounds.maxY);
  const V2 clamped{simd::select(nextP.x < minX, minX, simd::select(maxX < nextP.x, maxX, nextP.x)),
                   simd::select(nextP.y < minY, minY, simd::select(maxY < nextP.y, maxY, nextP.y))};
  const I4 movedX = clamped.x != nextP.x, movedY = clamped.y != nextP.y;
  nextV = {simd::select(movedX, zero, nextV.x), simd::select(movedY, zero, nextV.y)};
  nextP = clamped;
  const I4 clampedAny = movedX | movedY;
  // finiteOr
  nextP = select(finite(nextP.x) & finite(nextP.y), nextP, p);
  nextV = select(finite(nextV.x) & finite(nextV.y), nextV, V2{zero, zero});
  const V2 blended = h * splat(1.0f - arch.headingBlend) + nextH * splat(arch.headingBlend);
  const V2 heading = normalizedOr(blended, nextH);

  store(&out.px[slot], nextP.x);
  store(&out.py[slot], nextP.y);
  store(&out.vx[slot], nextV.x);
  store(&out.vy[slot], nextV.y);
  store(&out.hx[slot], heading.x);
  store(&out.hy[slot], heading.y);
  store(&out.radius[slot], load(&in.radius[slot]));
  for (int k = 0; k < kLanes; ++k) {
    const AgentEval& e = *evals[k];
    out.memory[slot + k] = {e.wanderTarget.x, e.wanderTarget.y, e.pathIndex,   e.targetId,
                            e.goal.x,         e.goal.y,         e.assignedPath};
    out.id[slot + k] = in.id[slot + k];
    out.archetype[slot + k] = in.archetype[slot + k];
    flags[slot + k] = laneFlags[k] | (clampedAny[k] ? kContactBounds : kContactNone);
  }
}

}  // namespace quad

}  // namespace

void updateChunk(const StepContext& ctx, std::uint32_t begin, std::uint32_t end, AgentColumns& out,
                 std::uint8_t* contactFlags) {
  // Two passes over each block of the chunk: all neighbour scans (kept as one array per field),
  // then the updates, four slots at a time where they share an archetype whose combiner is the
  // running sum, one at a time otherwise.
  SumsBlock sums;
  for (std::uint32_t b = begin; b < end; b += kMaxChunk) {
    const std::uint32_t e = std::min(end, b + kMaxChunk);
    for (std::uint32_t slot = b; slot < e; ++slot) {
      sums.put(slot - b,
               scanNeighbours(ctx.in, ctx.grid, slot, ctx.runtime[ctx.in.archetype[slot]].neighbours));
    }
    std::uint32_t slot = b;
    if (ctx.quads) {
      for (; slot + quad::kLanes <= e; slot += quad::kLanes) {
        if (quad::allSame(ctx.in, slot) &&
            ctx.archetypes[ctx.in.archetype[slot]].combiner == CombinerKind::kWeightedTruncatedRunningSum) {
          quad::update(ctx, slot, sums, slot - b, out, contactFlags);
        } else {
          for (std::uint32_t k = 0; k < quad::kLanes; ++k) {
            contactFlags[slot + k] = updateAgentScalar(ctx, slot + k, sums.get(slot + k - b), out);
          }
        }
      }
    }
    for (; slot < e; ++slot) contactFlags[slot] = updateAgentScalar(ctx, slot, sums.get(slot - b), out);
  }
}

std::uint8_t updateAgent(const StepContext& ctx, std::uint32_t slot, const NeighbourSums& sums,
                         AgentColumns& out) {
  return updateAgentScalar(ctx, slot, sums, out);
}

}  // namespace steerd
