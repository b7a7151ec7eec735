// What kind of NPC an agent is: its body limits and the behaviour set its steering runs.
//
// Behaviours are data (an enum plus parameters), not virtual objects: the steering pass switches
// on the kind inside one loop, so a data-driven set costs a predictable branch, not a virtual call
// and a heap object per agent.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "brain/brain.h"
#include "steering/body.h"
#include "steering/collision_avoidance.h"
#include "world/agent_columns.h"
#include "world/behaviour_table.h"

namespace steerd {

// BehaviourKind, and what each kind is and takes: world/behaviour_table.h.

// Where a NAVIGATE behaviour goes.
enum class NavGoal : std::uint8_t {
  kPoint,   // `point` (a waypoint), and stay there
  kPath,    // the waypoints of `pathIndex` in turn (-1: the agent's own path)
  kRandom,  // a random reachable point on the navmesh, a new one on arrival
};

// What a targeted behaviour (pursue, evade, hide from, interpose's first agent, offset pursuit,
// fetch stray) aims at.
enum class TargetKind : std::uint8_t {
  kNearest,        // the nearest agent of `targetArchetype` within `range` (fetch stray: the member
                   // farthest from home)
  kGroupLeader,    // the living agent of `targetArchetype` with the lowest id, at any range
  kGroupCentroid,  // the centroid of `targetArchetype`, moving at its mean velocity, at any range
  kFetchOrder,     // the agent of `targetArchetype` this one was ordered to fetch (a brain state's
                   // orders, brain_think.h); none: the behaviour gives no force
  kAgent,          // the agent `agent`, at any range (the control API's Follow and Guard goals)
};

enum class CombinerKind : std::uint8_t {
  kWeightedBlend,
  kPriority,
  kWeightedTruncatedRunningSum,  // Buckland's default
  kPrioritisedDithering,
  kPriorityGroups,  // Millington: equal priorities blended, the first group above epsilon wins
};

struct BehaviourSpec {
  BehaviourKind kind = BehaviourKind::kWander;
  float weight = 1.0f;
  int priority = 0;          // lower runs first
  float probability = 1.0f;  // prioritised dithering only
  // Parameters used by some kinds (unused ones are ignored).
  ArchetypeIndex targetArchetype = 0;
  ArchetypeIndex secondArchetype = 0;
  float range = 30.0f;         // m: how far a target may be
  std::int32_t pathIndex = 0;  // -1: the path each agent was given at spawn
  steer::Vec2 point;
  float standOff = 20.0f;  // m: fetch stray and drive group ride round this far out
  NavGoal navGoal = NavGoal::kRandom;
  TargetKind target = TargetKind::kNearest;
  AgentId agent = 0;     // target kAgent
  bool atPoint = false;  // SEEK, FLEE, ARRIVE: at `point` (a waypoint), not at an agent
  // ARRIVE: Buckland's deceleration (steer::arrive), or Millington's radii when slowRadius > 0
  // (steer::arriveMillington).
  float deceleration = 2.0f;  // steer::kDecelerationNormal
  float slowRadius = 0.0f;    // m
  float targetRadius = 0.1f;  // m
  float timeToTarget = 0.1f;  // s (ARRIVE with slowRadius, VELOCITY_MATCH)
  // Tuning (behaviour_table.h says which kind reads which).
  float maxPrediction = 0.0f;  // s, pursue and evade's lookahead cap; 0: none
  float rayLength = 3.0f;      // m, whisker avoidance's central ray
  float timeHorizon = 3.0f;    // s, collision avoidance
  steer::KeepTo keepTo =
      steer::KeepTo::kEither;     // collision avoidance: the side oncoming bodies are dodged to
  float dangerTolerance = 0.1f;   // context steering's first mask tolerance
  bool contextArgmax = false;     // context steering chooses argmax(interest - danger) (seed 001)
  bool contextDotDanger = false;  // ... and writes danger as STEERING.md's dot lobe, not discs
  float lookAhead = 0.0f;         // m, path following's look-ahead (path smoothing); 0: none
};

struct FlockParams {
  float radius = 4.0f;        // m: neighbourhood radius
  float fovDegrees = 270.0f;  // alignment and cohesion look only this wide; separation all round
};

struct WanderParams {
  float radius = 1.2f;    // circle radius, m
  float distance = 2.0f;  // circle centre ahead of the body, m
  float jitterPerSecond = 40.0f;
};

struct Archetype {
  std::string name;
  steer::BodyLimits limits;
  std::vector<BehaviourSpec> behaviours;  // kept sorted by priority
  CombinerKind combiner = CombinerKind::kWeightedTruncatedRunningSum;
  FlockParams flock;
  WanderParams wander;
  float obstacleMinDetectionLength = 4.0f;  // m
  float wallFeelerLength = 4.0f;            // m
  float hideDistanceFromBoundary = 1.5f;    // m
  float pathSeekDistance = 2.0f;            // m
  int contextSlots = 16;
  // Heading follows velocity through an exponential moving average: 1 = no smoothing. Smoothing
  // hides the judder of a body whose velocity direction flickers (STEERING.md section 1).
  float headingBlend = 0.5f;
  // Or, when > 0, Buckland's K-average: the mean of the last headingSamples velocity headings
  // (steer::HeadingSmoother, at most kMaxHeadingSamples), which holds a steady heading through a
  // velocity that flickers between two directions where the blend still wobbles.
  std::uint8_t headingSamples = 0;
  // Update level of detail (level_of_detail.h, when the world runs it): beyond lodDistances[0] m
  // from every player this archetype steers every 2nd tick, beyond [1] every 4th, beyond [2]
  // every 8th.
  float lodDistances[3] = {40.0f, 80.0f, 160.0f};
  // Agents of it are what level of detail measures distance from: bots, and (set by the world)
  // the player archetype.
  bool lodFocus = false;
  // m: neighbours are pushed apart this far before they touch (neighbour_scan.h); crowds that
  // walk through each other need about one tick's approach (2 x max speed x dt).
  float contactSkin = 0.0f;
  // m: a pursuer within this of its target counts as having caught it (the control API's caught
  // event); 0: never
  float catchDistance = 0.0f;
  // Action selection: null for an archetype whose behaviour set never changes. With a brain,
  // stateBehaviours[s] is the set that runs in state s (resolved from the state, its ancestors,
  // or `behaviours`), each kept sorted by priority.
  std::shared_ptr<const brain::Brain> brain;
  std::vector<std::vector<BehaviourSpec>> stateBehaviours;

  const std::vector<BehaviourSpec>& behavioursIn(std::uint8_t state) const {
    return brain && state < stateBehaviours.size() ? stateBehaviours[state] : behaviours;
  }
  // Some set of it turns the body (ALIGN, FACE, LOOK_WHERE_GOING): its facing is its own, turned
  // at its rotation (AgentMemory::rotation) by the combined angular output, never set from its
  // velocity. Worked out from the sets (facesByItself).
  bool faces = false;
  // Millington's kinematic movement (STEERING.md section 2): SEEK, FLEE, ARRIVE and WANDER give the
  // velocity itself, combined by the combiner up to max speed; the body faces its velocity, or
  // turns by wander's rotation. Never faces by itself.
  bool kinematic = false;
};

// Whether any of the archetype's sets holds a kind that turns the body.
inline bool facesByItself(const Archetype& a) {
  const auto turns = [](const std::vector<BehaviourSpec>& set) {
    for (const BehaviourSpec& b : set) {
      if (behaviourRow(b.kind).turns()) return true;
    }
    return false;
  };
  bool any = turns(a.behaviours);
  for (const auto& set : a.stateBehaviours) any = any || turns(set);
  return any;
}

// Connected players are bodies of the archetype with this name. A world whose scenario does not
// define it gets playerArchetype() appended, so behaviours can always name "player" as a target.
inline constexpr const char* kPlayerArchetypeName = "player";
// The most headings an archetype's K-average smoothing may average (Archetype::headingSamples).
inline constexpr std::uint8_t kMaxHeadingSamples = 10;

// A player's body: no behaviours (the client moves it), limits that bound what an input may do.
inline Archetype playerArchetype() {
  Archetype a;
  a.name = kPlayerArchetypeName;
  a.limits = {0.5f, 1.0f, 8.0f, 40.0f, 4.0f * steer::kPi};
  a.flock = {2.0f, 360.0f};
  return a;
}

}  // namespace steerd
