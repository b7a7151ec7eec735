#include "viewer/entity_motion.h"

#include <cmath>

namespace steerd::viewer {

void MotionEstimator::estimate(const client::InterpolationBuffer& buffer, const client::Sample& now,
                               double spanTicks, double tickRate, std::vector<EntityMotion>& out) {
  out.assign(now.entities.size(), EntityMotion{});
  if (!(spanTicks > 0.0) || !(tickRate > 0.0) || !std::isfinite(spanTicks) || !std::isfinite(tickRate))
    return;
  buffer.sample(now.renderTick - spanTicks, earlier_);
  const float perSecond = static_cast<float>(tickRate / spanTicks);
  // Both lists are sorted by id: one merge.
  std::size_t j = 0;
  for (std::size_t i = 0; i < now.entities.size(); ++i) {
    const client::EntityView& e = now.entities[i];
    while (j < earlier_.entities.size() && earlier_.entities[j].id < e.id) ++j;
    if (j == earlier_.entities.size()) break;
    const client::EntityView& before = earlier_.entities[j];
    if (before.id != e.id) continue;
    out[i].velocity = {(e.x - before.x) * perSecond, (e.y - before.y) * perSecond};
    out[i].known = true;
  }
}

}  // namespace steerd::viewer
