// Sealed sessions against the real server (issue 17's second hole): nothing ties a datagram to
// its session but the session's keys, so a datagram from a client's address that was not sealed
// with them, whoever sent it, can neither disconnect the client nor move its player, and a
// captured one cannot be played again.
#include <gtest/gtest.h>

#include "sim_net.h"
#include "udp_harness.h"

namespace steerd::net {
namespace {

// A datagram as protocol 4 sent it, in the clear: what a forger without the keys can make.
std::vector<std::uint8_t> clearDatagram(const wire::Packet& p, std::uint16_t sequence) {
  std::vector<std::uint8_t> d;
  EXPECT_TRUE(wire::encodeDatagram({static_cast<std::uint8_t>(p.body_case()), sequence, 0, 0}, p, d));
  return d;
}

TEST(SealedSession, AnUnsealedDisconnectFromTheClientsAddressIsDroppedAndTheClientStays) {
  Server s;
  RawClient c(s.endpoint->port());
  ASSERT_TRUE(c.connect(s));
  wire::Packet bye;
  bye.mutable_disconnect()->set_reason(wire::DISCONNECT_CLIENT_LEFT);
  // The forger knows the address (it sends from it here: a forged source looks the same) and
  // guesses sequences; it does not have the keys.
  for (std::uint16_t seq = 1; seq < 6; ++seq) c.sendBytes(clearDatagram(bye, seq));
  ASSERT_TRUE(s.stepUntil([&] { return s.drops(wire::DropReason::kBadSeal) == 5; }));
  for (int i = 0; i < 5; ++i) s.step();
  EXPECT_EQ(s.session->clientCount(), 1u);
  EXPECT_EQ(s.metrics.disconnects.load(), 0u);
  // The client's own sealed inputs still get through.
  c.input(1, 40, 40);
  EXPECT_TRUE(s.stepUntil([&] { return s.metrics.inputsApplied.load() == 1; }));
}

TEST(SealedSession, InputsSealedWithAnotherSessionsKeysDoNotMoveThePlayer) {
  Server s;
  RawClient victim(s.endpoint->port());
  const auto a = victim.connect(s);
  ASSERT_TRUE(a);
  RawClient forger(s.endpoint->port());
  ASSERT_TRUE(forger.connect(s));  // a session of its own, so it can seal, with its own keys
  const AgentId body = a->accept().player_entity();
  const float x0 = s.world->agents().px[s.world->slotOf(body)];
  // The forger's sealed input, sent from the victim's address.
  forger.input(1, 10, 10);
  victim.sendBytes(forger.sealed);
  ASSERT_TRUE(s.stepUntil([&] { return s.drops(wire::DropReason::kBadSeal) == 1; }));
  EXPECT_EQ(s.metrics.inputsApplied.load(), 1u) << "only the forger's own, in its own session";
  EXPECT_EQ(s.world->agents().px[s.world->slotOf(body)], x0);
}

TEST(SealedSession, ACapturedDatagramPlayedAgainIsDroppedAsReplayed) {
  Server s;
  RawClient c(s.endpoint->port());
  ASSERT_TRUE(c.connect(s));
  c.input(1, 40, 40);
  const std::vector<std::uint8_t> captured = c.sealed;
  ASSERT_TRUE(s.stepUntil([&] { return s.metrics.inputsApplied.load() == 1; }));
  wire::Packet bye;
  bye.mutable_disconnect()->set_reason(wire::DISCONNECT_CLIENT_LEFT);
  c.send(bye);
  ASSERT_TRUE(s.stepUntil([&] { return s.session->clientCount() == 0; }));
  // Replayed in the same session...
  RawClient again(s.endpoint->port());
  ASSERT_TRUE(again.connect(s));
  again.input(1, 40, 40);
  const std::vector<std::uint8_t> first = again.sealed;
  again.sendBytes(first);
  ASSERT_TRUE(s.stepUntil([&] { return s.drops(wire::DropReason::kReplayed) == 1; }));
  // ...and a datagram of a finished session, into a new one from the same address and the same
  // client key pair: the server's key is new for every session, so it does not open.
  ASSERT_TRUE(c.connect(s));
  c.sendBytes(captured);
  ASSERT_TRUE(s.stepUntil([&] { return s.drops(wire::DropReason::kBadSeal) == 1; }));
  EXPECT_EQ(s.metrics.inputsApplied.load(), 2u);
}

TEST(SealedSession, EverySessionGetsItsOwnServerKey) {
  Server s;
  RawClient a(s.endpoint->port()), b(s.endpoint->port());
  const auto acceptA = a.connect(s);
  const auto acceptB = b.connect(s);
  ASSERT_TRUE(acceptA && acceptB);
  EXPECT_EQ(acceptA->accept().public_key().size(), wire::kPublicKeyBytes);
  EXPECT_NE(acceptA->accept().public_key(), acceptB->accept().public_key());
}

TEST(SealedSession, AConnectResponseWithoutAUsableKeyIsRefusedWithTheReason) {
  Server s;
  RawClient c(s.endpoint->port());
  const auto cookie = c.challenge(s);
  ASSERT_TRUE(cookie);
  wire::Packet resp;
  resp.mutable_connect_response()->set_cookie(*cookie);
  resp.mutable_connect_response()->set_public_key("short");
  c.send(resp, wire::kMinConnectResponseBytes);
  const auto answer = c.await(s, wire::Packet::kRefuse);
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->refuse().reason(), wire::REFUSE_BAD_KEY);
  EXPECT_NE(answer->refuse().message().find("public_key"), std::string::npos) << answer->refuse().message();
  EXPECT_EQ(s.metrics.connects.load(), 0u);
}

// (On made-up time, sim_net.h: the rule turns on a second of silence.)
TEST(SealedSession, ANewKeyFromAnAdmittedAddressIsANewClientThere) {
  SimServer s;
  SimClient c(s);
  const auto first = c.connect();
  ASSERT_TRUE(first && first->has_accept());
  // The same address asks again with the same key (its Accept was lost): the same Accept.
  const auto repeated = c.connect();
  ASSERT_TRUE(repeated && repeated->has_accept());
  EXPECT_EQ(repeated->accept().client_id(), first->accept().client_id());
  // A new key while the session at this address still speaks: dropped, the session stays.
  c.input(1, 30, 30);
  s.step();
  EXPECT_EQ(s.metrics.inputsApplied.load(), 1u);
  c.keys = wire::KeyPair::generate();
  EXPECT_FALSE(c.connect());
  EXPECT_EQ(s.drops(wire::DropReason::kRateLimited), 1u);
  EXPECT_EQ(s.metrics.sessionsReplaced.load(), 0u);
  // A client restarted on the same port: its old session falls silent, and once it has been
  // silent kReplaceAfterSilenceSeconds, a new key is a new session and the old one ends.
  s.advance(NetProtocol::kReplaceAfterSilenceSeconds);
  const auto restarted = c.connect();
  ASSERT_TRUE(restarted && restarted->has_accept());
  EXPECT_NE(restarted->accept().client_id(), first->accept().client_id());
  EXPECT_EQ(s.metrics.sessionsReplaced.load(), 1u);
  s.step();
  EXPECT_EQ(s.session->clientCount(), 1u);
  c.input(1, 30, 30);
  s.step();
  EXPECT_EQ(s.metrics.inputsApplied.load(), 2u);
}

TEST(SealedSession, AnUnusableKeyFromAnAdmittedAddressLeavesTheSessionAlone) {
  SimServer s;
  SimClient c(s);
  ASSERT_TRUE(c.connect());
  c.send(c.connectRequest({}), wire::kMinConnectDatagramBytes);
  const auto challenge = c.take(wire::Packet::kChallenge);
  ASSERT_TRUE(challenge && challenge->has_challenge());
  wire::Packet resp;
  resp.mutable_connect_response()->set_cookie(challenge->challenge().cookie());
  resp.mutable_connect_response()->set_public_key(std::string(3, 'k'));
  c.send(resp, wire::kMinConnectResponseBytes);
  // While the session speaks, a new key from its address is dropped before any key check...
  EXPECT_EQ(s.drops(wire::DropReason::kRateLimited), 1u);
  // ...and once it has been silent long enough, a bad key is refused with its reason, and the
  // session is still there.
  s.advance(NetProtocol::kReplaceAfterSilenceSeconds + 0.1);
  c.send(resp, wire::kMinConnectResponseBytes);
  const auto answer = c.take(wire::Packet::kRefuse);
  ASSERT_TRUE(answer && answer->has_refuse());
  EXPECT_EQ(answer->refuse().reason(), wire::REFUSE_BAD_KEY);
  EXPECT_EQ(s.metrics.sessionsReplaced.load(), 0u);
  s.step();
  EXPECT_EQ(s.session->clientCount(), 1u);
  EXPECT_EQ(s.metrics.disconnects.load(), 0u);
}

// One sealed datagram 2^40 ahead of the client's counter, its header's low 16 bits plausible:
// dropped as implausible before it moves the seal's window, so the client's next honest datagram
// is taken (it used to count as replayed, and so did every one after it).
TEST(SealedSession, ASealSequenceFarAheadIsDroppedAndDoesNotCutTheClientOff) {
  SimServer s;
  SimClient c(s);
  ASSERT_TRUE(c.connect());
  c.input(1, 40, 40);
  s.step();
  ASSERT_EQ(s.metrics.inputsApplied.load(), 1u);
  const std::uint64_t next = c.seq;
  c.seq = next + (std::uint64_t{1} << 40);
  c.input(2, 41, 40);
  s.step();
  EXPECT_EQ(s.drops(wire::DropReason::kImplausibleSequence), 1u);
  EXPECT_EQ(s.metrics.inputsApplied.load(), 1u);
  c.seq = next;
  c.input(3, 42, 40);
  s.step();
  EXPECT_EQ(s.drops(wire::DropReason::kReplayed), 0u);
  EXPECT_EQ(s.metrics.inputsApplied.load(), 2u);
}

}  // namespace
}  // namespace steerd::net
