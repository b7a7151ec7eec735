// Pursue and evade (STEERING.md section 3): seek / flee where the other body will be, assuming it
// keeps its velocity for the lookahead time T.
#pragma once

#include <cmath>

#include "seek.h"

namespace steer {

// T = |target.p - p| / (maxSpeed + |target.v|): the further away and the slower the closing speed,
// the further ahead we aim. Seed 003's form (T = d / v_pursuer) ignores the target's speed and
// overshoots fast targets. `maxPrediction` > 0 caps T (Millington's maxPrediction), which matters
// for slow bodies chasing from far away. A zero closing speed gives T = 0 (aim at where it is).
inline float lookaheadTime(const Body& body, const Kinematic& target, float maxPrediction = 0.0f) {
  const float closingSpeed = std::fmax(body.limits.maxSpeed, 0.0f) + length(target.velocity);
  if (!(closingSpeed > kEpsilon)) return 0.0f;
  const float t = distance(target.position, body.position) / closingSpeed;
  return maxPrediction > 0.0f ? std::fmin(t, maxPrediction) : t;
}

// target.p + target.v * T with T from lookaheadTime().
inline Vec2 predictedPosition(const Body& body, const Kinematic& target, float maxPrediction = 0.0f) {
  return target.position + target.velocity * lookaheadTime(body, target, maxPrediction);
}

struct PursueParams {
  // Cap on the lookahead time in seconds; <= 0 means no cap.
  float maxPrediction = 0.0f;
  // Head-on test: the evader is ahead and its heading is within this angle of pointing straight
  // back at us (cos 20 degrees; Buckland uses 0.95, about 18 degrees).
  float headOnCosine = 0.9396926f;
};

// True when the evader is ahead of the pursuer (in its front half-plane) and heading towards it
// within the head-on cone: then the two close head to head and prediction only adds error.
// Slip in seed 000: `facing > -10 && facing < -10` is an empty interval, so its special case never
// fires; the intended test is "its heading is within ~20 degrees of pointing straight back at us".
inline bool isHeadOn(const Body& body, const Kinematic& evader, float headOnCosine) {
  const Vec2 toEvader = evader.position - body.position;
  const Vec2 evaderHeading = normalized(evader.heading);
  return dot(toEvader, body.heading) > 0.0f && dot(body.heading, evaderHeading) < -headOnCosine;
}

// Buckland's pursuit: head-on -> seek the evader's position; otherwise seek its predicted position.
inline SteeringOutput pursue(const Body& body, const Kinematic& evader, const PursueParams& params = {}) {
  if (isHeadOn(body, evader, params.headOnCosine)) return seek(body, evader.position);
  return seek(body, predictedPosition(body, evader, params.maxPrediction));
}

struct EvadeParams {
  // Cap on the lookahead time in seconds; <= 0 means no cap.
  float maxPrediction = 0.0f;
  // Only evade pursuers closer than this (Buckland's ThreatRange); <= 0 means always.
  float threatRange = 0.0f;
};

// Flee from the pursuer's predicted position (same T as pursue; no head-on special case). Beyond the
// threat range: no output.
inline SteeringOutput evade(const Body& body, const Kinematic& pursuer, const EvadeParams& params = {}) {
  if (params.threatRange > 0.0f &&
      distanceSq(pursuer.position, body.position) > params.threatRange * params.threatRange) {
    return {};
  }
  return flee(body, predictedPosition(body, pursuer, params.maxPrediction));
}

}  // namespace steer
