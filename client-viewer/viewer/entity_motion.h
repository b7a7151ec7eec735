// Velocities of the entities drawn: snapshots carry positions only, so a velocity is the change
// of an entity's interpolated position over the last snapshot interval (the same buffer sampled
// that much earlier). An entity absent from the earlier sample (it just appeared) has none.
#pragma once

#include <vector>

#include "client/interpolation.h"
#include "viewer/geometry.h"

namespace steerd::viewer {

struct EntityMotion {
  Point velocity;      // m/s
  bool known = false;  // false: the entity was not in the earlier sample
};

class MotionEstimator {
 public:
  // For each entity of `now` (sampled at now.renderTick), its velocity over the `spanTicks`
  // before it; `out` is parallel to now.entities. A span or tick rate that is not positive
  // leaves every velocity unknown.
  void estimate(const client::InterpolationBuffer& buffer, const client::Sample& now, double spanTicks,
                double tickRate, std::vector<EntityMotion>& out);

 private:
  client::Sample earlier_;
};

}  // namespace steerd::viewer
