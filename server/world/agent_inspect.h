// One agent's steering on the last tick, taken apart for a person (the viewer's inspector): each
// behaviour of its active set with the force it produced, and what the combiner made of them.
//
// The tick does not keep per-behaviour forces (it would cost every agent memory and time for the
// one a person looks at). inspectAgent re-evaluates that one agent instead, against exactly what
// the last step() read (World::lastStepContext: state[n], its grid, groups, navigation) and with
// the same random stream, so the numbers are the tick's own. It reads the world and changes
// nothing; call it between ticks.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "steering/vec2.h"
#include "world/archetype.h"
#include "world/world.h"

namespace steerd {

struct BehaviourInspection {
  BehaviourSpec spec;      // kind, weight, priority and what it is about
  steer::Vec2 force;       // the behaviour's own output, before its weight
  bool evaluated = false;  // false: the combiner stopped before it (budget spent, higher priority won)
};

struct AgentInspection {
  bool found = false;                           // the agent was in the state the last step() read
  bool external = false;                        // a player's body: no behaviours ran
  std::uint64_t tick = 0;                       // the tick that step() computed
  steer::Vec2 position, velocity, heading;      // state[n], as the behaviours saw it
  std::vector<BehaviourInspection> behaviours;  // the active set, in priority order
  steer::Vec2 combined;                         // what the combiner returned
  float detectionBoxLength = 0.0f;              // obstacle avoidance's box at that speed, m
  std::array<steer::Vec2, 3> feelers{};         // wall feeler tips, world (ahead, left, right)

  // Navmesh navigation (a NAVIGATE behaviour in the active set, a world with a navmesh): its
  // NavAgent as the last tick steered by it.
  bool navigating = false;
  std::vector<steer::Vec2> corridor;  // the corners, after the corridor's start
  std::size_t corridorCorner = 0;     // the one it steers to
  bool navHasGoal = false;
  steer::Vec2 navGoal;
  bool navWaiting = false;  // a path request is queued

  // Context steering (a CONTEXT_SEEK_WAYPOINTS behaviour in the active set): the interest and
  // danger maps it built on the last tick (slot i along angle 2 pi i / slots), and the chosen slot
  // (-1: none). Empty maps: no path to follow.
  bool context = false;
  std::vector<float> contextInterest, contextDanger;
  int contextSlot = -1;
};

// Re-evaluates agent `id` as the last step() did. found is false before the first step, for an
// unknown id, and for an agent spawned since.
AgentInspection inspectAgent(const World& world, AgentId id);

// The scenario files' names for behaviours and combiners, lower case ("wall_avoidance").
const char* behaviourKindName(BehaviourKind kind);
const char* combinerKindName(CombinerKind kind);

}  // namespace steerd
