// Test harness for the server's network side over real UDP on 127.0.0.1: a World, the network
// thread, the GameSession stepped on the test's thread, and raw client sockets that speak the
// protocol byte by byte. Shared by the tests/net process-level tests.
#pragma once

#include <asio.hpp>

#include <array>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "net/game_session.h"
#include "net/net_endpoint.h"
#include "net/server_tick.h"
#include "proto/packet.h"
#include "proto/session_seal.h"
#include "proto/token_proof.h"

namespace steerd::net {

using udp = asio::ip::udp;
using namespace std::chrono_literals;

inline Archetype evader() {
  Archetype a;
  a.name = "deer";
  a.limits = {0.5f, 1.0f, 5.0f, 20.0f, 4.0f * steer::kPi};
  BehaviourSpec evade;
  evade.kind = BehaviourKind::kEvadeNearest;
  evade.targetArchetype = 1;  // the player archetype, appended after this one
  evade.range = 30.0f;
  a.behaviours = {evade};
  return a;
}

// What a test server is made of; the defaults are one deer in a 200 m field.
struct ServerSetup {
  NetConfig net;
  SessionConfig session;
  StaticGeometry geometry;
  std::vector<Archetype> archetypes;
  ServerSetup() {
    geometry.bounds = {0, 0, 200, 200};
    archetypes = {evader()};
  }
};

struct Server {
  explicit Server(NetConfig config = {}, SessionConfig session = {}) : Server(setupWith(config, session)) {}
  explicit Server(ServerSetup setup) {
    NetConfig config = setup.net;
    world = std::make_unique<World>(std::move(setup.geometry), std::move(setup.archetypes), WorldConfig{});
    deer = world->spawn(0, {100, 100});
    config.bind = "127.0.0.1";
    config.port = 0;
    endpoint = std::make_unique<NetEndpoint>(config, metrics);
    session = std::make_unique<GameSession>(*world, *endpoint, metrics, setup.session);
    tick = std::make_unique<ServerTick>(*world, *session, *endpoint, 30.0);
    endpoint->start();
  }
  ~Server() { endpoint->stop(); }
  static ServerSetup setupWith(const NetConfig& config, const SessionConfig& session) {
    ServerSetup s;
    s.net = config;
    s.session = session;
    return s;
  }

  void step() { tick->run(1); }
  // Ticks (with a short sleep so the network thread runs) until `done` or 5 s have passed.
  bool stepUntil(const std::function<bool()>& done) {
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (std::chrono::steady_clock::now() < deadline) {
      step();
      if (done()) return true;
      std::this_thread::sleep_for(2ms);
    }
    return false;
  }
  std::uint64_t drops(wire::DropReason r) const { return metrics.drops[static_cast<std::size_t>(r)].load(); }

  ServerMetrics metrics;
  std::unique_ptr<World> world;
  AgentId deer = 0;
  std::unique_ptr<NetEndpoint> endpoint;
  std::unique_ptr<GameSession> session;
  std::unique_ptr<ServerTick> tick;
};

// The client's half of a session, byte by byte: shared by the UDP test client here and the
// simulated one (sim_net.h).
struct ClientSession {
  // Encodes `p` into `sealed`: sealed with the session's keys when the kind is; before the Accept
  // (no keys) in the clear, as a client without a session can only send it.
  void encode(const wire::Packet& p, std::size_t minSize = 0) {
    std::vector<std::uint8_t> d;
    ASSERT_TRUE(wire::encodeDatagram({static_cast<std::uint8_t>(p.body_case()), 0, ackSequence, ackBits}, p,
                                     d, minSize));
    if (seal.ready() || !wire::sealedKind(d[5])) {
      ASSERT_TRUE(seal.protect(d, seq++, sealed));
    } else {
      d[6] = static_cast<std::uint8_t>(seq);
      d[7] = static_cast<std::uint8_t>(seq++ >> 8);
      sealed = d;
    }
  }
  // Opens and decodes a datagram from the server (d.drop says why not); an Accept gives the
  // session's keys (once: a repeated one changes nothing).
  void open(std::span<const std::uint8_t> datagram, wire::Decoded& d) {
    std::vector<std::uint8_t> plain;
    d.drop = seal.unprotect(datagram, plain);
    if (d.drop == wire::DropReason::kNone) wire::decodeDatagram(plain, d);
    if (d.drop == wire::DropReason::kNone && d.packet.has_accept() && !seal.ready()) {
      const wire::Accept& a = d.packet.accept();
      acceptProofOk = !tokenKeys || wire::acceptProofValid(tokenKeys->serverToClient, a.public_key(),
                                                           keys.publicKey, a.key_proof());
      auto k = wire::clientSessionKeys(keys, a.public_key());
      if (k && tokenKeys)
        *k = wire::bindSessionKeys(*k, tokenKeys->clientToServer, tokenKeys->serverToClient, false);
      if (k && acceptProofOk) seal = wire::SessionSeal(*k);
    }
  }
  // `token`: a ClientToken (issueToken), whose private token is sent and whose keys are proved;
  // anything else is sent as it is, as a token (to test what the server makes of it).
  wire::Packet connectRequest(const std::string& token) {
    seal = wire::SessionSeal();  // a new session (the key pair stays: the server must cope)
    std::string error;
    tokenKeys = token.empty() ? std::nullopt : wire::parseClientToken(token, error);
    wire::Packet req;
    req.mutable_connect_request()->set_token(tokenKeys ? tokenKeys->privateToken : token);
    return req;
  }
  wire::Packet connectResponse(const std::string& token) const {
    wire::Packet resp;
    auto* r = resp.mutable_connect_response();
    r->set_cookie(cookie);
    r->set_public_key(keys.publicKey);
    r->set_token(tokenKeys ? tokenKeys->privateToken : token);
    if (tokenKeys) r->set_key_proof(wire::connectProof(tokenKeys->clientToServer, cookie, keys.publicKey));
    return resp;
  }
  static wire::Packet positionInput(std::uint32_t sequence, float x, float y, float vx, float vy,
                                    std::uint32_t ack) {
    wire::Packet p;
    auto* in = p.mutable_input();
    auto* i = in->add_inputs();
    i->set_sequence(sequence);
    i->set_x(x);
    i->set_y(y);
    i->set_vx(vx);
    i->set_vy(vy);
    in->set_ack_snapshot(ack);
    return p;
  }

  std::uint64_t seq = 0;
  std::uint16_t ackSequence = 0;  // the header's acks of the server's datagrams, as sent
  std::uint32_t ackBits = 0;
  wire::KeyPair keys = wire::KeyPair::generate();  // this client's, for the session's keys
  wire::SessionSeal seal;                          // ready once the Accept came
  std::optional<wire::ClientTokenKeys> tokenKeys;  // from the token connectRequest was given
  bool acceptProofOk = true;                       // the last Accept proved the token's keys
  std::vector<std::uint8_t> sealed;                // the last datagram sent
  std::string cookie;
};

struct RawClient : ClientSession {
  explicit RawClient(std::uint16_t serverPort)
      : socket(io, udp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    server = udp::endpoint(asio::ip::make_address("127.0.0.1"), serverPort);
    socket.non_blocking(true);
  }
  void sendBytes(const std::vector<std::uint8_t>& d) { socket.send_to(asio::buffer(d), server); }
  // `sealed` keeps what went out.
  void send(const wire::Packet& p, std::size_t minSize = 0) {
    encode(p, minSize);
    sendBytes(sealed);
  }
  // One pending datagram, opened and decoded (d.drop says why not); false when none is waiting.
  bool receive(wire::Decoded& d, std::size_t* bytes = nullptr) {
    std::array<std::uint8_t, 2048> buf;
    udp::endpoint from;
    std::error_code ec;
    const std::size_t n = socket.receive_from(asio::buffer(buf), from, 0, ec);
    if (ec) return false;
    if (bytes) *bytes = n;
    open(std::span<const std::uint8_t>(buf.data(), n), d);
    return true;
  }
  // Next datagram of the given kind, skipping others, while the server keeps ticking; its size on
  // the wire goes to `awaitedBytes`.
  std::optional<wire::Packet> await(Server& s, wire::Packet::BodyCase kind) {
    std::optional<wire::Packet> got;
    s.stepUntil([&] {
      wire::Decoded d;
      std::size_t n = 0;
      while (receive(d, &n)) {
        if (d.drop == wire::DropReason::kNone && d.packet.body_case() == kind) {
          got = d.packet;
          awaitedBytes = n;
          return true;
        }
      }
      return false;
    });
    return got;
  }
  // Step 1 of the handshake: a padded ConnectRequest, and the Challenge's cookie (also kept in
  // `cookie`); nullopt when none came.
  std::optional<std::string> challenge(Server& s, const std::string& token = {}) {
    send(connectRequest(token), wire::kMinConnectDatagramBytes);
    auto answer = await(s, wire::Packet::kChallenge);
    if (!answer) return std::nullopt;
    cookie = answer->challenge().cookie();
    return cookie;
  }
  std::optional<wire::Packet> connect(Server& s, const std::string& token = {}) {
    if (!challenge(s, token)) return std::nullopt;
    send(connectResponse(token), wire::kMinConnectResponseBytes);
    std::optional<wire::Packet> answer;
    s.stepUntil([&] {
      if (auto a = await1(wire::Packet::kAccept)) answer = a;
      return answer.has_value();
    });
    return answer;
  }
  // Non-blocking: one pending datagram of `kind` (or Refuse), if any.
  std::optional<wire::Packet> await1(wire::Packet::BodyCase kind) {
    wire::Decoded d;
    while (receive(d)) {
      if (d.drop != wire::DropReason::kNone) continue;
      if (d.packet.body_case() == kind || d.packet.body_case() == wire::Packet::kRefuse) return d.packet;
    }
    return std::nullopt;
  }
  void input(std::uint32_t sequence, float x, float y, float vx = 0, float vy = 0, std::uint32_t ack = 0) {
    send(positionInput(sequence, x, y, vx, vy, ack));
  }

  asio::io_context io;
  udp::socket socket;
  udp::endpoint server;
  std::size_t awaitedBytes = 0;  // of the datagram await() returned last
};

}  // namespace steerd::net
