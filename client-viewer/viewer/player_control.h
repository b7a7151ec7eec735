// The local player's avatar: moved by the keyboard (WASD / arrows), by holding the left button
// (it walks to the pointer), or by a bot pattern when neither is in use. Whatever moves it, the
// speed stays under the server's limit (Accept's player_max_speed) and the position inside the
// world bounds, so the server accepts every input as it is.
#pragma once

#include <optional>

#include "viewer/bot.h"
#include "viewer/geometry.h"

namespace steerd::viewer {

struct ControlInput {
  float moveX = 0.0f, moveY = 0.0f;  // keyboard direction, each -1..1 (y up)
  std::optional<Point> walkTo;       // world point the pointer holds, if dragging
};

class PlayerControl {
 public:
  static constexpr float kSpeedFraction = 0.9f;  // of the server's limit
  static constexpr float kMargin = 0.5f;         // m inside the bounds

  // Places the avatar at `start` (where the server put the new player's body).
  void reset(Point start, const WorldRect& bounds, float maxSpeed, std::optional<BotPattern> bot);
  bool active() const { return active_; }
  const Motion& motion() const { return motion_; }
  bool botActive() const { return bot_.has_value(); }
  const Bot* bot() const { return bot_ ? &*bot_ : nullptr; }

  // Moves the avatar `dt` seconds.
  const Motion& update(const ControlInput& input, double dt);
  // Intent mode: the server moves the body, and the avatar is where the client predicts it
  // (walls and rocks included): the next update starts from there.
  void follow(Point position) {
    if (active_) motion_.position = area_.clamp(position);
  }

 private:
  bool active_ = false;
  Motion motion_;
  WorldRect area_;
  float speed_ = 0.0f;
  std::optional<Bot> bot_;
};

}  // namespace steerd::viewer
