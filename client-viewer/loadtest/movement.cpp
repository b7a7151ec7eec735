#include "loadtest/movement.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace steerd::loadtest {

namespace {
constexpr float kTwoPi = 2.0f * std::numbers::pi_v<float>;
}

const char* patternName(Pattern p) {
  switch (p) {
    case Pattern::kWalk:
      return "walk";
    case Pattern::kOrbit:
      return "orbit";
    case Pattern::kChase:
      return "chase";
    case Pattern::kFlee:
      return "flee";
  }
  return "walk";
}

std::optional<Pattern> patternFromName(std::string_view name) {
  for (Pattern p : {Pattern::kWalk, Pattern::kOrbit, Pattern::kChase, Pattern::kFlee}) {
    if (name == patternName(p)) return p;
  }
  return std::nullopt;
}

Mover::Mover(Pattern pattern, const MoveLimits& limits, std::uint64_t seed) : pattern_(pattern), rng_(seed) {
  // The inner rectangle: the bounds less a margin, or the middle of a world too small for it.
  auto inner = [](float lo, float hi, float& outLo, float& outHi) {
    if (!std::isfinite(lo) || !std::isfinite(hi) || hi < lo) lo = hi = 0.0f;
    const float margin = std::min(kMargin, (hi - lo) * 0.25f);
    outLo = lo + margin;
    outHi = std::max(outLo, hi - margin);
  };
  inner(limits.minX, limits.maxX, minX_, maxX_);
  inner(limits.minY, limits.maxY, minY_, maxY_);
  const float maxSpeed = std::isfinite(limits.maxSpeed) ? std::max(limits.maxSpeed, 0.0f) : 0.0f;
  // People do not all run flat out: 50..95 % of the limit.
  speed_ = maxSpeed * (0.5f + 0.45f * static_cast<float>(rng_.uniform()));
  speed_ = std::min(speed_, maxSpeed * kSpeedFraction);
  x_ = minX_ + (maxX_ - minX_) * static_cast<float>(rng_.uniform());
  y_ = minY_ + (maxY_ - minY_) * static_cast<float>(rng_.uniform());
  heading_ = kTwoPi * static_cast<float>(rng_.uniform());
  // Orbit: a circle of 5..30 m that fits inside, around a random centre.
  radius_ = 5.0f + 25.0f * static_cast<float>(rng_.uniform());
  radius_ = std::min({radius_, (maxX_ - minX_) * 0.5f, (maxY_ - minY_) * 0.5f});
  cx_ = minX_ + radius_ + (maxX_ - minX_ - 2.0f * radius_) * static_cast<float>(rng_.uniform());
  cy_ = minY_ + radius_ + (maxY_ - minY_ - 2.0f * radius_) * static_cast<float>(rng_.uniform());
  angle_ = kTwoPi * static_cast<float>(rng_.uniform());
  turn_ = rng_.uniform() < 0.5 ? -1.0f : 1.0f;
}

void Mover::walkDirection(double dt) {
  // A random walk: the heading drifts (Brownian, about 1 rad per sqrt(s)), and turns towards a
  // random point inside when the player nears an edge.
  const float drift = static_cast<float>((rng_.uniform() * 2.0 - 1.0) * std::sqrt(3.0 * dt));
  heading_ = std::remainder(heading_ + drift, kTwoPi);
  const float lookAhead = std::max(speed_ * 1.0f, 2.0f);
  const float ax = x_ + std::cos(heading_) * lookAhead, ay = y_ + std::sin(heading_) * lookAhead;
  if (ax < minX_ || ax > maxX_ || ay < minY_ || ay > maxY_) {
    const float tx = minX_ + (maxX_ - minX_) * static_cast<float>(0.25 + 0.5 * rng_.uniform());
    const float ty = minY_ + (maxY_ - minY_) * static_cast<float>(0.25 + 0.5 * rng_.uniform());
    if (tx != x_ || ty != y_) heading_ = std::atan2(ty - y_, tx - x_);
  }
}

void Mover::moveToward(float tx, float ty, float speed, double dt, bool stopAtTarget) {
  const double dx = static_cast<double>(tx) - x_, dy = static_cast<double>(ty) - y_;
  const double d = std::hypot(dx, dy);
  double step = speed * dt;
  if (stopAtTarget) step = std::min(step, d);
  if (d > 1e-9 && step > 0) {
    x_ = static_cast<float>(x_ + dx / d * step);
    y_ = static_cast<float>(y_ + dy / d * step);
  }
}

void Mover::step(double dt, std::optional<Point> nearest) {
  if (!std::isfinite(dt) || dt <= 0.0) {
    vx_ = vy_ = 0.0f;
    return;
  }
  dt = std::min(dt, kMaxStepSeconds);
  const float oldX = x_, oldY = y_;
  Pattern p = pattern_;
  if ((p == Pattern::kChase || p == Pattern::kFlee) && !nearest) p = Pattern::kWalk;
  if (nearest && !(std::isfinite(nearest->x) && std::isfinite(nearest->y))) p = Pattern::kWalk;
  switch (p) {
    case Pattern::kWalk:
      walkDirection(dt);
      moveToward(x_ + std::cos(heading_), y_ + std::sin(heading_), speed_, dt, false);
      break;
    case Pattern::kOrbit: {
      // Seek the point running round the circle; a player off the circle first heads for it.
      if (radius_ > 0.0f)
        angle_ = std::remainder(angle_ + turn_ * static_cast<float>(speed_ * dt) / radius_, kTwoPi);
      moveToward(cx_ + radius_ * std::cos(angle_), cy_ + radius_ * std::sin(angle_), speed_, dt, true);
      break;
    }
    case Pattern::kChase:
      moveToward(nearest->x, nearest->y, speed_, dt, true);
      break;
    case Pattern::kFlee: {
      const float dx = x_ - nearest->x, dy = y_ - nearest->y;
      if (dx * dx + dy * dy > kFleeRadius * kFleeRadius) {
        walkDirection(dt);
        moveToward(x_ + std::cos(heading_), y_ + std::sin(heading_), speed_, dt, false);
      } else if (dx == 0.0f && dy == 0.0f) {
        moveToward(x_ + std::cos(heading_), y_ + std::sin(heading_), speed_, dt, false);
      } else {
        moveToward(x_ + dx, y_ + dy, speed_, dt, false);
        heading_ = std::atan2(dy, dx);
      }
      break;
    }
  }
  // Clamping only shortens the step, so the speed limit holds too.
  x_ = std::clamp(x_, minX_, maxX_);
  y_ = std::clamp(y_, minY_, maxY_);
  // The velocity of the step, capped at the cruising speed: with a very short step, float rounding
  // of the position could otherwise make it look faster than it was.
  double vx = (static_cast<double>(x_) - oldX) / dt, vy = (static_cast<double>(y_) - oldY) / dt;
  const double v = std::hypot(vx, vy);
  if (v > speed_ && v > 0.0) {
    vx *= speed_ / v;
    vy *= speed_ / v;
  }
  vx_ = static_cast<float>(vx);
  vy_ = static_cast<float>(vy);
}

}  // namespace steerd::loadtest
