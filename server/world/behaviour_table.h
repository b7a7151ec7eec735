// Every behaviour kind in one table: its names (the scenario file's, the inspector's and debug
// stream's), which of a behaviour's fields it reads (what the scenario check requires, and warns
// about when given to a kind that ignores them), and its line of documentation. Parsing,
// validation, the inspector and the debug stream read the table, and so do the world's per-kind
// questions (its traits: which kinds turn, stay under a control goal, walk a path, herd a group);
// the steering pass evaluates each kind in AgentEval::run (agent_eval.h), a switch in the hot loop.
//
// Adding a kind: its enum value and row here (in the same order), its value in
// proto/scenario.proto's BehaviourKind (the same name as `fileName`), and its case in
// AgentEval::run. docs/ARCHITECTURE.md, "Adding a behaviour". A kind with no row fails to compile:
// the static_asserts at the end of this file (against this enum) and in
// scenario/scenario_behaviour_rules.cpp (against the proto's).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace steerd {

enum class BehaviourKind : std::uint8_t {
  kWander,
  kSeparation,
  kAlignment,
  kCohesion,
  kObstacleAvoidance,
  kWallAvoidance,
  kPursueNearest,
  kEvadeNearest,
  kHideFromNearest,
  kFollowPath,
  kArriveAt,
  kContextSeekWaypoints,
  kInterposeNearest,
  kOffsetPursuitNearest,
  kWhiskerAvoidance,
  kCollisionAvoidance,
  kFetchStray,
  kNavigate,
  kDriveGroup,
  kSeek,
  kFlee,
  kArrive,
  kVelocityMatch,
  kAlign,
  kFace,
  kLookWhereGoing,
};

// A behaviour's fields (proto/scenario.proto's Behaviour), as bits.
enum BehaviourField : std::uint32_t {
  kFieldTargetArchetype = 1u << 0,
  kFieldTarget = 1u << 1,  // NEAREST, GROUP_LEADER, GROUP_CENTROID, FETCH_ORDER
  kFieldRange = 1u << 2,
  kFieldPath = 1u << 3,
  kFieldWaypoint = 1u << 4,
  kFieldSecondArchetype = 1u << 5,
  kFieldOffset = 1u << 6,
  kFieldStandOff = 1u << 7,
  kFieldArrival = 1u << 8,       // deceleration, slow_radius, target_radius
  kFieldTimeToTarget = 1u << 9,  // time_to_target
  kFieldMaxPrediction = 1u << 10,
  kFieldRayLength = 1u << 11,
  kFieldTimeHorizon = 1u << 12,
  kFieldDangerTolerance = 1u << 13,
  kFieldContext = 1u << 14,  // context_chooser, context_danger
  kFieldLookAhead = 1u << 15,
  kFieldKeepTo = 1u << 16,
};

// What the world asks of a kind beyond its fields, as bits.
enum BehaviourTrait : std::uint32_t {
  kTraitTurns = 1u << 0,  // its output is angular: the archetype's facing is its own (Archetype::faces)
  kTraitKeptUnderGoal = 1u << 1,  // avoidance: it keeps running under a control goal (directive.h)
  kTraitWalksPath = 1u << 2,      // it advances the agent's path index (AgentMemory::pathIndex)
  kTraitHerds = 1u << 3,          // it asks the groups for a (member, home) pair (groups.h)
};

struct BehaviourRow {
  BehaviourKind kind;
  std::string_view fileName;  // scenario.proto's BehaviourKind value
  std::string_view name;      // the inspector's and the debug stream's
  std::uint32_t reads;        // BehaviourField bits
  std::string_view doc;
  std::uint32_t traits = 0;  // BehaviourTrait bits
  constexpr bool turns() const { return (traits & kTraitTurns) != 0; }
  constexpr bool has(BehaviourTrait t) const { return (traits & t) != 0; }
};

inline constexpr std::uint32_t kTargeted = kFieldTargetArchetype | kFieldTarget | kFieldRange;
// SEEK, FLEE and ARRIVE: a waypoint, or the nearest agent of target_archetype within range.
inline constexpr std::uint32_t kPointOrAgent = kFieldWaypoint | kTargeted;

inline constexpr std::array kBehaviourTable = {
    BehaviourRow{BehaviourKind::kWander, "WANDER", "wander", 0, "Reynolds' wander circle"},
    BehaviourRow{BehaviourKind::kSeparation, "SEPARATION", "separation", 0,
                 "away from neighbours, 1/distance weighted (flocking)", kTraitKeptUnderGoal},
    BehaviourRow{BehaviourKind::kAlignment, "ALIGNMENT", "alignment", 0,
                 "neighbours' mean heading (flocking)"},
    BehaviourRow{BehaviourKind::kCohesion, "COHESION", "cohesion", 0,
                 "seek the neighbours' centre (flocking)"},
    BehaviourRow{BehaviourKind::kObstacleAvoidance, "OBSTACLE_AVOIDANCE", "obstacle_avoidance", 0,
                 "detection box against circle obstacles", kTraitKeptUnderGoal},
    BehaviourRow{BehaviourKind::kWallAvoidance, "WALL_AVOIDANCE", "wall_avoidance", 0,
                 "feelers against walls", kTraitKeptUnderGoal},
    BehaviourRow{BehaviourKind::kPursueNearest, "PURSUE_NEAREST", "pursue_nearest",
                 kTargeted | kFieldMaxPrediction,
                 "pursue the nearest agent of target_archetype within range"},
    BehaviourRow{BehaviourKind::kEvadeNearest, "EVADE_NEAREST", "evade_nearest",
                 kTargeted | kFieldMaxPrediction, "evade it"},
    BehaviourRow{BehaviourKind::kHideFromNearest, "HIDE_FROM_NEAREST", "hide_from_nearest", kTargeted,
                 "hide behind obstacles from it; evade when there is nowhere to hide"},
    BehaviourRow{BehaviourKind::kFollowPath, "FOLLOW_PATH", "follow_path", kFieldPath | kFieldLookAhead,
                 "follow `path` (empty: the spawn group's), looped or open; look_ahead rounds the corners",
                 kTraitWalksPath},
    BehaviourRow{BehaviourKind::kArriveAt, "ARRIVE_AT", "arrive_at", kFieldWaypoint,
                 "arrive at `waypoint` (Buckland, normal deceleration)"},
    BehaviourRow{BehaviourKind::kContextSeekWaypoints, "CONTEXT_SEEK_WAYPOINTS", "context_seek_waypoints",
                 kFieldPath | kFieldDangerTolerance | kFieldContext,
                 "context steering: chase the path's current waypoint, avoid through the danger map",
                 kTraitWalksPath},
    BehaviourRow{BehaviourKind::kInterposeNearest, "INTERPOSE_NEAREST", "interpose_nearest",
                 kTargeted | kFieldSecondArchetype,
                 "between the nearest target_archetype and the nearest second_archetype"},
    BehaviourRow{BehaviourKind::kOffsetPursuitNearest, "OFFSET_PURSUIT_NEAREST", "offset_pursuit_nearest",
                 kTargeted | kFieldOffset,
                 "keep `offset` (leader-local: +x ahead, +y left) of the nearest one"},
    BehaviourRow{BehaviourKind::kWhiskerAvoidance, "WHISKER_AVOIDANCE", "whisker_avoidance", kFieldRayLength,
                 "ray and whiskers against walls and obstacles, corner-safe", kTraitKeptUnderGoal},
    BehaviourRow{BehaviourKind::kCollisionAvoidance, "COLLISION_AVOIDANCE", "collision_avoidance",
                 kFieldRange | kFieldTimeHorizon | kFieldKeepTo,
                 "closest time of approach against agents within range", kTraitKeptUnderGoal},
    BehaviourRow{BehaviourKind::kFetchStray, "FETCH_STRAY", "fetch_stray",
                 kTargeted | kFieldSecondArchetype | kFieldStandOff,
                 "herd back the member farthest from the centroid of second_archetype, once beyond range",
                 kTraitHerds},
    BehaviourRow{BehaviourKind::kNavigate, "NAVIGATE", "navigate", kFieldWaypoint | kFieldPath | kFieldRange,
                 "walk the navmesh to `waypoint`, along `path`, or to random points"},
    BehaviourRow{
        BehaviourKind::kDriveGroup, "DRIVE_GROUP", "drive_group",
        kFieldTargetArchetype | kFieldRange | kFieldWaypoint | kFieldSecondArchetype | kFieldStandOff,
        "drive the group of target_archetype to `waypoint` (a pen)", kTraitHerds},
    BehaviourRow{BehaviourKind::kSeek, "SEEK", "seek", kPointOrAgent,
                 "head for `waypoint` (or the nearest target_archetype within range) at full speed"},
    BehaviourRow{BehaviourKind::kFlee, "FLEE", "flee", kPointOrAgent,
                 "run from `waypoint` (or the nearest target_archetype), once within range (panic "
                 "distance; 0: always)"},
    BehaviourRow{BehaviourKind::kArrive, "ARRIVE", "arrive",
                 kPointOrAgent | kFieldArrival | kFieldTimeToTarget,
                 "arrive at `waypoint` (or the nearest target_archetype): Buckland's deceleration, or "
                 "Millington's radii when slow_radius is set"},
    BehaviourRow{BehaviourKind::kVelocityMatch, "VELOCITY_MATCH", "velocity_match",
                 kTargeted | kFieldTimeToTarget,
                 "match the velocity of the nearest target_archetype within range, over time_to_target"},
    BehaviourRow{BehaviourKind::kAlign, "ALIGN", "align", kTargeted | kFieldTimeToTarget,
                 "take the facing of the nearest target_archetype within range", kTraitTurns},
    BehaviourRow{BehaviourKind::kFace, "FACE", "face", kPointOrAgent | kFieldTimeToTarget,
                 "face `waypoint`, or the nearest target_archetype within range", kTraitTurns},
    BehaviourRow{BehaviourKind::kLookWhereGoing, "LOOK_WHERE_GOING", "look_where_going", kFieldTimeToTarget,
                 "face the direction of travel", kTraitTurns},
};

constexpr const BehaviourRow& behaviourRow(BehaviourKind kind) {
  return kBehaviourTable[static_cast<std::size_t>(kind)];
}
// The row whose scenario file name is `fileName`; null when none is.
constexpr const BehaviourRow* behaviourRowNamed(std::string_view fileName) {
  for (const BehaviourRow& row : kBehaviourTable) {
    if (row.fileName == fileName) return &row;
  }
  return nullptr;
}

namespace detail {
constexpr bool rowsInEnumOrder() {
  for (std::size_t i = 0; i < kBehaviourTable.size(); ++i) {
    if (static_cast<std::size_t>(kBehaviourTable[i].kind) != i) return false;
  }
  return true;
}
// Whether `V` is a value its enum names. C++ cannot list an enum's values, but GCC and Clang spell a
// template argument that no enumerator names as a cast, "(steerd::BehaviourKind)26", and a named
// one by its name (magic_enum's way; the static_assert below it checks that they still do).
template <auto V>
constexpr bool isNamedEnumerator() {
  const std::string_view signature = __PRETTY_FUNCTION__;
  const std::size_t at = signature.rfind("V = ");
  return at != std::string_view::npos && signature[at + 4] != '(';
}
static_assert(isNamedEnumerator<BehaviourKind::kWander>() &&
                  !isNamedEnumerator<static_cast<BehaviourKind>(255)>(),
              "this compiler spells enum template arguments in a way isNamedEnumerator does not know");
}  // namespace detail
static_assert(detail::rowsInEnumOrder(), "kBehaviourTable's rows must be in BehaviourKind order");
// Rows are in enum order from 0, so the table covers every kind when the value after its last row
// is no kind: a kind appended to the enum with no row fails here (scenario_behaviour_rules.cpp
// checks the table against scenario.proto's BehaviourKind too).
static_assert(!detail::isNamedEnumerator<static_cast<BehaviourKind>(kBehaviourTable.size())>(),
              "every BehaviourKind has a row in kBehaviourTable");

}  // namespace steerd
