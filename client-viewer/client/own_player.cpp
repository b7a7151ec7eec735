#include "client/own_player.h"

#include <algorithm>
#include <cmath>

#include "client/durations.h"
#include "movement/wire_collision.h"

namespace steerd::client {

namespace {

double secondsOf(TimePoint t) { return std::chrono::duration<double>(t.time_since_epoch()).count(); }

}  // namespace

void OwnPlayer::setPosition(float x, float y, float vx, float vy) {
  have_ = true;
  player_ = {0, x, y, vx, vy, 0, 0, 0};
}

void OwnPlayer::setMove(float mx, float my) {
  have_ = true;
  player_ = {0, 0, 0, 0, 0, mx, my, 0};
}

steer::BodyLimits OwnPlayer::limits() const {
  steer::BodyLimits l;
  l.radius = server_.playerLimits.radius;
  l.mass = server_.playerLimits.mass;
  l.maxSpeed = server_.playerLimits.maxSpeed;
  l.maxForce = server_.playerLimits.maxForce;
  l.maxTurnRate = server_.playerLimits.maxTurnRate;
  return l;
}

void OwnPlayer::start(const ServerInfo& server, TimePoint now) {
  server_ = server;
  if (server_.playerIntents) {
    // Bounds only until the static scene is whole (then useScene adds its shapes).
    prediction_ = PlayerPrediction(
        limits(), movement::CollisionScene(server_.minX, server_.minY, server_.maxX, server_.maxY, {}, {}));
    predictionHasScene_ = false;
  }
  nextInputAt_ = now;
}

// The server steps players against the scene as it sends it: once the client has it whole, and
// again after each change it hears of, so does the prediction.
void OwnPlayer::useScene(SceneAt scene) {
  if (scene.geometry == nullptr || (predictionHasScene_ && scene.generation == sceneGeneration_)) return;
  prediction_.setScene(
      movement::collisionSceneOf(*scene.geometry, server_.minX, server_.minY, server_.maxX, server_.maxY));
  predictionHasScene_ = true;
  sceneGeneration_ = scene.generation;
}

void OwnPlayer::update(TimePoint now, std::uint32_t ackTick, std::uint32_t ackEpoch, SceneAt scene,
                       PacketOutbox& out) {
  if (now < nextInputAt_) return;
  send(ackTick, ackEpoch, scene, out);
  const auto interval = toDuration(std::chrono::duration<double>(1.0 / options_.inputRateHz));
  nextInputAt_ += interval;
  if (nextInputAt_ <= now) nextInputAt_ = now + interval;  // late: no burst to catch up
}

void OwnPlayer::send(std::uint32_t ackTick, std::uint32_t ackEpoch, SceneAt scene, PacketOutbox& out) {
  wire::Input* in = packet_.mutable_input();
  in->Clear();
  if (have_) {
    std::move_backward(history_.begin(), history_.begin() + 3, history_.end());
    history_[0] = player_;
    history_[0].sequence = ++inputSequence_;
    // An intent is one input interval long (the server spends real time on it, not more).
    history_[0].dt = server_.playerIntents ? static_cast<float>(1.0 / options_.inputRateHz) : 0.0f;
    if (server_.playerIntents) {
      useScene(scene);
      prediction_.applyInput(history_[0].sequence, {history_[0].mx, history_[0].my}, history_[0].dt);
    }
    historyCount_ = std::min<std::size_t>(historyCount_ + 1, history_.size());
    for (std::size_t i = 0; i < historyCount_; ++i) {
      auto* pi = in->add_inputs();
      pi->set_sequence(history_[i].sequence);
      if (server_.playerIntents) {
        pi->set_move_x(history_[i].mx);
        pi->set_move_y(history_[i].my);
        pi->set_dt(history_[i].dt);
      } else {
        pi->set_x(history_[i].x);
        pi->set_y(history_[i].y);
        pi->set_vx(history_[i].vx);
        pi->set_vy(history_[i].vy);
      }
    }
  }
  in->set_ack_snapshot(ackTick);
  in->set_ack_epoch(ackEpoch);
  out.post(packet_);
}

bool OwnPlayer::onOwn(std::uint32_t tick, const SnapshotOwn& o, TimePoint now, SceneAt scene) {
  if (own_ && tick <= own_->tick) return true;  // newest tick wins
  // Checked like any peer's numbers before anyone reconciles against them.
  if (!std::isfinite(o.x) || !std::isfinite(o.y) || !std::isfinite(o.vx) || !std::isfinite(o.vy))
    return false;
  own_ = OwnPlayerState{tick, o.lastInput, o.x, o.y, o.vx, o.vy};
  if (!server_.playerIntents) return true;
  useScene(scene);
  const std::optional<float> error =
      prediction_.reconcile(o.lastInput, {{o.x, o.y}, {o.vx, o.vy}}, secondsOf(now));
  if (error) {
    if (errors_.size() < kMaxErrors) errors_.push_back(*error);
    ++counters_.samples;
    counters_.errorSumM += *error;
    counters_.errorMaxM = std::max(counters_.errorMaxM, static_cast<double>(*error));
  }
  counters_.corrections = prediction_.corrections();
  return true;
}

std::optional<PredictedPlayer> OwnPlayer::predicted(TimePoint now) const {
  if (!server_.playerIntents || !prediction_.started()) return std::nullopt;
  const movement::Vec2 at = prediction_.renderPosition(secondsOf(now));
  return PredictedPlayer{at.x, at.y, prediction_.state().velocity.x, prediction_.state().velocity.y};
}

void OwnPlayer::takeErrors(std::vector<float>& out) {
  out.insert(out.end(), errors_.begin(), errors_.end());
  errors_.clear();
}

}  // namespace steerd::client
