// A goal the control API gave one agent (control/control.h): walk to a point, follow a path, keep
// near another agent, stop. While an agent has one (kAgentDirected), its steering runs the goal's
// behaviour plus the avoidance behaviours of its current set; its brain keeps thinking, and its
// set takes over again when the goal is released. Written only between ticks (at a tick boundary,
// in command order); the tick reads it by id, so it is the same for any thread count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "world/archetype.h"

namespace steerd {

enum class DirectiveKind : std::uint8_t {
  kNone,
  kMoveTo,  // `point`: arrive (or NAVIGATE on the mesh) and stay
  kPath,    // follow path `path`
  kFollow,  // offset pursuit of `target` at `offset`
  kGuard,   // within `radius` of `target`: its own set; beyond: back to it
  kStop,    // arrive at `point` (where it was told to stop)
};

struct Directive {
  DirectiveKind kind = DirectiveKind::kNone;
  steer::Vec2 point;       // kMoveTo, kStop; kPath: the open path's end
  steer::Vec2 offset;      // kFollow
  AgentId target = 0;      // kFollow, kGuard
  std::int32_t path = -1;  // kPath
  float radius = 1.0f;     // kMoveTo, kPath: arrival within; kGuard: the leash
  bool releaseOnArrival = false;
  bool arrived = false;  // reported (control API's arrived event)
  // The behaviour the goal adds (derived from the above by directiveGoalSpec).
  BehaviourSpec goal;
};

// The goal behaviour of a directive: ARRIVE_AT or NAVIGATE (kPoint) for a point, FOLLOW_PATH,
// OFFSET_PURSUIT of the agent. `navigates` is the archetype's NAVIGATE behaviour, if any (then a
// point goal walks the navmesh with its `range`).
BehaviourSpec directiveGoalSpec(const Directive& d, const BehaviourSpec* navigates);

// Whether a behaviour of an agent's own set keeps running under a goal (avoidance: separation,
// obstacle, wall, whisker and collision avoidance).
bool keptUnderDirective(BehaviourKind kind);

struct StepContext;

// Room for a goal's behaviour set, left uninitialised until a goal needs it: the tick asks for
// every agent's set and most have no goal (16 specs constructed per agent cost the crowd time).
struct BehaviourScratch {
  static constexpr std::size_t kSize = 16;
  alignas(BehaviourSpec) unsigned char bytes[kSize * sizeof(BehaviourSpec)];
};

// The behaviour set slot `slot` of ctx.in runs this tick: its archetype's set for its brain state,
// or, with a goal in force (a guard outside its leash), that set's avoidance and the goal's
// behaviour, built in `scratch`. The tick, navigation and the inspector all ask here.
std::span<const BehaviourSpec> activeBehaviours(const StepContext& ctx, std::uint32_t slot,
                                                BehaviourScratch& scratch);
// The NAVIGATE behaviour of that set, or null: a pointer that lasts the tick (into the archetype's
// set, or the directive's goal), as navigation keeps it through its phases.
const BehaviourSpec* activeNavigateSpec(const StepContext& ctx, std::uint32_t slot);

}  // namespace steerd
