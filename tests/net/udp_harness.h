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
#include "proto/packet.h"

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
    endpoint->start();
  }
  ~Server() { endpoint->stop(); }
  static ServerSetup setupWith(const NetConfig& config, const SessionConfig& session) {
    ServerSetup s;
    s.net = config;
    s.session = session;
    return s;
  }

  void step() {
    session->beforeTick();
    world->step();
    endpoint->publishTick(static_cast<std::uint32_t>(world->tick()), 1, 30.0);
    session->afterTick();
  }
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
};

struct RawClient {
  explicit RawClient(std::uint16_t serverPort)
      : socket(io, udp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    server = udp::endpoint(asio::ip::make_address("127.0.0.1"), serverPort);
    socket.non_blocking(true);
  }
  void sendBytes(const std::vector<std::uint8_t>& d) { socket.send_to(asio::buffer(d), server); }
  void send(const wire::Packet& p, std::size_t minSize = 0) {
    std::vector<std::uint8_t> d;
    ASSERT_TRUE(wire::encodeDatagram({static_cast<std::uint8_t>(p.body_case()), seq++, 0, 0}, p, d, minSize));
    sendBytes(d);
  }
  // Next datagram of the given kind, skipping others, while the server keeps ticking; its size on
  // the wire goes to `awaitedBytes`.
  std::optional<wire::Packet> await(Server& s, wire::Packet::BodyCase kind) {
    std::optional<wire::Packet> got;
    s.stepUntil([&] {
      std::array<std::uint8_t, 2048> buf;
      udp::endpoint from;
      std::error_code ec;
      for (;;) {
        const std::size_t n = socket.receive_from(asio::buffer(buf), from, 0, ec);
        if (ec) return false;
        wire::Decoded d;
        wire::decodeDatagram(std::span<const std::uint8_t>(buf.data(), n), d);
        if (d.drop == wire::DropReason::kNone && d.packet.body_case() == kind) {
          got = d.packet;
          awaitedBytes = n;
          return true;
        }
      }
    });
    return got;
  }
  // Step 1 of the handshake: a padded ConnectRequest, and the Challenge's cookie (also kept in
  // `cookie`); nullopt when none came.
  std::optional<std::string> challenge(Server& s, const std::string& token = {}) {
    wire::Packet req;
    req.mutable_connect_request()->set_token(token);
    send(req, wire::kMinConnectDatagramBytes);
    auto answer = await(s, wire::Packet::kChallenge);
    if (!answer) return std::nullopt;
    cookie = answer->challenge().cookie();
    return cookie;
  }
  std::optional<wire::Packet> connect(Server& s, const std::string& token = {}) {
    if (!challenge(s, token)) return std::nullopt;
    wire::Packet resp;
    resp.mutable_connect_response()->set_cookie(cookie);
    resp.mutable_connect_response()->set_token(token);
    send(resp, wire::kMinConnectResponseBytes);
    std::optional<wire::Packet> answer;
    s.stepUntil([&] {
      if (auto a = await1(wire::Packet::kAccept)) answer = a;
      return answer.has_value();
    });
    return answer;
  }
  // Non-blocking: one pending datagram of `kind` (or Refuse), if any.
  std::optional<wire::Packet> await1(wire::Packet::BodyCase kind) {
    std::array<std::uint8_t, 2048> buf;
    udp::endpoint from;
    std::error_code ec;
    for (;;) {
      const std::size_t n = socket.receive_from(asio::buffer(buf), from, 0, ec);
      if (ec) return std::nullopt;
      wire::Decoded d;
      wire::decodeDatagram(std::span<const std::uint8_t>(buf.data(), n), d);
      if (d.drop != wire::DropReason::kNone) continue;
      if (d.packet.body_case() == kind || d.packet.body_case() == wire::Packet::kRefuse) return d.packet;
    }
  }
  void input(std::uint32_t sequence, float x, float y, float vx = 0, float vy = 0, std::uint32_t ack = 0) {
    wire::Packet p;
    auto* in = p.mutable_input();
    auto* i = in->add_inputs();
    i->set_sequence(sequence);
    i->set_x(x);
    i->set_y(y);
    i->set_vx(vx);
    i->set_vy(vy);
    in->set_ack_snapshot(ack);
    send(p);
  }

  asio::io_context io;
  udp::socket socket;
  udp::endpoint server;
  std::uint16_t seq = 0;
  std::string cookie;
  std::size_t awaitedBytes = 0;  // of the datagram await() returned last
};

}  // namespace steerd::net
