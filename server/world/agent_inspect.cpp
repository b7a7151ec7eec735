#include "world/agent_inspect.h"

#include <algorithm>
#include <span>

#include "steering/obstacle_avoidance.h"
#include "steering/wall_avoidance.h"
#include "world/agent_eval.h"
#include "world/directive.h"
#include "world/navigation.h"

namespace steerd {

namespace {

using agent_internal::AgentEval;
using agent_internal::kMaxBehaviours;

// The tick's SpecRef (agent_eval.h), plus where to write down what each behaviour returned: the
// combiner calls evaluate() for exactly the behaviours it reaches, in the tick's order.
struct RecordingRef {
  static constexpr bool kSortedByPriority = true;  // World sorts every archetype's set at load
  const BehaviourSpec* spec;
  AgentEval* eval;
  float weight;
  int priority;
  float probability;
  BehaviourInspection* record;
};

steer::SteeringOutput evaluate(const RecordingRef& r) {
  const steer::SteeringOutput s = r.eval->run(*r.spec);
  r.record->force = s.linear;
  r.record->evaluated = true;
  return s;
}

// The agent's slot in state[n]: where World::slotOf says when it has not moved since (no despawn
// between ticks swapped it), else found by id.
std::int64_t slotInPrevious(const World& world, AgentId id) {
  const AgentColumns& in = world.sortedPrevious();
  const std::size_t n = in.size();
  if (world.isAlive(id)) {
    const std::uint32_t s = world.slotOf(id);
    if (s < n && in.id[s] == id) return s;
  }
  for (std::size_t s = 0; s < n; ++s) {
    if (in.id[s] == id) return static_cast<std::int64_t>(s);
  }
  return -1;
}

}  // namespace

AgentInspection inspectAgent(const World& world, AgentId id) {
  AgentInspection r;
  if (world.tick() == 0) return r;
  const std::int64_t found = slotInPrevious(world, id);
  if (found < 0) return r;
  const auto slot = static_cast<std::uint32_t>(found);
  const StepContext ctx = world.lastStepContext();
  const AgentColumns& in = ctx.in;
  const Archetype& arch = ctx.archetypes[in.archetype[slot]];
  const ArchetypeRuntime& rt = ctx.runtime[in.archetype[slot]];
  const AgentMemory& before = world.memoryBeforeLastStep(slot);
  const steer::Body body = agent_internal::bodyAt(ctx, slot, arch, before);
  r.found = true;
  r.tick = ctx.tick;
  r.position = body.position;
  r.velocity = body.velocity;
  r.heading = body.heading;
  r.detectionBoxLength = steer::detectionBoxLength(body, rt.obstacles.minDetectionLength);
  r.feelers = steer::wallFeelers(body, rt.walls);
  if ((in.memory(slot).flags & kAgentExternal) != 0) {
    r.external = true;
    return r;
  }

  // As updateAgentScalar (agent_update.cpp) does it; the quad path gives the same bits.
  const NeighbourSums sums = scanNeighbours(in, ctx.grid, slot, rt.neighbours);
  AgentEval eval(ctx, slot, arch, rt, body, sums, before);
  BehaviourScratch scratch;
  const std::span<const BehaviourSpec> behaviours = activeBehaviours(ctx, slot, scratch);
  const std::size_t count = std::min(behaviours.size(), kMaxBehaviours);
  r.behaviours.resize(count);
  RecordingRef refs[kMaxBehaviours];
  for (std::size_t b = 0; b < count; ++b) {
    const BehaviourSpec& s = behaviours[b];
    r.behaviours[b] = {s, {}, false};
    refs[b] = {&s, &eval, s.weight, s.priority, s.probability, &r.behaviours[b]};
  }
  const std::span<const RecordingRef> set(refs, count);
  const steer::SteeringOutput force = agent_internal::combineSet(arch, set, rt.combine, eval.rng);
  r.combined = force.linear;

  for (std::size_t b = 0; b < count; ++b) {
    if (behaviours[b].kind != BehaviourKind::kContextSeekWaypoints) continue;
    // A fresh evaluation from state[n], as the tick's: the maps are not kept either.
    AgentEval fresh(ctx, slot, arch, rt, body, sums, before);
    steer::ContextMap map(arch.contextSlots);
    steer::ContextChoice choice;
    r.context = true;
    if (fresh.contextDecide(behaviours[b], map, choice)) {
      r.contextInterest.assign(map.interest().begin(), map.interest().end());
      r.contextDanger.assign(map.danger().begin(), map.danger().end());
      r.contextSlot = choice.slot;
    }
    break;
  }

  const Navigation* nav = world.navigation();
  if (nav != nullptr && Navigation::navigateSpec(behaviours) != nullptr && nav->has(id)) {
    const NavAgent& a = nav->agent(id);
    r.navigating = true;
    r.corridor = a.corners;
    r.corridorCorner = a.corner;
    r.navHasGoal = a.hasGoal;
    r.navGoal = a.goal;
    r.navWaiting = a.waiting;
  }
  return r;
}

const char* behaviourKindName(BehaviourKind kind) { return behaviourRow(kind).name.data(); }

const char* combinerKindName(CombinerKind kind) {
  switch (kind) {
    case CombinerKind::kWeightedBlend:
      return "weighted_blend";
    case CombinerKind::kPriority:
      return "priority";
    case CombinerKind::kWeightedTruncatedRunningSum:
      return "weighted_truncated_running_sum";
    case CombinerKind::kPriorityGroups:
      return "priority_groups";
    case CombinerKind::kPrioritisedDithering:
      return "prioritised_dithering";
  }
  return "unknown";
}

}  // namespace steerd
