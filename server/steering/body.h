// What a behaviour may know about a moving body, and what it returns.
#pragma once

#include "vec2.h"

namespace steer {

// A steering request: a force (dynamic) or velocity (kinematic) on the ground plane, and an
// angular acceleration (dynamic) or rotation rate (kinematic) in rad/s^2 or rad/s.
struct SteeringOutput {
  Vec2 linear;
  float angular = 0.0f;

  friend constexpr SteeringOutput operator+(SteeringOutput a, SteeringOutput b) {
    return {a.linear + b.linear, a.angular + b.angular};
  }
  friend constexpr SteeringOutput operator*(SteeringOutput a, float s) {
    return {a.linear * s, a.angular * s};
  }
  friend constexpr bool operator==(SteeringOutput a, SteeringOutput b) = default;
};

// Physical limits of a body. [Limit: >= 0] for every field; mass > 0.
struct BodyLimits {
  float radius = 0.5f;
  float mass = 1.0f;
  float maxSpeed = 1.0f;
  float maxForce = 1.0f;
  float maxTurnRate = kPi;                    // rad/s: how fast the velocity's direction may turn
  float maxAngularAcceleration = 4.0f * kPi;  // rad/s^2 (align/face)
  float maxRotation = kPi;                    // rad/s (kinematic rotation, align/face target rate)
};

// A body as behaviours see it: state at tick n plus its limits. Plain value, copied in.
struct Body {
  Vec2 position;
  Vec2 velocity;
  Vec2 heading{1.0f, 0.0f};  // unit; follows velocity (possibly smoothed)
  float orientation = 0.0f;  // radians, == toAngle(heading) for dynamic bodies
  float rotation = 0.0f;     // rad/s
  BodyLimits limits;
};

// A body seen by another: enough to predict where it is going.
struct Kinematic {
  Vec2 position;
  Vec2 velocity;
  Vec2 heading{1.0f, 0.0f};
  float radius = 0.5f;
};

inline Kinematic kinematicOf(const Body& b) { return {b.position, b.velocity, b.heading, b.limits.radius}; }

}  // namespace steer
