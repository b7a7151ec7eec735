// The navigation part of a scenario file: boxes, the navmesh block and NAVIGATE goals.
//
// Boxes and blocking polygons stop bodies (as outward walls) and the navmesh alike. The navmesh is
// built at load, or read from the cache when the same geometry was built before. Once it exists,
// the file is checked against it: every spawn box must hold walkable ground, and every waypoint a
// NAVIGATE behaviour walks to must be on the mesh and reachable from its archetype's spawns.
#pragma once

#include <memory>
#include <string>

#include "nav/navmesh.h"
#include "scenario/scenario_check.h"
#include "world/static_geometry.h"

namespace steerd {

// Checks that need no mesh: box sizes, navmesh settings and polygons, NAVIGATE without a navmesh.
void validateNavigation(const scenario::Scenario& s, scenario_check::Checker& c);

// Adds boxes and navmesh.blocking polygons to `g` as walls facing out.
void addBlockingWalls(const scenario::Scenario& s, StaticGeometry& g);

// `levelMesh`: the triangles of the scenario's level { } when it is a mesh (scenario_level.h).
nav::NavInput navInputOf(const scenario::Scenario& s, const nav::TriangleMesh* levelMesh = nullptr);

struct NavLoad {
  std::shared_ptr<nav::NavMesh> mesh;
  // What it was built from: the world rebuilds tiles from it when an obstacle carves.
  std::shared_ptr<const nav::NavInput> input;
  std::string error;  // empty on success
  std::string note;   // "built in 120 ms (16 tiles, 3,512 polygons)" or "from cache FILE"
  // What the operator has to fix for the cache to be used (its key file open to others): the
  // mesh is built and not stored.
  std::string warning;
  // A mesh level's walkable outline (the same ground, not shrunk by the agent radius): the walls
  // bodies keep within, ground on each edge's left.
  std::vector<nav::NavMesh::Edge> outline;
};

// Builds (or loads from `cacheDir`, and stores there) the scenario's navmesh. With a level mesh,
// also its outline, and an error when two floors lie one over the other.
NavLoad loadNavMesh(const scenario::Scenario& s, const std::string& cacheDir,
                    const nav::TriangleMesh* levelMesh = nullptr);

// Spawn boxes on walkable ground; NAVIGATE goals on the mesh and reachable from the spawns.
void checkAgainstNavMesh(const scenario::Scenario& s, const nav::NavMesh& mesh, scenario_check::Checker& c);

}  // namespace steerd
