// The protocol's time-bound rules on made-up time (sim_net.h: NetProtocol with no socket, the
// clock moved by the test): each rule is asserted on both sides of its boundary, which real time
// and sleeps could never pin. Timeouts, the silence before a new key replaces a session, RTT from
// acks, the scene-part rate, cookie and token expiry.
#include <gtest/gtest.h>

#include "net/connect_token.h"
#include "sim_net.h"

namespace steerd::net {
namespace {

TEST(ProtocolTime, ASilentClientTimesOutAtItsTimeoutAndNotBefore) {
  ServerSetup setup;
  setup.net.clientTimeoutSeconds = 2.0;
  SimServer s(setup);
  SimClient c(s);
  const auto accept = c.connect();
  ASSERT_TRUE(accept && accept->has_accept());
  // To the next update (they run every 0.25 s), and an input there: the silence starts now.
  s.advance(static_cast<double>(s.nextUpdateNs - s.now.steadyNs) / 1e9);
  c.input(1, 30, 30);
  // The update at exactly 2 s of silence keeps it (silence must exceed the timeout)...
  s.advance(2.0);
  EXPECT_EQ(s.protocol->connectionCount(), 1u);
  EXPECT_EQ(s.metrics.timeouts.load(), 0u);
  // ...and the next one, 0.25 s later, ends it: told why, its body removed at the next tick.
  s.advance(NetProtocol::kUpdateSeconds);
  EXPECT_EQ(s.protocol->connectionCount(), 0u);
  EXPECT_EQ(s.metrics.timeouts.load(), 1u);
  s.step();
  EXPECT_EQ(s.session->clientCount(), 0u);
  EXPECT_FALSE(s.world->isAlive(accept->accept().player_entity()));
  const auto bye = c.take(wire::Packet::kDisconnect);
  ASSERT_TRUE(bye);
  EXPECT_EQ(bye->disconnect().reason(), wire::DISCONNECT_TIMED_OUT);
}

// A restarted client (same address, new key) replaces its old session only once that one has been
// silent kReplaceAfterSilenceSeconds; before, the new key is dropped (rate_limited).
TEST(ProtocolTime, ANewKeyReplacesASessionOnlyAfterItsSilence) {
  SimServer s;
  SimClient c(s, 30001);
  const auto first = c.connect();
  ASSERT_TRUE(first && first->has_accept());
  c.input(1, 30, 30);
  s.step();
  c.keys = wire::KeyPair::generate();  // the restarted client's
  const auto newKeyAfter = [&](double silence) {
    s.advance(silence);
    c.send(c.connectRequest({}), wire::kMinConnectDatagramBytes);
    const auto challenge = c.take(wire::Packet::kChallenge);
    EXPECT_TRUE(challenge && challenge->has_challenge());
    c.cookie = challenge->challenge().cookie();
    c.send(c.connectResponse({}), wire::kMinConnectResponseBytes);
    s.step();
    return c.take(wire::Packet::kAccept);
  };
  // 0.9 s after the last input: the old session still counts as speaking.
  EXPECT_FALSE(newKeyAfter(0.9));
  EXPECT_EQ(s.drops(wire::DropReason::kRateLimited), 1u);
  EXPECT_EQ(s.metrics.sessionsReplaced.load(), 0u);
  // (The ConnectRequest and the dropped response did not count as the session speaking.)
  // Past 1 s of silence since the input: a new session, the old one ended.
  const auto restarted = newKeyAfter(0.2);
  ASSERT_TRUE(restarted && restarted->has_accept());
  EXPECT_NE(restarted->accept().client_id(), first->accept().client_id());
  EXPECT_EQ(s.metrics.sessionsReplaced.load(), 1u);
  s.step();
  EXPECT_EQ(s.session->clientCount(), 1u);
}

TEST(ProtocolTime, RoundTripTimeIsTheDelayOfTheAcks) {
  SimServer s;
  SimClient c(s);
  ASSERT_TRUE(c.connect());
  // Each round: the server ticks and sends what is due, and 80 ms later the client acks the newest.
  for (int i = 0; i < 40; ++i) {
    s.tickNow();
    wire::Decoded d;
    std::optional<std::uint16_t> newest;
    while (c.receive(d)) {
      if (d.drop == wire::DropReason::kNone) newest = d.header.sequence;
    }
    if (!newest) continue;
    s.advance(0.080);
    c.ackSequence = *newest;
    c.ackBits = 0;
    c.input(static_cast<std::uint32_t>(i + 1), 30, 30);
  }
  s.advance(NetProtocol::kUpdateSeconds);  // the summaries are made by update()
  const auto summaries = s.metrics.clientSummaries();
  ASSERT_EQ(summaries.size(), 1u);
  // Each sample is exactly 80 ms (the ack came 80 ms after the send), so the smoothed RTT is too.
  EXPECT_NEAR(summaries[0].rttMs, 80.0, 1e-6);
  // /metrics' histogram: the client's RTT once a second of the 3.2 s, in seconds; nothing lost.
  const auto& rtt = s.metrics.clientRttSeconds;
  ASSERT_GE(rtt.count(), 2u);
  EXPECT_LE(rtt.count(), 4u);
  EXPECT_NEAR(rtt.sum() / static_cast<double>(rtt.count()), 0.080, 1e-9);
  EXPECT_GE(s.metrics.clientLossRatio.count(), 2u);
  EXPECT_EQ(s.metrics.clientLossRatio.sum(), 0.0);
}

TEST(ProtocolTime, SceneTakesItsBurstThenItsRate) {
  ServerSetup setup;
  setup.geometry.walls.push_back(steer::makeWall({10, 10}, {50, 10}));  // part 0, asked for again and again
  setup.net.clientTimeoutSeconds = 120.0;  // the long silence below is not a timeout
  SimServer s(setup);
  SimClient c(s);
  ASSERT_TRUE(c.connect());
  const auto request = [&](int parts) {
    wire::Packet p;
    for (int i = 0; i < parts; ++i) p.mutable_scene_request()->add_parts(0);
    c.send(p);
  };
  const auto scenesReceived = [&] {
    std::size_t n = 0;
    wire::Decoded d;
    while (c.receive(d)) n += d.drop == wire::DropReason::kNone && d.packet.has_scene();
    return n;
  };
  scenesReceived();
  // 48 parts asked for at one instant: the burst, 32, and no more.
  for (int r = 0; r < 3; ++r) request(16);
  EXPECT_EQ(scenesReceived(), 32u);
  EXPECT_EQ(s.drops(wire::DropReason::kRateLimited), 1u);
  // Half a second later: 16 more tokens (32 a second), to the part.
  s.advance(0.5);
  request(16);
  request(16);
  EXPECT_EQ(scenesReceived(), 16u);
  // A long silence refills the bucket to its burst, no further.
  s.advance(60.0);
  for (int r = 0; r < 3; ++r) request(16);
  EXPECT_EQ(scenesReceived(), 32u);
}

TEST(ProtocolTime, ACookieIsGoodForItsBucketAndTheNextThenRefused) {
  SimServer s;
  SimClient c(s);
  c.send(c.connectRequest({}), wire::kMinConnectDatagramBytes);
  const auto challenge = c.take(wire::Packet::kChallenge);
  ASSERT_TRUE(challenge && challenge->has_challenge());
  c.cookie = challenge->challenge().cookie();
  // Cookies are good for their 10 s bucket and the one after: 21 s later this one is not.
  s.advance(21.0);
  c.send(c.connectResponse({}), wire::kMinConnectResponseBytes);
  s.step();
  EXPECT_FALSE(c.take(wire::Packet::kAccept));
  EXPECT_EQ(s.drops(wire::DropReason::kBadCookie), 1u);
  // A fresh one works.
  EXPECT_TRUE(c.connect());
}

TEST(ProtocolTime, ATokenAdmitsUntilItsExpiryAndNotAfter) {
  ServerSetup setup;
  TokenKey key{};
  key.fill(7);
  setup.net.tokenKey = key;
  SimServer s(setup);
  const std::uint64_t expires = s.now.unixSeconds + 30;
  const std::string token = issueToken(key, 42, expires);
  SimClient early(s);
  const auto in = early.connect(token);
  ASSERT_TRUE(in && in->has_accept());
  s.advance(31.0);
  SimClient late(s);
  const auto out = late.connect(token);
  ASSERT_TRUE(out && out->has_refuse());
  EXPECT_EQ(out->refuse().reason(), wire::REFUSE_TOKEN_EXPIRED);
}

}  // namespace
}  // namespace steerd::net
