#include "world/agent_heights.h"

namespace steerd {

void AgentHeights::update(const World& world) {
  const nav::NavMesh* mesh = world.geometry().navMesh.get();
  active_ = mesh != nullptr && mesh->sloped();
  if (!active_) return;
  const std::size_t capacity = world.indexCapacity();
  height_.resize(capacity, 0.0f);
  poly_.resize(capacity, 0);
  const AgentColumns& a = world.agents();
  // Each slot writes only its own agent's entries: any split over threads gives the same values.
  world.parallelFor(a.size(), 1024, [&](std::size_t begin, std::size_t end) {
    for (std::size_t s = begin; s < end; ++s) {
      const std::uint32_t i = agentIndex(a.id[s]);
      if (i >= capacity) continue;
      const steer::Vec2 p{a.px[s], a.py[s]};
      float h = 0.0f;
      if (mesh->heightOver(poly_[i], p, h)) {
        height_[i] = h;
        continue;
      }
      // Off the polygon it stood on (or new): the ground under it, or the nearest within a body.
      const nav::NavPoint on = mesh->nearest(p, a.radius[s] + 0.5f);
      poly_[i] = on.poly;
      if (on) height_[i] = on.height;
    }
  });
}

}  // namespace steerd
