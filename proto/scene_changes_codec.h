// The scene's changes on the wire (docs/PROTOCOL.md, "Scene changes"): doors opened and shut,
// obstacles added, moved and removed while the server runs. The static scene (scene_codec.h) is
// version 0; every tick on which something changed is one version more, and each snapshot says
// which version its tick had. A client holding another version asks for what changed since its
// own (SceneChangesRequest) and gets it in pages that each fit a datagram:
//
// - the server keeps, per live obstacle, the version it last changed at, and the ids removed with
//   the version of each removal (the newest kMaxRemovalsKept); a page lists only what changed
//   after the client's version, so a cart moving through a static crowd costs its own bytes only;
// - a client whose version the server cannot answer from that (0, ahead of it, or older than the
//   oldest removal it still remembers) gets the whole set instead (`whole`);
// - doors (a few dozen at most) are sent whole in every page.
//
// Both ends use this file: the server's simulation thread records (recordScene), its network
// thread pages (encodeSceneChanges), clients check and apply each page (applySceneChanges).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "proto/scene_codec.h"
#include "proto/wire.pb.h"

namespace steerd::wire {

// SceneChanges.obstacle_flags bits.
inline constexpr std::uint32_t kObstacleBox = 1;      // a box (neither: a circle)
inline constexpr std::uint32_t kObstacleCarves = 2;   // cut out of the navmesh (a barricade)
inline constexpr std::uint32_t kObstacleMoves = 4;    // moves along a path (a cart)
inline constexpr std::uint32_t kObstaclePolygon = 8;  // a polygon
inline constexpr std::uint32_t kObstacleFlagsKnown = 15;
// A polygon's corners at most (as the server takes them).
inline constexpr std::size_t kMaxObstaclePolygonPoints = 64;

// An obstacle added at run time, as clients hold it: quantised like the static scene (1/64 m; a
// box's or polygon's angle to 1/65536 turn), so the server's record and every client's copy are
// equal.
struct SceneObstacle {
  std::uint32_t id = 0;
  std::uint32_t flags = 0;
  ScenePoint centre;
  float radius = 0.0f;             // a circle's
  ScenePoint halfSize;             // a box's
  float angle = 0.0f;              // a box's or polygon's, radians counter-clockwise from +x, in [0, 2 pi)
  std::vector<ScenePoint> points;  // a polygon's corners relative to centre, before the turn, CCW
  bool box() const { return (flags & kObstacleBox) != 0; }
  bool polygon() const { return (flags & kObstaclePolygon) != 0; }
  bool operator==(const SceneObstacle&) const = default;
};

// The obstacle as the wire carries it (quantised both ways); `angleDeg` any finite degrees;
// `points` a polygon's (flags with kObstaclePolygon), at most kMaxObstaclePolygonPoints kept.
SceneObstacle quantizedObstacle(std::uint32_t id, std::uint32_t flags, ScenePoint centre, float radius,
                                ScenePoint halfSize, float angleDeg,
                                const std::vector<ScenePoint>& points = {});
// A box's corners, counter-clockwise.
std::vector<ScenePoint> boxCorners(const SceneObstacle& box);
// A box's or polygon's outline in the world, counter-clockwise (empty for a circle).
std::vector<ScenePoint> obstacleOutline(const SceneObstacle& o);

// What the server remembers of the scene's changes. Built by recordScene on the simulation thread
// and handed, whole and immutable, to the network thread.
struct SceneChangeLog {
  std::uint32_t version = 0;
  std::vector<bool> doorOpen;  // every door, in the static scene's order
  struct Entry {
    SceneObstacle obstacle;
    std::uint32_t changed = 0;  // the version it was added or last changed (moved) at
  };
  std::vector<Entry> obstacles;  // live, ascending by id
  struct Removal {
    std::uint32_t id = 0;
    std::uint32_t version = 0;
  };
  std::vector<Removal> removed;  // ascending by id
  std::uint32_t forgotten = 0;   // removals at versions up to this one are no longer listed
};
// Removals remembered; older ones are forgotten half at a time (a client that far behind gets the
// whole set).
inline constexpr std::size_t kMaxRemovalsKept = 4096;

// Notes the scene as it is at `version`: each obstacle that is new or differs from the log's gets
// `version` as its changed mark; each that is gone becomes a removal. `obstacles` ascending by id.
void recordScene(SceneChangeLog& log, std::uint32_t version, std::vector<bool> doorOpen,
                 const std::vector<SceneObstacle>& obstacles);

// One page of what changed after `have`, for obstacles with ids above `afterObstacle`, of at most
// `maxBytes` serialized (kMaxScenePartBytes fits a datagram).
SceneChanges encodeSceneChanges(const SceneChangeLog& log, std::uint32_t have, std::uint32_t afterObstacle,
                                std::size_t maxBytes);

// A client's copy of the changes: doors now, and the live obstacles ascending by id.
struct SceneLive {
  std::vector<bool> doorOpen;  // empty: none heard yet (the static scene's starting states hold)
  std::vector<SceneObstacle> obstacles;
  bool operator==(const SceneLive&) const = default;
};
// Obstacles a client holds at most (a page that would pass it is refused).
inline constexpr std::size_t kMaxSceneObstacles = 65536;

// Checks one page and applies it to `held`. Returns why it was refused (counts that disagree, ids
// out of order or outside the page's range, values out of range), leaving `held` as it was.
std::string applySceneChanges(const SceneChanges& page, SceneLive& held);

// The scene to collide with and draw as it is now: the static scene's circles and walls, each
// live circle, each live box's four walls and polygon's outline, and the four walls of every shut door
// (outward, as a box's) but those of no thickness (doors on navmesh links, which wall nothing).
// `live.doorOpen` overrides the doors' starting states where it has them.
SceneGeometry currentScene(const SceneGeometry& base, const SceneLive& live);

}  // namespace steerd::wire
