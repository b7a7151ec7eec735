// Context steering (STEERING.md section 6; seed 001 after Fray, "Context Steering: Behavior-Driven
// Steering at the Macro Scale", Game AI Pro 2 ch. 18).
//
// Behaviours do not return forces; each writes how much it wants (interest) or fears (danger)
// each of N directions, and one chooser reads the merged maps. Because behaviours only write
// numbers per direction, they never have to know about each other to be combined.
//
// Slots are in WORLD space: slot i points along fromAngle(2 pi i / N), slot 0 = +x, counter-
// clockwise (seed 001's InitializeDirections). World slots let maps written by different
// behaviours, or cached from an earlier pass, be merged without knowing the body's heading;
// heading matters only to the directional writer, which takes `forward` explicitly.
//
// Values are never negative. Seed 001 lets a behaviour compute negative dot products and clamps
// them at the merge (its per-slot max starts from 0). Here every writer max()es straight into the
// map, which starts at 0, so writing several behaviours into one map IS that merge, and
// mergeContextMaps() is the same max for maps built apart.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>

#include "body.h"

namespace steer {

// 64 slots (5.6 degrees apart) is well past the 8-32 the sources use; the fixed bound keeps a map
// on the stack (about 1 KiB with its direction table) so the per-agent path never allocates.
inline constexpr int kMaxContextSlots = 64;

class ContextMap {
 public:
  // resolution is clamped to [1, kMaxContextSlots]. A map starts all zero.
  explicit ContextMap(int resolution = 8) : resolution_(std::clamp(resolution, 1, kMaxContextSlots)) {
    // Computed once per map rather than per write: several writers reuse the table.
    for (int i = 0; i < resolution_; ++i) {
      directions_[i] = fromAngle(2.0f * kPi * static_cast<float>(i) / static_cast<float>(resolution_));
    }
  }

  int resolution() const { return resolution_; }
  // Unit direction of slot i (taken modulo the resolution, so neighbours wrap around).
  Vec2 direction(int i) const { return directions_[wrap(i)]; }
  static constexpr int wrapSlot(int i, int n) { return ((i % n) + n) % n; }
  int wrap(int i) const { return wrapSlot(i, resolution_); }

  std::span<float> interest() { return {interest_.data(), static_cast<std::size_t>(resolution_)}; }
  std::span<const float> interest() const {
    return {interest_.data(), static_cast<std::size_t>(resolution_)};
  }
  std::span<float> danger() { return {danger_.data(), static_cast<std::size_t>(resolution_)}; }
  std::span<const float> danger() const { return {danger_.data(), static_cast<std::size_t>(resolution_)}; }

  // Zeroes both maps, keeping the direction table: reuse one map across ticks.
  void clear() {
    interest_.fill(0.0f);
    danger_.fill(0.0f);
  }

 private:
  int resolution_;
  std::array<Vec2, kMaxContextSlots> directions_{};
  std::array<float, kMaxContextSlots> interest_{};
  std::array<float, kMaxContextSlots> danger_{};
};

// Per-slot max of `from` into `into`, for interest and danger (seed 001's merger). Maps of
// different resolutions do not line up: false, and `into` is left as it was.
[[nodiscard]] inline bool mergeContextMaps(ContextMap& into, const ContextMap& from) {
  if (into.resolution() != from.resolution()) return false;
  for (int i = 0; i < into.resolution(); ++i) {
    into.interest()[i] = std::max(into.interest()[i], from.interest()[i]);
    into.danger()[i] = std::max(into.danger()[i], from.danger()[i]);
  }
  return true;
}

namespace detail {

// maxDistance <= 0 or NaN means unlimited; a point exactly on the body has no direction and is
// skipped. Returns false for points to skip; otherwise the unit direction and the distance.
inline bool contextDirection(Vec2 from, Vec2 to, float maxDistance, Vec2& unit, float& distance) {
  const Vec2 d = to - from;
  distance = length(d);
  if (!(distance > kEpsilon)) return false;
  if (maxDistance > 0.0f && distance > maxDistance) return false;
  unit = d / distance;
  return true;
}

}  // namespace detail

enum class ChaseMode {
  // interest[i] = max over targets of dot(u_t, dir_i): the strongest single pull per direction.
  kMaxOverTargets,
  // interest[i] = sum over targets of dot(u_t, dir_i) (seed 001's m_CenterBetweenTargets): two
  // targets either side add up in the middle, so the body heads for the gap between them. Sums can
  // exceed 1; negative sums are clamped by the max into the map.
  kSumToCentre,
};

struct ChaseParams {
  float maxDistance = 0.0f;  // targets farther away are ignored; <= 0 means no limit
  ChaseMode mode = ChaseMode::kMaxOverTargets;
};

// Interest towards targets: interest[i] = max(interest[i], dot(normalize(target - p), dir[i])).
inline void writeChase(ContextMap& map, Vec2 position, std::span<const Vec2> targets,
                       const ChaseParams& params = {}) {
  const int n = map.resolution();
  std::array<float, kMaxContextSlots> sum{};
  bool any = false;
  for (const Vec2& t : targets) {
    Vec2 u;
    float d = 0.0f;
    if (!detail::contextDirection(position, t, params.maxDistance, u, d)) continue;
    any = true;
    for (int i = 0; i < n; ++i) {
      const float v = dot(u, map.direction(i));
      if (params.mode == ChaseMode::kSumToCentre) {
        sum[i] += v;
      } else {
        map.interest()[i] = std::max(map.interest()[i], v);
      }
    }
  }
  if (params.mode == ChaseMode::kSumToCentre && any) {
    for (int i = 0; i < n; ++i) map.interest()[i] = std::max(map.interest()[i], sum[i]);
  }
}

struct AvoidParams {
  float maxDistance = 0.0f;  // threats farther away are ignored; <= 0 means no limit
  // Scale each threat's danger by closeness = 1 - d / maxDistance (1 on contact, 0 at the edge
  // of maxDistance), so a far threat only blocks its own direction weakly and a near one blocks
  // hard. Seed 001 does not scale (every threat in range is full strength); off by default.
  // Ignored when maxDistance is unlimited.
  bool scaleByCloseness = false;
};

// Danger towards threats: danger[i] = max(danger[i], dot(normalize(threat - p), dir[i]) * scale).
// A threat exactly on the body is skipped: it has no direction, and a danger equal in every slot
// would change neither chooser's pick.
inline void writeAvoid(ContextMap& map, Vec2 position, std::span<const Vec2> threats,
                       const AvoidParams& params = {}) {
  const int n = map.resolution();
  const bool limited = params.maxDistance > 0.0f;
  for (const Vec2& t : threats) {
    Vec2 u;
    float d = 0.0f;
    if (!detail::contextDirection(position, t, params.maxDistance, u, d)) continue;
    const float scale = params.scaleByCloseness && limited ? 1.0f - d / params.maxDistance : 1.0f;
    for (int i = 0; i < n; ++i) {
      map.danger()[i] = std::max(map.danger()[i], dot(u, map.direction(i)) * scale);
    }
  }
}

// Danger from a disc (an obstacle, another body) of `radius` centred at `center`, as seen from
// `position`: the slots whose ray passes within the disc (the disc's angular half-width
// asin(radius / d), widened by half a slot so a disc between two slots blocks both) get
// `closeness` = 1 - gap / maxDistance, where gap = d - radius; the other slots get nothing.
// Unlike writeAvoid's cosine lobe, which darkens the whole half-circle facing the threat, this
// leaves the tangent directions open, so an agent whose goal lies behind an obstacle can still
// go round it instead of stopping (Fray's masking stops when every interesting slot is masked).
// Inside the disc every slot of the facing half is dangerous. maxDistance <= 0: closeness 1.
inline void writeAvoidDisc(ContextMap& map, Vec2 position, Vec2 center, float radius, float maxDistance) {
  const Vec2 d = center - position;
  const float dist = length(d);
  if (!(dist > kEpsilon)) return;
  const float gap = dist - std::max(radius, 0.0f);
  if (maxDistance > 0.0f && gap > maxDistance) return;
  const float closeness = maxDistance > 0.0f ? std::clamp(1.0f - gap / maxDistance, 0.0f, 1.0f) : 1.0f;
  const Vec2 u = d / dist;
  const float halfWidth = gap > 0.0f ? std::asin(std::min(1.0f, radius / dist)) : kPi / 2.0f;
  const float cosLimit =
      std::cos(std::min(kPi / 2.0f, halfWidth + kPi / static_cast<float>(map.resolution())));
  for (int i = 0; i < map.resolution(); ++i) {
    if (dot(u, map.direction(i)) >= cosLimit) map.danger()[i] = std::max(map.danger()[i], closeness);
  }
}

struct DirectionalParams {
  float strength = 0.8f;  // seed 001: dot(forward * 0.8, dir): a standing wish weaker than a chase
};

// Interest along `forward` (normalised here; zero forward writes nothing):
// interest[i] = max(interest[i], dot(forward * strength, dir[i])).
inline void writeDirectional(ContextMap& map, Vec2 forward, const DirectionalParams& params = {}) {
  const Vec2 f = normalized(forward) * params.strength;
  for (int i = 0; i < map.resolution(); ++i) {
    map.interest()[i] = std::max(map.interest()[i], dot(f, map.direction(i)));
  }
}

// Two slot values closer than this are equal to the choosers. Slot directions come from
// cos/sin in float, so mirror-image slots differ in the last bits (cos(7 pi / 4) != cos(pi / 4)):
// without a tolerance, which of two truly tied slots wins, or whether a slot at exactly 90
// degrees to a threat (dot = +-4e-8) is masked, would be decided by rounding.
inline constexpr float kContextTie = kEpsilon;

// What a chooser picked: a unit direction and how strongly (sets the speed). slot == -1 with a
// zero direction and strength means "nothing worth moving for": stop.
struct ContextChoice {
  Vec2 direction;
  float strength = 0.0f;
  int slot = -1;
};

// Seed 001: argmax over slots of interest - danger; the first slot wins ties (its FindIndex),
// within kContextTie. The seed always moves at full speed along the winner, so all-zero maps
// drive it along slot 0 forever; here a best score <= kContextTie is "no wish" and the choice is
// empty, and the score is the strength (a directional wish of 0.8 asks for 0.8 of maxSpeed).
inline ContextChoice chooseArgmax(const ContextMap& map) {
  int best = -1;
  float bestScore = 0.0f;
  for (int i = 0; i < map.resolution(); ++i) {
    const float score = map.interest()[i] - map.danger()[i];
    if (score > bestScore + kContextTie) {
      bestScore = score;
      best = i;
    }
  }
  if (best < 0) return {};
  return {map.direction(best), bestScore, best};
}

enum class ContextInterpolation {
  kNone,       // the best slot's own direction
  kParabolic,  // fit a parabola through the best slot and its two neighbours; steer to its peak
};

struct MaskParams {
  // A slot is masked when danger > lowest danger + tolerance. 0 is Fray's strict form: only the
  // safest slots stay open.
  float dangerTolerance = 0.0f;
  ContextInterpolation interpolation = ContextInterpolation::kParabolic;
};

// Fray's chooser: find the lowest danger, mask every slot above lowest + tolerance, take the
// highest interest among the open slots (first wins ties; both comparisons within kContextTie),
// and interpolate for a continuous direction. The best open interest is the strength. No open
// slot with interest > 0 gives the empty choice: Fray would rather stop than move into danger.
//
// Parabolic interpolation: with y-, y0, y+ the interest of the slot before, the best and the slot
// after, the peak is at offset delta = (y- - y+) / (2 (y- - 2 y0 + y+)) slots, clamped to
// [-1/2, 1/2] (halfway to a neighbour; further and that neighbour would have been the best). A
// masked neighbour counts as 0, so the direction leans away from danger, never into it. Two
// tied neighbours give delta = 1/2: exactly between them. Resolutions 1 and 2 have the same slot
// on both sides, so delta = 0.
inline ContextChoice chooseMasked(const ContextMap& map, const MaskParams& params = {}) {
  const int n = map.resolution();
  const auto interest = map.interest();
  const auto danger = map.danger();
  const float lowest = *std::min_element(danger.begin(), danger.end());
  const float tolerance = params.dangerTolerance > 0.0f ? params.dangerTolerance : 0.0f;
  const float threshold = lowest + tolerance + kContextTie;
  const auto openInterest = [&](int i) {
    const int s = map.wrap(i);
    return danger[s] > threshold ? 0.0f : interest[s];
  };

  int best = -1;
  float bestInterest = 0.0f;
  for (int i = 0; i < n; ++i) {
    const float v = openInterest(i);
    if (v > bestInterest + kContextTie) {
      bestInterest = v;
      best = i;
    }
  }
  if (best < 0) return {};

  float delta = 0.0f;
  if (params.interpolation == ContextInterpolation::kParabolic && n > 2) {
    const float before = openInterest(best - 1);
    const float after = openInterest(best + 1);
    const float curvature = before - 2.0f * bestInterest + after;
    // curvature < 0 always holds unless all three are equal (best is the open maximum and masked
    // neighbours count 0); flat means no preferred side.
    if (curvature < 0.0f) delta = std::clamp(0.5f * (before - after) / curvature, -0.5f, 0.5f);
  }
  const float angle = 2.0f * kPi * (static_cast<float>(best) + delta) / static_cast<float>(n);
  const Vec2 direction = delta == 0.0f ? map.direction(best) : fromAngle(angle);
  return {direction, bestInterest, best};
}

// The chosen direction as a steering force: desired = direction * clamp(strength, 0, 1) *
// maxSpeed; F = desired - v. The empty choice asks for zero velocity, so a moving body brakes and
// a resting one gets no force.
inline SteeringOutput contextSteer(const Body& body, const ContextChoice& choice) {
  const float strength = choice.strength > 0.0f ? std::min(choice.strength, 1.0f) : 0.0f;  // NaN: 0
  const Vec2 desired = choice.direction * (strength * body.limits.maxSpeed);
  return {desired - body.velocity, 0.0f};
}

}  // namespace steer
