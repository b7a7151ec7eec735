// Each agent's height on a level with heights (a sloped navmesh): the ground under it, for the
// snapshots clients render from and the inspector. Nothing on a flat world.
//
// Heights are an output only: nothing in the tick reads them, so they are outside the state hash.
// Each agent keeps the polygon it stood on, and most updates are one check that it still does.
#pragma once

#include <cstdint>
#include <vector>

#include <DetourNavMesh.h>

#include "world/world.h"

namespace steerd {

class AgentHeights {
 public:
  // For every live agent, by id (in parallel on the world's threads); a flat world's ends at once.
  void update(const World& world);
  // Whether the last update's world had heights.
  bool active() const { return active_; }
  // The agent's height in m (0 when unknown, or on a flat world).
  float of(AgentId id) const {
    const std::uint32_t i = agentIndex(id);
    return i < height_.size() ? height_[i] : 0.0f;
  }

 private:
  bool active_ = false;
  std::vector<float> height_;    // by agent index
  std::vector<dtPolyRef> poly_;  // by agent index: the polygon it stood on
};

}  // namespace steerd
