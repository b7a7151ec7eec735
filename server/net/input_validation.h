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
  float tolerance = 1.25f;  // slack over maxSpeed in a reported velocity, for client timing jitter
};

enum class InputVerdict { kAccepted, kClamped, kRejected };

struct ValidatedInput {
  InputVerdict verdict = InputVerdict::kRejected;
  steer::Vec2 position;
  steer::Vec2 velocity;
  bool overReach = false;  // the position was farther from `last` than `reach`: clamped to it
};

// `last` is where the player was after its previous accepted input, `reach` how far (m) it may
// have gone since (the session's reach budget: max speed over the time since, whatever the number
// of inputs). Rejects NaN/inf and positions outside the bounds; clamps a velocity over the limit,
// and a position farther than `reach` to the point that far towards it (the farthest the body
// can have gone that way: a client late after a loss keeps moving, a fast one gains nothing).
ValidatedInput validateInput(const wire::PlayerInput& input, steer::Vec2 last, float reach,
                             const InputLimits& limits);

}  // namespace steerd::net
