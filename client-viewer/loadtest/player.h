// One simulated player: a Client (the same library the viewer uses), optionally behind an
// ImpairedRelay, a Mover, and what the player feels, measured.
//
// Everything a player does runs on its client's strand: a timer at the input rate samples the
// interpolation buffer, moves, calls setPlayer and update(); the client's snapshot hook records
// snapshot intervals. What it measured sits in a PlayerRecord behind a mutex, so the reporter can
// read it from another thread while the player runs.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "client/client.h"
#include "loadtest/impairment.h"
#include "loadtest/movement.h"
#include "loadtest/relay.h"
#include "loadtest/series.h"
#include "loadtest/snapshot_timing.h"
#include "loadtest/view_loss.h"

namespace steerd::loadtest {

struct PlayerRecord {
  bool started = false;
  bool everConnected = false;
  bool left = false;       // we disconnected it at the end
  bool churned = false;    // we disconnected it before the end (--churn-per-second), and replaced it
  bool fullDecode = true;  // decodes snapshots whole (positions); false: light (PlayerSettings)
  client::ClientState state = client::ClientState::kIdle;
  std::string message;  // why refused, timed out, disconnected or failed
  std::array<std::vector<float>, kSeriesCount> series;
  std::array<std::uint64_t, 5> sampleKinds{};  // by client::SampleKind
  std::uint64_t snapshots = 0, snapshotParts = 0, snapshotsAbandoned = 0, decodeFailures = 0;
  std::uint64_t snapshotsSeen = 0;          // complete and newer than any before (live: each arrival)
  double tickRateHz = 0, sendRateHz = 0;    // the server's, from Accept (0 before it)
  std::uint64_t predictionCorrections = 0;  // intent mode: reconciles that moved the prediction
  std::uint64_t bytesIn = 0, bytesOut = 0, datagramsIn = 0, datagramsOut = 0, sendFailures = 0;
  RelayCounters relay;
  ViewLossCounts viewLoss;
  double kbpsIn = 0.0, kbpsOut = 0.0;  // the last full second
};

struct PlayerSettings {
  std::size_t index = 0;
  asio::ip::udp::endpoint server;
  std::string token;
  Pattern pattern = Pattern::kWalk;
  std::uint64_t seed = 1;
  ImpairmentConfig impairment;
  double inputRateHz = 30.0;      // ticks: update(), moving, setPlayer
  double viewRateHz = 10.0;       // samples of the interpolation buffer (at most the input rate)
  std::size_t baselineRing = 32;  // bounds memory: each record holds every entity in view
  std::size_t interpolationCapacity = 16;
  // Decode every snapshot whole: the NPCs lost from view, entities in view and chase/flee targets
  // need positions. false: light snapshots (client::ClientOptions::decodeEntities), which cost a
  // fraction; the player measures everything else the same (snapshot intervals, stalls and sample
  // kinds from the ticks, RTT, rates, prediction) and walks instead of chasing or fleeing.
  bool fullDecode = true;
};

class Player {
 public:
  Player(asio::io_context& io, PlayerSettings settings);
  ~Player();
  Player(const Player&) = delete;
  Player& operator=(const Player&) = delete;

  // Both may be called from any thread; the work runs on the player's strand.
  void start();
  // Stops ticking, closes an open stall, says Disconnect if connected, and records the final
  // counters; then `done` runs (on the strand). `churned`: it leaves before the end of the run
  // (PlayerRecord::churned), not at it (PlayerRecord::left).
  void leave(std::function<void()> done, bool churned = false);
  // Closes the relay (after leave(), once its Disconnect had time to get through).
  void close(std::function<void()> done);
  // After leave(): closes the relay and frees the client (its snapshot ring); the record stays.
  // leave() and close() may still be called; they do nothing more.
  void retire();
  bool fullDecode() const { return settings_.fullDecode; }

  // Runs `f` with the record, under the player's lock.
  template <class F>
  void read(F&& f) const {
    std::lock_guard lock(mutex_);
    f(record_);
  }

 private:
  void arm(std::chrono::steady_clock::time_point at);
  void onTick();
  void onSnapshot(std::uint32_t tick, client::TimePoint arrival);
  void onConnected(client::TimePoint now);
  void observeSample(client::TimePoint now);
  std::optional<Point> nearestNpc() const;
  void perSecond(client::TimePoint now);
  void copyCounters(client::TimePoint now);
  void copyStats(const client::ClientStats& s);  // caller holds the lock
  void push(Series s, double value);             // caller holds the lock
  std::vector<float> predictionErrors_;          // scratch for copyStats

  std::shared_ptr<ImpairedRelay> makeRelay(asio::io_context& io);
  std::unique_ptr<client::Client> makeClient(asio::io_context& io);

  PlayerSettings settings_;
  std::string relayError_;
  std::shared_ptr<ImpairedRelay> relay_;
  std::unique_ptr<client::Client> client_;
  client::Client::Executor strand_;  // the client's: every handler of the player runs on it
  asio::steady_timer timer_;
  std::chrono::nanoseconds period_;
  std::chrono::nanoseconds phaseOffset_{0};  // the player's slot on the tick grid (player.cpp)
  client::TimePoint scheduled_{}, lastMove_{}, connectStarted_{}, nextSecond_{}, nextView_{};
  std::chrono::nanoseconds viewPeriod_;
  bool ticking_ = false, connected_ = false, ratesValid_ = false;
  std::optional<Mover> mover_;
  std::int64_t playerArchetype_ = -1;
  double tickRate_ = 30.0;
  client::Sample sample_;
  // Stalls: when the current one began, and when the first snapshot after that arrived.
  bool inStall_ = false, stallEndSeen_ = false;
  client::TimePoint stallStart_{}, stallEnd_{};
  SnapshotIntervalMeter snapshotMeter_;
  std::optional<client::TimePoint> lastHandled_;  // when the newest snapshot was handled
  std::optional<ViewLossTracker> viewLoss_;       // once connected
  std::vector<double> gaps_;

  mutable std::mutex mutex_;
  PlayerRecord record_;
};

}  // namespace steerd::loadtest
