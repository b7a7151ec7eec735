// Scripted movement of the player's avatar for demos and tests (--bot). A pattern is a moving
// target point (a circle, a figure of eight, or random waypoints) inside the world; the avatar
// chases it at no more than a fraction of the server's player speed limit and never leaves the
// bounds, so every input the bot produces is one the server accepts as it is.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string_view>

#include "viewer/geometry.h"

namespace steerd::viewer {

enum class BotPattern : std::uint8_t { kCircle, kFigure8, kRandom };

std::optional<BotPattern> parseBotPattern(std::string_view name);
const char* botPatternName(BotPattern pattern);

// A position and velocity (m, m/s): what Client::setPlayer sends.
struct Motion {
  Point position;
  Point velocity;
};

class Bot {
 public:
  // The avatar moves at most speedFraction * maxSpeed (under the server's limit, which also
  // tolerates timing jitter) and stays `margin` m inside `bounds`.
  static constexpr float kSpeedFraction = 0.8f;
  static constexpr float kMargin = 1.0f;

  Bot(BotPattern pattern, const WorldRect& bounds, float maxSpeed, std::uint32_t seed = 1);

  BotPattern pattern() const { return pattern_; }
  float speedLimit() const { return speedLimit_; }
  const WorldRect& area() const { return area_; }

  // Advances `dt` seconds from `from` (where the avatar is now) and returns where it is then.
  Motion step(Point from, double dt);
  // The pattern's target point at the current time (what the avatar chases).
  Point target() const { return target_; }

 private:
  Point patternPoint(double t);

  BotPattern pattern_;
  WorldRect area_;    // bounds less the margin
  float speedLimit_;  // m/s
  double time_ = 0.0;
  double omega_ = 0.0;  // rad/s of the circle and figure eight
  float radiusX_ = 0.0f, radiusY_ = 0.0f;
  Point target_;
  std::mt19937 rng_;
};

}  // namespace steerd::viewer
