// `--agents K` for a scenario file: the file's world is repeated side by side, in a square grid of
// copies ("tiles"), until it holds about K agents. Each copy gets its own obstacles, walls, boxes,
// waypoints, paths, navmesh areas and spawn groups; archetypes and brains are shared. This is how
// a load test gets a big world with the same density and the same things to look at.
#pragma once

#include <cstdint>

#include "proto/scenario.pb.h"
#include "scenario/scenario_check.h"

namespace steerd {

// How many copies hold about `wantAgents` agents, given the file's own count (at least 1).
std::uint32_t tilesFor(std::uint64_t wantAgents, std::uint64_t fileAgents);

// Whether every copy can walk its own routes and keep its own groups: a behaviour that names a
// waypoint or a path directly would send every copy's agents to the first copy's, and group
// targets, strays and fetch orders go by archetype (one leader and one centroid for all the
// copies), so such files are refused (with the field).
void checkTileable(const scenario::Scenario& s, scenario_check::Checker& c);

// Repeats a valid, tileable scenario `tiles` times (columns first). Names of waypoints, paths and
// areas in copy k > 0 get the suffix "#k", and spawn groups follow their copy's path.
void tileScenario(scenario::Scenario& s, std::uint32_t tiles);

}  // namespace steerd
