// A served replay watched through the real client library over UDP on 127.0.0.1: the client
// pauses it, seeks forward and back, steps and plays it faster; after each seek the client drops
// what it held, takes the new epoch's snapshots (whole) and shows exactly the tick the playback
// stands at. The playback runs on the test's thread on the real clock, as steerd --serve runs it.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <thread>

#include "../record/session_fixture.h"
#include "client/client.h"
#include "net/net_endpoint.h"
#include "record/replay_playback.h"

namespace steerd::record {
namespace {

using namespace std::chrono_literals;

std::int64_t steadyNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

class ReplayWatch : public ::testing::Test {
 protected:
  void SetUp() override {
    recording_ = recordSession("watch.rec", 150);
    net::NetConfig config;
    config.bind = "127.0.0.1";
    config.port = 0;
    config.replayControls = true;
    endpoint_ = std::make_unique<net::NetEndpoint>(config, metrics_);
    ReplayResult result;
    playback_ = ReplayPlayback::open({recording_.path, 1, {}, 0.0f}, *endpoint_, result, &metrics_);
    ASSERT_TRUE(playback_) << result.summary;
    endpoint_->start();
    client::ClientOptions o;
    o.server = asio::ip::udp::endpoint(asio::ip::make_address("127.0.0.1"), endpoint_->port());
    o.noBody = true;
    client_ = std::make_unique<client::Client>(io_, o);
  }
  void TearDown() override {
    client_.reset();
    endpoint_->stop();
    std::filesystem::remove(recording_.path);
  }

  // Runs the playback, the network and the client until `done` (at most 20 s: then false).
  bool until(const std::function<bool()>& done) {
    for (int i = 0; i < 20'000; ++i) {
      playback_->update(steadyNs());
      io_.restart();
      io_.poll();
      client_->update(client::Clock::now());
      if (done()) return true;
      std::this_thread::sleep_for(1ms);
    }
    return false;
  }
  wire::ReplayStatus status() const { return client_->replayStatus().value_or(wire::ReplayStatus{}); }
  // The playback stands at `tick` (not seeking, every control applied) and the client has it.
  bool standsAt(std::uint32_t tick) {
    const wire::SnapshotRecord* newest = client_->latestSnapshot();
    return client_->replayControlsPending() == 0 && !status().seeking() && status().tick() == tick &&
           newest != nullptr && newest->tick == tick;
  }

  Recorded recording_;
  net::ServerMetrics metrics_;
  std::unique_ptr<net::NetEndpoint> endpoint_;
  std::unique_ptr<ReplayPlayback> playback_;
  asio::io_context io_;
  std::unique_ptr<client::Client> client_;
};

TEST_F(ReplayWatch, PauseSeekStepAndSpeedThroughTheClientLibrary) {
  ASSERT_TRUE(client_->connect());
  ASSERT_TRUE(until([&] { return client_->replayStatus() && client_->latestSnapshot() != nullptr; }));
  EXPECT_EQ(status().last_tick(), 150u);

  client_->controlReplay(wire::REPLAY_PAUSE);
  client_->controlReplay(wire::REPLAY_SEEK, 1.0f, 100);
  ASSERT_TRUE(until([&] { return standsAt(100); })) << status().DebugString();
  EXPECT_TRUE(status().paused());
  EXPECT_EQ(status().epoch(), 1u);
  // Standing still, the client shows exactly the tick the playback stands at.
  EXPECT_EQ(client_->renderTickAt(client::Clock::now()), 100.0);
  client::Sample sample;
  client_->sample(client::Clock::now(), sample);
  EXPECT_EQ(sample.fromTick, 100u);
  EXPECT_EQ(sample.entities.size(), playback_->world().agentCount());

  // Back: a new epoch; the client's older ticks are gone, not mixed in.
  client_->controlReplay(wire::REPLAY_SEEK, 1.0f, 30);
  ASSERT_TRUE(until([&] { return standsAt(30); })) << status().DebugString();
  EXPECT_EQ(status().epoch(), 2u);
  EXPECT_EQ(client_->interpolation().newestTick(), 30u);
  EXPECT_EQ(client_->interpolation().oldestTick(), 30u);
  EXPECT_GE(client_->stats().replayEpochs, 2u);

  client_->controlReplay(wire::REPLAY_STEP);
  ASSERT_TRUE(until([&] { return standsAt(31); })) << status().DebugString();

  // Faster: ticks come twice as fast, and the client's clock runs with them.
  client_->controlReplay(wire::REPLAY_SPEED, 2.0f);
  client_->controlReplay(wire::REPLAY_PLAY);
  ASSERT_TRUE(until([&] { return status().tick() >= 60 && !status().paused(); })) << status().DebugString();
  EXPECT_EQ(status().speed(), 2.0f);
  ASSERT_TRUE(until([&] { return playback_->ended(); }));
  EXPECT_EQ(playback_->result().outcome, ReplayResult::Outcome::kEqual) << playback_->result().summary;
  EXPECT_EQ(playback_->world().stateHash(), recording_.hash);
  ASSERT_TRUE(until([&] { return status().ended(); }));
  EXPECT_EQ(status().verdict().rfind("replay ok", 0), 0u) << status().verdict();
  EXPECT_EQ(client_->stats().decodeFailures(), 0u);
}

}  // namespace
}  // namespace steerd::record
