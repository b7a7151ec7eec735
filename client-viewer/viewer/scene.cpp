#include "viewer/scene.h"

#include <algorithm>

#include "viewer/palette.h"

namespace steerd::viewer {

std::string Scene::archetypeName(std::uint32_t archetype) const {
  if (server != nullptr && archetype < server->archetypes.size()) return server->archetypes[archetype];
  std::string name = "#";  // appended, not "#" + ...: GCC 12 warns falsely on that (-Wrestrict)
  name += std::to_string(archetype);
  return name;
}

bool Scene::isPlayer(const client::EntityView& e) const {
  if (server != nullptr && e.id == server->playerEntity) return true;
  return server != nullptr && e.archetype < server->archetypes.size() &&
         palette::isPlayerArchetype(server->archetypes[e.archetype]);
}

const wire::DebugInfo* Scene::selectedDebug() const {
  if (debug == nullptr || !selected || debug->agent_id() != *selected || !debug->found()) return nullptr;
  return debug;
}

std::optional<std::size_t> Scene::find(std::uint32_t id) const {
  const auto& v = sample.entities;
  auto it = std::lower_bound(v.begin(), v.end(), id,
                             [](const client::EntityView& e, std::uint32_t i) { return e.id < i; });
  if (it == v.end() || it->id != id) return std::nullopt;
  return static_cast<std::size_t>(it - v.begin());
}

}  // namespace steerd::viewer
