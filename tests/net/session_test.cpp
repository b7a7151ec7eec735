// The server's network side end to end, in one process (tests/net/udp_harness.h): handshake,
// inputs, snapshots, drops, tokens, timeouts.
#include <gtest/gtest.h>

#include <asio.hpp>

#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <thread>

#include "proto/snapshot_codec.h"
#include "sim_net.h"
#include "udp_harness.h"

namespace steerd::net {
namespace {

TEST(Session, HandshakeAdmitsAPlayerAndSnapshotsShowTheWorld) {
  Server s;
  RawClient c(s.endpoint->port());
  const auto accept = c.connect(s);
  ASSERT_TRUE(accept.has_value());
  ASSERT_TRUE(accept->has_accept()) << accept->refuse().message();
  const auto& a = accept->accept();
  EXPECT_EQ(a.max_x(), 200.0f);
  ASSERT_EQ(a.archetypes_size(), 2);
  EXPECT_EQ(a.archetypes(1), "player");
  EXPECT_EQ(s.world->agentCount(), 2u);  // the deer and the new player body
  EXPECT_TRUE(s.world->isAlive(a.player_entity()));

  c.input(1, 90, 100, 1, 0);
  ASSERT_TRUE(s.stepUntil([&] { return s.metrics.inputsApplied.load() >= 1; }));
  const auto appliedAt = static_cast<std::uint32_t>(s.world->tick());
  std::optional<wire::Packet> snap;
  do {
    snap = c.await(s, wire::Packet::kSnapshot);
  } while (snap && snap->snapshot().tick() <= appliedAt);
  ASSERT_TRUE(snap.has_value());
  wire::SnapshotRecord r;
  ASSERT_EQ(wire::decodeSnapshotPart(snap->snapshot(), nullptr, r), "");
  ASSERT_EQ(r.entities.size(), 2u);
  const wire::EntityState* me = r.find(a.player_entity());
  ASSERT_NE(me, nullptr);
  EXPECT_EQ(me->x, wire::quantizePosition(90.0f));
  EXPECT_EQ(me->archetype, 1u);
}

// A new player's body appears at the scenario's waypoint `player_start`, and without one at the
// middle of the world.
TEST(Session, APlayerAppearsAtThePlayerStartWaypoint) {
  for (const bool named : {false, true}) {
    ServerSetup setup;
    setup.geometry.waypoints = {{"elsewhere", {150, 20}}};
    if (named) setup.geometry.waypoints.push_back({"player_start", {30, 170}});
    Server s(std::move(setup));
    RawClient c(s.endpoint->port());
    const auto accept = c.connect(s);
    ASSERT_TRUE(accept.has_value() && accept->has_accept());
    const AgentId body = accept->accept().player_entity();
    ASSERT_TRUE(s.world->isAlive(body));
    const std::uint32_t slot = s.world->slotOf(body);
    EXPECT_EQ(s.world->agents().px[slot], named ? 30.0f : 100.0f);
    EXPECT_EQ(s.world->agents().py[slot], named ? 170.0f : 100.0f);
  }
}

TEST(Session, APlayerComingCloserMakesTheEvaderMoveAway) {
  Server s;
  RawClient c(s.endpoint->port());
  ASSERT_TRUE(c.connect(s).has_value());
  const auto deerX = [&] { return s.world->agents().px[s.world->slotOf(s.deer)]; };
  // The player walks in from the west at 4 m/s; the deer goes east.
  float x = 80.0f;
  std::uint32_t seq = 1;
  for (int i = 0; i < 60; ++i) {
    x += 4.0f / 30.0f;
    c.input(seq++, x, 100.0f, 4.0f, 0.0f);
    s.stepUntil([&] { return s.metrics.inputsApplied.load() >= seq - 1; });
  }
  EXPECT_GT(deerX(), 102.0f);
}

TEST(Session, GarbageIsDroppedAndCountedByReason) {
  Server s;
  RawClient c(s.endpoint->port());
  c.sendBytes({1, 2, 3});                              // truncated
  c.sendBytes(std::vector<std::uint8_t>(1300, 0x53));  // oversized
  c.sendBytes(std::vector<std::uint8_t>(40, 0));       // bad protocol id
  c.input(1, 10, 10);                                  // input before connecting
  wire::Packet req;
  req.mutable_connect_request();
  c.send(req);  // not padded
  ASSERT_TRUE(s.stepUntil([&] {
    return s.drops(wire::DropReason::kTruncated) == 1 && s.drops(wire::DropReason::kOversized) == 1 &&
           s.drops(wire::DropReason::kBadProtocolId) == 1 && s.drops(wire::DropReason::kUnknownClient) == 1 &&
           s.drops(wire::DropReason::kUnpadded) == 1;
  }));
  // A cookie echoed from another address is refused.
  RawClient thief(s.endpoint->port());
  wire::Packet r2;
  r2.mutable_connect_request();
  c.send(r2, wire::kMinConnectDatagramBytes);
  const auto ch = c.await(s, wire::Packet::kChallenge);
  ASSERT_TRUE(ch.has_value());
  wire::Packet stolen;
  stolen.mutable_connect_response()->set_cookie(ch->challenge().cookie());
  thief.send(stolen, wire::kMinConnectResponseBytes);
  ASSERT_TRUE(s.stepUntil([&] { return s.drops(wire::DropReason::kBadCookie) == 1; }));
  EXPECT_EQ(s.world->agentCount(), 1u);
  // And the server still admits an honest client afterwards.
  RawClient honest(s.endpoint->port());
  const auto a = honest.connect(s);
  ASSERT_TRUE(a.has_value());
  EXPECT_TRUE(a->has_accept());
}

TEST(Session, BadInputsAreCountedAndNeverMoveThePlayer) {
  Server s;
  RawClient c(s.endpoint->port());
  const auto a = c.connect(s);
  ASSERT_TRUE(a && a->has_accept());
  const AgentId me = a->accept().player_entity();
  c.input(5, 50, 50);
  ASSERT_TRUE(s.stepUntil([&] { return s.metrics.inputsApplied.load() == 1; }));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  c.input(6, nan, 50);   // NaN
  c.input(7, 50, 1e9f);  // out of the world
  c.input(8, 50, std::numeric_limits<float>::infinity());
  c.input(4, 60, 60);  // older than what was applied
  ASSERT_TRUE(s.stepUntil([&] {
    return s.drops(wire::DropReason::kBadInput) == 3 && s.drops(wire::DropReason::kStaleInput) == 1;
  }));
  EXPECT_FLOAT_EQ(s.world->agents().px[s.world->slotOf(me)], 50.0f);
  EXPECT_FLOAT_EQ(s.world->agents().py[s.world->slotOf(me)], 50.0f);
  // Too fast: clamped, counted, applied.
  c.input(9, 150, 50, 100, 0);
  ASSERT_TRUE(s.stepUntil([&] { return s.metrics.inputsClamped.load() == 1; }));
  // It asked for x = 150; it got as far as 10 m/s allows over the few ticks since its last input.
  EXPECT_GT(s.world->agents().px[s.world->slotOf(me)], 50.0f);
  EXPECT_LT(s.world->agents().px[s.world->slotOf(me)], 55.0f);
}

TEST(Session, ACorruptedSequenceNumberDoesNotCutTheClientOff) {
  Server s;
  RawClient c(s.endpoint->port());
  ASSERT_TRUE(c.connect(s).has_value());
  c.input(1, 50, 50);
  ASSERT_TRUE(s.stepUntil([&] { return s.metrics.inputsApplied.load() == 1; }));
  // One datagram whose header sequence was corrupted to 30,000 ahead: the seal no longer
  // authenticates, so it is refused and counted...
  c.input(2, 51, 50);
  std::vector<std::uint8_t> corrupted = c.sealed;
  corrupted[7] = static_cast<std::uint8_t>(corrupted[7] + 117);
  c.sendBytes(corrupted);
  ASSERT_TRUE(s.stepUntil([&] { return s.drops(wire::DropReason::kBadSeal) == 1; }));
  // ...and the client's next inputs, with honest sequences, still get through.
  c.input(3, 52, 50);
  ASSERT_TRUE(s.stepUntil([&] { return s.metrics.inputsApplied.load() == 3; }));
  EXPECT_EQ(s.drops(wire::DropReason::kReplayed), 0u);
}

TEST(Session, AcknowledgedSnapshotsBecomeTheBaseline) {
  Server s;
  RawClient c(s.endpoint->port());
  ASSERT_TRUE(c.connect(s).has_value());
  const auto first = c.await(s, wire::Packet::kSnapshot);
  ASSERT_TRUE(first.has_value());
  wire::SnapshotRecord base;
  ASSERT_EQ(wire::decodeSnapshotPart(first->snapshot(), nullptr, base), "");
  c.input(1, 100, 50, 0, 0, base.tick);
  std::optional<wire::Packet> delta;
  s.stepUntil([&] {
    auto p = c.await1(wire::Packet::kSnapshot);
    if (p && p->snapshot().baseline_tick() == base.tick) delta = p;
    return delta.has_value();
  });
  ASSERT_TRUE(delta.has_value());
  wire::SnapshotRecord next;
  ASSERT_EQ(wire::decodeSnapshotPart(delta->snapshot(), &base, next), "");
  EXPECT_EQ(next.entities.size(), 2u);
  EXPECT_GT(delta->snapshot().residual_size(), 0);
}

TEST(Session, TokensAreRequiredWhenTheServerHasAKey) {
  NetConfig config;
  config.tokenKey = TokenKey{};
  (*config.tokenKey)[3] = 9;
  Server s(config);
  const auto now = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
  auto reason = [&](const std::string& token) {
    RawClient c(s.endpoint->port());
    const auto p = c.connect(s, token);
    EXPECT_TRUE(p.has_value());
    return p && p->has_refuse() ? p->refuse().reason() : wire::REFUSE_UNSPECIFIED;
  };
  EXPECT_EQ(reason(""), wire::REFUSE_TOKEN_MISSING);
  EXPECT_EQ(reason(issueToken(TokenKey{}, 1, now + 60)), wire::REFUSE_TOKEN_INVALID);
  EXPECT_EQ(reason(issueToken(*config.tokenKey, 1, now - 60)), wire::REFUSE_TOKEN_EXPIRED);
  EXPECT_EQ(reason(issueToken(*config.tokenKey, 1, now + 60)), wire::REFUSE_UNSPECIFIED);  // admitted
  EXPECT_EQ(s.metrics.refusals.load(), 3u);
  EXPECT_EQ(s.metrics.connects.load(), 1u);
}

// An Agones server waiting for its allocation refuses every new client with the reason, keeps no
// state for them, and admits once told to.
TEST(Session, ANotAdmittingServerRefusesUntilAllocated) {
  SimServer s;
  s.protocol->setAdmitting(false);
  SimClient early(s);
  const auto refused = early.connect();
  ASSERT_TRUE(refused && refused->has_refuse());
  EXPECT_EQ(refused->refuse().reason(), wire::REFUSE_NOT_ALLOCATED);
  EXPECT_NE(refused->refuse().message().find("not allocated"), std::string::npos);
  EXPECT_EQ(s.protocol->connectionCount(), 0u);
  EXPECT_EQ(s.metrics.refusals.load(), 1u);
  s.protocol->setAdmitting(true);
  SimClient later(s);
  const auto admitted = later.connect();
  ASSERT_TRUE(admitted && admitted->has_accept());
  EXPECT_EQ(s.protocol->connectionCount(), 1u);
}

// (On made-up time, sim_net.h: the timeout is half a second of it.)
TEST(Session, AFullServerRefusesAndASilentClientTimesOut) {
  ServerSetup setup;
  setup.net.maxClients = 1;
  setup.net.clientTimeoutSeconds = 0.5;
  SimServer s(setup);
  SimClient first(s);
  const auto a = first.connect();
  ASSERT_TRUE(a && a->has_accept());
  SimClient second(s);
  const auto b = second.connect();
  ASSERT_TRUE(b && b->has_refuse());
  EXPECT_EQ(b->refuse().reason(), wire::REFUSE_SERVER_FULL);
  // `first` says nothing more: dropped, its body removed, and it is told so.
  ASSERT_TRUE(
      s.stepUntil([&] { return s.metrics.timeouts.load() == 1 && s.session->clientCount() == 0; }, 30));
  EXPECT_EQ(s.world->agentCount(), 1u);
  EXPECT_FALSE(s.world->isAlive(a->accept().player_entity()));
  const auto bye = first.take(wire::Packet::kDisconnect);
  ASSERT_TRUE(bye.has_value());
  EXPECT_EQ(bye->disconnect().reason(), wire::DISCONNECT_TIMED_OUT);
  // Now there is room again.
  SimClient third(s);
  const auto c = third.connect();
  ASSERT_TRUE(c && c->has_accept());
}

TEST(Session, ACleanDisconnectRemovesThePlayerAndShutdownTellsClients) {
  Server s;
  RawClient c(s.endpoint->port());
  const auto a = c.connect(s);
  ASSERT_TRUE(a && a->has_accept());
  wire::Packet bye;
  bye.mutable_disconnect()->set_reason(wire::DISCONNECT_CLIENT_LEFT);
  c.send(bye);
  ASSERT_TRUE(s.stepUntil([&] { return s.session->clientCount() == 0; }));
  EXPECT_EQ(s.world->agentCount(), 1u);
  // Reconnect from the same address after leaving: a new client id and body.
  const auto again = c.connect(s);
  ASSERT_TRUE(again && again->has_accept());
  EXPECT_NE(again->accept().client_id(), a->accept().client_id());
  s.endpoint->stop();
  bool told = false;
  for (int i = 0; i < 200 && !told; ++i) {
    wire::Decoded d;
    if (!c.receive(d)) {
      std::this_thread::sleep_for(5ms);
      continue;
    }
    told = d.drop == wire::DropReason::kNone && d.packet.has_disconnect() &&
           d.packet.disconnect().reason() == wire::DISCONNECT_SERVER_SHUTDOWN;
  }
  EXPECT_TRUE(told);
}

}  // namespace
}  // namespace steerd::net
