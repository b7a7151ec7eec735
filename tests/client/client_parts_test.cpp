// The client's smaller parts on simulated time, each against a recording outbox: the static scene's
// requests (client/scene_fetch.h), the debug subscription (debug_subscription.h), the control
// channel (control_channel.h), a served replay's follower (replay_follower.h) and the loss window
// and rates (traffic_meter.h).
#include <gtest/gtest.h>

#include <limits>

#include "client/control_channel.h"
#include "client/debug_subscription.h"
#include "client/replay_follower.h"
#include "client/scene_fetch.h"
#include "client/traffic_meter.h"
#include "recording_outbox.h"

namespace steerd::client {
namespace {

using namespace std::chrono_literals;
using test::RecordingOutbox;

// --- scene fetch -----------------------------------------------------------------------------------

std::vector<wire::Scene> sceneParts(std::size_t circles) {
  wire::SceneGeometry g;
  for (std::size_t i = 0; i < circles; ++i) g.obstacles.push_back({{static_cast<float>(i), 1.0f}, 0.5f});
  return wire::encodeScene(g, 200).parts;
}

std::vector<std::uint32_t> asked(const wire::Packet& p) {
  return {p.scene_request().parts().begin(), p.scene_request().parts().end()};
}

TEST(ClientSceneFetch, AsksPartZeroThenTheMissingOnesSixteenAtATimeUntilWhole) {
  const auto parts = sceneParts(1000);
  ASSERT_GT(parts.size(), 20u);
  SceneFetch fetch(500ms);
  RecordingOutbox out;
  const TimePoint t0 = test::simulatedStart();
  fetch.update(t0, out);  // not started: nothing
  EXPECT_TRUE(out.packets.empty());
  fetch.start(t0);
  fetch.update(t0, out);
  ASSERT_EQ(out.packets.size(), 1u);
  EXPECT_EQ(asked(out.packets[0]), std::vector<std::uint32_t>{0});
  fetch.update(t0 + 499ms, out);  // not again before the retry interval
  EXPECT_EQ(out.packets.size(), 1u);
  EXPECT_EQ(fetch.onPart(parts[0], t0 + 20ms), "");
  fetch.update(t0 + 20ms, out);  // the count is known: the rest at once
  ASSERT_EQ(out.packets.size(), 2u);
  EXPECT_EQ(asked(out.packets[1]).size(), static_cast<std::size_t>(SceneFetch::kPartsPerRequest));
  EXPECT_EQ(asked(out.packets[1]).front(), 1u);
  // Everything but part 5 comes; the next request asks for part 5 alone, after the interval.
  for (std::size_t i = 1; i < parts.size(); ++i)
    if (i != 5) fetch.onPart(parts[i], t0 + 40ms);
  EXPECT_FALSE(fetch.complete());
  fetch.update(t0 + 519ms, out);
  EXPECT_EQ(out.packets.size(), 2u);
  fetch.update(t0 + 520ms, out);
  ASSERT_EQ(out.packets.size(), 3u);
  EXPECT_EQ(asked(out.packets[2]), std::vector<std::uint32_t>{5});
  fetch.onPart(parts[5], t0 + 540ms);
  fetch.onPart(parts[5], t0 + 540ms);  // answered twice: held once
  EXPECT_TRUE(fetch.complete());
  EXPECT_EQ(fetch.geometry().obstacles.size(), 1000u);
  fetch.update(t0 + 10s, out);
  EXPECT_EQ(out.packets.size(), 3u);
  EXPECT_EQ(fetch.counters().requests, 3u);
  EXPECT_EQ(fetch.counters().received, parts.size());
}

TEST(ClientSceneFetch, PartsWithImpossibleCountsAreCountedAndChangeNothing) {
  const auto parts = sceneParts(400);
  SceneFetch fetch(500ms);
  const TimePoint t0 = test::simulatedStart();
  wire::Scene bad = parts[0];
  bad.set_part_count(0);
  fetch.onPart(bad, t0);
  bad.set_part_count(SceneFetch::kMaxParts + 1);
  fetch.onPart(bad, t0);
  bad = parts[1];
  bad.set_part(static_cast<std::uint32_t>(parts.size()));
  fetch.onPart(bad, t0);
  fetch.onPart(parts[0], t0);
  bad = parts[1];
  bad.set_part_count(static_cast<std::uint32_t>(parts.size() + 1));  // disagrees with part 0's
  fetch.onPart(bad, t0);
  EXPECT_EQ(fetch.counters().malformed, 4u);
  EXPECT_EQ(fetch.counters().received, 1u);
  EXPECT_EQ(fetch.counters().count, parts.size());
}

// --- debug subscription ----------------------------------------------------------------------------

TEST(ClientDebugSubscription, AWatchIsSentAtOnceRepeatedAndItsStopSentOnce) {
  DebugSubscription debug(1s);
  RecordingOutbox out;
  const TimePoint t0 = test::simulatedStart();
  debug.update(t0, out);
  EXPECT_TRUE(out.packets.empty());  // nothing asked
  debug.watch(12);
  debug.update(t0, out);
  ASSERT_EQ(out.packets.size(), 1u);
  EXPECT_EQ(out.packets[0].debug_select().agent_id(), 12u);
  for (TimePoint t = t0; t <= t0 + 3s; t += 10ms) debug.update(t, out);
  EXPECT_EQ(out.packets.size(), 4u);  // at 0, 1, 2 and 3 s
  debug.watch(std::nullopt);
  debug.update(t0 + 3010ms, out);
  ASSERT_EQ(out.packets.size(), 5u);
  EXPECT_TRUE(out.packets.back().debug_select().stop());
  for (TimePoint t = t0 + 3010ms; t <= t0 + 10s; t += 10ms) debug.update(t, out);
  EXPECT_EQ(out.packets.size(), 5u);
}

TEST(ClientDebugSubscription, AnswersAreKeptForWhatIsAskedAndNotReplacedByOlderOnes) {
  DebugSubscription debug(1s);
  debug.watch(12);
  debug.hover(4);
  debug.watchStates(StatesArea{0, 0, 50});
  wire::DebugInfo d;
  d.set_tick(100);
  d.set_agent_id(13);  // an earlier selection's
  debug.onInfo(d);
  EXPECT_EQ(debug.info(), nullptr);
  d.set_agent_id(12);
  d.mutable_hover()->set_agent_id(4);
  d.mutable_states()->add_agent_id(1);  // ids without states: not a list
  debug.onInfo(d);
  ASSERT_NE(debug.info(), nullptr);
  ASSERT_NE(debug.hoverInfo(), nullptr);
  EXPECT_EQ(debug.states(), nullptr);
  d.set_tick(90);  // reordered: the info held is newer, but a states list none held before is taken
  d.mutable_states()->add_state(0);
  debug.onInfo(d);
  EXPECT_EQ(debug.info()->tick(), 100u);
  ASSERT_NE(debug.states(), nullptr);
  d.set_tick(80);  // older than the list held: kept as it was
  d.mutable_states()->set_state(0, 1);
  debug.onInfo(d);
  EXPECT_EQ(debug.states()->state(0), 0u);
  debug.forgetAnswers();  // a replay's seek
  EXPECT_EQ(debug.info(), nullptr);
  EXPECT_EQ(debug.hoverInfo(), nullptr);
  EXPECT_EQ(debug.states(), nullptr);
  EXPECT_EQ(debug.infosReceived(), 1u);
}

TEST(ClientDebugSubscription, APanningAreaIsSentWithinAQuarterSecondOnlyWhenItMovedFar) {
  DebugSubscription debug(1s);
  RecordingOutbox out;
  const TimePoint t0 = test::simulatedStart();
  debug.watchStates(StatesArea{0, 0, 40});
  debug.update(t0, out);
  ASSERT_EQ(out.packets.size(), 1u);
  debug.watchStates(StatesArea{5, 0, 40});  // an eighth of the radius: with the next repetition
  for (TimePoint t = t0; t < t0 + 999ms; t += 10ms) debug.update(t, out);
  EXPECT_EQ(out.packets.size(), 1u);
  debug.update(t0 + 1s, out);
  ASSERT_EQ(out.packets.size(), 2u);
  EXPECT_EQ(out.packets[1].debug_select().states_area().x(), 5.0f);
  debug.watchStates(StatesArea{25, 0, 40});  // half the radius from the area sent
  debug.update(t0 + 1249ms, out);
  EXPECT_EQ(out.packets.size(), 2u);
  debug.update(t0 + 1250ms, out);
  ASSERT_EQ(out.packets.size(), 3u);
  EXPECT_EQ(out.packets[2].debug_select().states_area().x(), 25.0f);
}

// --- control channel -------------------------------------------------------------------------------

control::Command spawnCommand() {
  control::Command c;
  c.mutable_spawn()->set_archetype("boid");
  return c;
}

TEST(ClientControlChannel, CommandsAreResentUntilAcknowledgedAndBoundedInNumber) {
  ControlChannel channel(100ms, 3);
  RecordingOutbox out;
  const TimePoint t0 = test::simulatedStart();
  EXPECT_EQ(channel.send(spawnCommand()), 1u);
  EXPECT_EQ(channel.send(spawnCommand()), 2u);
  EXPECT_EQ(channel.send(spawnCommand()), 3u);
  EXPECT_EQ(channel.send(spawnCommand()), 0u);  // three wait: refused
  channel.update(t0, out);
  ASSERT_EQ(out.packets.size(), 1u);
  EXPECT_EQ(out.packets[0].control().commands_size(), 3);
  channel.update(t0 + 99ms, out);
  EXPECT_EQ(out.packets.size(), 1u);
  channel.update(t0 + 101ms, out);    // (the channel keeps seconds as doubles: not at exactly 100)
  ASSERT_EQ(out.packets.size(), 2u);  // resent
  wire::ControlReply reply;
  reply.set_commands_received(2);
  channel.onReply(reply);
  EXPECT_EQ(channel.unacknowledged(), 1u);
  EXPECT_EQ(channel.counters().acknowledged, 2u);
  channel.update(t0 + 202ms, out);
  ASSERT_EQ(out.packets.size(), 3u);
  ASSERT_EQ(out.packets[2].control().commands_size(), 1);
  EXPECT_EQ(out.packets[2].control().commands(0).sequence(), 3u);
  reply.set_commands_received(999);  // never sent: ignored
  channel.onReply(reply);
  EXPECT_EQ(channel.unacknowledged(), 1u);
}

TEST(ClientControlChannel, MessagesAreDeliveredOnceInOrderAndAcknowledgedAtOnce) {
  ControlChannel channel(100ms, 16);
  RecordingOutbox out;
  const TimePoint t0 = test::simulatedStart();
  auto message = [](std::uint32_t seq) {
    wire::ControlMessage m;
    m.set_sequence(seq);
    m.mutable_result()->set_sequence(seq);
    return m;
  };
  wire::ControlReply late;
  late.set_packet(1);
  *late.add_messages() = message(2);
  channel.onReply(late);  // 2 before 1: held
  std::vector<wire::ControlMessage> taken;
  channel.take(taken);
  EXPECT_TRUE(taken.empty());
  wire::ControlReply first;
  first.set_packet(0);
  *first.add_messages() = message(1);
  channel.onReply(first);
  channel.onReply(late);  // again: a duplicate
  channel.take(taken);
  ASSERT_EQ(taken.size(), 2u);
  EXPECT_EQ(taken[0].sequence(), 1u);
  EXPECT_EQ(taken[1].sequence(), 2u);
  EXPECT_EQ(channel.counters().duplicates, 1u);
  channel.update(t0, out);  // new messages came: acknowledged now, with no command
  ASSERT_EQ(out.packets.size(), 1u);
  EXPECT_EQ(out.packets[0].control().messages_received(), 2u);
  channel.update(t0 + 249ms, out);
  EXPECT_EQ(out.packets.size(), 1u);
  channel.update(t0 + 250ms, out);  // then repeated every 250 ms
  EXPECT_EQ(out.packets.size(), 2u);
}

TEST(ClientControlChannel, ACallerThatNeverTakesLosesTheOldestCounted) {
  ControlChannel channel(100ms, 16);
  std::uint32_t seq = 0;
  for (std::uint16_t packet = 0; packet < 70; ++packet) {
    wire::ControlReply r;
    r.set_packet(packet);
    for (int i = 0; i < 1000; ++i) {
      wire::ControlMessage* m = r.add_messages();
      m->set_sequence(++seq);
      m->mutable_event();
    }
    channel.onReply(r);
  }
  EXPECT_EQ(channel.counters().delivered, 70000u);
  EXPECT_EQ(channel.counters().untakenDropped, 70000u - ControlChannel::kMaxUntaken);
  std::vector<wire::ControlMessage> taken;
  channel.take(taken);
  ASSERT_EQ(taken.size(), ControlChannel::kMaxUntaken);
  EXPECT_EQ(taken.front().sequence(), 70000u - ControlChannel::kMaxUntaken + 1);  // the newest kept
  EXPECT_EQ(taken.back().sequence(), 70000u);
}

TEST(ClientControlChannel, ManyCommandsTakeSeveralDatagramsEachWithinTheBodyLimit) {
  ControlChannel channel(100ms, 10000);
  RecordingOutbox out;
  for (int i = 0; i < 400; ++i) ASSERT_NE(channel.send(spawnCommand()), 0u);
  channel.update(test::simulatedStart(), out);
  ASSERT_GT(out.packets.size(), 1u);
  EXPECT_LE(out.packets.size(), static_cast<std::size_t>(ControlChannel::kMaxDatagramsPerUpdate));
  for (const wire::Packet& p : out.packets) EXPECT_LE(p.ByteSizeLong(), wire::kMaxBodyBytes);
}

// --- replay follower -------------------------------------------------------------------------------

wire::ReplayStatus status(std::uint32_t tick, float speed, bool paused = false, std::uint32_t epoch = 0) {
  wire::ReplayStatus s;
  s.set_tick(tick);
  s.set_speed(speed);
  s.set_paused(paused);
  s.set_epoch(epoch);
  s.set_first_tick(1);
  s.set_last_tick(1000);
  return s;
}

TEST(ClientReplayFollower, StandingStillDrawsItsTickAndPlayingOnStartsFromThere) {
  ReplayFollower replay;
  ClockSync clock;
  clock.setTickRate(30.0);
  const TimePoint t0 = test::simulatedStart();
  clock.seed(500, t0, 0ms);
  EXPECT_EQ(replay.onStatus(status(40, 1.0f, true), 0, t0, clock, 30.0, 4.0),
            ReplayFollower::Verdict::kApplied);
  EXPECT_EQ(replay.renderTickAt(clock, 4.0, t0 + 5s), 40.0);
  // Playing at 2x from a standstill: the clock starts at the tick shown plus the delay kept in time.
  replay.onStatus(status(40, 2.0f), 0, t0 + 5s, clock, 30.0, 4.0);
  EXPECT_DOUBLE_EQ(replay.delayTicks(4.0), 8.0);
  EXPECT_NEAR(replay.renderTickAt(clock, 4.0, t0 + 5s), 40.0, 1e-6);
  EXPECT_NEAR(replay.renderTickAt(clock, 4.0, t0 + 6s), 100.0, 1e-6);  // 60 ticks a second
}

TEST(ClientReplayFollower, StaleAndImpossibleStatusesAreRefusedAndANewerEpochSaid) {
  ReplayFollower replay;
  ClockSync clock;
  clock.setTickRate(30.0);
  const TimePoint t0 = test::simulatedStart();
  EXPECT_EQ(replay.onStatus(status(50, std::numeric_limits<float>::quiet_NaN()), 0, t0, clock, 30.0, 4.0),
            ReplayFollower::Verdict::kMalformed);
  wire::ReplayStatus inverted = status(50, 1.0f);
  inverted.set_first_tick(900);
  inverted.set_last_tick(10);
  EXPECT_EQ(replay.onStatus(inverted, 0, t0, clock, 30.0, 4.0), ReplayFollower::Verdict::kMalformed);
  EXPECT_EQ(replay.onStatus(status(50, 1.0f), 0, t0, clock, 30.0, 4.0), ReplayFollower::Verdict::kApplied);
  EXPECT_EQ(replay.onStatus(status(49, 1.0f), 0, t0, clock, 30.0, 4.0), ReplayFollower::Verdict::kStale);
  EXPECT_EQ(replay.onStatus(status(10, 1.0f, false, 1), 0, t0, clock, 30.0, 4.0),
            ReplayFollower::Verdict::kAppliedNewEpoch);
  EXPECT_EQ(replay.onStatus(status(60, 1.0f, false, 0), 1, t0, clock, 30.0, 4.0),
            ReplayFollower::Verdict::kStale);
}

TEST(ClientReplayFollower, ControlsAreResentUntilAppliedAndAtMostSixteenWait) {
  ReplayFollower replay;
  RecordingOutbox out;
  ClockSync clock;
  clock.setTickRate(30.0);
  const TimePoint t0 = test::simulatedStart();
  replay.control(wire::REPLAY_PAUSE, 1.0f, 0);  // not a replay server yet: nothing
  EXPECT_EQ(replay.pending(), 0u);
  replay.onStatus(status(50, 1.0f), 0, t0, clock, 30.0, 4.0);
  for (int i = 0; i < 20; ++i) replay.control(wire::REPLAY_PAUSE, 1.0f, 0);
  EXPECT_EQ(replay.pending(), ReplayFollower::kMaxControls);
  replay.update(t0, out);
  EXPECT_EQ(out.packets.size(), ReplayFollower::kMaxControls);
  EXPECT_EQ(out.packets[0].replay_control().request(), 5u);  // the four oldest dropped
  replay.update(t0 + 99ms, out);
  EXPECT_EQ(out.packets.size(), ReplayFollower::kMaxControls);
  wire::ReplayStatus applied = status(51, 1.0f);
  applied.set_control_applied(18);
  replay.onStatus(applied, 0, t0 + 50ms, clock, 30.0, 4.0);
  EXPECT_EQ(replay.pending(), 2u);
  replay.update(t0 + 100ms, out);
  EXPECT_EQ(out.packets.size(), ReplayFollower::kMaxControls + 2);
}

// --- traffic meter ---------------------------------------------------------------------------------

TEST(ClientTrafficMeter, LossCountsGapsInTheWindowAndLateArrivalsFillThem) {
  LossWindow loss;
  EXPECT_EQ(loss.percent(), 0.0);
  for (std::uint16_t s = 0; s < 100; ++s)
    if (s % 10 != 3) loss.add(s);
  EXPECT_NEAR(loss.percent(), 10.0, 1e-9);
  for (std::uint16_t s = 3; s < 100; s += 10) loss.add(s);  // late, inside the window
  EXPECT_EQ(loss.percent(), 0.0);
  loss.add(static_cast<std::uint16_t>(99 + 1000));  // a jump past the window: all of it lost but one
  EXPECT_NEAR(loss.percent(), 100.0 * 255.0 / 256.0, 1e-9);
}

TEST(ClientTrafficMeter, RatesMoveOnOnceASecondOverTheSecondPast) {
  RateWindow rates;
  const TimePoint t0 = test::simulatedStart();
  rates.start(t0);
  rates.update(t0 + 999ms, 5000, 1000, 10);
  EXPECT_EQ(rates.kbpsIn(), 0.0);
  rates.update(t0 + 1s, 5000, 1000, 10);
  EXPECT_DOUBLE_EQ(rates.kbpsIn(), 40.0);
  EXPECT_DOUBLE_EQ(rates.kbpsOut(), 8.0);
  EXPECT_DOUBLE_EQ(rates.snapshotsPerSecond(), 10.0);
  rates.update(t0 + 3s, 5000, 1000, 30);
  EXPECT_DOUBLE_EQ(rates.kbpsIn(), 0.0);
  EXPECT_DOUBLE_EQ(rates.snapshotsPerSecond(), 10.0);
}

}  // namespace
}  // namespace steerd::client
