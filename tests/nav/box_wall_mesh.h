// A navmesh shared by tests that need an agent to walk round something: a 200 x 200 m field with a
// wall of a box from (110, 60) to (112, 140), so a path from (100, 100) to (150, 100) turns an end.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "nav/navmesh.h"

namespace steerd::nav::testing {

inline std::shared_ptr<NavMesh> boxWallMesh() {
  NavInput in;
  in.boundsMin = {0, 0};
  in.boundsMax = {200, 200};
  in.blocking.push_back({{110, 60}, {112, 60}, {112, 140}, {110, 140}});
  in.settings.cellSize = 0.5f;
  in.settings.tileSize = 256.0f;
  const NavBuildResult built = buildNavMeshTiles(in);
  if (!built.error.empty()) throw std::runtime_error(built.error);
  std::string error;
  std::shared_ptr<NavMesh> mesh = NavMesh::fromTiles(built.tiles, {}, error);
  if (!mesh) throw std::runtime_error(error);
  return mesh;
}

}  // namespace steerd::nav::testing
