// Client-side prediction of the player in intent mode (issue 18): every input the client sends is
// applied at once with the server's own model (server/movement/player_motion.h) and kept until
// the server says it applied it (Snapshot.own). Then the prediction restarts from the server's
// exact state and replays the inputs the server has not applied yet. What that moves the player
// by is a correction; it is shown eased out over kSmoothingSeconds rather than as a jump.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

#include "movement/player_motion.h"

namespace steerd::client {

class PlayerPrediction {
 public:
  // Eased-out corrections: the offset left after t seconds is exp(-t / kSmoothingSeconds).
  static constexpr double kSmoothingSeconds = 0.1;
  // Inputs kept for replay at most (a server that never answers must not grow this forever).
  static constexpr std::size_t kMaxPending = 256;

  PlayerPrediction() = default;
  PlayerPrediction(const steer::BodyLimits& limits, movement::CollisionScene scene)
      : limits_(limits), scene_(std::move(scene)) {}
  // A fuller scene (the static scene arrived): later steps and replays use it.
  void setScene(movement::CollisionScene scene) { scene_ = std::move(scene); }

  bool started() const { return started_; }
  // Where to start before the server said anything about an input (its first Snapshot.own).
  void start(const movement::PlayerState& state);
  // An input sent now: stepped at once.
  void applyInput(std::uint32_t sequence, movement::Vec2 move, float dt);
  // The server's state after input `lastInput` (0: none yet). Returns the prediction's error for
  // that input (distance between where it predicted and where the server has it) when it had
  // predicted it; nothing for an older report. `now` is seconds on any clock the caller keeps.
  std::optional<float> reconcile(std::uint32_t lastInput, const movement::PlayerState& server, double now);

  // After every input sent.
  const movement::PlayerState& state() const { return state_; }
  // The position to draw at `now`: the prediction plus what is left of the last corrections.
  movement::Vec2 renderPosition(double now) const;
  std::size_t pending() const { return pending_.size(); }
  std::uint64_t corrections() const { return corrections_; }  // reconciles that moved it (> 1 mm)

 private:
  struct Pending {
    std::uint32_t sequence = 0;
    movement::Vec2 move;
    float dt = 0.0f;
    movement::PlayerState after;  // predicted, after this input
  };
  steer::BodyLimits limits_;
  movement::CollisionScene scene_;
  bool started_ = false;
  movement::PlayerState state_;
  std::deque<Pending> pending_;
  std::uint32_t lastAcknowledged_ = 0;
  movement::Vec2 offset_;  // correction still shown, at offsetTime_
  double offsetTime_ = 0.0;
  std::uint64_t corrections_ = 0;
};

}  // namespace steerd::client
