// How a simulated player moves: a random walk, an orbit around a point, running at the nearest
// NPC (chase) or away from it (flee). Every step stays inside the world bounds (less a margin)
// and within the speed limit, as the server's input validation expects.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "loadtest/impairment.h"  // SplitMix64

namespace steerd::loadtest {

enum class Pattern : std::uint8_t { kWalk, kOrbit, kChase, kFlee };
const char* patternName(Pattern p);
std::optional<Pattern> patternFromName(std::string_view name);

struct MoveLimits {
  float minX = 0, minY = 0, maxX = 0, maxY = 0;  // world bounds, m
  float maxSpeed = 0;                            // m/s
};

struct Point {
  float x = 0, y = 0;
};

class Mover {
 public:
  static constexpr float kMargin = 1.0f;           // m kept from the edges (less in a tiny world)
  static constexpr float kSpeedFraction = 0.95f;   // of maxSpeed, at most: float rounding stays legal
  static constexpr float kFleeRadius = 40.0f;      // m: flee only from NPCs nearer than this
  static constexpr double kMaxStepSeconds = 0.25;  // a longer pause is taken as this long

  // Picks a start position, a cruising speed and the pattern's parameters from `seed`.
  Mover(Pattern pattern, const MoveLimits& limits, std::uint64_t seed);

  // Advances `dt` seconds. `nearest` is the nearest NPC in the player's view (chase and flee use
  // it; without one they walk).
  void step(double dt, std::optional<Point> nearest);

  float x() const { return x_; }
  float y() const { return y_; }
  float vx() const { return vx_; }  // the last step's velocity, m/s
  float vy() const { return vy_; }
  float cruiseSpeed() const { return speed_; }
  // The area the player keeps to: the bounds less the margin.
  float innerMinX() const { return minX_; }
  float innerMinY() const { return minY_; }
  float innerMaxX() const { return maxX_; }
  float innerMaxY() const { return maxY_; }

 private:
  void walkDirection(double dt);
  void moveToward(float tx, float ty, float speed, double dt, bool stopAtTarget);

  Pattern pattern_;
  SplitMix64 rng_;
  float minX_, minY_, maxX_, maxY_;
  float speed_ = 0;  // cruising speed
  float x_ = 0, y_ = 0, vx_ = 0, vy_ = 0;
  float heading_ = 0;                                          // radians, for the walk
  float cx_ = 0, cy_ = 0, radius_ = 0, angle_ = 0, turn_ = 1;  // orbit
};

}  // namespace steerd::loadtest
