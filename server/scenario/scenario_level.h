// A scenario's level { } block: a game's own level file read into the scenario (docs/LEVELS.md).
//
// A Tiled map becomes scenario parts (boxes, walls, waypoints, paths, regions, spawns) merged into
// the file; a mesh (OBJ, glTF) becomes the navmesh's ground, and the navmesh's outline the walls
// bodies keep within. Also the scenario `steerd --level FILE` runs.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "nav/nav_input.h"
#include "proto/scenario.pb.h"

namespace steerd {

enum class LevelKind { kNone, kObj, kGltf, kGlb, kTiledXml, kTiledJson };

// By extension (case-insensitive): .obj, .gltf, .glb, .tmx, .tmj (and .json for Tiled).
LevelKind levelKindOf(const std::string& path);

struct LevelData {
  std::shared_ptr<const nav::TriangleMesh> mesh;  // meshes only
  std::vector<std::string> warnings;
  std::string note;  // "level room.obj: 1,204 triangles (1,100 walkable)"
  // Spawn groups given no box, spread over the whole level: they stand on its largest connected
  // ground only (not in a room with no door, nor on a roof).
  std::vector<int> spreadGroups;
};

// Reads s.level (its path relative to `baseDir`, unless absolute) and folds it into `s`: a
// Tiled map's parts are appended; a mesh is returned in `out` and its extent becomes the bounds
// when `s` has none. Either way a navmesh { } block is added when missing, and a spawn group with
// neither min nor max spreads over the bounds. Errors name the level file.
bool applyLevel(scenario::Scenario& s, const std::string& baseDir, LevelData& out,
                std::vector<std::string>& errors);

// What steerd --level takes for what a file cannot say.
struct LevelRunOptions {
  std::size_t agents = 200;
  float scale = 0.0f;  // 0: the file's own units
  std::string upAxis;  // "", "y" or "z"
  std::string walkable, blocking;
  float metresPerTile = 0.0f;
};

// The scenario `steerd --level FILE` runs: the level, `agents` walkers (radius 0.5 m,
// the crowd-crossing walker, 3.5 m/s) going from random points to random goals across it, and the
// navmesh and contact settings crowd-crossing uses.
scenario::Scenario levelScenario(const std::string& path, const LevelRunOptions& options);

}  // namespace steerd
