// The checks command handlers run before they change anything, and the results they return. A
// failed check is a Problem naming the field and why ("move_to.position: inside an obstacle").
#pragma once

#include <cstdint>
#include <string>

#include "proto/control.pb.h"
#include "world/world.h"

namespace steerd::control {

// A check's failure: the field it names and why; empty (false) when fine.
struct Problem {
  std::string field, why;
  explicit operator bool() const { return !why.empty(); }
};

// Results: an error ("field: why"), or done (naming the agent it concerned, when it did).
CommandResult failed(const Problem& problem);
CommandResult succeeded();
CommandResult succeeded(AgentId agent);

// A float as the error texts show it (%g).
std::string fmt(float v);
bool finite(float v);

// The agent a command names: alive, and (unless a player may be named) not a player's body.
Problem checkAgent(const World& world, const std::string& field, AgentId id, bool playerOk = false);
// A radius or distance: finite and >= 0 (0: the default).
Problem checkRadius(const std::string& field, float v);
// A point a body of `radius` may stand on: finite, inside the bounds, clear of obstacles and walls,
// on the navmesh when the world has one (`onMesh`, when given, gets the mesh point).
Problem checkPlace(const World& world, const std::string& field, const Point& point, float radius,
                   nav::NavPoint* onMesh = nullptr);
// A goal's point for a live agent: a place, and on a navmesh reachable from where the agent stands.
Problem checkGoal(const World& world, const std::string& field, AgentId id, const Point& point);

// Lookups by name; -1: none.
std::int32_t pathIndexOf(const World& world, const std::string& name);
std::int32_t stateIndexOf(const brain::Brain& brain, const std::string& name);

// A live agent's archetype.
const Archetype& archetypeOf(const World& world, AgentId id);
// Whether some behaviour set of `a` has FETCH_STRAY with target FETCH_ORDER for `stray`.
bool actsOnOrdersFor(const Archetype& a, ArchetypeIndex stray);

}  // namespace steerd::control
