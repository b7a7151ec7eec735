#include "world/directive.h"

#include <algorithm>
#include <new>
#include <type_traits>

#include "world/agent_update.h"
#include "world/navigation.h"

namespace steerd {

bool keptUnderDirective(BehaviourKind kind) { return behaviourRow(kind).has(kTraitKeptUnderGoal); }

BehaviourSpec directiveGoalSpec(const Directive& d, const BehaviourSpec* navigates) {
  BehaviourSpec s;
  s.weight = 1.0f;
  switch (d.kind) {
    case DirectiveKind::kNone:
      break;
    case DirectiveKind::kMoveTo:
      if (navigates != nullptr) {
        s = *navigates;
        s.navGoal = NavGoal::kPoint;
      } else {
        s.kind = BehaviourKind::kArriveAt;
      }
      s.point = d.point;
      break;
    case DirectiveKind::kStop:
      s.kind = BehaviourKind::kArriveAt;
      s.point = d.point;
      break;
    case DirectiveKind::kPath:
      s.kind = BehaviourKind::kFollowPath;
      s.pathIndex = d.path;
      break;
    case DirectiveKind::kFollow:
    case DirectiveKind::kGuard:
      s.kind = BehaviourKind::kOffsetPursuitNearest;
      s.target = TargetKind::kAgent;
      s.agent = d.target;
      s.point = d.kind == DirectiveKind::kFollow ? d.offset : steer::Vec2{};
      break;
  }
  return s;
}

std::span<const BehaviourSpec> activeBehaviours(const StepContext& ctx, std::uint32_t slot,
                                                BehaviourScratch& scratch) {
  const AgentColumns& in = ctx.in;
  const Archetype& arch = ctx.archetypes[in.archetype[slot]];
  const std::vector<BehaviourSpec>& own = arch.behavioursIn(in.memory(slot).brainState);
  if (ctx.directives == nullptr || (in.memory(slot).flags & kAgentDirected) == 0) return own;
  const Directive& d = ctx.directives[agentIndex(in.id[slot])];
  if (d.kind == DirectiveKind::kNone) return own;
  if (d.kind == DirectiveKind::kGuard) {
    // Inside the leash its own behaviours run; the target is gone: it stays with its own set
    // until the control API ends the goal (at the next tick boundary).
    const std::int32_t target = ctx.slotOfAgent(d.target);
    if (target < 0) return own;
    const auto t = static_cast<std::uint32_t>(target);
    const float dx = in.px[t] - in.px[slot], dy = in.py[t] - in.py[slot];
    if (dx * dx + dy * dy <= d.radius * d.radius) return own;
  }
  // Avoidance first, in the set's priority order, then the goal at the lowest priority of all.
  // BehaviourSpec is trivially copyable: constructing copies into raw bytes is all it takes.
  static_assert(std::is_trivially_copyable_v<BehaviourSpec> &&
                std::is_trivially_destructible_v<BehaviourSpec>);
  BehaviourSpec* out = reinterpret_cast<BehaviourSpec*>(scratch.bytes);
  std::size_t n = 0;
  int lowest = 0;
  for (const BehaviourSpec& s : own) {
    if (n + 1 >= BehaviourScratch::kSize) break;
    if (!keptUnderDirective(s.kind)) continue;
    new (out + n++) BehaviourSpec(s);
    lowest = std::max(lowest, s.priority);
  }
  new (out + n) BehaviourSpec(d.goal);
  out[n].priority = lowest;
  return {std::launder(out), n + 1};
}

const BehaviourSpec* activeNavigateSpec(const StepContext& ctx, std::uint32_t slot) {
  BehaviourScratch scratch;
  const std::span<const BehaviourSpec> set = activeBehaviours(ctx, slot, scratch);
  if (static_cast<const void*>(set.data()) == scratch.bytes) {
    const BehaviourSpec& goal = ctx.directives[agentIndex(ctx.in.id[slot])].goal;
    return goal.kind == BehaviourKind::kNavigate ? &goal : nullptr;
  }
  return Navigation::navigateSpec(set);
}

}  // namespace steerd
