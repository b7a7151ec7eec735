// The world's static geometry as the wire's scene (proto/scene_codec.h): what clients draw.
#pragma once

#include <vector>

#include "proto/scene_changes_codec.h"
#include "proto/scene_codec.h"
#include "world/static_geometry.h"
#include "world/world.h"

namespace steerd::net {

// Obstacles, walls (from, to: the wire's walls face left, as steer::makeWall builds them), paths
// and navmesh polygons, in the world's order.
wire::SceneGeometry wireSceneOf(const StaticGeometry& geometry);
// The world's static scene: its scenario's own shapes (World::baseObstacles, baseWalls, whatever
// has changed since), paths, navmesh polygons and doors with their starting states.
wire::SceneGeometry wireSceneOf(const World& world);

// What changes on top of it (proto/scene_changes_codec.h): each door's state now, and the live
// obstacles, quantised, ascending by id.
std::vector<bool> doorStatesOf(const World& world);
std::vector<wire::SceneObstacle> sceneObstaclesOf(const World& world);

}  // namespace steerd::net
