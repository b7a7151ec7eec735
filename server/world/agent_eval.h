// Internal to the world's update (agent_update.cpp, quad_update.cpp): one agent's evaluation of
// its behaviour set, and the pieces both update paths share. Not part of the world's interface.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>

#include "steering/align.h"
#include "steering/arrive.h"
#include "steering/collision_avoidance.h"
#include "steering/combiners.h"
#include "steering/context_steering.h"
#include "steering/hide.h"
#include "steering/interpose.h"
#include "steering/kinematic.h"
#include "steering/locomotion.h"
#include "steering/neighbours.h"
#include "steering/obstacle_avoidance.h"
#include "steering/offset_pursuit.h"
#include "steering/path_following.h"
#include "steering/pursue.h"
#include "steering/seek.h"
#include "steering/velocity_matching.h"
#include "steering/wall_avoidance.h"
#include "steering/wander.h"
#include "steering/whisker_avoidance.h"
#include "world/agent_formulas.h"
#include "world/agent_update.h"
#include "world/groups.h"
#include "world/neighbour_scan.h"

namespace steerd::agent_internal {

using steer::SteeringOutput;
using steer::Vec2;

inline steer::Kinematic kinematicAt(const StepContext& ctx, std::uint32_t slot) {
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
      : AgentEval(c, s, a, r, b, n, c.in.memory(s)) {}
  // From the memory `m` (the inspector's: the agent's memory as the tick read it).
  AgentEval(const StepContext& c, std::uint32_t s, const Archetype& a, const ArchetypeRuntime& r,
            const steer::Body& b, const NeighbourSums& n, const AgentMemory& m)
      : ctx(c),
        slot(s),
        arch(a),
        rt(r),
        body(b),
        sums(n),
        near(c.geometry.near(b.position.x, b.position.y)),
        rng(steer::Rng::forAgent(c.seed, c.in.id[s], c.tick)),
        wanderTarget{m.wanderX, m.wanderY},
        pathIndex(m.pathIndex),
        assignedPath(m.assignedPath),
        rotation(m.rotation) {}

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
  std::int16_t assignedPath;
  std::int32_t targetId = -1;
  float rotation;  // rad/s: archetypes that face by themselves (Archetype::faces)
  Vec2 goal{std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::quiet_NaN()};

  static steer::WhiskerParams whiskerParams(const BehaviourSpec& spec) {
    steer::WhiskerParams p;
    p.rayLength = spec.rayLength;
    return p;
  }

  // SEEK, FLEE, ARRIVE of a kinematic archetype: Millington's kinematic forms (velocities).
  SteeringOutput kinematic(const BehaviourSpec& spec, Vec2 at) {
    if (spec.kind == BehaviourKind::kFlee) {
      const bool panics =
          spec.range <= 0.0f || steer::lengthSq(body.position - at) <= spec.range * spec.range;
      return panics ? steer::kinematicFlee(body, at) : SteeringOutput{};
    }
    goal = at;
    if (spec.kind == BehaviourKind::kSeek) return steer::kinematicSeek(body, at);
    return steer::kinematicArrive(body, at, {spec.targetRadius, spec.timeToTarget});
  }

  // Inlined into the combiner's loop: the call was a fifth of the tick's cost in the crowd.
  [[gnu::always_inline]] inline SteeringOutput run(const BehaviourSpec& spec);
  SteeringOutput contextSeekWaypoints(const BehaviourSpec& spec);
  // contextSeekWaypoints' decision: advances pathIndex, sets goal, writes the interest and danger
  // maps into `map` (arch.contextSlots slots, all zero on entry) and chooses. False (nothing
  // written) without a path. Also the inspector's (agent_inspect.h), so both see the same maps.
  bool contextDecide(const BehaviourSpec& spec, steer::ContextMap& map, steer::ContextChoice& choice);
  SteeringOutput collisionAvoidance(const BehaviourSpec& spec);
  SteeringOutput hideFromNearest(const BehaviourSpec& spec);
  SteeringOutput followPath(const BehaviourSpec& spec);
  SteeringOutput interposeNearest(const BehaviourSpec& spec);
  // SEEK, FLEE and ARRIVE, at a waypoint or the agent aimed at; cheap and common, so inlined.
  [[gnu::always_inline]] inline SteeringOutput towardOrAway(const BehaviourSpec& spec);
  SteeringOutput fetchStray(const BehaviourSpec& spec);
  SteeringOutput driveGroup(const BehaviourSpec& spec);
  SteeringOutput navigate(const BehaviourSpec& spec);
  // The path a behaviour follows: its own, or (path -1) the one this agent was given.
  const Path* pathFor(const BehaviourSpec& spec) const {
    const std::int32_t p = spec.pathIndex >= 0 ? spec.pathIndex : assignedPath;
    return p >= 0 && static_cast<std::size_t>(p) < ctx.geometry.paths.size() ? &ctx.geometry.paths[p]
                                                                             : nullptr;
  }
  // What a targeted behaviour aims at (spec.target): an agent, or a group's centroid as a body
  // moving at the group's mean velocity. False when there is none (no force).
  bool target(const BehaviourSpec& spec, steer::Kinematic& out) {
    std::int32_t t = -1;
    switch (spec.target) {
      case TargetKind::kNearest:
        t = nearestOfArchetype(ctx, slot, spec.targetArchetype, spec.range);
        break;
      case TargetKind::kGroupLeader:
        if (ctx.groups != nullptr) t = ctx.groups->leaderSlot[spec.targetArchetype];
        if (static_cast<std::uint32_t>(t) == slot) t = -1;  // the leader itself
        break;
      case TargetKind::kGroupCentroid:
        if (ctx.groups == nullptr || ctx.groups->count[spec.targetArchetype] == 0) return false;
        out = {ctx.groups->centroid[spec.targetArchetype], ctx.groups->velocity[spec.targetArchetype],
               steer::normalizedOr(ctx.groups->velocity[spec.targetArchetype], {1.0f, 0.0f}), 0.0f};
        return true;
      case TargetKind::kFetchOrder:
        t = orderedSlot(spec);
        break;
      case TargetKind::kAgent:
        t = ctx.slotOfAgent(spec.agent);
        if (t == static_cast<std::int32_t>(slot)) t = -1;
        break;
    }
    if (t < 0) return false;
    // What it steers at is the first target found in priority order (a pursuer chasing a player
    // first and boids second names the player), not the last one evaluated.
    if (targetId < 0) targetId = static_cast<std::int32_t>(ctx.in.id[t]);
    out = kinematicAt(ctx, static_cast<std::uint32_t>(t));
    return true;
  }
  // The slot of the agent of spec.targetArchetype this one was ordered to fetch, or -1.
  std::int32_t orderedSlot(const BehaviourSpec& spec) const {
    const Groups::Fetch* f = ctx.groups != nullptr ? ctx.groups->fetchOf(ctx.in.id[slot]) : nullptr;
    if (f == nullptr || f->straySlot < 0) return -1;
    return ctx.in.archetype[static_cast<std::size_t>(f->straySlot)] == spec.targetArchetype ? f->straySlot
                                                                                            : -1;
  }
  SteeringOutput herd(Vec2 stray, Vec2 home, float standOff);
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
inline SteeringOutput evaluate(const SpecRef& r) { return r.eval->run(*r.spec); }

// The archetype's combiner over a set of refs (SpecRef, or the inspector's recording ref): one
// switch, so the tick and the inspector cannot combine differently.
template <class Ref>
SteeringOutput combineWith(CombinerKind combiner, std::span<const Ref> set,
                           const steer::CombineLimits& limits, steer::Rng& rng) {
  switch (combiner) {
    case CombinerKind::kWeightedBlend:
      return steer::weightedBlend(set, limits);
    case CombinerKind::kPriority:
      return steer::prioritised(set, limits);
    case CombinerKind::kWeightedTruncatedRunningSum:
      return steer::runningSum(set, limits);
    case CombinerKind::kPrioritisedDithering:
      return steer::dithered(set, limits, rng);
    case CombinerKind::kPriorityGroups:
      return steer::priorityGroups(set, limits);
  }
  return {};
}

constexpr std::size_t kMaxBehaviours = 16;  // per archetype (checked at load)

// One agent's steering from its set: the archetype's combiner over the behaviours that move it,
// and, for an archetype that faces by itself, the turning ones (ALIGN, FACE, LOOK_WHERE_GOING)
// blended on their own into `angular` (the combiner's force budget is for moving: a turret that
// cannot move must still turn). One definition for the tick and the inspector.
template <class Ref>
SteeringOutput combineSet(const Archetype& arch, std::span<const Ref> set, const steer::CombineLimits& limits,
                          steer::Rng& rng) {
  if (!arch.faces) return combineWith(arch.combiner, set, limits, rng);
  Ref moving[kMaxBehaviours], turning[kMaxBehaviours];
  std::size_t m = 0, t = 0;
  for (const Ref& r : set.first(std::min(set.size(), kMaxBehaviours)))
    (behaviourRow(r.spec->kind).turns() ? turning[t++] : moving[m++]) = r;
  SteeringOutput out = combineWith(arch.combiner, std::span<const Ref>(moving, m), limits, rng);
  out.angular = t > 0 ? steer::weightedBlend(std::span<const Ref>(turning, t), limits).angular : 0.0f;
  return out;
}

inline SteeringOutput AgentEval::run(const BehaviourSpec& spec) {
  switch (spec.kind) {
    case BehaviourKind::kWander: {
      if (arch.kinematic) return steer::kinematicWander(body, rng);
      const steer::WanderResult w = steer::wander(body, wanderTarget, ctx.dt, rng, rt.wander);
      wanderTarget = w.target;
      return w.steering;
    }
    case BehaviourKind::kSeparation:
      return {{sums.sepX, sums.sepY}, 0.0f};
    case BehaviourKind::kAlignment:
      return {alignmentFromSums(Vec2{sums.headingX, sums.headingY}, sums.fovCount, body.heading), 0.0f};
    case BehaviourKind::kCohesion:
      return {cohesionFromSums(body.position, body.velocity, Vec2{sums.offsetX, sums.offsetY}, sums.fovCount,
                               body.limits.maxSpeed),
              0.0f};
    case BehaviourKind::kObstacleAvoidance:
      return steer::obstacleAvoidance(body, near.obstacles, rt.obstacles);
    case BehaviourKind::kWallAvoidance:
      return steer::wallAvoidance(body, near.walls, rt.walls);
    case BehaviourKind::kPursueNearest: {
      steer::Kinematic t;
      if (!target(spec, t)) return {};
      goal = t.position;
      return steer::pursue(body, t, {spec.maxPrediction});
    }
    case BehaviourKind::kEvadeNearest: {
      steer::Kinematic t;
      if (!target(spec, t)) return {};
      return steer::evade(body, t, {spec.maxPrediction});
    }
    case BehaviourKind::kHideFromNearest:
      return hideFromNearest(spec);
    case BehaviourKind::kFollowPath:
      return followPath(spec);
    case BehaviourKind::kArriveAt:
      goal = spec.point;
      return steer::arrive(body, spec.point);
    case BehaviourKind::kSeek:
    case BehaviourKind::kFlee:
    case BehaviourKind::kArrive:
      return towardOrAway(spec);
    case BehaviourKind::kVelocityMatch: {
      steer::Kinematic t;
      if (!target(spec, t)) return {};
      return steer::velocityMatch(body, t.velocity, {spec.timeToTarget});
    }
    case BehaviourKind::kAlign: {
      steer::Kinematic t;
      if (!target(spec, t)) return {};
      return steer::align(body, steer::toAngle(t.heading), {0.02f, 0.5f, spec.timeToTarget});
    }
    case BehaviourKind::kFace: {
      Vec2 at = spec.point;
      if (!spec.atPoint) {
        steer::Kinematic t;
        if (!target(spec, t)) return {};
        at = t.position;
      }
      return steer::face(body, at, {0.02f, 0.5f, spec.timeToTarget});
    }
    case BehaviourKind::kLookWhereGoing:
      return steer::lookWhereYouAreGoing(body, {0.02f, 0.5f, spec.timeToTarget});
    case BehaviourKind::kContextSeekWaypoints:
      return contextSeekWaypoints(spec);
    case BehaviourKind::kInterposeNearest:
      return interposeNearest(spec);
    case BehaviourKind::kOffsetPursuitNearest: {
      steer::Kinematic leader;
      if (!target(spec, leader)) return {};
      goal = steer::offsetWorldPoint(leader, spec.point);
      return steer::offsetPursuit(body, leader, spec.point);
    }
    case BehaviourKind::kWhiskerAvoidance:
      return steer::whiskerAvoidance(body, near.walls, near.obstacles, whiskerParams(spec));
    case BehaviourKind::kCollisionAvoidance:
      return collisionAvoidance(spec);
    case BehaviourKind::kFetchStray:
      return fetchStray(spec);
    case BehaviourKind::kNavigate:
      return navigate(spec);
    case BehaviourKind::kDriveGroup:
      return driveGroup(spec);
  }
  return {};
}

inline SteeringOutput AgentEval::towardOrAway(const BehaviourSpec& spec) {
  Vec2 at = spec.point;  // a waypoint, or the agent aimed at
  if (!spec.atPoint) {
    steer::Kinematic t;
    if (!target(spec, t)) return {};
    at = t.position;
  }
  if (arch.kinematic) return kinematic(spec, at);
  if (spec.kind == BehaviourKind::kFlee) return steer::flee(body, at, {spec.range});  // panic distance
  goal = at;
  if (spec.kind == BehaviourKind::kSeek) return steer::seek(body, at);
  if (spec.slowRadius > 0.0f)
    return steer::arriveMillington(body, at, {spec.targetRadius, spec.slowRadius, spec.timeToTarget});
  return steer::arrive(body, at, {spec.deceleration});
}

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

// `memory`: the agent's (its rotation); the inspector passes the memory as the tick read it.
inline steer::Body bodyAt(const StepContext& ctx, std::uint32_t slot, const Archetype& arch,
                          const AgentMemory& memory) {
  const AgentColumns& in = ctx.in;
  steer::Body body;
  body.position = {in.px[slot], in.py[slot]};
  body.velocity = {in.vx[slot], in.vy[slot]};
  body.heading = {in.hx[slot], in.hy[slot]};
  body.limits = arch.limits;
  if (arch.faces || arch.kinematic) {  // its facing is its own: the angular behaviours read it
    body.orientation = steer::toAngle(body.heading);
    body.rotation = memory.rotation;
  }
  return body;
}

inline steer::Body bodyAt(const StepContext& ctx, std::uint32_t slot, const Archetype& arch) {
  return bodyAt(ctx, slot, arch, ctx.in.memory(slot));
}

// Writes the memory an evaluation leaves for state[n+1] into the shared store, in place (flags
// and brain state are not the update's to change), saving state[n]'s first for the inspector
// (StepContext::memoryBefore). The scalar and the quad paths both end here.
inline void storeMemory(const StepContext& ctx, std::uint32_t slot, const AgentEval& e, float rotation) {
  AgentMemory& m = ctx.in.memory(slot);
  if (ctx.memoryBefore != nullptr) ctx.memoryBefore[slot] = m;
  m.wanderX = e.wanderTarget.x;
  m.wanderY = e.wanderTarget.y;
  m.pathIndex = e.pathIndex;
  m.targetId = e.targetId;
  m.goalX = e.goal.x;
  m.goalY = e.goal.y;
  m.assignedPath = e.assignedPath;
  m.rotation = rotation;
}

// A crowd contact (archetypes with a contact skin): the body pushed away from its neighbours also
// stops moving towards them, as it stops moving into a wall; otherwise it walks straight back in
// next tick and a jam against an obstacle squeezes bodies into each other.
inline Vec2 withoutVelocityInto(Vec2 velocity, Vec2 push) {
  const float len2 = steer::lengthSq(push);
  if (len2 <= 0.0f) return velocity;
  const Vec2 n = push / std::sqrt(len2);
  const float into = steer::dot(velocity, n);
  return into < 0.0f ? velocity - n * into : velocity;
}

// Static contacts after the move: project out of obstacles and walls, and drop the velocity
// into them. Returns kContactObstacle if anything was touched.
std::uint8_t resolveStaticContacts(const steer::Body& body, steer::Body& next,
                                   const StaticGeometry::Near& near, float r);

// How much of the way the shown heading turns to the velocity's each tick (blendHeading). A body
// that faces by itself is turned, not smoothed towards its velocity.
inline float headingBlendOf(const Archetype& a) { return a.faces || a.kinematic ? 1.0f : a.headingBlend; }

// The end of an agent's update, after integration: static contacts, bounds clamp, heading
// smoothing, and the writes of its slot of state[n+1]. Returns its ContactFlag bits.
std::uint8_t finishAgent(const StepContext& ctx, const steer::Body& body, steer::Body next,
                         const AgentEval& eval, AgentColumns& out);

}  // namespace steerd::agent_internal
