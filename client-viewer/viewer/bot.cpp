#include "viewer/bot.h"

#include <algorithm>
#include <cmath>

namespace steerd::viewer {

std::optional<BotPattern> parseBotPattern(std::string_view name) {
  if (name == "circle") return BotPattern::kCircle;
  if (name == "figure8") return BotPattern::kFigure8;
  if (name == "random") return BotPattern::kRandom;
  return std::nullopt;
}

const char* botPatternName(BotPattern pattern) {
  switch (pattern) {
    case BotPattern::kCircle:
      return "circle";
    case BotPattern::kFigure8:
      return "figure8";
    case BotPattern::kRandom:
      return "random";
  }
  return "unknown";
}

Bot::Bot(BotPattern pattern, const WorldRect& bounds, float maxSpeed, std::uint32_t seed)
    : pattern_(pattern),
      area_(bounds.inset(kMargin)),
      speedLimit_(std::isfinite(maxSpeed) ? std::max(maxSpeed, 0.0f) * kSpeedFraction : 0.0f),
      rng_(seed) {
  // The pattern reaches 35% of the area's size from its centre, clear of the edges; the target
  // moves at 90% of the limit, so the avatar (at the limit) catches up with it.
  radiusX_ = 0.35f * area_.width();
  radiusY_ = 0.35f * area_.height();
  const float r = std::min(radiusX_, radiusY_);
  const float patternSpeed = 0.9f * speedLimit_;
  if (pattern_ == BotPattern::kCircle) {
    radiusX_ = radiusY_ = r;
    omega_ = r > 0.0f ? patternSpeed / r : 0.0;
  } else if (pattern_ == BotPattern::kFigure8) {
    // x = A sin(wt), y = (B/2) sin(2wt): |v| <= w * sqrt(A^2 + B^2).
    const double reach = std::hypot(radiusX_, radiusY_);
    omega_ = reach > 0.0 ? patternSpeed / reach : 0.0;
  }
  target_ = patternPoint(0.0);
}

Point Bot::patternPoint(double t) {
  const Point c = area_.centre();
  switch (pattern_) {
    case BotPattern::kCircle:
      return {c.x + radiusX_ * static_cast<float>(std::cos(omega_ * t)),
              c.y + radiusY_ * static_cast<float>(std::sin(omega_ * t))};
    case BotPattern::kFigure8:
      return {c.x + radiusX_ * static_cast<float>(std::sin(omega_ * t)),
              c.y + 0.5f * radiusY_ * static_cast<float>(std::sin(2.0 * omega_ * t))};
    case BotPattern::kRandom:
      break;
  }
  return target_;
}

Motion Bot::step(Point from, double dt) {
  if (!std::isfinite(dt) || dt <= 0.0) return {area_.clamp(from), {}};
  time_ += dt;
  if (pattern_ == BotPattern::kRandom) {
    // A new waypoint once the avatar reaches the current one.
    if (length(target_ - from) < 1.0f || !area_.contains(target_)) {
      std::uniform_real_distribution<float> ux(area_.minX, area_.maxX), uy(area_.minY, area_.maxY);
      target_ = {ux(rng_), uy(rng_)};
    }
  } else {
    target_ = patternPoint(time_);
  }
  // Head for the target, arriving rather than overshooting, never faster than the limit.
  const Point to = target_ - from;
  const float distance = length(to);
  const float step = std::min(speedLimit_ * static_cast<float>(dt), distance);
  Point velocity{};
  Point position = from;
  if (distance > 0.0f && step > 0.0f) {
    position = from + to * (step / distance);
  }
  position = area_.clamp(position);
  velocity = (position - from) * static_cast<float>(1.0 / dt);
  // Clamping can only shorten the step, so the speed stays under the limit; guard rounding.
  const float speed = length(velocity);
  if (speed > speedLimit_ && speed > 0.0f) velocity = velocity * (speedLimit_ / speed);
  return {position, velocity};
}

}  // namespace steerd::viewer
