// Tiled maps (orthogonal; .tmx XML or .tmj JSON; external .tsx / .tsj tilesets) as scenario parts.
//
// A 2-D team draws its level in Tiled; this reads it into what a scenario file would have said:
//   - bounds: the map's size, (0, 0) to (width, height) x metresPerTile;
//   - tile layers (CSV, XML <tile>, JSON arrays, base64 plain / zlib / gzip / zstd): a cell blocks
//     when its tile (gid, flip flags masked off) has a `blocking` bool property set true, or
//     collision shapes (an objectgroup with at least one object), or the class (type) blocking /
//     obstacle / wall; or when the layer, or a group around it, has `blocking` true (then every
//     non-empty cell blocks). Blocked cells become boxes: runs per row, a run repeated (same ends)
//     by the rows below merged into one rectangle, so a wall of tiles is one box. Every layer is
//     read, visible or not; layer offsets are ignored (a warning);
//   - object layers, by the object's class (Tiled 1.9+) or type (older), case-insensitive:
//       blocking / obstacle / wall: a rectangle (or tile object) is a box (turned by its rotation:
//         Tiled turns clockwise around the top-left, a tile object's bottom-left; the box's
//         angle_deg is -rotation); a circle an obstacle; any other ellipse a 16-gon just around
//         it, and a convex polygon, into navmesh.blocking (so parts.has_navmesh() is true only
//         then); a concave polygon is an error ("split it into convex pieces"); a polyline
//         two-sided wall segments; a point an error;
//       region (rectangle, ellipse as a 16-gon, polygon): a region named by the object's name, or
//         region_<id>;
//       path (polyline; a polygon loops by default): waypoints NAME_0, NAME_1, ... and a path NAME
//         (or path_<id>), looped if `looped` is true;
//       waypoint (a point; a shape: its middle), or a point with a name and no class: a waypoint
//         (its name, or waypoint_<id>);
//       spawn: a spawn group, properties `archetype` (string, required), `count` (int, 1 to 1e6,
//         default 1), `speed` (number, m/s, default 0), `path` (string); its box is the point
//         +- 1 m, or the shape's bounding box, clamped to the bounds;
//       a tile object without a class blocks (a box) when its tile blocks; text objects, objects
//       made from templates (a warning) and other objects without a class are ignored (one
//       warning counts them); any other class: a warning, ignored.
// Names (waypoints, paths, regions) must be unique within the map. Pixels become metres by
// `metresPerTile` (default: one tile is one metre): x / tilewidth, y / tileheight. Tiled's y axis
// points down; the world's y is flipped (world y = map height in metres - y), so the map reads the
// same way up as in the editor.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "proto/scenario.pb.h"

namespace steerd::level {

struct TiledImportOptions {
  float metresPerTile = 1.0f;
  // Limits a hostile file cannot pass.
  std::size_t maxFileBytes = std::size_t{64} << 20;
  std::size_t maxTiles = 16'000'000;  // width x height of the map, summed over every tile layer
  std::size_t maxInflatedBytes = std::size_t{256} << 20;  // a layer's data after zlib/gzip/zstd
  // (it must inflate to exactly width x height x 4 bytes in any case; a byte more stops it)
  int maxTilesetDepth = 4;           // tileset files in a chain (a .tsx naming another .tsx)
  std::size_t maxObjects = 200'000;  // objects read; and, apart, boxes made from tiles
};

struct TiledLoad {
  scenario::Scenario parts;  // bounds, boxes, obstacles, walls, waypoints, paths, regions, spawns,
                             // navmesh.blocking polygons: merged into the scenario that names the map
  std::vector<std::string> warnings;
  std::string error;  // empty on success; otherwise names the file (and layer, object) and what is wrong
};

// By extension: .tmx XML, .tmj/.json JSON. External tilesets (.tsx, .tsj, told apart by their first
// character) are read relative to the map's directory: never an absolute path or "..", each file
// once, all of them together at most maxFileBytes.
TiledLoad loadTiledFile(const std::string& path, const TiledImportOptions& options);
// The same for text in memory; external tilesets are looked up under `baseDir` (none when empty).
TiledLoad loadTiledText(std::string_view text, bool xml, const std::string& displayName,
                        const std::string& baseDir, const TiledImportOptions& options);

}  // namespace steerd::level
