#include "control/control_context.h"

#include <algorithm>

namespace steerd::control {

void ControlContext::setGoal(AgentId id, const Directive& goal) {
  controller_.world_.setDirective(id, goal);
  controller_.seenOf(id).pathFailures = 0;
  std::vector<AgentId>& directed = controller_.directed_;
  if (goal.kind != DirectiveKind::kNone && !std::binary_search(directed.begin(), directed.end(), id))
    directed.insert(std::upper_bound(directed.begin(), directed.end(), id), id);
}

void ControlContext::noteStateSet(AgentId id, std::uint8_t before) {
  const World& world = controller_.world_;
  const std::uint32_t slot = world.slotOf(id);
  const std::uint8_t now = world.agents().memory(slot).brainState;
  controller_.seenOf(id).state = now;
  if (now == before || !controller_.anyWants(EVENT_STATE_CHANGED)) return;
  const brain::Brain& brain = *world.archetypes()[world.agents().archetype[slot]].brain;
  Event e = controller_.eventAbout(EVENT_STATE_CHANGED, id);
  e.set_from(brain::statePath(brain, before));
  e.set_to(brain::statePath(brain, now));
  controller_.emit(e);
}

}  // namespace steerd::control
