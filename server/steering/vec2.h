// 2D vector on the ground plane, and the small set of operations every behaviour uses.
//
// Convention for the whole project: x to the east, y to the north, angles in radians measured
// counter-clockwise from +x. heading = (cos a, sin a); orientation from velocity = atan2(v.y, v.x).
// "Local space" of a body has +x along its heading and +y to its left.
//
// Everything here is total: no function returns NaN or infinity for finite input. Normalising a
// zero vector returns the fallback the caller names, because "which way is zero?" has no answer
// that fits every behaviour.
#pragma once

#include <algorithm>
#include <cmath>

#include "lanes.h"

namespace steer {

struct Vec2 {
  float x = 0.0f;
  float y = 0.0f;

  constexpr Vec2& operator+=(Vec2 o) {
    x += o.x;
    y += o.y;
    return *this;
  }
  constexpr Vec2& operator-=(Vec2 o) {
    x -= o.x;
    y -= o.y;
    return *this;
  }
  constexpr Vec2& operator*=(float s) {
    x *= s;
    y *= s;
    return *this;
  }
  friend constexpr Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
  friend constexpr Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
  friend constexpr Vec2 operator-(Vec2 a) { return {-a.x, -a.y}; }
  friend constexpr Vec2 operator*(Vec2 a, float s) { return {a.x * s, a.y * s}; }
  friend constexpr Vec2 operator*(float s, Vec2 a) { return {a.x * s, a.y * s}; }
  friend constexpr Vec2 operator/(Vec2 a, float s) { return {a.x / s, a.y / s}; }
  friend constexpr bool operator==(Vec2 a, Vec2 b) = default;
};

// Below this length a vector is treated as zero (no direction).
inline constexpr float kEpsilon = 1e-6f;
inline constexpr float kPi = 3.14159265358979323846f;

constexpr float dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
// z component of the 3D cross product: > 0 when b is counter-clockwise (to the left) of a.
constexpr float cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
constexpr float lengthSq(Vec2 v) { return dot(v, v); }
inline float length(Vec2 v) { return std::sqrt(lengthSq(v)); }
inline float distance(Vec2 a, Vec2 b) { return length(a - b); }
constexpr float distanceSq(Vec2 a, Vec2 b) { return lengthSq(a - b); }
// Left-hand perpendicular (rotated +90 degrees).
constexpr Vec2 perp(Vec2 v) { return {-v.y, v.x}; }
// The point of segment [a, b] nearest to p (a, when the segment has no length).
inline Vec2 nearestOnSegment(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 ab = b - a;
  const float len2 = lengthSq(ab);
  if (!(len2 > 0.0f)) return a;
  return a + ab * std::clamp(dot(p - a, ab) / len2, 0.0f, 1.0f);
}
inline float distanceToSegment(Vec2 p, Vec2 a, Vec2 b) { return distance(p, nearestOnSegment(p, a, b)); }
// Whether segments [a, b] and [c, d] cross each other at a point inside both (touching at an end,
// or lying on one line, does not count).
inline bool properlyCross(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const float d1 = cross(b - a, c - a), d2 = cross(b - a, d - a);
  const float d3 = cross(d - c, a - c), d4 = cross(d - c, b - c);
  return ((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0));
}

inline bool isFinite(float f) { return std::isfinite(f); }
inline bool isFinite(Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }

// Unit vector along v, or `fallback` when v is (nearly) zero.
inline Vec2 normalizedOr(Vec2 v, Vec2 fallback) { return lanes::normalizedOr(v, fallback, kEpsilon); }
// Unit vector along v, or the zero vector when v is (nearly) zero.
inline Vec2 normalized(Vec2 v) { return normalizedOr(v, Vec2{}); }

// v scaled down to length `max` when longer; unchanged otherwise. (Seed 000's truncate never
// shortens: that is the slip STEERING.md section 1 marks.) A negative max is treated as 0.
inline Vec2 truncate(Vec2 v, float max) { return lanes::truncate(v, max); }

inline Vec2 fromAngle(float radians) { return {std::cos(radians), std::sin(radians)}; }
inline float toAngle(Vec2 v) { return std::atan2(v.y, v.x); }

// Wraps an angle into (-pi, pi].
inline float wrapAngle(float a) {
  if (!std::isfinite(a)) return 0.0f;
  a = std::remainder(a, 2.0f * kPi);
  return a <= -kPi ? a + 2.0f * kPi : a;
}

// Rotates v by the rotation whose +x axis is `heading` (unit): local -> world direction.
constexpr Vec2 rotate(Vec2 v, Vec2 heading) { return lanes::rotate(v, heading); }
// Inverse of rotate: world direction -> local direction.
constexpr Vec2 unrotate(Vec2 v, Vec2 heading) {
  return {v.x * heading.x + v.y * heading.y, -v.x * heading.y + v.y * heading.x};
}
// Point transforms between world space and the local space of a body at `origin` facing `heading`.
constexpr Vec2 toLocal(Vec2 worldPoint, Vec2 origin, Vec2 heading) {
  return unrotate(worldPoint - origin, heading);
}
constexpr Vec2 toWorld(Vec2 localPoint, Vec2 origin, Vec2 heading) {
  return lanes::toWorld(localPoint, origin, heading);
}

}  // namespace steer
