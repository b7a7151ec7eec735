// The client's own player: the inputs it sends (at the input rate, each carrying the newest three
// before it against loss, and the snapshot acknowledgement), and in intent mode the prediction
// of the body from those inputs, reconciled with each Snapshot.own (client/prediction.h). Time is
// a parameter; inputs go to an outbox.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "client/client_options.h"
#include "client/packet_outbox.h"
#include "client/prediction.h"
#include "client/snapshot_header.h"
#include "proto/scene_codec.h"

namespace steerd::client {

// The scene the server steps players against, as the client holds it (null until the static
// scene is whole), and a number that changes whenever it does (a scene change came).
struct SceneAt {
  SceneAt(const wire::SceneGeometry* g = nullptr, std::uint64_t gen = 0) : geometry(g), generation(gen) {}
  const wire::SceneGeometry* geometry;
  std::uint64_t generation;
};

class OwnPlayer {
 public:
  // Prediction errors kept between takeErrors() calls, at most.
  static constexpr std::size_t kMaxErrors = 4096;

  // `options` must outlive the player.
  explicit OwnPlayer(const ClientOptions& options) : options_(options) {}

  // Position mode: where the player wants to be and how fast it moves.
  void setPosition(float x, float y, float vx, float vy);
  // Intent mode: the direction to move in (length <= 1: the share of max speed).
  void setMove(float mx, float my);

  // Connected: inputs start now, and in intent mode the prediction with the server's limits.
  void start(const ServerInfo& server, TimePoint now);
  // An Input when one is due: the player's newest inputs (none before setPosition/setMove) and
  // the acknowledgement of snapshot `ackTick` of epoch `ackEpoch`. `scene`: the scene once the static
  // scene is whole (null before), which the prediction then collides with, as the server does.
  void update(TimePoint now, std::uint32_t ackTick, std::uint32_t ackEpoch, SceneAt scene, PacketOutbox& out);
  // Snapshot.own of snapshot `tick`: kept when newest; in intent mode the prediction is
  // reconciled with it and its error measured. False when its numbers are not finite (ignored).
  bool onOwn(std::uint32_t tick, const SnapshotOwn& own, TimePoint now, SceneAt scene);

  std::optional<OwnPlayerState> own() const { return own_; }
  std::optional<PredictedPlayer> predicted(TimePoint now) const;
  void takeErrors(std::vector<float>& out);
  std::uint32_t inputSequence() const { return inputSequence_; }

  struct Counters {
    std::uint64_t samples = 0;  // reports compared with what was predicted
    double errorSumM = 0.0, errorMaxM = 0.0;
    std::uint64_t corrections = 0;
  };
  const Counters& counters() const { return counters_; }

 private:
  struct Sample {
    std::uint32_t sequence = 0;
    float x = 0, y = 0, vx = 0, vy = 0;  // position mode
    float mx = 0, my = 0, dt = 0;        // intent mode
  };
  void send(std::uint32_t ackTick, std::uint32_t ackEpoch, SceneAt scene, PacketOutbox& out);
  void useScene(SceneAt scene);
  steer::BodyLimits limits() const;

  const ClientOptions& options_;
  ServerInfo server_;
  bool have_ = false;
  Sample player_;
  std::array<Sample, 4> history_{};  // newest first
  std::size_t historyCount_ = 0;
  std::uint32_t inputSequence_ = 0;
  TimePoint nextInputAt_{};
  wire::Packet packet_;  // reused: a cleared Input keeps its memory for the next

  std::optional<OwnPlayerState> own_;
  PlayerPrediction prediction_;
  bool predictionHasScene_ = false;
  std::uint64_t sceneGeneration_ = 0;  // of the scene the prediction collides with
  std::vector<float> errors_;          // since takeErrors, m
  Counters counters_;
};

}  // namespace steerd::client
