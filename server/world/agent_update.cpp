#include "world/agent_update.h"

#include <algorithm>
#include <cstring>

#include "world/agent_eval.h"
#include "world/agent_formulas.h"
#include "world/directive.h"
#include "world/level_of_detail.h"
#include "world/quad_update.h"

namespace steerd {

using steer::SteeringOutput;
using steer::Vec2;

ArchetypeRuntime prepareArchetype(const Archetype& a, float dt) {
  ArchetypeRuntime r;
  r.neighbours.radius = a.flock.radius;
  r.neighbours.cosHalfFov = steer::cosHalfFovFromDegrees(a.flock.fovDegrees);
  r.neighbours.selfRadius = a.limits.radius;
  r.neighbours.contactSkin = a.contactSkin;
  // A kinematic body's outputs are velocities and rotation rates, combined up to its top speed.
  r.combine = a.kinematic ? steer::CombineLimits{a.limits.maxSpeed, a.limits.maxRotation, steer::kEpsilon}
                          : steer::forceLimitsOf(a.limits);
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
  if (ctx.archetypePopulation != nullptr && ctx.archetypePopulation[archetype] == 0) return -1;
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

using namespace agent_internal;

// The scalar update of one agent: any archetype, any combiner.
std::uint8_t updateAgentScalar(const StepContext& ctx, std::uint32_t slot, const NeighbourSums& sums,
                               AgentColumns& out) {
  const Archetype& arch = ctx.archetypes[ctx.in.archetype[slot]];
  const ArchetypeRuntime& rt = ctx.runtime[ctx.in.archetype[slot]];
  const steer::Body body = bodyAt(ctx, slot, arch);
  AgentEval eval(ctx, slot, arch, rt, body, sums);

  SpecRef refs[kMaxBehaviours];
  BehaviourScratch scratch;
  const std::span<const BehaviourSpec> behaviours = activeBehaviours(ctx, slot, scratch);
  const std::size_t count = std::min(behaviours.size(), kMaxBehaviours);
  bool turning = false;  // a turning kind in the set now (a brain state may have none)
  for (std::size_t b = 0; b < count; ++b) {
    const BehaviourSpec& s = behaviours[b];
    refs[b] = {&s, &eval, s.weight, s.priority, s.probability};
    turning = turning || behaviourRow(s.kind).turns();
  }
  const std::span<const SpecRef> set(refs, count);
  const SteeringOutput force = combineSet(arch, set, rt.combine, eval.rng);
  if (arch.kinematic) {
    // Millington: the combined output is the velocity (and the rotation rate); the body faces its
    // velocity, or turns by the rotation when one is asked for (wander).
    const steer::KinematicFacing facing =
        force.angular != 0.0f ? steer::KinematicFacing::kFromRotation : steer::KinematicFacing::kFromVelocity;
    steer::Body next = steer::integrateKinematic(body, force, rt.step.dt, facing);
    eval.rotation = next.rotation;
    next.position += overlapPush(Vec2{sums.pushX, sums.pushY}, arch.limits.radius);
    return finishAgent(ctx, body, next, eval, out);
  }

  const Vec2 steered = steerBack(ctx.geometry.bounds, ctx.boundsMargin, body.position, body.velocity,
                                 force.linear, arch.limits.maxSpeed, arch.limits.maxForce);
  steer::Body next = steer::integrateDynamicStep(body, steered, rt.step);
  if (arch.faces) {
    // Its own facing, turned by the combined angular acceleration (Millington's integration,
    // as integrateKinematic's: the rotation clamped to maxRotation, then the facing turned by it).
    const float maxRotation = std::max(arch.limits.maxRotation, 0.0f);
    eval.rotation = std::clamp(eval.rotation + force.angular * rt.step.dt, -maxRotation, maxRotation);
    // Nothing turning it in this set: it stops turning rather than spinning on.
    if (!turning || !std::isfinite(eval.rotation)) eval.rotation = 0.0f;
    next.heading = steer::rotate(steer::fromAngle(eval.rotation * rt.step.dt), body.heading);
  }
  const Vec2 push = overlapPush(Vec2{sums.pushX, sums.pushY}, arch.limits.radius);
  next.position += push;
  if (arch.contactSkin > 0.0f) next.velocity = withoutVelocityInto(next.velocity, push);
  return finishAgent(ctx, body, next, eval, out);
}

// Into state[n+1] as it is: a connected player's body (the network moved it between ticks), or an
// agent whose level of detail skips this tick.
std::uint8_t carryOver(const AgentColumns& in, std::uint32_t slot, AgentColumns& out) {
  out.px[slot] = in.px[slot];
  out.py[slot] = in.py[slot];
  out.vx[slot] = in.vx[slot];
  out.vy[slot] = in.vy[slot];
  out.hx[slot] = in.hx[slot];
  out.hy[slot] = in.hy[slot];
  out.radius[slot] = in.radius[slot];
  out.id[slot] = in.id[slot];
  out.home[slot] = in.home[slot];
  out.archetype[slot] = in.archetype[slot];
  return kContactNone;
}

bool isExternal(const StepContext& ctx, std::uint32_t slot) {
  return ctx.anyExternal && (ctx.in.memory(slot).flags & kAgentExternal) != 0;
}

// A quad of one archetype runs one behaviour set: not for players (copied) nor agents with a goal
// (their own set, activeBehaviours), which take the scalar path.
bool quadHasSpecial(const StepContext& ctx, std::uint32_t slot) {
  if (!ctx.anyExternal && !ctx.anyDirected) return false;
  for (std::uint32_t k = 0; k < kQuad; ++k) {
    if ((ctx.in.memory(slot + k).flags & (kAgentExternal | kAgentDirected)) != 0) return true;
  }
  return false;
}

std::uint8_t updateAgent(const StepContext& ctx, std::uint32_t slot, const NeighbourSums& sums,
                         AgentColumns& out) {
  return isExternal(ctx, slot) ? carryOver(ctx.in, slot, out) : updateAgentScalar(ctx, slot, sums, out);
}

// Level of detail: the context slot `slot` steers through this tick, or null when it is not its
// turn (it is carried over unchanged).
const StepContext* contextFor(const StepContext& ctx, std::uint32_t slot) {
  if (ctx.lodLevels == nullptr) return &ctx;
  const std::uint8_t level = ctx.lodLevels[slot];
  if (level == 0) return &ctx;
  return (level & kLodWaits) != 0 ? nullptr : &ctx.lodContexts[level];
}

// Whether the 8 levels from `levels` all carry kLodWaits.
bool allEightWait(const std::uint8_t* levels) {
  std::uint64_t word;
  std::memcpy(&word, levels, sizeof word);
  constexpr std::uint64_t kWaitBits = 0x0101010101010101ull * kLodWaits;
  return (word & kWaitBits) == kWaitBits;
}

// Slots [from, to) into state[n+1] as they are, column by column.
void carryOverRun(const AgentColumns& in, std::uint32_t from, std::uint32_t to, AgentColumns& out,
                  std::uint8_t* contactFlags) {
  AgentColumns::zipColumns(in, out, [&](const auto& a, auto& b) {
    std::copy(a.begin() + from, a.begin() + to, b.begin() + from);
  });
  std::fill(contactFlags + from, contactFlags + to, kContactNone);
}

// The update of the slots of [b, e): all neighbour scans first (kept as one array per field), for
// the slots whose turn it is (level of detail: all of them without), then the updates, four slots
// at a time where they steer through the same context and share an archetype whose combiner is
// the running sum, one at a time otherwise; runs of slots that wait are copied over.
void updateBlock(const StepContext& ctx, std::uint32_t b, std::uint32_t e, SumsBlock& sums, AgentColumns& out,
                 std::uint8_t* contactFlags) {
  const StepContext* contexts[kMaxChunk];
  for (std::uint32_t slot = b; slot < e; ++slot) {
    const StepContext* c = contextFor(ctx, slot);
    contexts[slot - b] = c;
    if (c != nullptr) {
      // The memory record is in the shared store, away from the slot's columns: its load starts now,
      // under the scans, rather than stalling the update that reads it.
      __builtin_prefetch(&ctx.in.memory(slot), 1);
      sums.put(slot - b,
               scanNeighbours(ctx.in, ctx.grid, slot, ctx.runtime[ctx.in.archetype[slot]].neighbours));
    }
  }
  std::uint32_t slot = b;
  while (slot < e) {
    const StepContext* c = contexts[slot - b];
    if (ctx.quads && slot + kQuad <= e && c != nullptr && contexts[slot + 1 - b] == c &&
        contexts[slot + 2 - b] == c && contexts[slot + 3 - b] == c && quadApplies(*c, slot) &&
        !quadHasSpecial(*c, slot)) {
      updateQuad(*c, slot, sums, slot - b, out, contactFlags);
      slot += kQuad;
      continue;
    }
    if (c == nullptr) {
      std::uint32_t run = slot + 1;
      while (run < e && contexts[run - b] == nullptr) ++run;
      carryOverRun(ctx.in, slot, run, out, contactFlags);
      slot = run;
      continue;
    }
    contactFlags[slot] = updateAgent(*c, slot, sums.get(slot - b), out);
    ++slot;
  }
}

}  // namespace

void updateChunk(const StepContext& ctx, std::uint32_t begin, std::uint32_t end, AgentColumns& out,
                 std::uint8_t* contactFlags) {
  SumsBlock sums;
  const auto blocks = [&](std::uint32_t from, std::uint32_t to) {
    for (std::uint32_t b = from; b < to; b += kMaxChunk) {
      updateBlock(ctx, b, std::min(to, b + kMaxChunk), sums, out, contactFlags);
    }
  };
  const std::uint8_t* levels = ctx.lodLevels;
  if (levels == nullptr) {
    blocks(begin, end);
    return;
  }
  // Level of detail: most slots wait, in long runs (a coarse row's agents share their turn).
  // Each run is found 8 levels at a time and copied over in one go; the runs between them steer.
  for (std::uint32_t slot = begin; slot < end;) {
    std::uint32_t run = slot;
    if ((levels[slot] & kLodWaits) != 0) {
      while (run + 8 <= end && allEightWait(levels + run)) run += 8;
      while (run < end && (levels[run] & kLodWaits) != 0) ++run;
      carryOverRun(ctx.in, slot, run, out, contactFlags);
    } else {
      while (run < end && (levels[run] & kLodWaits) == 0) ++run;
      blocks(slot, run);
    }
    slot = run;
  }
}

}  // namespace steerd
