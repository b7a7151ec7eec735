// One-line builders of control commands (proto/control.proto's Command), for every C++ caller: a
// game that embeds steerd (server/control/control.h includes this header), steer-director, the
// viewer's operator panel and libsteerd-client (and through it the C# and Python bindings). Ids
// are plain numbers and names plain strings, so the library (steerd_control_commands) needs only
// steerd_proto and any client can link it. The protobuf setters work too.
//
// A command's `sequence` is left 0: over the wire the channel sets it, in-process it is the
// caller's to number.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "proto/control.pb.h"

namespace steerd::control {

// Agents.
Command spawnAt(const std::string& archetype, float x, float y, const std::vector<std::string>& tags = {});
Command despawnAgent(std::uint32_t agent);

// Goals (radius 0: the server's default; see control.proto).
Command moveTo(std::uint32_t agent, float x, float y, float radius = 0.0f, bool releaseOnArrival = false);
Command moveToWaypoint(std::uint32_t agent, const std::string& waypoint, float radius = 0.0f,
                       bool releaseOnArrival = false);
Command followPath(std::uint32_t agent, const std::string& path, bool releaseOnArrival = false);
Command followAgent(std::uint32_t agent, std::uint32_t target);
Command guardAgent(std::uint32_t agent, std::uint32_t target, float radius = 0.0f);
Command stopAgent(std::uint32_t agent);
Command releaseAgent(std::uint32_t agent);

// Brains, signals and fetch orders.
Command setBrainState(std::uint32_t agent, const std::string& state);
Command setStat(std::uint32_t agent, const std::string& stat, float value);
Command raiseSignal(std::uint32_t agent, const std::string& name, bool raised = true);
Command orderFetch(std::uint32_t agent, std::uint32_t stray, const std::string& group = {});

// Queries and subscriptions.
Command queryAgent(std::uint32_t agent);
// Empty lists: every kind, every archetype (the subscribe is still there: it is what says "hear").
Command subscribeTo(const std::vector<EventKind>& kinds = {},
                    const std::vector<std::string>& archetypes = {});

// Doors, areas and obstacles (the world's geometry while it runs).
Command setDoor(const std::string& door, bool open);
Command setArea(const std::string& area, bool disabled, float cost = 0.0f);
// carve: cut out of the navmesh (a barricade: paths go round it).
Command addCircleObstacle(float x, float y, float radius, bool carve = false);
Command addBoxObstacle(float x, float y, float halfX, float halfY, float angleDeg = 0.0f, bool carve = false);
// A polygon: `corners` (x, y) relative to (x, y), either winding.
Command addPolygonObstacle(float x, float y, const std::vector<std::pair<float, float>>& corners,
                           float angleDeg = 0.0f, bool carve = false);
Command moveObstacle(std::uint32_t obstacle, float x, float y, float angleDeg = 0.0f);
Command removeObstacle(std::uint32_t obstacle);

}  // namespace steerd::control
