#include "world/quad_update.h"

#include <optional>

#include "world/agent_eval.h"
#include "world/simd.h"

namespace steerd::agent_internal {

// ---- The quad path: four consecutive slots of one archetype with the running-sum combiner ----
//
// The same computation as updateAgentScalar (agent_update.cpp), lane for lane, with the parts
// that are the same for every agent done on four agents at once: the flocking forces from the
// neighbour sums, wander (its random draws come from each lane's own stream), Buckland's running
// sum, the bounds steer-back, the point-mass integration, the overlap push, the bounds clamp and
// the heading smoothing. Behaviours that look things up (obstacle lists, targets, paths, context
// maps) and the static contacts run per lane through AgentEval. Every lane mirrors the scalar
// expression order exactly, so the two paths give identical bits
// (tests/world/quad_path_test.cpp checks it on whole worlds).
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
    const I4 moving = speed0 > splat(step.pivotSpeed);
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
  // Only the linear part is combined: the point mass has no angular state, and the scalar path
  // uses only force.linear as well.
  V2 total{zero, zero};
  I4 running = splatMask(true);
  const std::size_t count = std::min(arch.behaviours.size(), kMaxBehaviours);
  for (std::size_t b = 0; b < count; ++b) {
    const F4 remaining = splat(maxLinear) - length(total);
    running &= remaining > zero;
    if (!any(running)) break;
    const BehaviourSpec& spec = arch.behaviours[b];
    V2 s;
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
      case BehaviourKind::kObstacleAvoidance:
        // Most quads have no obstacle near any lane, and steer::obstacleAvoidance returns zero
        // for an empty list: skip the four calls then.
        if (evals[0]->near.obstacles.empty() && evals[1]->near.obstacles.empty() &&
            evals[2]->near.obstacles.empty() && evals[3]->near.obstacles.empty()) {
          s = {zero, zero};
          break;
        }
        [[fallthrough]];
      default:
        // Per lane, and only for lanes still running: a lane past its budget must not advance
        // its memory (wander target, path index), exactly as the lazy scalar combiner.
        for (int k = 0; k < kLanes; ++k) {
          SteeringOutput o;
          if (running[k]) o = evals[k]->run(spec);
          s.x[k] = o.linear.x, s.y[k] = o.linear.y;
        }
        break;
    }
    const F4 w = splat(spec.weight);
    s = s * w;
    const F4 magnitude = length(s);
    const I4 overflows = magnitude >= remaining;
    const V2 added = total + s * simd::select(overflows, remaining / magnitude, splat(1.0f));
    total = select(running, added, total);
    running &= ~overflows;
  }

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
  const V2 push = truncate(V2{load(&sums.pushX[i]), load(&sums.pushY[i])}, arch.limits.radius * 0.5f);
  nextP = nextP + push;
  if (arch.contactSkin > 0.0f) {
    for (int k = 0; k < kLanes; ++k) {
      const Vec2 kept = withoutVelocityInto({nextV.x[k], nextV.y[k]}, {push.x[k], push.y[k]});
      nextV.x[k] = kept.x, nextV.y[k] = kept.y;
    }
  }

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
    out.memory[slot + k] = {e.wanderTarget.x,
                            e.wanderTarget.y,
                            e.pathIndex,
                            e.targetId,
                            e.goal.x,
                            e.goal.y,
                            e.assignedPath,
                            in.memory[slot + k].flags,
                            in.memory[slot + k].brainState};
    out.id[slot + k] = in.id[slot + k];
    out.archetype[slot + k] = in.archetype[slot + k];
    flags[slot + k] = laneFlags[k] | (clampedAny[k] ? kContactBounds : kContactNone);
  }
}

}  // namespace quad

bool quadApplies(const StepContext& ctx, std::uint32_t slot) {
  // Brain-driven archetypes run their state's set through the scalar path.
  const Archetype& a = ctx.archetypes[ctx.in.archetype[slot]];
  return quad::allSame(ctx.in, slot) && a.combiner == CombinerKind::kWeightedTruncatedRunningSum &&
         !a.brain && !a.faces && !a.kinematic;
}

void updateQuad(const StepContext& ctx, std::uint32_t slot, const SumsBlock& sums, std::uint32_t i,
                AgentColumns& out, std::uint8_t* flags) {
  quad::update(ctx, slot, sums, i, out, flags);
}

}  // namespace steerd::agent_internal
