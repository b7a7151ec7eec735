// A checked scenario file turned into what the world runs: archetypes with their behaviour specs,
// and the World itself (geometry, paths, navmesh, spawned agents). Every name and number reaching
// here was checked (scenario_validate.h); an enum number the check let through throws.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "nav/navmesh.h"
#include "proto/scenario.pb.h"
#include "world/archetype.h"
#include "world/scenarios.h"
#include "world/world.h"

namespace steerd {

// Names the file uses, resolved to what the world uses.
struct Names {
  std::map<std::string, steer::Vec2> waypoints;
  std::map<std::string, std::int32_t> paths, archetypes, doors;
};
Names namesOf(const scenario::Scenario& s);

// One behaviour (in an archetype or a brain state).
BehaviourSpec specOf(const scenario::Behaviour& beh, const Names& names);
// The file's archetypes, in its order, with their behaviours (not yet their brains: attachBrains).
std::vector<Archetype> archetypesOf(const scenario::Scenario& s, const Names& names);

// A scenario's built navmesh (none: all empty), what it was built from, and a mesh level's
// walkable outline (more walls).
struct NavBuilt {
  std::shared_ptr<nav::NavMesh> mesh;
  std::shared_ptr<const nav::NavInput> input;
  std::vector<nav::NavMesh::Edge> outline;
};

// The world: `spreadGroups` the spawn groups spread over a level (they keep to its largest ground).
std::unique_ptr<World> buildWorld(const scenario::Scenario& s, const Names& names,
                                  std::vector<Archetype> archetypes, const ScenarioOptions& options,
                                  NavBuilt nav, const std::vector<int>& spreadGroups);

}  // namespace steerd
