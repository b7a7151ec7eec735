// steerd --replay --serve's playback on made-up time: it waits for a watcher, plays at the speed
// asked, pauses and steps (each request once, however often it is resent), seeks forward and back
// onto exactly the recorded world (the hash a headless replay has at that tick), sends nothing
// while it seeks and starts a new epoch after, holds at the end, and shrugs off hostile controls.
#include "record/replay_playback.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "proto/packet.h"
#include "session_fixture.h"

namespace steerd::record {
namespace {

constexpr std::uint32_t kWatcher = 7;

net::NetEvent replayControl(std::uint32_t client, std::uint32_t request, wire::ReplayAction action,
                            float speed = 1.0f, std::uint32_t tick = 0) {
  net::NetEvent e;
  e.kind = net::NetEvent::Kind::kReplayControl;
  e.clientId = client;
  e.replay.set_request(request);
  e.replay.set_action(action);
  e.replay.set_speed(speed);
  e.replay.set_tick(tick);
  return e;
}

// The world's hash after `tick` ticks of a headless replay of `path`.
std::uint64_t hashAt(const std::string& path, std::uint64_t tick) {
  ReplayResult result;
  auto r = Replayer::open({path, 1, {}, 0.0f}, nullptr, result);
  EXPECT_TRUE(r) << result.summary;
  if (!r) return 0;
  while (r->world().tick() < tick) {
    if (!r->next(static_cast<std::int64_t>(r->world().tick() + 1) * 33'333'333)) break;
  }
  EXPECT_EQ(r->world().tick(), tick);
  return r->world().stateHash();
}

class Playback : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { recording_ = new Recorded(recordSession("playback.rec", 120)); }
  static void TearDownTestSuite() {
    std::filesystem::remove(recording_->path);
    delete recording_;
  }

  void SetUp() override {
    ReplayResult result;
    playback_ = ReplayPlayback::open({recording_->path, 2, {}, 0.0f}, live_, result, nullptr);
    ASSERT_TRUE(playback_) << result.summary;
  }

  // Runs the playback for `seconds` of made-up time, waking when it asks to (at least every ms).
  void run(double seconds) {
    const std::int64_t end = now_ + static_cast<std::int64_t>(seconds * 1e9);
    while (now_ < end) now_ = std::max(playback_->update(now_), now_ + 1'000'000);
  }
  void send(wire::ReplayAction action, float speed = 1.0f, std::uint32_t tick = 0) {
    live_.events.push_back(replayControl(kWatcher, ++request_, action, speed, tick));
  }
  void connectWatcher(std::uint32_t id = kWatcher) {
    live_.events.push_back(join(id));
    run(0.05);
  }

  // What went to `client` since the last call, decoded.
  struct Received {
    std::vector<wire::ReplayStatus> statuses;
    std::vector<wire::Snapshot> snapshots;
    std::size_t accepts = 0;
    std::vector<wire::DebugInfo> debugInfos;
  };
  Received take(std::uint32_t client = kWatcher) {
    Received out;
    std::vector<net::OutDatagram> rest;
    for (net::OutDatagram& d : live_.sent) {
      if (d.clientId != client) {
        rest.push_back(std::move(d));
        continue;
      }
      wire::Decoded decoded;
      wire::decodeDatagram(d.bytes, decoded);
      EXPECT_EQ(decoded.drop, wire::DropReason::kNone);
      if (decoded.packet.has_replay_status()) out.statuses.push_back(decoded.packet.replay_status());
      if (decoded.packet.has_snapshot()) out.snapshots.push_back(decoded.packet.snapshot());
      if (decoded.packet.has_accept()) ++out.accepts;
      if (decoded.packet.has_debug_info()) out.debugInfos.push_back(decoded.packet.debug_info());
    }
    live_.sent = std::move(rest);
    return out;
  }

  static Recorded* recording_;
  CollectingTransport live_;
  std::unique_ptr<ReplayPlayback> playback_;
  std::int64_t now_ = 5'000'000'000;
  std::uint32_t request_ = 0;
};
Recorded* Playback::recording_ = nullptr;

TEST_F(Playback, WaitsForAWatcherThenPlaysInRealTime) {
  run(1.0);
  EXPECT_FALSE(playback_->started());
  EXPECT_EQ(playback_->ticksPlayed(), 0u);
  EXPECT_EQ(playback_->firstTick(), 0u);
  EXPECT_EQ(playback_->lastTick(), 120u);

  connectWatcher();
  EXPECT_TRUE(playback_->started());
  const std::uint64_t before = playback_->ticksPlayed();
  run(1.0);
  // 30 Hz of made-up time: 30 ticks, give or take the one on the boundary.
  EXPECT_NEAR(static_cast<double>(playback_->ticksPlayed() - before), 30.0, 1.0);
  const Received got = take();
  EXPECT_EQ(got.accepts, 1u);
  ASSERT_FALSE(got.statuses.empty());
  EXPECT_EQ(got.statuses.back().last_tick(), 120u);
  EXPECT_FALSE(got.statuses.back().paused());
  // Five statuses a second: the newest is at most 200 ms (6 ticks) behind.
  EXPECT_LE(playback_->tick() - got.statuses.back().tick(), 6u);
  EXPECT_GE(got.statuses.size(), 5u);
  // A snapshot after every tick, whatever the recording's send rate: a step must show.
  EXPECT_GE(got.snapshots.size(), 30u);
}

TEST_F(Playback, PausesStepsOnceAndChangesSpeed) {
  connectWatcher();
  run(0.5);
  send(wire::REPLAY_PAUSE);
  run(0.1);
  const std::uint64_t paused = playback_->tick();
  run(1.0);
  EXPECT_TRUE(playback_->paused());
  EXPECT_EQ(playback_->tick(), paused);

  send(wire::REPLAY_STEP);
  run(0.2);
  EXPECT_EQ(playback_->tick(), paused + 1);
  // The same request again (a resend that crossed the status): applied once only.
  live_.events.push_back(replayControl(kWatcher, request_, wire::REPLAY_STEP));
  run(0.2);
  EXPECT_EQ(playback_->tick(), paused + 1);
  Received got = take();
  ASSERT_FALSE(got.statuses.empty());
  EXPECT_EQ(got.statuses.back().control_applied(), request_);
  EXPECT_TRUE(got.statuses.back().paused());
  ASSERT_FALSE(got.snapshots.empty());
  EXPECT_EQ(got.snapshots.back().tick(), paused + 1);

  send(wire::REPLAY_SPEED, 2.0f);
  send(wire::REPLAY_PLAY);
  run(0.05);
  const std::uint64_t from = playback_->tick();
  run(1.0);
  EXPECT_NEAR(static_cast<double>(playback_->tick() - from), 60.0, 2.0);
  send(wire::REPLAY_SPEED, std::numeric_limits<float>::quiet_NaN());
  run(0.05);
  EXPECT_EQ(playback_->speed(), 2.0);
  send(wire::REPLAY_SPEED, 1000.0f);
  run(0.05);
  EXPECT_EQ(playback_->speed(), ReplayPlayback::kMaxSpeed);
  send(wire::REPLAY_SPEED, 0.0f);
  run(0.05);
  EXPECT_EQ(playback_->speed(), ReplayPlayback::kMinSpeed);
}

TEST_F(Playback, SeeksForwardAndBackOntoTheRecordedWorld) {
  connectWatcher();
  send(wire::REPLAY_PAUSE);
  run(0.2);
  take();
  const std::uint64_t from = playback_->tick();
  send(wire::REPLAY_SEEK, 1.0f, 90);
  run(0.5);
  EXPECT_FALSE(playback_->seeking());
  EXPECT_EQ(playback_->tick(), 90u);
  EXPECT_EQ(playback_->world().stateHash(), hashAt(recording_->path, 90));
  EXPECT_EQ(playback_->epoch(), 1u);
  Received got = take();
  // Nothing of the ticks played on the way; the frame it landed on, whole, in the new epoch.
  ASSERT_FALSE(got.snapshots.empty());
  for (const wire::Snapshot& s : got.snapshots) {
    EXPECT_TRUE(s.tick() <= from || s.tick() == 90u) << s.tick();
  }
  EXPECT_EQ(got.snapshots.back().tick(), 90u);
  EXPECT_EQ(got.snapshots.back().epoch(), 1u);
  EXPECT_EQ(got.snapshots.back().baseline_tick(), 0u);
  ASSERT_FALSE(got.statuses.empty());
  EXPECT_EQ(got.statuses.back().epoch(), 1u);
  EXPECT_FALSE(got.statuses.back().seeking());

  // Back: the replay starts over from the recording's first tick and plays ahead, unseen.
  send(wire::REPLAY_SEEK, 1.0f, 20);
  run(0.5);
  EXPECT_EQ(playback_->tick(), 20u);
  EXPECT_EQ(playback_->world().stateHash(), hashAt(recording_->path, 20));
  EXPECT_EQ(playback_->epoch(), 2u);
  EXPECT_EQ(playback_->watcherCount(), 1u);
  got = take();
  ASSERT_FALSE(got.snapshots.empty());
  EXPECT_EQ(got.snapshots.back().tick(), 20u);
  EXPECT_EQ(got.snapshots.back().epoch(), 2u);

  // Played on from there, every tick still checked: the replay is as good as ever.
  send(wire::REPLAY_SPEED, 8.0f);
  send(wire::REPLAY_PLAY);
  run(1.0);
  EXPECT_TRUE(playback_->ended());
  EXPECT_EQ(playback_->result().outcome, ReplayResult::Outcome::kEqual);
  EXPECT_EQ(playback_->world().stateHash(), recording_->hash);
  EXPECT_EQ(playback_->exitCode(), 0);
}

TEST_F(Playback, HoldsAtTheEndUntilPlayedAgain) {
  connectWatcher();
  send(wire::REPLAY_SPEED, 8.0f);
  run(1.0);
  ASSERT_TRUE(playback_->ended());
  EXPECT_EQ(playback_->tick(), 120u);
  run(1.0);
  EXPECT_EQ(playback_->tick(), 120u);
  Received got = take();
  ASSERT_FALSE(got.statuses.empty());
  EXPECT_TRUE(got.statuses.back().ended());
  EXPECT_EQ(got.statuses.back().verdict().rfind("replay ok: 120 ticks", 0), 0u)
      << got.statuses.back().verdict();
  // A step at the end changes nothing; play starts again from the first tick.
  send(wire::REPLAY_STEP);
  run(0.1);
  EXPECT_EQ(playback_->tick(), 120u);
  send(wire::REPLAY_PLAY);
  run(0.05);  // 12 ticks at 8x
  EXPECT_FALSE(playback_->ended());
  EXPECT_LT(playback_->tick(), 30u);
  EXPECT_EQ(playback_->epoch(), 1u);
}

TEST_F(Playback, AWatcherJoiningWhilePausedGetsTheFrame) {
  connectWatcher();
  run(0.3);
  send(wire::REPLAY_PAUSE);
  run(0.1);
  take(8);
  connectWatcher(8);
  run(0.3);
  EXPECT_EQ(playback_->watcherCount(), 2u);
  const Received got = take(8);
  EXPECT_EQ(got.accepts, 1u);
  ASSERT_FALSE(got.snapshots.empty());
  EXPECT_EQ(got.snapshots.back().tick(), playback_->tick());
  ASSERT_FALSE(got.statuses.empty());
  EXPECT_TRUE(got.statuses.back().paused());
  EXPECT_EQ(got.statuses.back().control_applied(), 0u);  // it sent nothing
}

TEST_F(Playback, PausedTheInspectorIsAnsweredEachTimeItAsks) {
  connectWatcher();
  send(wire::REPLAY_PAUSE);
  run(0.2);
  take();
  net::NetEvent select;
  select.kind = net::NetEvent::Kind::kDebugSelect;
  select.clientId = kWatcher;
  select.debug.set_agent_id(playback_->world().agents().id[0]);
  live_.events.push_back(select);
  run(0.5);
  Received got = take();
  ASSERT_EQ(got.debugInfos.size(), 1u);  // once per request: the tick stands still
  EXPECT_TRUE(got.debugInfos[0].found());
  EXPECT_EQ(got.debugInfos[0].tick(), playback_->tick());
  live_.events.push_back(select);  // the client repeats it every second
  run(0.5);
  EXPECT_EQ(take().debugInfos.size(), 1u);
}

// A watcher that connects while a seek plays ahead joins the session after it: nothing, a status
// included, goes to it before its Accept (the client could not open a sealed packet yet).
TEST_F(Playback, AWatcherConnectingDuringASeekGetsItsAcceptFirst) {
  connectWatcher();
  send(wire::REPLAY_PAUSE);
  send(wire::REPLAY_SEEK, 1.0f, 110);
  live_.events.push_back(join(8));
  run(0.5);
  EXPECT_EQ(playback_->tick(), 110u);
  ASSERT_FALSE(live_.sent.empty());
  std::size_t first = live_.sent.size();
  for (std::size_t k = 0; k < live_.sent.size(); ++k) {
    if (live_.sent[k].clientId == 8) {
      first = k;
      break;
    }
  }
  ASSERT_LT(first, live_.sent.size());
  wire::Decoded decoded;
  wire::decodeDatagram(live_.sent[first].bytes, decoded);
  EXPECT_TRUE(decoded.packet.has_accept()) << decoded.packet.DebugString();
  EXPECT_FALSE(take(8).statuses.empty());  // and statuses after it
}

TEST_F(Playback, HostileControlsAreClampedOrIgnored) {
  connectWatcher();
  send(wire::REPLAY_PAUSE);
  send(wire::REPLAY_SEEK, 1.0f, 4'000'000'000u);  // past the end: the end
  run(1.0);
  EXPECT_EQ(playback_->tick(), 120u);
  const std::uint64_t at = playback_->tick();
  live_.events.push_back(replayControl(kWatcher, ++request_, static_cast<wire::ReplayAction>(99)));
  live_.events.push_back(replayControl(kWatcher, 0, wire::REPLAY_PLAY));  // request 0: never new
  run(0.5);
  EXPECT_EQ(playback_->tick(), at);
  EXPECT_TRUE(playback_->paused());
  EXPECT_EQ(playback_->result().outcome, ReplayResult::Outcome::kEqual);
}

}  // namespace
}  // namespace steerd::record
