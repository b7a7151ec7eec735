// The own player's inputs and prediction on simulated time (client/own_player.h): the input rate
// without bursts, the newest four inputs in each Input, the acknowledgement, intents one input
// interval long, reconciliation with Snapshot.own and its numbers checked.
#include "client/own_player.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "recording_outbox.h"

namespace steerd::client {
namespace {

using namespace std::chrono_literals;
using test::RecordingOutbox;

ClientOptions options() {
  ClientOptions o;
  o.inputRateHz = 20.0;
  return o;
}

ServerInfo intentServer() {
  ServerInfo s;
  s.tickRate = 30;
  s.sendRate = 15;
  s.minX = s.minY = -100;
  s.maxX = s.maxY = 100;
  s.playerLimits = {0.5f, 1.0f, 4.0f, 40.0f, 20.0f};
  s.playerIntents = true;
  return s;
}

TEST(ClientOwnPlayer, InputsGoAtTheRateWithoutABurstAfterAStall) {
  const ClientOptions o = options();
  OwnPlayer player(o);
  RecordingOutbox out;
  const TimePoint t0 = test::simulatedStart();
  player.start(ServerInfo{}, t0);
  for (TimePoint t = t0; t < t0 + 1s; t += 1ms) player.update(t, 0, 0, nullptr, out);
  EXPECT_EQ(out.packets.size(), 20u);
  // No input was set: they carry the acknowledgement alone.
  EXPECT_EQ(out.packets.back().input().inputs_size(), 0);
  out.clear();
  player.update(t0 + 5s, 0, 0, nullptr, out);  // 4 s late: one input, not eighty
  player.update(t0 + 5s + 49ms, 0, 0, nullptr, out);
  EXPECT_EQ(out.packets.size(), 1u);
  player.update(t0 + 5s + 50ms, 0, 0, nullptr, out);
  EXPECT_EQ(out.packets.size(), 2u);
}

TEST(ClientOwnPlayer, EachInputCarriesTheNewestFourAndTheAcknowledgement) {
  const ClientOptions o = options();
  OwnPlayer player(o);
  RecordingOutbox out;
  TimePoint t = test::simulatedStart();
  player.start(ServerInfo{}, t);
  for (int i = 1; i <= 6; ++i, t += 50ms) {
    player.setPosition(static_cast<float>(i), 2.0f, 1.0f, 0.0f);
    player.update(t, 100u + i, 3, nullptr, out);
  }
  const wire::Input& in = out.packets.back().input();
  ASSERT_EQ(in.inputs_size(), 4);
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(in.inputs(k).sequence(), static_cast<std::uint32_t>(6 - k));
    EXPECT_EQ(in.inputs(k).x(), static_cast<float>(6 - k));
  }
  EXPECT_EQ(in.ack_snapshot(), 106u);
  EXPECT_EQ(in.ack_epoch(), 3u);
  EXPECT_EQ(player.inputSequence(), 6u);
}

TEST(ClientOwnPlayer, IntentsArePredictedAndReconciledWithTheServersState) {
  const ClientOptions o = options();
  OwnPlayer player(o);
  RecordingOutbox out;
  TimePoint t = test::simulatedStart();
  player.start(intentServer(), t);
  player.setMove(1.0f, 0.0f);
  // The server's first word: the player at rest at the origin, no input applied yet.
  EXPECT_TRUE(player.onOwn(10, SnapshotOwn{0, 0, 0, 0, 0}, t, nullptr));
  ASSERT_TRUE(player.predicted(t).has_value());
  for (int i = 0; i < 10; ++i, t += 50ms) player.update(t, 0, 0, nullptr, out);
  const wire::Input& in = out.packets.back().input();
  EXPECT_FLOAT_EQ(in.inputs(0).dt(), 0.05f);  // one input interval
  EXPECT_EQ(in.inputs(0).move_x(), 1.0f);
  const PredictedPlayer moved = *player.predicted(t + 1s);  // corrections eased out by then
  EXPECT_GT(moved.x, 0.5f);
  EXPECT_EQ(player.counters().samples, 0u);
  // The server applied input 4 and has the player a little behind the prediction.
  const SnapshotOwn server{4, moved.x * 0.25f, 0, moved.vx, 0};
  EXPECT_TRUE(player.onOwn(20, server, t, nullptr));
  EXPECT_EQ(player.counters().samples, 1u);
  EXPECT_GE(player.counters().errorMaxM, 0.0);
  std::vector<float> errors;
  player.takeErrors(errors);
  ASSERT_EQ(errors.size(), 1u);
  player.takeErrors(errors);
  EXPECT_EQ(errors.size(), 1u);  // taken once
  // An older snapshot's report is not newer than what is held: ignored, not an error.
  EXPECT_TRUE(player.onOwn(15, SnapshotOwn{9, 50, 50, 0, 0}, t, nullptr));
  EXPECT_EQ(player.own()->tick, 20u);
}

TEST(ClientOwnPlayer, ANonFiniteReportIsRefusedAndChangesNothing) {
  const ClientOptions o = options();
  OwnPlayer player(o);
  const TimePoint t = test::simulatedStart();
  player.start(intentServer(), t);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(player.onOwn(5, SnapshotOwn{0, nan, 0, 0, 0}, t, nullptr));
  EXPECT_FALSE(player.onOwn(5, SnapshotOwn{0, 0, 0, std::numeric_limits<float>::infinity(), 0}, t, nullptr));
  EXPECT_FALSE(player.own().has_value());
  EXPECT_FALSE(player.predicted(t).has_value());
}

}  // namespace
}  // namespace steerd::client
