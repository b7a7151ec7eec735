// steerd --replay FILE --serve: a recording played to viewers, who drive it with ReplayControl
// packets (pause, step, speed, seek) and see where it is in ReplayStatus packets. One playback
// for everyone: any watcher's control moves it for all. Every tick played is still checked
// against the recording, as in a headless replay.
//
// Time is a parameter: update(now) does what is due at `now` and says when it next has work, so
// the tests drive it on made-up time. A seek forward plays ahead unseen (muted), a slice of ticks
// per update; a seek back rebuilds the replay from its start and plays ahead to the target. Either
// way the epoch goes up, so clients drop what came before and start their baselines afresh.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "net/server_metrics.h"
#include "net/session_transport.h"
#include "record/replay.h"

namespace steerd::record {

class ReplayPlayback {
 public:
  static constexpr double kMinSpeed = 0.125;
  static constexpr double kMaxSpeed = 8.0;
  static constexpr std::int64_t kStatusIntervalNs = 200'000'000;  // ReplayStatus to every watcher
  static constexpr std::int64_t kHeldResendNs = 100'000'000;      // paused: the frame, until acked
  static constexpr std::int64_t kIdleNs = 20'000'000;             // paused: how often there is work

  // Opens the recording (as Replayer::open) and finds its last tick. Null with `result` saying
  // why. The playback waits, paused, for its first watcher.
  static std::unique_ptr<ReplayPlayback> open(const ReplayOptions& options, net::SessionTransport& live,
                                              ReplayResult& result, net::ServerMetrics* metrics);

  // Applies the watchers' controls, plays the tick due at `nowNs` (or a seek's next slice),
  // serves a paused frame, sends statuses. Returns when it next has work (<= nowNs: at once).
  std::int64_t update(std::int64_t nowNs);

  bool started() const { return started_; }  // a watcher has come
  bool ended() const { return ended_; }      // held at the end (or at a tick that differs)
  bool paused() const { return paused_; }
  bool seeking() const { return seeking_; }
  double speed() const { return speed_; }
  std::uint32_t epoch() const { return epoch_; }
  std::uint64_t firstTick() const { return firstTick_; }
  std::uint64_t lastTick() const { return lastTick_; }
  std::uint64_t tick() { return replayer_->world().tick(); }
  std::size_t watcherCount() const { return replayer_->transport().watchers().size(); }
  std::uint64_t ticksPlayed() const { return ticksPlayed_; }
  World& world() { return replayer_->world(); }
  const Header& header() const { return replayer_->header(); }
  // The verdict: the worst replay seen (a tick that differs or damage, even if a seek went back
  // past it since), else the newest.
  const ReplayResult& result() const;
  int exitCode() const { return result().exitCode(); }

 private:
  ReplayPlayback(const ReplayOptions& options, net::SessionTransport& live, net::ServerMetrics* metrics)
      : options_(options), live_(live), metrics_(metrics) {}
  void apply(const net::NetEvent& control, std::int64_t nowNs);
  void startSeek(std::uint64_t target);
  void seekSlice(std::int64_t nowNs);
  void finishSeek();
  bool playOne(std::int64_t nowNs);
  void noteEnd();
  void sendStatus();
  double periodNs() const { return 1e9 / (replayer_->tickRate() * speed_); }

  ReplayOptions options_;
  net::SessionTransport& live_;
  net::ServerMetrics* metrics_;
  std::unique_ptr<Replayer> replayer_;
  std::uint64_t firstTick_ = 0, lastTick_ = 0;
  bool started_ = false, ended_ = false, paused_ = false, seeking_ = false, stepPending_ = false;
  double speed_ = 1.0;
  std::uint32_t epoch_ = 0;
  std::uint64_t seekTarget_ = 0;
  std::int64_t nextTickNs_ = 0, nextStatusNs_ = 0, nextHeldNs_ = 0;
  bool statusNow_ = false;
  std::uint64_t ticksPlayed_ = 0;
  std::unordered_map<std::uint32_t, std::uint32_t> applied_;  // watcher -> newest request applied
  std::vector<net::NetEvent> controls_;
  std::vector<net::OutDatagram> out_;
  ReplayResult worst_;  // the first verdict that was not kEqual
  bool anyWorse_ = false;
};

}  // namespace steerd::record
