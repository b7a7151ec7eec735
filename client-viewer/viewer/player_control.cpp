#include "viewer/player_control.h"

#include <algorithm>
#include <cmath>

namespace steerd::viewer {

void PlayerControl::reset(Point start, const WorldRect& bounds, float maxSpeed,
                          std::optional<BotPattern> bot) {
  area_ = bounds.inset(kMargin);
  speed_ = std::isfinite(maxSpeed) ? std::max(maxSpeed, 0.0f) * kSpeedFraction : 0.0f;
  motion_ = {area_.clamp(start), {}};
  bot_.reset();
  if (bot) bot_.emplace(*bot, bounds, maxSpeed);
  active_ = true;
}

const Motion& PlayerControl::update(const ControlInput& input, double dt) {
  if (!active_) return motion_;
  if (!std::isfinite(dt) || dt <= 0.0) {
    motion_.velocity = {};
    return motion_;
  }
  dt = std::min(dt, 0.25);  // a stalled frame does not teleport the avatar
  const Point from = motion_.position;
  Point velocity{};
  const Point keys{std::clamp(input.moveX, -1.0f, 1.0f), std::clamp(input.moveY, -1.0f, 1.0f)};
  if (keys.x != 0.0f || keys.y != 0.0f) {
    velocity = keys * (speed_ / std::max(length(keys), 1.0f));
  } else if (input.walkTo) {
    // Arrive: full speed, slowing so as to stop on the pointer rather than overshoot it.
    const Point to = *input.walkTo - from;
    const float d = length(to);
    if (d > 1e-3f) velocity = to * (std::min(speed_, d / static_cast<float>(dt)) / d);
  } else if (bot_) {
    motion_ = bot_->step(from, dt);
    motion_.position = area_.clamp(motion_.position);
    return motion_;
  }
  const Point to = area_.clamp(from + velocity * static_cast<float>(dt));
  motion_.position = to;
  motion_.velocity = (to - from) * static_cast<float>(1.0 / dt);
  return motion_;
}

}  // namespace steerd::viewer
