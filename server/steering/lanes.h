// The formulas the world runs for many agents at once, written once for any lane type.
//
// A lane type L is `float` (one agent, the steering library's own Vec2) or a vector of floats
// (four agents, world/simd.h's F4 and V2). LaneOps<L> gives the few operations whose spelling
// differs between the two: splat, sqrt, the finite test and the select (a branch-free `? :`).
// Everything else is IEEE arithmetic written the same way for both, so a lane computes exactly
// the bits the scalar instantiation computes, and the SIMD path and the scalar path share one
// definition of each formula instead of a copy kept in step by comments.
//
// A vector type V has members x and y of one lane type, built by V{x, y}, with +, - between
// vectors and *, / by a lane. Masks combine with & | ~ (scalar: bool with && || !, spelled
// through LaneOps).
//
// `allOf(mask)` short-cuts are allowed where both arms give the same bits: the scalar path keeps
// its early returns, the SIMD path takes them only when all four lanes agree.
#pragma once

#include <cmath>
#include <type_traits>
#include <utility>

namespace steer {

template <class L>
struct LaneOps;

template <>
struct LaneOps<float> {
  using Mask = bool;
  static float splat(float x) { return x; }
  static float sqrt(float x) { return std::sqrt(x); }
  static bool finite(float x) { return std::isfinite(x); }
  static float select(bool m, float a, float b) { return m ? a : b; }
  static bool both(bool a, bool b) { return a && b; }
  static bool either(bool a, bool b) { return a || b; }
  static bool negate(bool a) { return !a; }
  static bool allOf(bool m) { return m; }
  static bool anyOf(bool m) { return m; }
};

namespace lanes {

template <class V>
using LaneOf = std::remove_cvref_t<decltype(std::declval<V>().x)>;
template <class V>
using Ops = LaneOps<LaneOf<V>>;
template <class V>
using MaskOf = typename Ops<V>::Mask;

template <class V>
V splat2(float x, float y) {
  return V{Ops<V>::splat(x), Ops<V>::splat(y)};
}
template <class V>
V zero2() {
  return splat2<V>(0.0f, 0.0f);
}
template <class V>
LaneOf<V> dot(V a, V b) {
  return a.x * b.x + a.y * b.y;
}
template <class V>
LaneOf<V> length(V v) {
  return Ops<V>::sqrt(dot(v, v));
}
template <class V>
V select(MaskOf<V> m, V a, V b) {
  return V{Ops<V>::select(m, a.x, b.x), Ops<V>::select(m, a.y, b.y)};
}
template <class V>
MaskOf<V> finite(V v) {
  return Ops<V>::both(Ops<V>::finite(v.x), Ops<V>::finite(v.y));
}
template <class V>
V finiteOr(V v, V fallback) {
  return select(finite(v), v, fallback);
}
template <class V>
V finiteOrZero(V v) {
  return finiteOr(v, zero2<V>());
}

// Unit vector along v, or `fallback` when |v| <= kEpsilon (steer::normalizedOr).
template <class V>
V normalizedOr(V v, V fallback, float epsilon) {
  const LaneOf<V> len = length(v);
  return select(len > Ops<V>::splat(epsilon), v / len, fallback);
}

// v scaled down to length `max` when longer (steer::truncate); a max that is not > 0 gives zero.
template <class V>
V truncate(V v, float max) {
  if (!(max > 0.0f)) return zero2<V>();
  const LaneOf<V> lsq = dot(v, v);
  const MaskOf<V> within = lsq <= Ops<V>::splat(max * max);
  if (Ops<V>::allOf(within)) return v;
  return select(within, v, v * (Ops<V>::splat(max) / Ops<V>::sqrt(lsq)));
}

// Rotation by the frame whose +x axis is `heading` (steer::rotate), and into world space.
template <class V>
constexpr V rotate(V v, V heading) {
  return V{v.x * heading.x - v.y * heading.y, v.x * heading.y + v.y * heading.x};
}
template <class V>
constexpr V toWorld(V localPoint, V origin, V heading) {
  return origin + rotate(localPoint, heading);
}

// std::clamp(x, lo, hi) as it is written: x < lo ? lo : (hi < x ? hi : x). NaN passes through.
template <class L>
L clampLane(L x, float lo, float hi) {
  using O = LaneOps<L>;
  return O::select(x < O::splat(lo), O::splat(lo), O::select(O::splat(hi) < x, O::splat(hi), x));
}

}  // namespace lanes
}  // namespace steer
