// The server's protocol and session on made-up time, with no sockets and no threads: a NetProtocol
// whose datagrams land in per-address queues, the GameSession and the tick on top, and clients
// that speak the protocol byte by byte (the same ClientSession as the UDP tests). Time moves only
// when the test says, so a test of a timeout, a rate or a silence asserts exact boundaries and
// never sleeps.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>

#include "net/net_protocol.h"
#include "net/server_tick.h"
#include "udp_harness.h"

namespace steerd::net {

struct SimServer {
  explicit SimServer(ServerSetup setup = ServerSetup()) {
    world = std::make_unique<World>(std::move(setup.geometry), std::move(setup.archetypes), WorldConfig{});
    deer = world->spawn(0, {100, 100});
    protocol = std::make_unique<NetProtocol>(setup.net, metrics,
                                             [this](std::span<const std::uint8_t> d, const Address& to) {
                                               toClient[to].emplace_back(d.begin(), d.end());
                                               return true;
                                             });
    session = std::make_unique<GameSession>(*world, *protocol, metrics, setup.session);
    tick = std::make_unique<ServerTick>(*world, *session, *protocol, setup.session.tickRate);
    tickSeconds = 1.0 / setup.session.tickRate;
  }

  // A datagram from `from`, now.
  void deliver(std::span<const std::uint8_t> datagram, const Address& from) {
    protocol->onDatagram(datagram, from, now);
  }
  // Time passes (the protocol's update runs every kUpdateSeconds of it, as the network thread's
  // timer runs it).
  void advance(double seconds) {
    const auto end = now.steadyNs + static_cast<std::int64_t>(seconds * 1e9);
    const auto every = static_cast<std::int64_t>(NetProtocol::kUpdateSeconds * 1e9);
    while (nextUpdateNs <= end) {
      setTime(nextUpdateNs);
      protocol->update(now);
      nextUpdateNs += every;
    }
    setTime(end);
  }
  // One tick and what the session sent, now (its snapshots too, when they are built off the
  // tick); step() then lets a tick's time pass.
  void tickNow() {
    tick->run(now.steadyNs);
    session->waitForSnapshots();
    protocol->flushOutgoing(now);
  }
  void step() {
    tickNow();
    advance(tickSeconds);
  }
  // Ticks until `done` (checked after each) or `maxTicks`; true when done.
  bool stepUntil(const std::function<bool()>& done, int maxTicks = 300) {
    for (int i = 0; i < maxTicks; ++i) {
      step();
      if (done()) return true;
    }
    return false;
  }
  std::uint64_t drops(wire::DropReason r) const { return metrics.drops[static_cast<std::size_t>(r)].load(); }

  void setTime(std::int64_t ns) {
    now.steadyNs = ns;
    now.unixSeconds = kUnixStart + static_cast<std::uint64_t>(ns / 1'000'000'000);
  }
  static constexpr std::uint64_t kUnixStart = 1'800'000'000;  // 2027: tokens are issued against it

  ServerMetrics metrics;
  std::unique_ptr<World> world;
  AgentId deer = 0;
  std::unique_ptr<NetProtocol> protocol;
  std::unique_ptr<GameSession> session;
  std::unique_ptr<ServerTick> tick;
  NetTime now{1'000'000'000, kUnixStart + 1};
  std::int64_t nextUpdateNs = 1'000'000'000;
  double tickSeconds = 1.0 / 30.0;
  std::map<Address, std::deque<std::vector<std::uint8_t>>> toClient;
};

struct SimClient : ClientSession {
  // Each client its own address (127.0.0.1, a port of its own); `port` to choose one.
  explicit SimClient(SimServer& s, std::uint16_t port = 0) : server(s) {
    static std::uint16_t next = 20000;  // test-local: only gives distinct addresses
    address = Address(asio::ip::make_address("127.0.0.1"), port != 0 ? port : next++);
  }
  // At `at`: another host (127.0.0.1 is this machine's loopback, which the per-address cap leaves
  // alone; net/address_sessions.h).
  SimClient(SimServer& s, Address at) : server(s), address(std::move(at)) {}
  void sendBytes(const std::vector<std::uint8_t>& d) { server.deliver(d, address); }
  void send(const wire::Packet& p, std::size_t minSize = 0) {
    encode(p, minSize);
    sendBytes(sealed);
  }
  // One datagram the server sent this client, opened and decoded; false when none is waiting.
  bool receive(wire::Decoded& d, std::size_t* bytes = nullptr) {
    auto& q = server.toClient[address];
    if (q.empty()) return false;
    const std::vector<std::uint8_t> datagram = std::move(q.front());
    q.pop_front();
    if (bytes) *bytes = datagram.size();
    open(datagram, d);
    return true;
  }
  // Every waiting datagram of `kind` (others dropped), the last one kept.
  std::optional<wire::Packet> take(wire::Packet::BodyCase kind) {
    std::optional<wire::Packet> got;
    wire::Decoded d;
    while (receive(d)) {
      if (d.drop == wire::DropReason::kNone &&
          (d.packet.body_case() == kind || d.packet.body_case() == wire::Packet::kRefuse))
        got = d.packet;
    }
    return got;
  }
  // The handshake, with no time passing (the server answers each datagram as it comes).
  std::optional<wire::Packet> connect(const std::string& token = {}) {
    send(connectRequest(token), wire::kMinConnectDatagramBytes);
    auto challenge = take(wire::Packet::kChallenge);
    if (!challenge || !challenge->has_challenge()) return challenge;
    cookie = challenge->challenge().cookie();
    send(connectResponse(token), wire::kMinConnectResponseBytes);
    server.step();  // the session takes the join and queues the Accept
    return take(wire::Packet::kAccept);
  }
  void input(std::uint32_t sequence, float x, float y) { send(positionInput(sequence, x, y, 0, 0, 0)); }

  SimServer& server;
  Address address;
};

}  // namespace steerd::net
