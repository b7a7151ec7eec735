// The world's static geometry as the wire's scene (proto/scene_codec.h): what clients draw.
#pragma once

#include "proto/scene_codec.h"
#include "world/static_geometry.h"

namespace steerd::net {

// Obstacles, walls (from, to: the wire's walls face left, as steer::makeWall builds them), paths
// and navmesh polygons, in the world's order.
wire::SceneGeometry wireSceneOf(const StaticGeometry& geometry);

}  // namespace steerd::net
