// Flocking: separation, alignment, cohesion and their weighted sum (STEERING.md section 4;
// seed 000 slides 50-57 after Reynolds 1987 and Buckland; seed 004's kinematic variant).
//
// Every function takes the neighbours the caller already filtered (radius and field of view,
// neighbours.h) with the world's spatial grid; nothing here searches. An empty span is the
// isolated-body case and gives no output (seed 000: "if isolated, will do nothing").
#pragma once

#include <algorithm>
#include <cmath>
#include <span>

#include "body.h"
#include "seek.h"

namespace steer {

enum class SeparationFalloff {
  // Seed 000: normalize(p - n.p) / d. Magnitude 1/d per neighbour.
  kInverseDistance,
  // normalize(p - n.p) / d^2: a harder push at close range, gentler at the edge of the radius.
  // STEERING.md calls this seed 004's variant; read literally, seed 004 divides the unnormalised
  // (p - n.p) by d^2, which is the same 1/d magnitude as seed 000 (and subtracts it, a sign slip
  // that would pull bodies together). kInverseSquare is the falloff the remark names.
  kInverseSquare,
};

struct SeparationParams {
  SeparationFalloff falloff = SeparationFalloff::kInverseDistance;
};

// Sum over neighbours of normalize(p - n.p) / d (or / d^2). A coincident neighbour has no "away"
// and is skipped: pushing along the heading would fling both copies of a stacked pair the same
// way. Near-coincident neighbours give very large but finite forces; the combiner truncates to
// maxForce.
inline SteeringOutput separation(const Body& body, std::span<const Kinematic> neighbours,
                                 const SeparationParams& params = {}) {
  Vec2 force;
  for (const Kinematic& n : neighbours) {
    const Vec2 away = body.position - n.position;
    const float dSq = lengthSq(away);
    if (!(dSq > kEpsilon * kEpsilon)) continue;
    // normalize(away) / d == away / d^2; / d^2 == away / d^3.
    const float scale =
        params.falloff == SeparationFalloff::kInverseDistance ? 1.0f / dSq : 1.0f / (dSq * std::sqrt(dSq));
    force += away * scale;
  }
  return {force, 0.0f};
}

// average(n.heading) - heading: steers the heading towards the neighbours' mean heading.
// Headings are unit, so the result is at most 2 long.
inline SteeringOutput alignment(const Body& body, std::span<const Kinematic> neighbours) {
  if (neighbours.empty()) return {};
  Vec2 sum;
  for (const Kinematic& n : neighbours) sum += n.heading;
  return {sum / static_cast<float>(neighbours.size()) - body.heading, 0.0f};
}

// Seek the neighbours' centre of mass.
inline SteeringOutput cohesion(const Body& body, std::span<const Kinematic> neighbours) {
  if (neighbours.empty()) return {};
  Vec2 sum;
  for (const Kinematic& n : neighbours) sum += n.position;
  return seek(body, sum / static_cast<float>(neighbours.size()));
}

struct FlockParams {
  float separationWeight = 1.0f;
  float alignmentWeight = 1.0f;
  float cohesionWeight = 1.0f;
  SeparationParams separation;
};

// separation * ws + alignment * wa + cohesion * wc (seed 000 slide 57). Not truncated: the
// combiner or locomotion truncates the final force to maxForce once, after wander and avoidance
// are added (wander keeps per-agent state, so the caller adds it; combiners.h).
inline SteeringOutput flock(const Body& body, std::span<const Kinematic> neighbours,
                            const FlockParams& params = {}) {
  if (neighbours.empty()) return {};
  return separation(body, neighbours, params.separation) * params.separationWeight +
         alignment(body, neighbours) * params.alignmentWeight +
         cohesion(body, neighbours) * params.cohesionWeight;
}

struct KinematicFlockParams {
  float minSpeed = 0.0f;
  float maxSpeed = 1.0f;
  SeparationParams separation;
};

// Seed 004's kinematic flock: returns a VELOCITY in `linear`, to be set directly.
//   cohesion   = normalize(centre - p) * speed      (speed = the body's current speed)
//   align      = average(n.velocity); speed' = clamp(|align|, minSpeed, maxSpeed)
//   separation = separation() above (the seed's `-=` is a sign slip: it would attract)
//   velocity   = normalize(cohesion + align + separation) * speed'
// The seed averages each neighbour's `direction`; we average velocities so the clamp on |align|
// means "match the neighbours' speed" (averaging unit headings would pin speed' to minSpeed
// whenever minSpeed >= 1). With no neighbours, or when the three cancel, the body keeps going
// the way it faces at its current speed (clamped), rather than stopping dead.
inline SteeringOutput kinematicFlock(const Body& body, std::span<const Kinematic> neighbours,
                                     const KinematicFlockParams& params = {}) {
  const float lo = std::max(0.0f, params.minSpeed);
  const float hi = std::max(lo, params.maxSpeed);
  const float currentSpeed = std::clamp(length(body.velocity), lo, hi);
  if (neighbours.empty()) return {body.heading * currentSpeed, 0.0f};

  Vec2 centre;
  Vec2 align;
  for (const Kinematic& n : neighbours) {
    centre += n.position;
    align += n.velocity;
  }
  const float count = static_cast<float>(neighbours.size());
  centre = centre / count;
  align = align / count;
  const Vec2 cohesionDir = normalized(centre - body.position) * currentSpeed;
  const float speed = std::clamp(length(align), lo, hi);
  const Vec2 sum = cohesionDir + align + separation(body, neighbours, params.separation).linear;
  return {normalizedOr(sum, body.heading) * speed, 0.0f};
}

}  // namespace steer
