// What a scenario file's behaviour of each kind needs, read from the behaviour table
// (world/behaviour_table.h): the fields a kind's row reads decide what the check requires of it and
// what the builder converts, so a kind appended to the table that reads fields which exist already
// needs nothing here. A kind's own meaning of a field (FLEE's panic distance, NAVIGATE's goals) is
// named where that field is used; the few facts the table does not hold (which kinds have a
// kinematic form, which look for something within range at any target) are lists here whose
// default refuses or checks more, never less.
#pragma once

#include <cstdint>
#include <string>

#include "proto/scenario.pb.h"
#include "world/behaviour_table.h"

namespace steerd::behaviour_rules {

namespace pb = steerd::scenario;

// The table's row for a file's kind (null for BEHAVIOUR_UNSPECIFIED).
const BehaviourRow* rowOf(pb::BehaviourKind k);
// Whether the kind's row reads every field in `fields` (BehaviourField bits).
bool reads(pb::BehaviourKind k, std::uint32_t fields);

// SEEK, FLEE, ARRIVE, FACE: a waypoint, or the nearest agent of target_archetype.
bool pointOrAgent(pb::BehaviourKind k);
// Aims at an agent of target_archetype (or its group): it reads one and is not given a waypoint
// instead.
bool needsTarget(const pb::Behaviour& b);
// Reads target_archetype but no `target`: it takes the whole group (DRIVE_GROUP).
bool takesWholeGroup(pb::BehaviourKind k);
// Rides round a group at stand_off (FETCH_STRAY, DRIVE_GROUP): second_archetype, the home group,
// may be left out (the target's own group).
bool herds(pb::BehaviourKind k);
// Reads second_archetype and must name it (INTERPOSE_NEAREST).
bool needsSecondArchetype(pb::BehaviourKind k);
// Reads a path and no waypoint: it follows that path, or when empty the spawn group's
// (FOLLOW_PATH, CONTEXT_SEEK_WAYPOINTS).
bool followsPath(pb::BehaviourKind k);
// Reads a waypoint and nothing else to go to: the waypoint must be named (ARRIVE_AT, DRIVE_GROUP).
bool needsWaypoint(pb::BehaviourKind k);
// Reads both a waypoint and a path: goes to either, or neither (NAVIGATE: random points).
bool goesToWaypointOrPath(pb::BehaviourKind k);
// Reads range, with no target and no waypoint: range is how far round itself it looks, so 0 is
// blind (COLLISION_AVOIDANCE).
bool looksAroundItself(pb::BehaviourKind k);
// Looks for something within range whatever its target (hiding spots, interpose's second agent),
// so range must be > 0 even for a leader or a centroid. Not in the table: a kind appended without
// being listed is only checked >= 0 there.
bool searchesWithinRange(pb::BehaviourKind k);
// Has Millington's kinematic form (world/agent_eval.h: AgentEval::kinematic and kWander). Not in
// the table: a kind appended without being listed is refused on a KINEMATIC archetype.
bool hasKinematicForm(pb::BehaviourKind k);

// For error texts, from the same predicates: "SEEK, FLEE, ARRIVE and WANDER".
std::string kindsWithKinematicForm();
// "PURSUE_NEAREST, ..., FETCH_STRAY, ..., and SEEK, FLEE, ... or FACE without a waypoint".
std::string kindsWithTargetAgent();

}  // namespace steerd::behaviour_rules
