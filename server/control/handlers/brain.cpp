// Writes to what an agent's brain reads: SetState, SetStat, Signal, and fetch Orders (brain
// conditions see them as has_order).
#include <algorithm>

#include "control/handlers/checks.h"
#include "control/handlers/handlers.h"

namespace steerd::control {

namespace {

constexpr float kDefaultOrderDoneWithin = 5.0f;  // m from home

}  // namespace

CommandResult handleSetState(ControlContext& context, const SetState& s) {
  World& world = context.world();
  if (Problem p = checkAgent(world, "set_state.agent", s.agent())) return failed(p);
  const Archetype& a = archetypeOf(world, s.agent());
  if (!a.brain) return failed({"set_state.agent", a.name + " has no brain"});
  const std::int32_t state = stateIndexOf(*a.brain, s.state());
  if (state < 0)
    return failed({"set_state.state", "no state \"" + s.state() + "\" in " + a.name + "'s brain"});
  const std::uint8_t before = world.agents().memory(world.slotOf(s.agent())).brainState;
  world.setBrainState(s.agent(), state);
  context.noteStateSet(s.agent(), before);
  return succeeded(s.agent());
}

CommandResult handleSetStat(ControlContext& context, const SetStat& s) {
  World& world = context.world();
  if (Problem p = checkAgent(world, "set_stat.agent", s.agent())) return failed(p);
  const Archetype& a = archetypeOf(world, s.agent());
  if (!a.brain) return failed({"set_stat.agent", a.name + " has no brain"});
  const auto& stats = a.brain->stats;
  const auto st =
      std::find_if(stats.begin(), stats.end(), [&](const brain::Stat& x) { return x.name == s.stat(); });
  if (st == stats.end())
    return failed({"set_stat.stat", "no stat \"" + s.stat() + "\" in " + a.name + "'s brain"});
  if (!finite(s.value())) return failed({"set_stat.value", "not finite"});
  world.setStat(s.agent(), static_cast<std::size_t>(st - stats.begin()), s.value());
  return succeeded(s.agent());
}

CommandResult handleSignal(ControlContext& context, const Signal& s) {
  World& world = context.world();
  if (Problem p = checkAgent(world, "signal.agent", s.agent(), true)) return failed(p);
  if (s.name().empty()) return failed({"signal.name", "empty"});
  // Raising registers a new name when the world has room for it, and changes nothing (-1) when it
  // has none; lowering a name never raised is a no-op.
  const std::int32_t i = world.markIndex(World::MarkKind::kSignal, s.name(), s.raised());
  if (i < 0 && s.raised())
    return failed(
        {"signal.name", "a world holds at most " + std::to_string(World::kMaxMarkNames) + " signal names"});
  if (i >= 0) world.setMark(World::MarkKind::kSignal, s.agent(), i, s.raised());
  return succeeded(s.agent());
}

CommandResult handleOrder(ControlContext& context, const Order& o) {
  World& world = context.world();
  if (Problem p = checkAgent(world, "order.agent", o.agent())) return failed(p);
  if (Problem p = checkAgent(world, "order.stray", o.stray())) return failed(p);
  if (o.stray() == o.agent()) return failed({"order.stray", "an agent cannot fetch itself"});
  const Archetype& holder = archetypeOf(world, o.agent());
  const ArchetypeIndex strayArchetype = world.agents().archetype[world.slotOf(o.stray())];
  std::int32_t group = strayArchetype;
  if (!o.group().empty()) {
    group = world.archetypeIndex(o.group());
    if (group < 0) return failed({"order.group", "no archetype \"" + o.group() + "\""});
  }
  if (Problem p = checkRadius("order.done_within", o.done_within())) return failed(p);
  if (Problem p = checkRadius("order.give_up_after_s", o.give_up_after_s())) return failed(p);
  if (!actsOnOrdersFor(holder, strayArchetype)) {
    return failed({"order.agent", holder.name + "'s behaviours never act on an order to fetch a " +
                                      world.archetypes()[strayArchetype].name +
                                      " (FETCH_STRAY with target: FETCH_ORDER)"});
  }
  world.giveOrder(o.agent(), o.stray(), static_cast<ArchetypeIndex>(group),
                  o.done_within() > 0.0f ? o.done_within() : kDefaultOrderDoneWithin, o.give_up_after_s());
  return succeeded(o.agent());
}

}  // namespace steerd::control
