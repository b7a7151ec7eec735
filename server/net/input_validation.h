// Checks a player's input before it touches the world: the server is authoritative, so a client
// can say where its player is, but not somewhere impossible.
#pragma once

#include "proto/wire.pb.h"
#include "steering/vec2.h"
#include "world/spatial_grid.h"

namespace steerd::net {

struct InputLimits {
  Bounds bounds;
  float maxSpeed = 8.0f;    // m/s, the player archetype's
  float tolerance = 1.25f;  // slack over maxSpeed for client timing jitter
};

enum class InputVerdict { kAccepted, kClamped, kRejected };

struct ValidatedInput {
  InputVerdict verdict = InputVerdict::kRejected;
  steer::Vec2 position;
  steer::Vec2 velocity;
};

// `last` is where the player was after its previous accepted input, `elapsed` the seconds since
// (at least one tick). Rejects NaN/inf and positions outside the bounds; clamps a velocity over
// the limit and a jump farther than the limit allows over `elapsed`.
ValidatedInput validateInput(const wire::PlayerInput& input, steer::Vec2 last, float elapsed,
                             const InputLimits& limits);

}  // namespace steerd::net
