// A served replay's packets through the real protocol and session, on made-up time: ReplayControl
// reaches the transport only where the server serves a replay (elsewhere a counted drop), and a
// snapshot epoch (GameSession::setSnapshotEpoch, a seek) makes every client's next snapshot whole
// and stamped, with acks of another epoch ignored.
#include <gtest/gtest.h>

#include "sim_net.h"

namespace steerd::net {
namespace {

wire::Packet replayControl(std::uint32_t request) {
  wire::Packet p;
  p.mutable_replay_control()->set_request(request);
  p.mutable_replay_control()->set_action(wire::REPLAY_SEEK);
  p.mutable_replay_control()->set_tick(42);
  return p;
}

TEST(ReplayControlNet, ALiveServerDropsItCounted) {
  SimServer s;
  SimClient c(s);
  ASSERT_TRUE(c.connect());
  c.send(replayControl(1));
  EXPECT_EQ(s.drops(wire::DropReason::kUnexpected), 1u);
  std::vector<NetEvent> events;
  s.protocol->takeEvents(events);
  for (const NetEvent& e : events) EXPECT_NE(e.kind, NetEvent::Kind::kReplayControl);
}

TEST(ReplayControlNet, AServedReplayGetsItAsAnEvent) {
  ServerSetup setup;
  setup.net.replayControls = true;
  SimServer s(setup);
  SimClient c(s);
  const auto accept = c.connect();
  ASSERT_TRUE(accept && accept->has_accept());
  c.send(replayControl(7));
  std::vector<NetEvent> events;
  s.protocol->takeEvents(events);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, NetEvent::Kind::kReplayControl);
  EXPECT_EQ(events[0].clientId, accept->accept().client_id());
  EXPECT_EQ(events[0].replay.request(), 7u);
  EXPECT_EQ(events[0].replay.tick(), 42u);
  EXPECT_EQ(s.drops(wire::DropReason::kUnexpected), 0u);
}

// The newest snapshot the client got, after a tick.
std::optional<wire::Snapshot> snapshotAfterTick(SimServer& s, SimClient& c) {
  s.step();
  const auto p = c.take(wire::Packet::kSnapshot);
  if (!p || !p->has_snapshot()) return std::nullopt;
  return p->snapshot();
}

void ack(SimClient& c, std::uint32_t tick, std::uint32_t epoch) {
  wire::Packet p;
  p.mutable_input()->set_ack_snapshot(tick);
  p.mutable_input()->set_ack_epoch(epoch);
  c.send(p);
}

TEST(ReplayControlNet, ANewEpochMakesSnapshotsWholeAndIgnoresOtherEpochsAcks) {
  ServerSetup setup;
  setup.session.sendRate = setup.session.tickRate;  // a snapshot every tick
  SimServer s(setup);
  SimClient c(s);
  ASSERT_TRUE(c.connect());
  auto first = snapshotAfterTick(s, c);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->epoch(), 0u);
  ack(c, first->tick(), 0);
  auto delta = snapshotAfterTick(s, c);
  ASSERT_TRUE(delta);
  EXPECT_EQ(delta->baseline_tick(), first->tick());  // acked: a delta

  s.session->setSnapshotEpoch(3);
  auto whole = snapshotAfterTick(s, c);
  ASSERT_TRUE(whole);
  EXPECT_EQ(whole->epoch(), 3u);
  EXPECT_EQ(whole->baseline_tick(), 0u);
  // An ack that names the old epoch (sent before the client heard of the new one) is not a baseline.
  ack(c, whole->tick(), 0);
  auto still = snapshotAfterTick(s, c);
  ASSERT_TRUE(still);
  EXPECT_EQ(still->baseline_tick(), 0u);
  ack(c, still->tick(), 3);
  auto next = snapshotAfterTick(s, c);
  ASSERT_TRUE(next);
  EXPECT_EQ(next->epoch(), 3u);
  EXPECT_EQ(next->baseline_tick(), still->tick());
}

// Between ticks (a paused replay) the session admits bodyless clients and sends them the standing
// frame, but anything that would change the world (a body) waits for the next tick, in order.
TEST(ReplayControlNet, ServingHeldNeverChangesTheWorld) {
  SimServer s;
  SimClient player(s), watcher(s);
  const auto handshake = [&](SimClient& c, bool noBody) {
    c.send(c.connectRequest({}), wire::kMinConnectDatagramBytes);
    const auto challenge = c.take(wire::Packet::kChallenge);
    ASSERT_TRUE(challenge && challenge->has_challenge());
    c.cookie = challenge->challenge().cookie();
    wire::Packet response = c.connectResponse({});
    response.mutable_connect_response()->set_no_body(noBody);
    c.send(response, wire::kMinConnectResponseBytes);
  };
  handshake(player, false);
  handshake(watcher, true);
  const std::size_t agents = s.world->agentCount();
  const std::uint64_t hash = s.world->stateHash();
  s.session->serveHeld([](std::uint32_t) { return true; });
  s.protocol->flushOutgoing(s.now);
  EXPECT_EQ(s.world->agentCount(), agents);
  EXPECT_EQ(s.world->stateHash(), hash);
  EXPECT_EQ(s.session->clientCount(), 0u);  // the player came first: both wait, in order
  EXPECT_FALSE(watcher.take(wire::Packet::kAccept));
  s.step();
  EXPECT_EQ(s.session->clientCount(), 2u);
  EXPECT_EQ(s.world->agentCount(), agents + 1);
  EXPECT_TRUE(player.take(wire::Packet::kAccept));

  // A bodyless client alone is admitted between ticks and gets the standing frame, whole.
  SimClient late(s);
  handshake(late, true);
  const std::uint64_t before = s.world->stateHash();
  s.session->serveHeld([](std::uint32_t) { return true; });
  s.protocol->flushOutgoing(s.now);
  EXPECT_EQ(s.world->stateHash(), before);
  EXPECT_EQ(s.session->clientCount(), 3u);
  std::optional<wire::Packet> frame;
  wire::Decoded d;
  bool accepted = false;
  while (late.receive(d)) {
    accepted = accepted || d.packet.has_accept();
    if (d.packet.has_snapshot()) frame = d.packet;
  }
  EXPECT_TRUE(accepted);
  ASSERT_TRUE(frame);
  EXPECT_EQ(frame->snapshot().tick(), s.world->tick());
  EXPECT_EQ(frame->snapshot().baseline_tick(), 0u);
}

}  // namespace
}  // namespace steerd::net
