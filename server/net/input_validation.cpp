#include "net/input_validation.h"

#include <cmath>

namespace steerd::net {

ValidatedInput validateInput(const wire::PlayerInput& in, steer::Vec2 last, float reach,
                             const InputLimits& limits) {
  ValidatedInput out;
  if (!std::isfinite(in.x()) || !std::isfinite(in.y()) || !std::isfinite(in.vx()) ||
      !std::isfinite(in.vy())) {
    return out;
  }
  const Bounds& b = limits.bounds;
  if (in.x() < b.minX || in.x() > b.maxX || in.y() < b.minY || in.y() > b.maxY) return out;
  out.verdict = InputVerdict::kAccepted;
  out.velocity = {in.vx(), in.vy()};
  if (steer::length(out.velocity) > limits.maxSpeed * limits.tolerance) {
    out.velocity = steer::truncate(out.velocity, limits.maxSpeed);
    out.verdict = InputVerdict::kClamped;
  }
  out.position = {in.x(), in.y()};
  const steer::Vec2 jump = out.position - last;
  const float allowed = reach > 0.0f ? reach : 0.0f;  // NaN: none
  if (!(steer::length(jump) <= allowed)) {
    out.position = last + steer::truncate(jump, allowed);
    out.verdict = InputVerdict::kClamped;
    out.overReach = true;
  }
  return out;
}

}  // namespace steerd::net
