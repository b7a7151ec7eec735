// The handshake on simulated time (client/handshake.h): what it sends when, the connect timeout to
// the resend, refusals, REFUSE_NOT_ALLOCATED retried, the token's proof, silence once connected.
#include "client/handshake.h"

#include <gtest/gtest.h>

#include <limits>

#include "proto/packet.h"
#include "recording_outbox.h"

namespace steerd::client {
namespace {

using namespace std::chrono_literals;
using test::RecordingOutbox;

ClientOptions options() {
  ClientOptions o;
  o.server = asio::ip::udp::endpoint(asio::ip::make_address("127.0.0.1"), 7777);
  o.connectTimeout = 2s;
  o.resendInterval = 250ms;
  o.retries = 3;
  o.serverTimeout = 5s;
  return o;
}

wire::Challenge challenge(const std::string& cookie = "cookie") {
  wire::Challenge c;
  c.set_cookie(cookie);
  return c;
}

// An Accept a server would send for `response`: its key, and (with token keys) its proof.
wire::Accept acceptFor(const wire::ConnectResponse& response, const wire::KeyPair& server,
                       const wire::SessionKey* serverToClient = nullptr) {
  wire::Accept a;
  a.set_public_key(server.publicKey);
  if (serverToClient != nullptr)
    a.set_key_proof(wire::acceptProof(*serverToClient, server.publicKey, response.public_key()));
  a.set_client_id(3);
  a.set_player_entity(9);
  a.set_tick_rate(30.0f);
  a.set_send_rate(15.0f);
  a.set_interest_radius(std::numeric_limits<float>::infinity());
  return a;
}

TEST(ClientHandshake, ConnectRequestThenResponseEachPaddedAndResentUntilTheRetriesAreSpent) {
  const ClientOptions o = options();
  Handshake h(o);
  RecordingOutbox out;
  const TimePoint t0 = test::simulatedStart();
  ASSERT_TRUE(h.connect(t0, out));
  EXPECT_FALSE(h.connect(t0, out));  // only from idle
  ASSERT_EQ(out.packets.size(), 1u);
  EXPECT_TRUE(out.packets[0].has_connect_request());
  EXPECT_EQ(out.minBytes[0], wire::minimumDatagramBytes(wire::Packet::kConnectRequest));
  EXPECT_GT(out.minBytes[0], 0u);
  // Every 250 ms, three resends after the first send, then silence until the timeout.
  for (TimePoint t = t0; t < t0 + 1900ms; t += 10ms) h.update(t, out);
  EXPECT_EQ(out.count(wire::Packet::kConnectRequest), 4u);
  EXPECT_EQ(h.state(), ClientState::kAwaitingChallenge);

  h.onChallenge(challenge(), t0 + 1900ms, out);
  EXPECT_EQ(h.state(), ClientState::kAwaitingAccept);
  ASSERT_TRUE(out.packets.back().has_connect_response());
  EXPECT_EQ(out.packets.back().connect_response().cookie(), "cookie");
  EXPECT_EQ(out.packets.back().connect_response().public_key().size(), wire::kPublicKeyBytes);
  // The timeout runs from connect(), not from the challenge.
  h.update(t0 + 2s - 1ms, out);
  EXPECT_EQ(h.state(), ClientState::kAwaitingAccept);
  h.update(t0 + 2s, out);
  EXPECT_EQ(h.state(), ClientState::kTimedOut);
  EXPECT_NE(h.message().find("Accept or Refuse"), std::string::npos) << h.message();
}

TEST(ClientHandshake, AChallengeOutsideTheHandshakeOrWithAnUnusableCookieIsIgnored) {
  const ClientOptions o = options();
  Handshake h(o);
  RecordingOutbox out;
  h.onChallenge(challenge(), test::simulatedStart(), out);  // idle
  EXPECT_EQ(h.state(), ClientState::kIdle);
  ASSERT_TRUE(h.connect(test::simulatedStart(), out));
  h.onChallenge(challenge(""), test::simulatedStart(), out);
  h.onChallenge(challenge(std::string(513, 'c')), test::simulatedStart(), out);
  EXPECT_EQ(h.state(), ClientState::kAwaitingChallenge);
  EXPECT_EQ(out.packets.size(), 1u);
}

TEST(ClientHandshake, AcceptGivesTheSessionKeysAndTheServersNumbersMadeSafe) {
  const ClientOptions o = options();
  Handshake h(o);
  RecordingOutbox out;
  const TimePoint t0 = test::simulatedStart();
  ASSERT_TRUE(h.connect(t0, out));
  h.onChallenge(challenge(), t0, out);
  const wire::KeyPair server = wire::KeyPair::generate();
  const auto keys = h.onAccept(acceptFor(out.packets.back().connect_response(), server), t0 + 10ms);
  ASSERT_TRUE(keys.has_value());
  EXPECT_EQ(h.state(), ClientState::kConnected);
  EXPECT_EQ(h.server().clientId, 3u);
  EXPECT_EQ(h.server().playerEntity, 9u);
  EXPECT_EQ(h.server().interestRadius, 0.0f);  // infinite: everything, as 0 says
  // The server's side of the exchange seals what this side opens.
  const auto serverKeys = wire::serverSessionKeys(server, out.packets.back().connect_response().public_key());
  ASSERT_TRUE(serverKeys.has_value());
  EXPECT_EQ(keys->receive, serverKeys->transmit);
  EXPECT_EQ(keys->transmit, serverKeys->receive);
  // A second Accept is not a second session.
  EXPECT_FALSE(h.onAccept(acceptFor(out.packets.back().connect_response(), server), t0 + 20ms).has_value());
}

TEST(ClientHandshake, AnAcceptWithAnUnusableRateFails) {
  const ClientOptions o = options();
  Handshake h(o);
  RecordingOutbox out;
  ASSERT_TRUE(h.connect(test::simulatedStart(), out));
  h.onChallenge(challenge(), test::simulatedStart(), out);
  wire::Accept a = acceptFor(out.packets.back().connect_response(), wire::KeyPair::generate());
  a.set_tick_rate(std::numeric_limits<float>::quiet_NaN());
  EXPECT_FALSE(h.onAccept(a, test::simulatedStart()).has_value());
  EXPECT_EQ(h.state(), ClientState::kFailed);
  EXPECT_NE(h.message().find("tick_rate"), std::string::npos) << h.message();
}

TEST(ClientHandshake, WithATokenOnlyAnAcceptProvingItsKeysIsTaken) {
  ClientOptions o = options();
  wire::SessionKey c2s, s2c;
  c2s.fill(0x31);
  s2c.fill(0x42);
  wire::ClientToken token;
  token.set_private_token("sealed-part");
  token.set_client_to_server_key(std::string(c2s.begin(), c2s.end()));
  token.set_server_to_client_key(std::string(s2c.begin(), s2c.end()));
  o.token = token.SerializeAsString();
  Handshake h(o);
  RecordingOutbox out;
  ASSERT_TRUE(h.connect(test::simulatedStart(), out));
  EXPECT_EQ(out.packets[0].connect_request().token(), "sealed-part");
  h.onChallenge(challenge(), test::simulatedStart(), out);
  const wire::ConnectResponse& r = out.packets.back().connect_response();
  EXPECT_TRUE(wire::connectProofValid(c2s, r.cookie(), r.public_key(), r.key_proof()));
  const wire::KeyPair server = wire::KeyPair::generate();
  EXPECT_FALSE(h.onAccept(acceptFor(r, server), test::simulatedStart()).has_value());  // no proof
  EXPECT_EQ(h.state(), ClientState::kAwaitingAccept);
  EXPECT_TRUE(h.onAccept(acceptFor(r, server, &s2c), test::simulatedStart()).has_value());
}

TEST(ClientHandshake, AnUnusableTokenFailsAtConnect) {
  ClientOptions o = options();
  o.token = "not a token";
  Handshake h(o);
  RecordingOutbox out;
  EXPECT_FALSE(h.connect(test::simulatedStart(), out));
  EXPECT_EQ(h.state(), ClientState::kFailed);
  EXPECT_TRUE(out.packets.empty());
}

TEST(ClientHandshake, NotAllocatedStartsAgainAndTheTimeoutNamesTheLastRefusal) {
  const ClientOptions o = options();
  Handshake h(o);
  RecordingOutbox out;
  const TimePoint t0 = test::simulatedStart();
  ASSERT_TRUE(h.connect(t0, out));
  h.onChallenge(challenge(), t0, out);
  wire::Refuse r;
  r.set_reason(wire::REFUSE_NOT_ALLOCATED);
  r.set_message("waiting for its match");
  h.onRefuse(r, t0 + 100ms);
  EXPECT_EQ(h.state(), ClientState::kAwaitingChallenge);
  out.clear();
  h.update(t0 + 350ms, out);  // a resend interval after the refusal: a fresh ConnectRequest
  ASSERT_EQ(out.packets.size(), 1u);
  EXPECT_TRUE(out.packets[0].has_connect_request());
  h.update(t0 + 2s, out);
  EXPECT_EQ(h.state(), ClientState::kTimedOut);
  EXPECT_NE(h.message().find("waiting for its match"), std::string::npos) << h.message();
}

TEST(ClientHandshake, ARefusalEndsItWithTheServersMessageOrTheReasonsName) {
  const ClientOptions o = options();
  for (const std::string message : {"server full (0 clients)", ""}) {
    Handshake h(o);
    RecordingOutbox out;
    ASSERT_TRUE(h.connect(test::simulatedStart(), out));
    wire::Refuse r;
    r.set_reason(wire::REFUSE_SERVER_FULL);
    r.set_message(message);
    h.onRefuse(r, test::simulatedStart());
    EXPECT_EQ(h.state(), ClientState::kRefused);
    EXPECT_EQ(h.refuseReason(), wire::REFUSE_SERVER_FULL);
    EXPECT_EQ(h.message(), message.empty() ? "refused: REFUSE_SERVER_FULL" : message);
  }
}

TEST(ClientHandshake, ConnectedItTimesOutOnlyAfterTheServerIsSilentTooLong) {
  const ClientOptions o = options();
  Handshake h(o);
  RecordingOutbox out;
  const TimePoint t0 = test::simulatedStart();
  ASSERT_TRUE(h.connect(t0, out));
  h.onChallenge(challenge(), t0, out);
  ASSERT_TRUE(h.onAccept(acceptFor(out.packets.back().connect_response(), wire::KeyPair::generate()), t0));
  h.heard(t0 + 3s);
  h.update(t0 + 8s, out);  // 5 s after the last packet: not more than 5 s
  EXPECT_EQ(h.state(), ClientState::kConnected);
  h.update(t0 + 8s + 1ms, out);
  EXPECT_EQ(h.state(), ClientState::kTimedOut);
  EXPECT_NE(h.message().find("silent"), std::string::npos) << h.message();
}

TEST(ClientHandshake, DisconnectSaysSoThreeTimesOnlyWhenTheServerMayHoldASession) {
  const ClientOptions o = options();
  {
    Handshake h(o);
    RecordingOutbox out;
    ASSERT_TRUE(h.connect(test::simulatedStart(), out));
    out.clear();
    h.disconnect(out);  // awaiting the challenge: the server holds nothing
    EXPECT_TRUE(out.packets.empty());
    EXPECT_EQ(h.state(), ClientState::kDisconnected);
  }
  Handshake h(o);
  RecordingOutbox out;
  ASSERT_TRUE(h.connect(test::simulatedStart(), out));
  h.onChallenge(challenge(), test::simulatedStart(), out);
  out.clear();
  h.disconnect(out);
  EXPECT_EQ(out.count(wire::Packet::kDisconnect), 3u);
  EXPECT_EQ(h.disconnectReason(), wire::DISCONNECT_CLIENT_LEFT);
  wire::Disconnect d;
  d.set_reason(wire::DISCONNECT_SERVER_SHUTDOWN);
  h.onDisconnect(d);  // already over: the reason stays the client's
  EXPECT_EQ(h.disconnectReason(), wire::DISCONNECT_CLIENT_LEFT);
}

}  // namespace
}  // namespace steerd::client
