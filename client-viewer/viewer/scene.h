// What one frame shows: the server's description, the static scene, the interpolated entities
// with their velocity estimates, the newest raw snapshot, the local avatar and the selection. Filled by the
// app loop, read by the renderers and panels.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "client/client.h"
#include "viewer/bot.h"
#include "viewer/entity_motion.h"
#include "viewer/geometry.h"
#include "viewer/state_colours.h"

namespace steerd::viewer {

struct Scene {
  const client::ServerInfo* server = nullptr;  // null until connected
  // The scene as the client has it now: the static scene's parts received so far, with the
  // changes heard of (shut doors' and live boxes' walls, live circles, doors' states) on top.
  const wire::SceneGeometry* geometry = nullptr;
  const wire::SceneLive* live = nullptr;  // the changes alone (live obstacles, to fill boxes)
  WorldRect bounds;
  client::Sample sample;                         // interpolated entities, sorted by id
  std::vector<EntityMotion> motion;              // parallel to sample.entities
  const wire::SnapshotRecord* newest = nullptr;  // the raw newest complete snapshot
  std::optional<Motion> avatar;                  // the local player, once connected
  std::optional<std::uint32_t> selected;
  const wire::DebugInfo* debug = nullptr;   // the server's debug stream about the selection, if any
  std::optional<std::uint32_t> hovered;     // the entity under the pointer (the hover label's)
  const wire::DebugHover* hover = nullptr;  // the debug stream's hover part about it, if any
  const StateColours* states = nullptr;     // the states overlay: colours by brain state, if on

  bool connected() const { return server != nullptr; }
  std::uint32_t playerEntity() const { return server != nullptr ? server->playerEntity : 0; }
  // The archetype's name, or "#N" when the server did not name it.
  std::string archetypeName(std::uint32_t archetype) const;
  bool isPlayer(const client::EntityView& e) const;
  // Index into sample.entities of entity `id`, if it is in the sample.
  std::optional<std::size_t> find(std::uint32_t id) const;
  // The debug stream's description of the selected agent, when it is about that agent and found.
  const wire::DebugInfo* selectedDebug() const;
};

}  // namespace steerd::viewer
