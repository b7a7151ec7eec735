// steer-director's match script, the game logic a real game would run against steerd's control
// channel: an opening wave of NPCs, a wave for every player that joins (spawned around it), the
// wave sent every few seconds to where its player was last seen (a Query, then MoveTo), and the
// wave removed when its player leaves. Pure: commands go out through `send`, results and events
// come in through onMessage, time is a parameter; tests drive it without a server.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "proto/wire.pb.h"

namespace steerd::director {

struct MatchConfig {
  std::string archetype;      // what waves are made of
  int opening = 6;            // NPCs spawned at the start, round the middle of the world
  int wave = 3;               // NPCs per player that joins
  float ring = 12.0f;         // m: a wave spawns on a circle this wide round its player
  double chaseSeconds = 5.0;  // how often a wave is sent to its player's last position
};

struct WorldBounds {
  float minX = 0, minY = 0, maxX = 100, maxY = 100;
};

class Match {
 public:
  // Sends one command; returns its sequence (0: not sent).
  using Send = std::function<std::uint32_t(control::Command)>;

  Match(MatchConfig config, WorldBounds bounds, Send send);

  // Subscribes to every event and spawns the opening wave.
  void start(double now);
  void onMessage(const wire::ControlMessage& message);
  void update(double now);

  std::size_t players() const { return waves_.size(); }
  std::size_t waveAgents() const;
  std::uint64_t errors() const { return errors_; }

 private:
  enum class Purpose : std::uint8_t { kOpening, kWave, kChase, kOther };
  struct Pending {
    Purpose purpose = Purpose::kOther;
    std::uint32_t player = 0;
  };
  void send(control::Command c, Purpose purpose, std::uint32_t player = 0);
  void spawnRing(float x, float y, int count, Purpose purpose, std::uint32_t player);
  void onResult(const control::CommandResult& r);
  void onEvent(const control::Event& e);

  MatchConfig config_;
  WorldBounds bounds_;
  Send send_;
  std::map<std::uint32_t, Pending> pending_;                   // by command sequence
  std::map<std::uint32_t, std::vector<std::uint32_t>> waves_;  // player id -> its NPCs
  std::vector<std::uint32_t> opening_;
  double nextChase_ = 0.0;
  std::uint64_t errors_ = 0;
};

}  // namespace steerd::director
