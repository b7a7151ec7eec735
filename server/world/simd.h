// Four-lane float vectors (GCC/Clang vector extensions: SSE on x86-64, NEON on ARM) and the few
// helpers the world's SIMD code needs. Every operation is lane-wise IEEE arithmetic, so a lane
// gives exactly the bits the same scalar expression gives: the SIMD paths can be (and are) tested
// for equality against the scalar ones.
#pragma once

#include <cstdint>

#include "steering/lanes.h"

namespace steerd::simd {

inline constexpr int kLanes = 4;
typedef float F4 __attribute__((vector_size(16)));
typedef std::int32_t I4 __attribute__((vector_size(16)));  // lane masks: all ones (true) or zero

inline F4 load(const float* p) {
  F4 v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
inline void store(float* p, F4 v) { __builtin_memcpy(p, &v, sizeof v); }
inline F4 splat(float x) { return F4{x, x, x, x}; }
inline I4 splat32(std::int32_t x) { return I4{x, x, x, x}; }
inline I4 splatMask(bool b) { return b ? I4{-1, -1, -1, -1} : I4{0, 0, 0, 0}; }
// mask ? v : 0
inline F4 select(I4 mask, F4 v) { return reinterpret_cast<F4>(mask & reinterpret_cast<I4>(v)); }
// mask ? a : b
inline F4 select(I4 mask, F4 a, F4 b) {
  return reinterpret_cast<F4>((mask & reinterpret_cast<I4>(a)) | (~mask & reinterpret_cast<I4>(b)));
}
inline F4 sqrt4(F4 v) {
  F4 r;
  for (int k = 0; k < kLanes; ++k) r[k] = __builtin_sqrtf(v[k]);
  return r;
}
inline bool any(I4 m) { return (m[0] | m[1] | m[2] | m[3]) != 0; }
// Lanes whose value is finite (x - x is NaN exactly when x is infinite or NaN).
inline I4 finite(F4 x) { return (x - x) == splat(0.0f); }

// {sum(a), sum(b), sum(c), sum(d)} by a 4x4 transpose: three shuffles and adds per four sums.
// Each sum is (x0 + x2) + (x1 + x3), the same order every time.
// GCC spells a two-vector shuffle __builtin_shuffle(a, b, mask), clang __builtin_shufflevector
// with constant lanes (the fuzz build is clang's); the same lanes either way.
#if defined(__clang__)
#define STEERD_SHUFFLE(a, b, i, j, k, l) __builtin_shufflevector(a, b, i, j, k, l)
#else
#define STEERD_SHUFFLE(a, b, i, j, k, l) __builtin_shuffle(a, b, I4{i, j, k, l})
#endif
inline F4 sum4(F4 a, F4 b, F4 c, F4 d) {
  const F4 ab = STEERD_SHUFFLE(a, b, 0, 4, 1, 5) + STEERD_SHUFFLE(a, b, 2, 6, 3, 7);
  const F4 cd = STEERD_SHUFFLE(c, d, 0, 4, 1, 5) + STEERD_SHUFFLE(c, d, 2, 6, 3, 7);
  return STEERD_SHUFFLE(ab, cd, 0, 1, 4, 5) + STEERD_SHUFFLE(ab, cd, 2, 3, 6, 7);
}
#undef STEERD_SHUFFLE

// Four 2D vectors, one per lane: the lane type of steering/lanes.h's formulas.
struct V2 {
  F4 x, y;
};
inline V2 operator+(V2 a, V2 b) { return {a.x + b.x, a.y + b.y}; }
inline V2 operator-(V2 a, V2 b) { return {a.x - b.x, a.y - b.y}; }
inline V2 operator*(V2 a, F4 s) { return {a.x * s, a.y * s}; }
inline V2 operator/(V2 a, F4 s) { return {a.x / s, a.y / s}; }

}  // namespace steerd::simd

template <>
struct steer::LaneOps<steerd::simd::F4> {
  using F4 = steerd::simd::F4;
  using Mask = steerd::simd::I4;
  static F4 splat(float x) { return steerd::simd::splat(x); }
  static F4 sqrt(F4 x) { return steerd::simd::sqrt4(x); }
  static Mask finite(F4 x) { return steerd::simd::finite(x); }
  static F4 select(Mask m, F4 a, F4 b) { return steerd::simd::select(m, a, b); }
  static Mask both(Mask a, Mask b) { return a & b; }
  static Mask either(Mask a, Mask b) { return a | b; }
  static Mask negate(Mask a) { return ~a; }
  static bool allOf(Mask m) { return (m[0] & m[1] & m[2] & m[3]) != 0; }
  static bool anyOf(Mask m) { return steerd::simd::any(m); }
};
