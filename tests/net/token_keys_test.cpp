// Connect tokens with keys, on simulated time (issue 38's first hole: a token seen on the wire let
// anyone take the player's place). The private token travels in the clear; the keys never do, so
// a sniffed token gets nothing and disturbs no one, while the client that holds the keys gets in
// (again, after a crash) and is sure of the server it reached.
#include <gtest/gtest.h>

#include "net/connect_token.h"
#include "sim_net.h"

namespace steerd::net {
namespace {

struct TokenServer {
  TokenServer() {
    key.fill(5);
    setup.net.tokenKey = key;
  }
  TokenKey key{};
  ServerSetup setup;
};

// What an eavesdropper has: a ConnectResponse as the player sent it, token and all, but not the
// keys. Sent from its own address with a cookie of its own.
std::optional<wire::Packet> connectWithSniffedToken(SimClient& thief, const std::string& privateToken,
                                                    const std::string& keyProof = {}) {
  thief.send(thief.connectRequest(privateToken), wire::kMinConnectDatagramBytes);
  const auto challenge = thief.take(wire::Packet::kChallenge);
  if (!challenge || !challenge->has_challenge()) return challenge;
  thief.cookie = challenge->challenge().cookie();
  wire::Packet resp = thief.connectResponse(privateToken);
  resp.mutable_connect_response()->set_key_proof(keyProof);
  thief.send(resp, wire::kMinConnectResponseBytes);
  thief.server.step();
  return thief.take(wire::Packet::kAccept);
}

TEST(TokenKeys, ASniffedTokenWithoutItsKeysGetsNothingAndDisturbsNobody) {
  TokenServer t;
  SimServer s(t.setup);
  const std::string token = issueToken(t.key, 42, s.now.unixSeconds + 3600);
  SimClient player(s);
  const auto in = player.connect(token);
  ASSERT_TRUE(in && in->has_accept());
  ASSERT_TRUE(player.seal.ready());

  // The thief saw the private token and the player's key proof (made for the player's cookie).
  wire::Packet seen = player.connectResponse(token);
  SimClient thief(s);
  EXPECT_FALSE(connectWithSniffedToken(thief, seen.connect_response().token()));
  EXPECT_FALSE(
      connectWithSniffedToken(thief, seen.connect_response().token(), seen.connect_response().key_proof()));
  EXPECT_EQ(s.drops(wire::DropReason::kBadKeyProof), 2u);
  EXPECT_EQ(s.metrics.clients.load(), 1u);
  EXPECT_EQ(s.metrics.sessionsReplaced.load(), 0u);
  EXPECT_EQ(s.metrics.refusals.load(), 0u);  // not even a Refuse to learn from
  // The player's session goes on: its input is applied.
  player.input(1, 120, 120);
  s.step();
  EXPECT_EQ(s.metrics.inputsApplied.load(), 1u);
}

TEST(TokenKeys, TheClientWithTheKeysGetsBackInAfterACrash) {
  TokenServer t;
  SimServer s(t.setup);
  const std::string token = issueToken(t.key, 42, s.now.unixSeconds + 3600);
  SimClient first(s);
  ASSERT_TRUE(first.connect(token));
  // It crashed and came back on another port with the same token (and keys): in at once, the old
  // session replaced, no timeout to wait out.
  SimClient restarted(s);
  const auto in = restarted.connect(token);
  ASSERT_TRUE(in && in->has_accept());
  EXPECT_TRUE(restarted.acceptProofOk);
  EXPECT_EQ(s.metrics.clients.load(), 1u);
  EXPECT_EQ(s.metrics.sessionsReplaced.load(), 1u);
  // Its session keys are new (fresh key pairs): the old session's datagrams do not open in it.
  restarted.input(1, 110, 110);
  s.step();
  EXPECT_EQ(s.metrics.inputsApplied.load(), 1u);
  first.input(2, 130, 130);
  s.step();
  EXPECT_EQ(s.metrics.inputsApplied.load(), 1u);
}

TEST(TokenKeys, TheAcceptProvesTheServerOpenedTheToken) {
  TokenServer t;
  SimServer s(t.setup);
  const std::string token = issueToken(t.key, 9, s.now.unixSeconds + 3600);
  SimClient c(s);
  const auto in = c.connect(token);
  ASSERT_TRUE(in && in->has_accept());
  EXPECT_EQ(in->accept().key_proof().size(), wire::kKeyProofBytes);
  EXPECT_TRUE(c.acceptProofOk);
  // An Accept from someone without the token's keys (a man in the middle with a key pair of its own)
  // proves nothing: the client takes no keys from it.
  wire::Packet forged = *in;
  const wire::KeyPair mitm = wire::KeyPair::generate();
  forged.mutable_accept()->set_public_key(mitm.publicKey);
  std::string error;
  const auto k = wire::parseClientToken(token, error);
  ASSERT_TRUE(k);
  EXPECT_FALSE(wire::acceptProofValid(k->serverToClient, mitm.publicKey, c.keys.publicKey,
                                      forged.accept().key_proof()));
}

TEST(TokenKeys, ATokenForOtherServersIsRefused) {
  TokenServer t;
  t.setup.net.port = 7777;
  t.setup.net.publicAddresses = {"203.0.113.5:7777"};
  SimServer s(t.setup);
  TokenGrant g;
  g.clientId = 1;
  g.expiresUnixSeconds = s.now.unixSeconds + 3600;
  g.serverAddresses = {"203.0.113.9:7777"};
  SimClient other(s);
  const auto out = other.connect(issueToken(t.key, g));
  ASSERT_TRUE(out && out->has_refuse());
  EXPECT_EQ(out->refuse().reason(), wire::REFUSE_TOKEN_WRONG_SERVER);
  g.serverAddresses = {"203.0.113.9:7777", "203.0.113.5:7777"};
  SimClient listed(s);
  const auto in = listed.connect(issueToken(t.key, g));
  ASSERT_TRUE(in && in->has_accept());
}

TEST(TokenKeys, TheTokensTimeoutEndsASilentSessionSooner) {
  TokenServer t;
  t.setup.net.clientTimeoutSeconds = 10.0;
  SimServer s(t.setup);
  TokenGrant g;
  g.clientId = 3;
  g.expiresUnixSeconds = s.now.unixSeconds + 3600;
  g.timeoutSeconds = 2;
  SimClient short_(s);
  ASSERT_TRUE(short_.connect(issueToken(t.key, g)));
  g.clientId = 4;
  g.timeoutSeconds = 0;  // the server's own
  SimClient plain(s);
  ASSERT_TRUE(plain.connect(issueToken(t.key, g)));
  EXPECT_EQ(s.metrics.clients.load(), 2u);
  s.advance(1.9);
  EXPECT_EQ(s.metrics.clients.load(), 2u);
  s.advance(0.3);
  EXPECT_EQ(s.metrics.clients.load(), 1u);
  EXPECT_EQ(s.metrics.timeouts.load(), 1u);
  s.advance(8.0);
  EXPECT_EQ(s.metrics.clients.load(), 0u);
}

}  // namespace
}  // namespace steerd::net
