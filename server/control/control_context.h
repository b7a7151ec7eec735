// What a command handler (handlers/handlers.h) may reach: the world, the controller's limits, who
// sent the command, and the few pieces of the Controller's own bookkeeping that commands update.
// Handlers get nothing else of the Controller, so this list is everything a command can touch
// besides the world.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "control/control.h"

namespace steerd::control {

class ControlContext {
 public:
  ControlContext(Controller& controller, SubscriberId from) : controller_(controller), from_(from) {}

  World& world() const { return controller_.world_; }
  const ControllerConfig& config() const { return controller_.config_; }
  SubscriberId from() const { return from_; }

  // Gives an agent a goal (DirectiveKind::kNone: ends it). Its navigation starts afresh (no path
  // failures yet) and afterTick watches the goal for arrival and lost targets.
  void setGoal(AgentId id, const Directive& goal);
  // Agents a command added or removed: tracked from now on, or forgotten; the spawned/despawned
  // events.
  void noteSpawned(AgentId id) { controller_.noteSpawned(id); }
  void noteDespawned(AgentId id, const std::string& archetype) { controller_.noteDespawned(id, archetype); }
  // A command moved an agent's brain from state `before` to its state now: afterTick must not
  // report it again, so the state_changed event goes out here.
  void noteStateSet(AgentId id, std::uint8_t before);

  std::string subscribe(const Subscribe& filter) { return controller_.subscribe(from_, filter); }
  std::optional<AgentInfo> query(AgentId id) const { return controller_.query(id); }

 private:
  Controller& controller_;
  SubscriberId from_;
};

}  // namespace steerd::control
