// A scenario's doors and its schedule of changes (`doors { }`, `schedule { }`): checked, turned
// into the world's doors (world_changes.h) with their navmesh areas, and into changes by tick.
#pragma once

#include <vector>

#include "nav/navmesh.h"
#include "scenario/scenario_check.h"
#include "world/world_changes.h"

namespace steerd {

struct Names;
class World;

inline constexpr int kMaxDoors = 32;
inline constexpr int kMaxScheduled = 4096;

// Names, shapes, times; every door and obstacle a change names exists by then.
void validateChanges(const scenario::Scenario& s, scenario_check::Checker& c);
// Against the built mesh: every door covers some walkable ground (else it would cut no path).
void checkDoorsAgainstNavMesh(const scenario::Scenario& s, const nav::NavMesh& mesh,
                              scenario_check::Checker& c);

// The doors, with area ids after the navmesh's own areas (when the scenario has a navmesh).
std::vector<Door> doorsOf(const scenario::Scenario& s);
// Each door's rectangle as a navmesh area (cost 1), in door order: appended to NavInput::areas.
std::vector<nav::CostArea> doorAreasOf(const scenario::Scenario& s);
// Per navmesh link, the area of the door on it (0: none): a link door is opened and shut by its
// area's flags, as a rectangle door.
std::vector<std::uint8_t> linkAreasOf(const scenario::Scenario& s);
// The index of the navmesh link named `name` (-1: none).
int linkIndex(const scenario::Scenario& s, const std::string& name);
// The schedule by tick of `dt` s, names resolved (`names` for paths).
std::vector<ScheduledChange> scheduleOf(const scenario::Scenario& s, const Names& names, float dt);

}  // namespace steerd
