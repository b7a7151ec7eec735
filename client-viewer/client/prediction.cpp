#include "client/prediction.h"

#include <algorithm>
#include <cmath>

namespace steerd::client {

void PlayerPrediction::start(const movement::PlayerState& state) {
  state_ = state;
  started_ = true;
}

void PlayerPrediction::applyInput(std::uint32_t sequence, movement::Vec2 move, float dt) {
  if (!started_) return;
  state_ = movement::stepPlayer(state_, {move, dt}, limits_, scene_);
  pending_.push_back({sequence, move, dt, state_});
  if (pending_.size() > kMaxPending) pending_.pop_front();
}

std::optional<float> PlayerPrediction::reconcile(std::uint32_t lastInput, const movement::PlayerState& server,
                                                 double now) {
  if (!started_) {
    start(server);
    lastAcknowledged_ = lastInput;
    return std::nullopt;
  }
  if (lastInput < lastAcknowledged_) return std::nullopt;  // an older report, overtaken
  std::optional<float> error;
  while (!pending_.empty() && pending_.front().sequence <= lastInput) {
    if (pending_.front().sequence == lastInput)
      error = steer::distance(pending_.front().after.position, server.position);
    pending_.pop_front();
  }
  lastAcknowledged_ = lastInput;
  // From the server's state, the inputs it has not applied yet, again.
  const movement::Vec2 before = renderPosition(now);
  movement::PlayerState replayed = server;
  for (Pending& p : pending_) {
    replayed = movement::stepPlayer(replayed, {p.move, p.dt}, limits_, scene_);
    p.after = replayed;
  }
  const float moved = steer::distance(replayed.position, state_.position);
  state_ = replayed;
  if (moved > 1e-3f) {
    ++corrections_;
    // Keep drawing where it was; the difference eases out.
    offset_ = before - state_.position;
    offsetTime_ = now;
  }
  return error;
}

movement::Vec2 PlayerPrediction::renderPosition(double now) const {
  const double age = std::max(0.0, now - offsetTime_);
  const auto left = static_cast<float>(std::exp(-age / kSmoothingSeconds));
  return state_.position + offset_ * left;
}

}  // namespace steerd::client
