// The static scene (obstacles, walls, paths, navmesh polygons) on the wire, shared by the server
// (encode, once at start) and the clients (decode, part by part as they arrive).
//
// The scene is cut into parts that each fit one datagram and decode on their own: a client that
// has lost one part asks for it again (SceneRequest) and draws the others meanwhile. Coordinates
// are quantised to 1/64 m like snapshots, so what a client draws is within 8 mm of the server.
// docs/PROTOCOL.md, "Static scene", has the layout.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "proto/packet.h"
#include "proto/wire.pb.h"

namespace steerd::wire {

struct ScenePoint {
  float x = 0.0f, y = 0.0f;  // m
  bool operator==(const ScenePoint&) const = default;
};

struct SceneCircle {
  ScenePoint centre;
  float radius = 0.0f;
  bool operator==(const SceneCircle&) const = default;
};

// A one-sided wall: bodies belong on the left of from -> to (steer::makeWall's normal).
struct SceneSegment {
  ScenePoint from, to;
  bool operator==(const SceneSegment&) const = default;
};

struct ScenePolyline {
  std::vector<ScenePoint> points;
  bool looped = false;  // a segment joins the last point back to the first
  bool operator==(const ScenePolyline&) const = default;
};

// A door declared by the scenario: across the opening from jamb to jamb, `thickness` deep; or, with
// thickness 0, a door on a navmesh link (a ladder, a drawbridge) from its one end to the other,
// which walls nothing. Its state while the server runs comes in SceneChanges
// (proto/scene_changes_codec.h).
struct SceneDoor {
  ScenePoint from, to;
  float thickness = 0.0f;
  std::string name;  // at most kMaxDoorNameBytes (longer names are cut on the wire)
  bool open = true;  // at the start
  bool operator==(const SceneDoor&) const = default;
};
inline constexpr std::size_t kMaxDoorNameBytes = 64;

struct SceneGeometry {
  std::vector<SceneCircle> obstacles;
  std::vector<SceneSegment> walls;
  std::vector<ScenePolyline> paths;
  std::vector<std::vector<ScenePoint>> navPolygons;  // counter-clockwise
  std::vector<SceneDoor> doors;
  bool operator==(const SceneGeometry&) const = default;
  bool empty() const {
    return obstacles.empty() && walls.empty() && paths.empty() && navPolygons.empty() && doors.empty();
  }
};

// A door's rectangle (the opening, `thickness` deep), counter-clockwise: what a shut door blocks.
std::vector<ScenePoint> doorRectangle(const SceneDoor& door);

// The scene's parts, each at most `maxPartBytes` serialized (the Scene message alone; the Packet
// wrapper adds 3 bytes: kMaxScenePartBytes fits a datagram). Always at least one part (an empty
// scene is one empty part). A path too long for one part is sent as open pieces that share their
// end points (a looped one gains its closing point first), so drawing the pieces draws the path.
// A navmesh polygon too big for a part cannot be cut without changing it: it is left out and
// counted in `polygonsLeftOut` (the caller reports it).
inline constexpr std::size_t kMaxScenePartBytes = kMaxBodyBytes - 3;  // a Scene that fits a datagram

struct EncodedScene {
  std::vector<Scene> parts;
  std::size_t polygonsLeftOut = 0;
};
EncodedScene encodeScene(const SceneGeometry& geometry, std::size_t maxPartBytes);

// Decodes one part, appending its shapes to `out`. Returns an error message for a malformed part
// (lists of different lengths, counts that disagree, part index out of range), leaving `out` as
// it was.
std::string decodeScenePart(const Scene& part, SceneGeometry& out);

}  // namespace steerd::wire
