#include "world/quad_update.h"

#include <algorithm>
#include <optional>

#include "world/agent_eval.h"
#include "world/simd.h"

namespace steerd::agent_internal {

// ---- The quad path: four consecutive slots of one archetype with the running-sum combiner ----
//
// The same computation as updateAgentScalar (agent_update.cpp), with the parts that are the same
// for every agent done on four agents at once: the flocking forces from the neighbour sums,
// wander (its random draws come from each lane's own stream), Buckland's running sum, the bounds
// steer-back, the point-mass integration, the overlap push, the bounds clamp and the heading
// smoothing. Each of those is the one definition both paths call, written for any lane type
// (steering/lanes.h, world/agent_formulas.h): this file only gathers lanes and scatters results.
// Behaviours that look things up (obstacle lists, targets, paths, context maps) and the static
// contacts run per lane through AgentEval. tests/world/quad_path_test.cpp checks whole worlds
// for identical bits, tests/world/lane_math_test.cpp each formula lane against scalar.
namespace quad {

using namespace simd;
namespace lanes = steer::lanes;

bool allSame(const AgentColumns& in, std::uint32_t slot) {
  const ArchetypeIndex a = in.archetype[slot];
  return in.archetype[slot + 1] == a && in.archetype[slot + 2] == a && in.archetype[slot + 3] == a;
}

// One behaviour's force for the four lanes: the flocking forces from the sums, wander with each
// lane's own draws, and every other kind lane by lane through AgentEval::run. Inlined into the
// running sum's loop (a call per behaviour per quad would show in the crowd's tick).
[[gnu::always_inline]] inline V2 behaviourForce(const StepContext& ctx, const BehaviourSpec& spec,
                                                const SumsBlock& sums, std::uint32_t i, const V2& p,
                                                const V2& v, const V2& h, F4 fovCount,
                                                std::optional<AgentEval> (&evals)[kLanes], I4 running) {
  const Archetype& arch = evals[0]->arch;
  const ArchetypeRuntime& rt = evals[0]->rt;
  const F4 zero = splat(0.0f);
  V2 s;
  switch (spec.kind) {
    case BehaviourKind::kSeparation:
      s = {load(&sums.sepX[i]), load(&sums.sepY[i])};
      break;
    case BehaviourKind::kAlignment:
      s = alignmentFromSums(V2{load(&sums.headingX[i]), load(&sums.headingY[i])}, fovCount, h);
      break;
    case BehaviourKind::kCohesion:
      s = cohesionFromSums(p, v, V2{load(&sums.offsetX[i]), load(&sums.offsetY[i])}, fovCount,
                           arch.limits.maxSpeed);
      break;
    case BehaviourKind::kWander: {
      // The random draws come from each lane's own stream, and only lanes still running draw
      // or move their target (as the lazy scalar combiner).
      F4 jx = zero, jy = zero;
      V2 target = lanes::zero2<V2>();
      for (int k = 0; k < kLanes; ++k) {
        if (!running[k]) continue;
        jx[k] = evals[k]->rng.clamped();
        jy[k] = evals[k]->rng.clamped();
        target.x[k] = evals[k]->wanderTarget.x, target.y[k] = evals[k]->wanderTarget.y;
      }
      const V2 next =
          steer::wanderNextTarget(target, jx, jy, steer::wanderJitter(ctx.dt, rt.wander), rt.wander);
      s = steer::wanderForce(p, h, next, rt.wander);
      for (int k = 0; k < kLanes; ++k) {
        if (running[k]) evals[k]->wanderTarget = {next.x[k], next.y[k]};
      }
      break;
    }
    case BehaviourKind::kObstacleAvoidance: {
      // Most lanes have no obstacle within reach of their detection box (the buckets hold every
      // obstacle within reach of any point of the cell), and steer::obstacleAvoidance returns
      // zero for those: run it only for the lanes that have one.
      const float maxBox = 2.0f * rt.obstacles.minDetectionLength;  // detectionBoxLength's bound
      s = lanes::zero2<V2>();
      for (int k = 0; k < kLanes; ++k) {
        if (!running[k]) continue;
        const steer::Vec2 at{p.x[k], p.y[k]};
        const auto& near = evals[k]->near.obstacles;
        if (std::none_of(near.begin(), near.end(), [&](const steer::CircleObstacle& o) {
              return steer::obstacleInReach(at, maxBox, arch.limits.radius, o);
            }))
          continue;
        const SteeringOutput o = evals[k]->run(spec);
        s.x[k] = o.linear.x, s.y[k] = o.linear.y;
      }
      break;
    }
    default:  // every kind without a four-lane form (deliberately: a new kind works here at once)
      // Per lane, and only for lanes still running: a lane past its budget must not advance
      // its memory (wander target, path index), exactly as the lazy scalar combiner.
      for (int k = 0; k < kLanes; ++k) {
        SteeringOutput o;
        if (running[k]) o = evals[k]->run(spec);
        s.x[k] = o.linear.x, s.y[k] = o.linear.y;
      }
      break;
  }
  return s;
}

// finishAgent for the quad: bounds steer-back, integration, the overlap push, contacts with
// obstacles and walls per lane, the bounds clamp, heading smoothing, and the stores.
[[gnu::always_inline]] inline void finish(const StepContext& ctx, std::uint32_t slot, const SumsBlock& sums,
                                          std::uint32_t i, const steer::Body (&bodies)[kLanes],
                                          const std::optional<AgentEval> (&evals)[kLanes],
                                          const steer::DynamicState<V2>& now, const V2& total,
                                          AgentColumns& out, std::uint8_t* flags) {
  const AgentColumns& in = ctx.in;
  const Archetype& arch = ctx.archetypes[in.archetype[slot]];
  const ArchetypeRuntime& rt = ctx.runtime[in.archetype[slot]];
  const V2& p = now.position;
  const V2& v = now.velocity;
  const V2& h = now.heading;
  const Bounds& bounds = ctx.geometry.bounds;
  const V2 force =
      steerBack(bounds, ctx.boundsMargin, p, v, total, arch.limits.maxSpeed, arch.limits.maxForce);
  steer::DynamicState<V2> next = steer::integrateDynamicLanes(arch.limits, rt.step, {p, v, h}, force);
  V2 nextP = next.position, nextV = next.velocity;
  const V2 push = overlapPush(V2{load(&sums.pushX[i]), load(&sums.pushY[i])}, arch.limits.radius);
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
    steer::Body moved = bodies[k];
    moved.position = {nextP.x[k], nextP.y[k]};
    moved.velocity = {nextV.x[k], nextV.y[k]};
    laneFlags[k] = resolveStaticContacts(bodies[k], moved, evals[k]->near, arch.limits.radius);
    nextP.x[k] = moved.position.x, nextP.y[k] = moved.position.y;
    nextV.x[k] = moved.velocity.x, nextV.y[k] = moved.velocity.y;
  }
  const I4 clampedAny = clampToBounds(bounds, nextP, nextV);
  nextP = lanes::finiteOr(nextP, p);
  nextV = lanes::finiteOrZero(nextV);
  const V2 heading = blendHeading(h, next.heading, headingBlendOf(arch));

  store(&out.px[slot], nextP.x);
  store(&out.py[slot], nextP.y);
  store(&out.vx[slot], nextV.x);
  store(&out.vy[slot], nextV.y);
  store(&out.hx[slot], heading.x);
  store(&out.hy[slot], heading.y);
  store(&out.radius[slot], load(&in.radius[slot]));
  for (int k = 0; k < kLanes; ++k) {
    const AgentEval& e = *evals[k];
    // A quad's archetype neither faces nor is kinematic (quadApplies): it keeps no rotation.
    storeMemory(ctx, slot + k, e, 0.0f);
    out.id[slot + k] = in.id[slot + k];
    out.home[slot + k] = in.home[slot + k];
    out.archetype[slot + k] = in.archetype[slot + k];
    flags[slot + k] = laneFlags[k] | (clampedAny[k] ? kContactBounds : kContactNone);
  }
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

  // Buckland's running sum. Only the linear part is combined: the point mass has no angular
  // state, and the scalar path uses only force.linear as well.
  const float budget = steer::runningSumBudget(rt.combine);
  V2 total = lanes::zero2<V2>();
  I4 running = splatMask(true);
  const std::size_t count = std::min(arch.behaviours.size(), kMaxBehaviours);
  for (std::size_t b = 0; b < count; ++b) {
    const F4 remaining = steer::runningSumRemaining(total, budget);
    running &= remaining > zero;
    if (!any(running)) break;
    const BehaviourSpec& spec = arch.behaviours[b];
    const V2 s = behaviourForce(ctx, spec, sums, i, p, v, h, fovCount, evals, running);
    I4 overflows;
    const V2 added = steer::runningSumAdd(total, s * splat(spec.weight), remaining, overflows);
    total = lanes::select(running, added, total);
    running &= ~overflows;
  }

  finish(ctx, slot, sums, i, bodies, evals, {p, v, h}, total, out, flags);
}

}  // namespace quad

bool quadApplies(const StepContext& ctx, std::uint32_t slot) {
  // Brain-driven archetypes run their state's set through the scalar path.
  const Archetype& a = ctx.archetypes[ctx.in.archetype[slot]];
  return quad::allSame(ctx.in, slot) && a.combiner == CombinerKind::kWeightedTruncatedRunningSum &&
         !a.brain && !a.faces && !a.kinematic && a.headingSamples == 0;
}

void updateQuad(const StepContext& ctx, std::uint32_t slot, const SumsBlock& sums, std::uint32_t i,
                AgentColumns& out, std::uint8_t* flags) {
  quad::update(ctx, slot, sums, i, out, flags);
}

}  // namespace steerd::agent_internal
