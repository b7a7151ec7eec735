// Offset pursuit (STEERING.md section 3): keep station at a fixed offset in a leader's local space.
// Formations, docking, marking an opponent, flying on a wing.
#pragma once

#include <cmath>

#include "arrive.h"

namespace steer {

struct OffsetPursuitParams {
  // Buckland arrives at the predicted slot with `fast`, so followers keep up with the leader.
  float deceleration = kDecelerationFast;
};

// W = leader.p + rotate(offset, leader.h): the slot in world space (offset +x = the leader's ahead,
// +y = its left). A leader with no usable heading is taken to face +x.
inline Vec2 offsetWorldPoint(const Kinematic& leader, Vec2 offset) {
  return leader.position + rotate(offset, normalizedOr(leader.heading, Vec2{1.0f, 0.0f}));
}

// W + leader.v * T with T = |W - p| / (maxSpeed + |leader.v|): where the slot will be by the time we
// get there. Seed 000's pseudo-code adds the offset unrotated; the offset is in the leader's space.
inline Vec2 offsetPursuitTarget(const Body& body, const Kinematic& leader, Vec2 offset) {
  const Vec2 slot = offsetWorldPoint(leader, offset);
  const float closingSpeed = std::fmax(body.limits.maxSpeed, 0.0f) + length(leader.velocity);
  const float t = closingSpeed > kEpsilon ? distance(slot, body.position) / closingSpeed : 0.0f;
  return slot + leader.velocity * t;
}

// Arrive (Buckland) at offsetPursuitTarget(): arrive, not seek, so the follower settles in its slot
// instead of orbiting it.
inline SteeringOutput offsetPursuit(const Body& body, const Kinematic& leader, Vec2 offset,
                                    const OffsetPursuitParams& params = {}) {
  return arrive(body, offsetPursuitTarget(body, leader, offset), {.deceleration = params.deceleration});
}

}  // namespace steer
