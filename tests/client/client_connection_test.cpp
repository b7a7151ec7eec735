// The client against a small fake server: the handshake, snapshots (two parts, a delta against the
// acked baseline, a lost part, light ones), the static scene, the debug stream, a served replay,
// garbage, refusal, timeouts and disconnects. Most tests run ClientProtocol (client_protocol.h) on
// simulated time: datagrams go through queues and the clock advances 1 ms a step, so every window
// ("nothing more for 200 ms", a timeout) is exact and nothing depends on the machine's speed. Client
// keeps a real UDP socket on 127.0.0.1 for what only it does: one end-to-end connection, datagrams
// from other addresses, and destruction with a receive pending. The fake speaks the protocol
// through proto/packet.h and proto/snapshot_codec.h, as the real server does.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cmath>
#include <deque>
#include <limits>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "client/client.h"
#include "client/client_protocol.h"
#include "proto/session_seal.h"
#include "proto/token_proof.h"
#include "proto/wire.pb.h"

namespace steerd::client {
namespace {

// The connect token the clients here hold (a ClientToken, as steerd --issue-token prints it): its
// private part the fake server records, its keys the fake server proves as a real one would.
const wire::SessionKey kClientToServer = [] {
  wire::SessionKey k;
  k.fill(0x11);
  return k;
}();
const wire::SessionKey kServerToClient = [] {
  wire::SessionKey k;
  k.fill(0x22);
  return k;
}();
std::string testToken() {
  wire::ClientToken t;
  t.set_private_token(std::string("tok\0en", 6));
  t.set_client_to_server_key(std::string(kClientToServer.begin(), kClientToServer.end()));
  t.set_server_to_client_key(std::string(kServerToClient.begin(), kServerToClient.end()));
  return t.SerializeAsString();
}

using udp = asio::ip::udp;
using Datagram = std::vector<std::uint8_t>;
using namespace std::chrono_literals;

// The server's side of the protocol, without a transport: handle() takes each datagram the client
// sent, and what the fake sends waits in `outbox` until a transport (the simulated link or a UDP
// socket) takes it to the client.
class FakeServer {
 public:
  enum class Mode { kAccept, kRefuse, kSilent };

  explicit FakeServer(Mode mode) : mode_(mode) {}

  // A packet of the connection: the next sequence number, sealed with the session's keys.
  void send(const wire::Packet& p) {
    wire::PacketHeader h{static_cast<std::uint8_t>(p.body_case()), 0, acks_.ack(), acks_.ackBits()};
    Datagram bytes;
    ASSERT_TRUE(wire::encodeDatagram(h, p, bytes));
    sendRaw(sealed(bytes));
  }
  // A whole datagram, made by hand, as the server would send it: sealed (when its kind is) with
  // the next sequence.
  Datagram sealed(const Datagram& plain) {
    Datagram out;
    EXPECT_TRUE(seal_.protect(plain, sequence_++, out));
    return out;
  }
  void sendSnapshot(const wire::Snapshot& part) {
    wire::Packet p;
    *p.mutable_snapshot() = part;
    send(p);
  }
  // A stateless answer, as the real server sends them: sequence 0, no acks.
  void sendStateless(const wire::Packet& p) {
    Datagram bytes;
    ASSERT_TRUE(wire::encodeDatagram({static_cast<std::uint8_t>(p.body_case()), 0, 0, 0}, p, bytes));
    sendRaw(bytes);
  }
  void sendRaw(const Datagram& bytes) { outbox.push_back(bytes); }
  void skipSequence() { ++sequence_; }  // as if a datagram was lost

  // One datagram from the client.
  void handle(std::span<const std::uint8_t> d) {
    wire::Decoded dec;
    Datagram plain;
    dec.drop = seal_.unprotect(d, plain);
    if (dec.drop == wire::DropReason::kNone) wire::decodeDatagram(plain, dec);
    if (dec.drop != wire::DropReason::kNone) {
      ++badDatagrams;
      return;
    }
    const wire::Packet& p = dec.packet;
    switch (p.body_case()) {
      case wire::Packet::kConnectRequest: {
        ++connectRequests;
        smallestConnectDatagram = std::min(smallestConnectDatagram, d.size());
        lastToken = p.connect_request().token();
        if (mode_ == Mode::kSilent || connectRequests <= ignoreRequests) return;
        wire::Packet c;
        c.mutable_challenge()->set_cookie(kCookie);
        sendStateless(c);
        return;
      }
      case wire::Packet::kConnectResponse: {
        ++connectResponses;
        smallestConnectDatagram = std::min(smallestConnectDatagram, d.size());
        if (p.connect_response().cookie() != kCookie) {
          ++badCookies;
          return;
        }
        acks_.received(dec.header.sequence);
        if (notAllocatedRefusals > 0) {
          --notAllocatedRefusals;
          wire::Packet r;
          r.mutable_refuse()->set_reason(wire::REFUSE_NOT_ALLOCATED);
          r.mutable_refuse()->set_message("server is waiting for its match (not allocated yet)");
          sendStateless(r);
          return;
        }
        if (mode_ == Mode::kRefuse) {
          wire::Packet r;
          r.mutable_refuse()->set_reason(wire::REFUSE_SERVER_FULL);
          r.mutable_refuse()->set_message("server full (0 clients)");
          sendStateless(r);
          return;
        }
        const wire::KeyPair keys = wire::KeyPair::generate();
        auto sessionKeys = wire::serverSessionKeys(keys, p.connect_response().public_key());
        if (!sessionKeys ||
            !wire::connectProofValid(kClientToServer, p.connect_response().cookie(),
                                     p.connect_response().public_key(), p.connect_response().key_proof())) {
          ++badDatagrams;
          return;
        }
        *sessionKeys = wire::bindSessionKeys(*sessionKeys, kClientToServer, kServerToClient, true);
        seal_ = wire::SessionSeal(*sessionKeys);
        wire::Packet a;
        auto* acc = a.mutable_accept();
        acc->set_public_key(keys.publicKey);
        if (proveAccept)
          acc->set_key_proof(
              wire::acceptProof(kServerToClient, keys.publicKey, p.connect_response().public_key()));
        acc->set_client_id(7);
        acc->set_player_entity(42);
        acc->set_tick_rate(30.0f);
        acc->set_send_rate(15.0f);
        acc->set_min_x(-100.0f);
        acc->set_min_y(-50.0f);
        acc->set_max_x(100.0f);
        acc->set_max_y(50.0f);
        acc->set_server_tick(serverTick);
        acc->set_player_max_speed(6.0f);
        acc->add_archetypes("boid");
        acc->add_archetypes("player");
        acc->set_debug_allowed(debugAllowed);
        ++acceptsSent;
        send(a);
        return;
      }
      case wire::Packet::kInput:
        acks_.received(dec.header.sequence);
        ++inputs;
        lastInput = p.input();
        return;
      case wire::Packet::kPing: {
        acks_.received(dec.header.sequence);
        ++pings;
        wire::Packet pong;
        pong.mutable_pong()->set_client_time_us(p.ping().client_time_us());
        pong.mutable_pong()->set_server_tick(serverTick);
        pong.mutable_pong()->set_tick_phase(0.25f);
        send(pong);
        return;
      }
      case wire::Packet::kDisconnect:
        ++disconnects;
        lastDisconnect = p.disconnect().reason();
        return;
      case wire::Packet::kDebugSelect:
        acks_.received(dec.header.sequence);
        debugSelects.push_back(p.debug_select());
        return;
      case wire::Packet::kReplayControl:
        acks_.received(dec.header.sequence);
        replayControls.push_back(p.replay_control());
        return;
      case wire::Packet::kSceneRequest:
        acks_.received(dec.header.sequence);
        ++sceneRequests;
        for (std::uint32_t part : p.scene_request().parts()) {
          maxPartsAsked = std::max(maxPartsAsked, p.scene_request().parts_size());
          if (part >= sceneParts.size()) continue;
          if (loseOnce.erase(part) > 0) continue;  // lost on the way
          wire::Packet scene;
          *scene.mutable_scene() = sceneParts[part];
          send(scene);
        }
        return;
      default:
        ++badDatagrams;
        return;
    }
  }

  // Datagrams for the client, oldest first, until the transport takes them.
  std::deque<Datagram> outbox;

  // Counters and what was last received.
  int badDatagrams = 0, connectRequests = 0, connectResponses = 0, badCookies = 0, inputs = 0, pings = 0,
      disconnects = 0, ignoreRequests = 0;
  std::size_t smallestConnectDatagram = 100000;
  std::string lastToken;
  wire::Input lastInput;
  wire::DisconnectReason lastDisconnect = wire::DISCONNECT_UNSPECIFIED;
  std::uint32_t serverTick = 1000;
  // The static scene it answers SceneRequests with; parts in loseOnce are "lost" the first time.
  std::vector<wire::Scene> sceneParts;
  std::set<std::uint32_t> loseOnce;
  int sceneRequests = 0, maxPartsAsked = 0;
  bool debugAllowed = false;  // what Accept says
  // false: the Accept of a man in the middle, who has no token keys and so cannot prove them.
  bool proveAccept = true;
  int acceptsSent = 0;
  int notAllocatedRefusals = 0;  // refuse this many ConnectResponses first with REFUSE_NOT_ALLOCATED
  std::vector<wire::DebugSelect> debugSelects;      // as received
  std::vector<wire::ReplayControl> replayControls;  // as received

 private:
  static constexpr const char* kCookie = "fake-cookie-0123456789";
  Mode mode_;
  std::uint64_t sequence_ = 0;
  wire::SessionSeal seal_;
  wire::AckTracker acks_;
};

ClientOptions testOptions(const udp::endpoint& server) {
  ClientOptions o;
  o.server = server;
  o.token = testToken();
  o.inputRateHz = 60.0;
  o.pingInterval = 0.05s;
  o.resendInterval = 0.05s;
  o.connectTimeout = 8s;
  return o;
}

// On simulated time the address is only named in the client's messages.
ClientOptions testOptions() { return testOptions(udp::endpoint(asio::ip::make_address("127.0.0.1"), 9)); }

// A ClientProtocol and a FakeServer joined by queues, on a simulated clock. Each step advances
// `now` by 1 ms, hands the client what the server sent (arriving now), runs the client's
// update(now), then hands the server what the client sent, whose answers arrive in the next step:
// a round trip is one step, and after a step the server has seen everything the client sent.
class SimulatedConnection {
 public:
  static constexpr Clock::duration kStep = 1ms;
  // A hang guard in simulated time: what a test waits for comes long before.
  static constexpr Clock::duration kPumpLimit = 30s;

  SimulatedConnection(FakeServer::Mode mode, ClientOptions options)
      : server(mode), client(std::move(options), [this](std::span<const std::uint8_t> d) {
          toServer.emplace_back(d.begin(), d.end());
          return true;
        }) {}
  SimulatedConnection(const SimulatedConnection&) = delete;
  SimulatedConnection& operator=(const SimulatedConnection&) = delete;

  void step() {
    now += kStep;
    while (!server.outbox.empty()) {
      const Datagram d = std::move(server.outbox.front());
      server.outbox.pop_front();
      client.onDatagram(d, now);
    }
    client.update(now);
    while (!toServer.empty()) {
      const Datagram d = std::move(toServer.front());
      toServer.pop_front();
      server.handle(d);
    }
  }

  // Steps until `done` (checked after each step) or kPumpLimit of simulated time.
  template <class Done>
  bool pump(Done done) {
    const TimePoint limit = now + kPumpLimit;
    while (now < limit) {
      step();
      if (done()) return true;
    }
    return false;
  }
  // Steps until exactly `until`.
  void runUntil(TimePoint until) {
    while (now < until) step();
  }
  void runFor(Clock::duration d) { runUntil(now + d); }

  ClientStats stats() const { return client.stats(now); }

  TimePoint now = TimePoint{} + 1000s;  // far from the clock's epoch, as a steady clock is
  // What the client sent, until the step's end; declared before the client, whose sink fills it.
  std::deque<Datagram> toServer;
  FakeServer server;
  ClientProtocol client;
};

// The same fake on a real UDP socket on 127.0.0.1, for the tests of Client's socket.
class UdpFakeServer {
 public:
  UdpFakeServer(asio::io_context& io, FakeServer::Mode mode)
      : server(mode), socket_(io, udp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    socket_.non_blocking(true);
  }

  udp::endpoint endpoint() const { return socket_.local_endpoint(); }

  // Hands the fake every datagram waiting, then sends what it sent to whoever wrote to it.
  void poll() {
    for (;;) {
      std::error_code ec;
      udp::endpoint from;
      const std::size_t n = socket_.receive_from(asio::buffer(buffer_), from, 0, ec);
      if (ec) break;
      client_ = from;
      server.handle(std::span<const std::uint8_t>(buffer_.data(), n));
    }
    while (client_ && !server.outbox.empty()) {
      socket_.send_to(asio::buffer(server.outbox.front()), *client_);
      server.outbox.pop_front();
    }
  }

  FakeServer server;

 private:
  udp::socket socket_;
  std::optional<udp::endpoint> client_;  // none until something came
  std::array<std::uint8_t, 2048> buffer_{};
};

// Runs the io_context, the client's update() and the UDP fake on the wall clock until `done` or a
// hang guard (nothing asserts on how long anything took).
template <class Done>
bool pumpUdp(asio::io_context& io, Client& client, UdpFakeServer& udpServer, Done done) {
  const auto deadline = Clock::now() + 20s;
  while (Clock::now() < deadline) {
    if (io.stopped()) io.restart();
    io.poll();
    client.update(Clock::now());
    udpServer.poll();
    if (done()) return true;
    std::this_thread::sleep_for(1ms);
  }
  return false;
}

wire::EntityState entity(std::uint32_t id, std::uint32_t archetype, float x, float y, float headingRadians) {
  wire::EntityState e;
  e.id = id;
  e.archetype = archetype;
  e.x = wire::quantizePosition(x);
  e.y = wire::quantizePosition(y);
  e.heading = wire::quantizeHeading(std::cos(headingRadians), std::sin(headingRadians));
  return e;
}

TEST(ClientConnectionTest, FetchesEveryScenePartAndAsksAgainForLostOnes) {
  wire::SceneGeometry scene;
  for (int i = 0; i < 6000; ++i) {
    const float x = static_cast<float>(i % 100), y = static_cast<float>(i / 100);
    scene.walls.push_back({{x, y}, {x + 0.5f, y + 0.25f}});
  }
  scene.obstacles.push_back({{1.0f, 2.0f}, 0.5f});
  scene.navPolygons.push_back({{0, 0}, {1, 0}, {0, 1}});
  ClientOptions o = testOptions();
  o.fetchScene = true;
  o.sceneRetryInterval = 0.05s;
  SimulatedConnection sim(FakeServer::Mode::kAccept, o);
  FakeServer& server = sim.server;
  ClientProtocol& client = sim.client;
  server.sceneParts = wire::encodeScene(scene, wire::kMaxScenePartBytes).parts;
  ASSERT_GT(server.sceneParts.size(), 16u);  // more than one request's worth
  server.loseOnce = {0, 3, static_cast<std::uint32_t>(server.sceneParts.size() - 1)};
  ASSERT_TRUE(client.connect(sim.now));
  ASSERT_TRUE(sim.pump([&] { return client.sceneComplete(); }));
  const ClientStats st = sim.stats();
  EXPECT_EQ(st.scenePartCount, server.sceneParts.size());
  EXPECT_EQ(st.scenePartsReceived, server.sceneParts.size());
  EXPECT_EQ(st.scenePartsMalformed, 0u);
  EXPECT_LE(server.maxPartsAsked, 16);
  EXPECT_GE(st.sceneRequests, 3u);  // part 0 twice (lost once), then the rest
  const wire::SceneGeometry& got = client.scene();
  EXPECT_EQ(got.walls.size(), scene.walls.size());
  ASSERT_EQ(got.obstacles.size(), 1u);
  EXPECT_EQ(got.obstacles[0], scene.obstacles[0]);
  EXPECT_EQ(got.navPolygons, scene.navPolygons);
  // Complete: no more requests for four retry intervals.
  const int requests = server.sceneRequests;
  sim.runFor(200ms);
  EXPECT_EQ(server.sceneRequests, requests);
}

TEST(ClientConnectionTest, WithoutFetchSceneNoSceneIsAskedFor) {
  SimulatedConnection sim(FakeServer::Mode::kAccept, testOptions());
  ClientProtocol& client = sim.client;
  ASSERT_TRUE(client.connect(sim.now));
  ASSERT_TRUE(sim.pump([&] { return sim.server.pings >= 3; }));
  EXPECT_EQ(sim.server.sceneRequests, 0);
  EXPECT_FALSE(client.sceneComplete());
  EXPECT_TRUE(client.scene().empty());
}

wire::Packet debugInfoAbout(std::uint32_t agent, std::uint32_t tick) {
  wire::Packet p;
  p.mutable_debug_info()->set_agent_id(agent);
  p.mutable_debug_info()->set_found(true);
  p.mutable_debug_info()->set_tick(tick);
  return p;
}

TEST(ClientConnectionTest, WatchesOneAgentRepeatsTheSelectionAndKeepsOnlyItsInfo) {
  ClientOptions o = testOptions();
  o.debugSelectInterval = 0.05s;
  SimulatedConnection sim(FakeServer::Mode::kAccept, o);
  FakeServer& server = sim.server;
  ClientProtocol& client = sim.client;
  server.debugAllowed = true;
  ASSERT_TRUE(client.connect(sim.now));
  ASSERT_TRUE(sim.pump([&] { return client.connected(); }));
  EXPECT_TRUE(client.server().debugAllowed);
  client.watchAgent(5);
  ASSERT_TRUE(sim.pump([&] { return server.debugSelects.size() >= 3; }));  // repeated
  // ... every debugSelectInterval exactly: ten in half a second.
  const std::size_t selected = server.debugSelects.size();
  sim.runFor(500ms);
  EXPECT_EQ(server.debugSelects.size(), selected + 10);
  for (const auto& s : server.debugSelects) {
    EXPECT_EQ(s.agent_id(), 5u);
    EXPECT_FALSE(s.stop());
  }
  server.send(debugInfoAbout(6, 100));  // about another agent: not kept
  server.send(debugInfoAbout(5, 101));
  server.send(debugInfoAbout(5, 99));  // older, arriving late: not kept
  ASSERT_TRUE(sim.pump([&] { return sim.stats().debugInfos >= 1; }));
  sim.runFor(50ms);
  ASSERT_NE(client.debugInfo(), nullptr);
  EXPECT_EQ(client.debugInfo()->agent_id(), 5u);
  EXPECT_EQ(client.debugInfo()->tick(), 101u);
  // Another agent: the old info goes at once.
  client.watchAgent(6);
  EXPECT_EQ(client.debugInfo(), nullptr);
  // None: one "stop", then nothing more.
  client.watchAgent(std::nullopt);
  ASSERT_TRUE(sim.pump([&] { return server.debugSelects.back().stop(); }));
  const std::size_t sent = server.debugSelects.size();
  sim.runFor(200ms);
  EXPECT_EQ(server.debugSelects.size(), sent);
}

TEST(ClientConnectionTest, HoverAloneIsRepeatedWithoutASelectionAndItsAnswerKept) {
  ClientOptions o = testOptions();
  o.debugSelectInterval = 0.05s;
  SimulatedConnection sim(FakeServer::Mode::kAccept, o);
  FakeServer& server = sim.server;
  ClientProtocol& client = sim.client;
  server.debugAllowed = true;
  ASSERT_TRUE(client.connect(sim.now));
  ASSERT_TRUE(sim.pump([&] { return client.connected(); }));
  client.hoverAgent(7);
  EXPECT_EQ(client.hoveredAgent(), 7u);
  ASSERT_TRUE(sim.pump([&] { return server.debugSelects.size() >= 3; }));  // repeated
  for (const auto& s : server.debugSelects) {
    EXPECT_TRUE(s.stop());  // no selected agent
    ASSERT_TRUE(s.has_hover_agent());
    EXPECT_EQ(s.hover_agent(), 7u);
  }
  wire::Packet other;  // about another hovered agent: not kept
  other.mutable_debug_info()->set_hover_only(true);
  other.mutable_debug_info()->set_tick(100);
  other.mutable_debug_info()->mutable_hover()->set_agent_id(8);
  server.send(other);
  wire::Packet p;
  p.mutable_debug_info()->set_hover_only(true);
  p.mutable_debug_info()->set_tick(101);
  p.mutable_debug_info()->mutable_hover()->set_agent_id(7);
  p.mutable_debug_info()->mutable_hover()->set_found(true);
  p.mutable_debug_info()->mutable_hover()->set_brain_state("ride herd/fetch");
  server.send(p);
  ASSERT_TRUE(sim.pump([&] { return client.hoverInfo() != nullptr; }));
  EXPECT_EQ(client.hoverInfo()->agent_id(), 7u);
  EXPECT_EQ(client.hoverInfo()->brain_state(), "ride herd/fetch");
  EXPECT_EQ(client.debugInfo(), nullptr);  // hover_only: nothing about a selection
  // With a selection too, both travel in one DebugSelect.
  client.watchAgent(5);
  ASSERT_TRUE(sim.pump([&] { return !server.debugSelects.back().stop(); }));
  EXPECT_EQ(server.debugSelects.back().agent_id(), 5u);
  EXPECT_EQ(server.debugSelects.back().hover_agent(), 7u);
  // Hover off: the next DebugSelect has no hover_agent; the info goes at once.
  client.hoverAgent(std::nullopt);
  EXPECT_EQ(client.hoverInfo(), nullptr);
  ASSERT_TRUE(sim.pump([&] { return !server.debugSelects.back().has_hover_agent(); }));
  // Neither: one "stop" without hover, then nothing more.
  client.watchAgent(std::nullopt);
  ASSERT_TRUE(sim.pump([&] { return server.debugSelects.back().stop(); }));
  EXPECT_FALSE(server.debugSelects.back().has_hover_agent());
  const std::size_t sent = server.debugSelects.size();
  sim.runFor(200ms);
  EXPECT_EQ(server.debugSelects.size(), sent);
}

TEST(ClientConnectionTest, BrainStatesAreaIsRepeatedAndItsAnswerKept) {
  ClientOptions o = testOptions();
  o.debugSelectInterval = 0.05s;
  SimulatedConnection sim(FakeServer::Mode::kAccept, o);
  FakeServer& server = sim.server;
  ClientProtocol& client = sim.client;
  server.debugAllowed = true;
  ASSERT_TRUE(client.connect(sim.now));
  ASSERT_TRUE(sim.pump([&] { return client.connected(); }));
  client.watchBrainStates(ClientProtocol::StatesArea{10, 20, 30});
  ASSERT_TRUE(sim.pump([&] { return server.debugSelects.size() >= 2; }));  // repeated
  for (const auto& s : server.debugSelects) {
    EXPECT_TRUE(s.stop());  // no selected agent
    EXPECT_FALSE(s.has_hover_agent());
    ASSERT_TRUE(s.has_states_area());
    EXPECT_EQ(s.states_area().x(), 10.0f);
    EXPECT_EQ(s.states_area().radius(), 30.0f);
  }
  // A moved area goes with a following request.
  client.watchBrainStates(ClientProtocol::StatesArea{40, 20, 30});
  ASSERT_TRUE(sim.pump([&] { return server.debugSelects.back().states_area().x() == 40.0f; }));
  wire::Packet p;
  p.mutable_debug_info()->set_hover_only(true);
  p.mutable_debug_info()->set_tick(101);
  wire::DebugStates* st = p.mutable_debug_info()->mutable_states();
  st->add_names("patrol");
  st->add_agent_id(4);
  st->add_state(0);
  server.send(p);
  ASSERT_TRUE(sim.pump([&] { return client.brainStates() != nullptr; }));
  EXPECT_EQ(client.brainStates()->agent_id_size(), 1);
  EXPECT_EQ(client.brainStates()->names(0), "patrol");
  wire::Packet bad;  // newer, but ids and states of different lengths: not a list, not kept
  bad.mutable_debug_info()->set_hover_only(true);
  bad.mutable_debug_info()->set_tick(102);
  bad.mutable_debug_info()->mutable_states()->add_agent_id(1);
  server.send(bad);
  wire::Packet ping;  // a later packet: once it is in, the bad one was handled
  ping.mutable_debug_info()->set_hover_only(true);
  ping.mutable_debug_info()->set_tick(103);
  ping.mutable_debug_info()->mutable_hover()->set_agent_id(99);
  server.send(ping);
  sim.runFor(200ms);
  ASSERT_NE(client.brainStates(), nullptr);
  EXPECT_EQ(client.brainStates()->agent_id_size(), 1);
  EXPECT_EQ(client.brainStates()->names(0), "patrol");
  EXPECT_EQ(client.debugInfo(), nullptr);  // hover_only: nothing about a selection
  // Off: one "stop" without an area, then nothing more; what was held goes.
  client.watchBrainStates(std::nullopt);
  EXPECT_EQ(client.brainStates(), nullptr);
  ASSERT_TRUE(sim.pump([&] { return !server.debugSelects.back().has_states_area(); }));
  EXPECT_TRUE(server.debugSelects.back().stop());
  const std::size_t sent = server.debugSelects.size();
  sim.runFor(200ms);
  EXPECT_EQ(server.debugSelects.size(), sent);
}

TEST(ClientConnectionTest, NoDebugSelectToAServerThatDoesNotAllowIt) {
  ClientOptions o = testOptions();
  o.debugSelectInterval = 0.02s;
  SimulatedConnection sim(FakeServer::Mode::kAccept, o);
  ClientProtocol& client = sim.client;
  ASSERT_TRUE(client.connect(sim.now));
  ASSERT_TRUE(sim.pump([&] { return client.connected(); }));
  client.watchAgent(5);
  ASSERT_TRUE(sim.pump([&] { return sim.server.pings >= 4; }));
  EXPECT_TRUE(sim.server.debugSelects.empty());
}

TEST(ClientConnectionTest, ConnectsDecodesSnapshotsAndAcksThem) {
  SimulatedConnection sim(FakeServer::Mode::kAccept, testOptions());
  FakeServer& server = sim.server;
  ClientProtocol& client = sim.client;
  server.ignoreRequests = 1;  // the first ConnectRequest is "lost": the client must resend
  EXPECT_EQ(client.state(), ClientState::kIdle);
  ASSERT_TRUE(client.connect(sim.now));
  EXPECT_FALSE(client.connect(sim.now));  // once
  EXPECT_EQ(client.state(), ClientState::kAwaitingChallenge);

  ASSERT_TRUE(sim.pump([&] { return client.state() == ClientState::kConnected; }))
      << clientStateName(client.state()) << ": " << client.stateMessage();
  // One resend after resendInterval, answered at once: nothing more crossed.
  EXPECT_EQ(server.connectRequests, 2);
  EXPECT_EQ(server.connectResponses, 1);
  EXPECT_EQ(server.badCookies, 0);
  EXPECT_EQ(server.badDatagrams, 0);
  EXPECT_GE(server.smallestConnectDatagram, wire::kMinConnectDatagramBytes);
  EXPECT_EQ(server.lastToken, std::string("tok\0en", 6));
  const ServerInfo& info = client.server();
  EXPECT_EQ(info.clientId, 7u);
  EXPECT_EQ(info.playerEntity, 42u);
  EXPECT_DOUBLE_EQ(info.tickRate, 30.0);
  EXPECT_DOUBLE_EQ(info.sendRate, 15.0);
  EXPECT_FLOAT_EQ(info.minX, -100.0f);
  EXPECT_FLOAT_EQ(info.maxY, 50.0f);
  EXPECT_EQ(info.serverTick, 1000u);
  EXPECT_FLOAT_EQ(info.playerMaxSpeed, 6.0f);
  EXPECT_EQ(info.archetypes, (std::vector<std::string>{"boid", "player"}));
  EXPECT_DOUBLE_EQ(client.interpolationDelayTicks(), 4.0);  // 2 snapshots of 2 ticks

  // Inputs (ack only until setPlayer) and pings answered by pongs.
  client.setPlayer(5.0f, 6.0f, 1.0f, -1.0f);
  ASSERT_TRUE(sim.pump([&] { return server.lastInput.inputs_size() == 4 && client.clock().pongs() >= 2; }));
  const wire::Input in = server.lastInput;
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(in.inputs(i).sequence(),
              in.inputs(0).sequence() - static_cast<std::uint32_t>(i));  // newest first
    EXPECT_FLOAT_EQ(in.inputs(i).x(), 5.0f);
    EXPECT_FLOAT_EQ(in.inputs(i).y(), 6.0f);
    EXPECT_FLOAT_EQ(in.inputs(i).vx(), 1.0f);
    EXPECT_FLOAT_EQ(in.inputs(i).vy(), -1.0f);
  }
  EXPECT_EQ(in.ack_snapshot(), 0u);
  EXPECT_DOUBLE_EQ(sim.stats().rttMs, 1.0);  // every round trip one step
  EXPECT_GT(client.serverTickAt(sim.now), 1000.0);

  // Garbage of every kind: counted by reason, never fatal.
  const ClientStats before = sim.stats();
  std::vector<std::vector<std::uint8_t>> garbage;
  garbage.push_back({1, 2, 3, 4, 5});                        // truncated
  garbage.push_back(std::vector<std::uint8_t>(1300, 0x53));  // oversized
  garbage.push_back(std::vector<std::uint8_t>(40, 0xAB));    // bad protocol id
  {
    wire::Packet pong;
    pong.mutable_pong()->set_server_tick(5);
    std::vector<std::uint8_t> ok;
    ASSERT_TRUE(wire::encodeDatagram({wire::Packet::kPong, 999, 0, 0}, pong, ok));
    auto badVersion = ok;
    badVersion[4] = 77;
    garbage.push_back(badVersion);
    auto badType = ok;
    badType[5] = 200;
    garbage.push_back(badType);
    // The rest sealed with the session's keys, as only the server can: what it says is still checked.
    auto mismatch = ok;
    mismatch[5] = wire::Packet::kSnapshot;  // header says snapshot, body is a pong
    garbage.push_back(server.sealed(mismatch));
    auto badBody = ok;
    badBody.resize(wire::kHeaderBytes);
    for (int i = 0; i < 30; ++i) badBody.push_back(0xFF);  // not a protobuf message
    garbage.push_back(server.sealed(badBody));
    wire::Packet ping;  // a kind only servers accept
    ping.mutable_ping()->set_client_time_us(1);
    std::vector<std::uint8_t> unexpected;
    ASSERT_TRUE(wire::encodeDatagram({wire::Packet::kPing, 998, 0, 0}, ping, unexpected));
    garbage.push_back(server.sealed(unexpected));
    // And in the clear, or sealed by someone without the keys: never opened.
    garbage.push_back(ok);
    auto forged = server.sealed(ok);
    forged.back() ^= 1;
    garbage.push_back(forged);
  }
  for (const auto& g : garbage) server.sendRaw(g);
  // Snapshot parts that decode as datagrams but not as snapshots.
  wire::Snapshot missingBaseline;
  missingBaseline.set_tick(1003);
  missingBaseline.set_baseline_tick(1001);  // never received
  missingBaseline.set_part(0);
  missingBaseline.set_part_count(1);
  missingBaseline.set_id_hi(0xFFFFFFFF);
  server.sendSnapshot(missingBaseline);
  wire::Snapshot malformed = missingBaseline;
  malformed.set_baseline_tick(0);
  malformed.add_residual(0);  // updates without a baseline
  server.sendSnapshot(malformed);
  wire::Snapshot badIndex = malformed;
  badIndex.set_part(3);  // of 1
  server.sendSnapshot(badIndex);
  const std::uint64_t expectedIn = before.datagramsIn + garbage.size() + 3;
  ASSERT_TRUE(sim.pump([&] { return sim.stats().datagramsIn >= expectedIn; }));
  {
    const ClientStats s = sim.stats();
    auto drops = [&](wire::DropReason r) { return s.drops[static_cast<std::size_t>(r)]; };
    EXPECT_EQ(drops(wire::DropReason::kTruncated), 1u);
    EXPECT_EQ(drops(wire::DropReason::kOversized), 1u);
    EXPECT_EQ(drops(wire::DropReason::kBadProtocolId), 1u);
    EXPECT_EQ(drops(wire::DropReason::kBadVersion), 1u);
    EXPECT_EQ(drops(wire::DropReason::kBadType), 1u);
    EXPECT_EQ(drops(wire::DropReason::kTypeMismatch), 1u);
    EXPECT_EQ(drops(wire::DropReason::kBadBody), 1u);
    EXPECT_EQ(drops(wire::DropReason::kUnexpected), 1u);
    EXPECT_EQ(drops(wire::DropReason::kBadSeal), 2u);
    EXPECT_EQ(s.partsBaselineMissing, 1u);
    EXPECT_EQ(s.partsMalformed, 2u);
    EXPECT_EQ(s.snapshotParts, 0u);
    EXPECT_EQ(s.decodeFailures(), 13u);
    EXPECT_FALSE(client.lastDecodeError().empty());
  }
  EXPECT_EQ(client.state(), ClientState::kConnected);
  EXPECT_EQ(client.ackedTick(), 0u);

  // Snapshot A, tick 1010, no baseline, in two parts sent in reverse order.
  std::vector<wire::EntityState> worldA;
  for (std::uint32_t id = 1; id <= 60; ++id) {
    worldA.push_back(entity(id * 3, id % 2, -90.0f + 3.1f * static_cast<float>(id),
                            20.0f - 0.7f * static_cast<float>(id), 0.1f * static_cast<float>(id)));
  }
  wire::SnapshotRecord recordA;
  const std::vector<wire::Snapshot> partsA = wire::encodeSnapshot({1010, worldA, {}}, nullptr, 400, recordA);
  ASSERT_EQ(partsA.size(), 2u);
  server.skipSequence();  // one datagram "lost": shows up in the loss estimate
  server.sendSnapshot(partsA[1]);
  server.sendSnapshot(partsA[0]);
  ASSERT_TRUE(sim.pump([&] { return server.lastInput.ack_snapshot() == 1010; }));
  EXPECT_EQ(client.ackedTick(), 1010u);
  ASSERT_NE(client.latestSnapshot(), nullptr);
  EXPECT_EQ(*client.latestSnapshot(), recordA);
  EXPECT_EQ(sim.stats().entityCount, 60u);
  EXPECT_GT(sim.stats().lossPercent, 0.0);
  {
    // The interpolation buffer has it in metres and radians.
    Sample s;
    client.interpolation().sample(1010.0, s);
    ASSERT_EQ(s.entities.size(), 60u);
    for (std::size_t i = 0; i < 60; ++i) {
      EXPECT_EQ(s.entities[i].id, recordA.entities[i].id);
      EXPECT_EQ(s.entities[i].archetype, recordA.entities[i].archetype);
      EXPECT_FLOAT_EQ(s.entities[i].x, wire::positionMetres(recordA.entities[i].x));
      EXPECT_FLOAT_EQ(s.entities[i].y, wire::positionMetres(recordA.entities[i].y));
      EXPECT_FLOAT_EQ(s.entities[i].heading, wrapAngle(wire::headingRadians(recordA.entities[i].heading)));
    }
  }

  // Snapshot B, tick 1012, a delta against A (which the client acked): moved, new and removed.
  std::vector<wire::EntityState> updatedB;
  for (const wire::EntityState& e : recordA.entities) {
    if (e.id > 120) break;  // the rest are carried unchanged
    wire::EntityState m = e;
    m.x += 5 + static_cast<std::int32_t>(e.id % 7);
    m.y -= 3;
    m.heading = (m.heading + 2) & 255u;
    if (e.id == 30) m.x += 5000;  // a jump: an escaped residual
    updatedB.push_back(m);
  }
  for (std::uint32_t id = 500; id < 505; ++id)
    updatedB.push_back(entity(id, 1, 1.0f * id - 500.0f, 3.0f, -2.0f));
  const std::vector<std::uint32_t> removedB{150, 171};
  wire::SnapshotRecord recordB;
  const std::vector<wire::Snapshot> partsB =
      wire::encodeSnapshot({1012, updatedB, removedB}, &recordA, 1100, recordB);
  ASSERT_EQ(partsB.size(), 1u);
  ASSERT_EQ(partsB[0].baseline_tick(), 1010u);
  server.sendSnapshot(partsB[0]);
  server.sendSnapshot(partsB[0]);  // duplicated by the network
  ASSERT_TRUE(sim.pump([&] { return server.lastInput.ack_snapshot() == 1012; }));
  ASSERT_TRUE(sim.pump([&] { return sim.stats().partsDuplicate >= 1; }));
  EXPECT_EQ(client.ackedTick(), 1012u);
  ASSERT_NE(client.latestSnapshot(), nullptr);
  EXPECT_EQ(*client.latestSnapshot(), recordB);
  EXPECT_EQ(recordB.entities.size(), 60u + 5u - 2u);

  // Snapshot C, tick 1014 against B, in parts of which only the first arrives: shown, not acked.
  std::vector<wire::EntityState> updatedC;
  for (const wire::EntityState& e : recordB.entities) {
    wire::EntityState m = e;
    m.x += 7;
    updatedC.push_back(m);
  }
  wire::SnapshotRecord recordC;
  const std::vector<wire::Snapshot> partsC =
      wire::encodeSnapshot({1014, updatedC, {}}, &recordB, 120, recordC);
  ASSERT_GE(partsC.size(), 2u);
  server.sendSnapshot(partsC[0]);
  ASSERT_TRUE(sim.pump([&] { return client.interpolation().newestTick() == 1014; }));
  {
    Sample s;
    client.interpolation().sample(1014.0, s);
    // Every entity is still shown: those of the part received as of 1014, the others (their parts
    // lost) from 1012.
    ASSERT_EQ(s.entities.size(), recordC.entities.size());
    EXPECT_FLOAT_EQ(s.entities.front().x, wire::positionMetres(recordC.entities.front().x));
    EXPECT_FLOAT_EQ(s.entities.back().x, wire::positionMetres(recordB.entities.back().x));
  }
  // Inputs keep acking the newest complete tick.
  const int inputsBefore = server.inputs;
  ASSERT_TRUE(sim.pump([&] { return server.inputs >= inputsBefore + 3; }));
  EXPECT_EQ(server.lastInput.ack_snapshot(), 1012u);
  EXPECT_EQ(client.ackedTick(), 1012u);

  // Snapshot D, tick 1016 against B again, whole: acked; C stays incomplete.
  wire::SnapshotRecord recordD;
  const std::vector<wire::Snapshot> partsD =
      wire::encodeSnapshot({1016, updatedC, {}}, &recordB, 1100, recordD);
  ASSERT_EQ(partsD.size(), 1u);
  server.sendSnapshot(partsD[0]);
  ASSERT_TRUE(sim.pump([&] { return server.lastInput.ack_snapshot() == 1016; }));
  EXPECT_EQ(*client.latestSnapshot(), recordD);

  const ClientStats s = sim.stats();
  EXPECT_EQ(s.snapshotsComplete, 3u);
  EXPECT_EQ(s.snapshotParts, 5u);  // A x2, B, C's first, D
  EXPECT_EQ(s.newestCompleteTick, 1016u);
  EXPECT_EQ(s.bufferDepth, 4u);
  EXPECT_GT(s.bytesIn, 0u);
  EXPECT_GT(s.datagramsOut, 0u);
  EXPECT_DOUBLE_EQ(s.interpolationDelayMs, 4.0 / 30.0 * 1000.0);
  EXPECT_EQ(client.state(), ClientState::kConnected);
  {
    Sample sample;
    client.sample(sim.now, sample);
    EXPECT_NE(sample.kind, SampleKind::kEmpty);
    EXPECT_EQ(sim.stats().samples[static_cast<std::size_t>(sample.kind)], 1u);
  }

  // A graceful goodbye.
  client.disconnect();
  EXPECT_EQ(client.state(), ClientState::kDisconnected);
  ASSERT_TRUE(sim.pump([&] { return server.disconnects >= 3; }));
  EXPECT_EQ(server.lastDisconnect, wire::DISCONNECT_CLIENT_LEFT);
}

TEST(ClientConnectionTest, ReportsARefusalWithTheServersMessage) {
  SimulatedConnection sim(FakeServer::Mode::kRefuse, testOptions());
  ClientProtocol& client = sim.client;
  ASSERT_TRUE(client.connect(sim.now));
  ASSERT_TRUE(sim.pump([&] {
    return client.state() != ClientState::kAwaitingChallenge &&
           client.state() != ClientState::kAwaitingAccept;
  }));
  EXPECT_EQ(client.state(), ClientState::kRefused);
  EXPECT_EQ(client.stateMessage(), "server full (0 clients)");
  EXPECT_EQ(client.refuseReason(), wire::REFUSE_SERVER_FULL);
}

TEST(ClientConnectionTest, NotAllocatedYetIsRetriedUntilAdmittedOrTheConnectTimeout) {
  SimulatedConnection sim(FakeServer::Mode::kAccept, testOptions());
  ClientProtocol& client = sim.client;
  sim.server.notAllocatedRefusals = 3;  // an Agones server still loading its match
  ASSERT_TRUE(client.connect(sim.now));
  ASSERT_TRUE(sim.pump([&] {
    return client.state() != ClientState::kAwaitingChallenge &&
           client.state() != ClientState::kAwaitingAccept;
  }));
  EXPECT_EQ(client.state(), ClientState::kConnected);
  EXPECT_EQ(sim.server.notAllocatedRefusals, 0);
  EXPECT_EQ(sim.server.connectRequests, 4);  // a fresh challenge after each refusal, each once

  // Never allocated: the connect timeout ends it, exactly on time, saying why.
  ClientOptions o = testOptions();
  o.connectTimeout = 1s;
  SimulatedConnection never(FakeServer::Mode::kAccept, o);
  ClientProtocol& waiting = never.client;
  never.server.notAllocatedRefusals = 1 << 30;
  const TimePoint start = never.now;
  ASSERT_TRUE(waiting.connect(start));
  ASSERT_TRUE(never.pump([&] {
    return waiting.state() != ClientState::kAwaitingChallenge &&
           waiting.state() != ClientState::kAwaitingAccept;
  }));
  EXPECT_EQ(waiting.state(), ClientState::kTimedOut);
  EXPECT_EQ(never.now - start, 1s);
  EXPECT_NE(waiting.stateMessage().find("not allocated yet"), std::string::npos) << waiting.stateMessage();
}

// A client with a connect token takes keys only from an Accept that proves the token's
// server-to-client key: one from a man in the middle (its own key pair, no proof) is ignored, and
// the attempt ends in a timeout instead of a session the middle could read.
TEST(ClientConnectionTest, AnAcceptWithoutTheTokensProofIsIgnored) {
  ClientOptions o = testOptions();
  o.connectTimeout = 1s;
  SimulatedConnection sim(FakeServer::Mode::kAccept, o);
  ClientProtocol& client = sim.client;
  sim.server.proveAccept = false;
  const TimePoint start = sim.now;
  ASSERT_TRUE(client.connect(start));
  ASSERT_TRUE(sim.pump([&] { return sim.server.acceptsSent >= 3; }));
  EXPECT_EQ(client.state(), ClientState::kAwaitingAccept);
  ASSERT_TRUE(sim.pump([&] { return client.state() == ClientState::kTimedOut; }));
  EXPECT_EQ(sim.now - start, 1s);  // the connect timeout, not an Accept, ended it
  EXPECT_FALSE(client.connected());
}

TEST(ClientConnectionTest, TimesOutWhenNobodyAnswers) {
  ClientOptions o = testOptions();
  o.connectTimeout = 0.5s;
  o.resendInterval = 0.1s;
  o.retries = 2;
  SimulatedConnection sim(FakeServer::Mode::kSilent, o);
  ClientProtocol& client = sim.client;
  const TimePoint t0 = sim.now;
  ASSERT_TRUE(client.connect(t0));
  // The whole connectTimeout and not a moment less, with the first request at once and a resend
  // every resendInterval until the two retries are spent.
  while (sim.now < t0 + 499ms) {
    sim.step();
    const auto at = std::chrono::duration_cast<std::chrono::milliseconds>(sim.now - t0).count();
    ASSERT_EQ(client.state(), ClientState::kAwaitingChallenge) << at << " ms";
    ASSERT_EQ(sim.server.connectRequests, at < 100 ? 1 : at < 200 ? 2 : 3) << at << " ms";
  }
  sim.step();
  ASSERT_EQ(sim.now, t0 + 500ms);
  EXPECT_EQ(client.state(), ClientState::kTimedOut);
  EXPECT_NE(client.stateMessage().find("no answer"), std::string::npos) << client.stateMessage();
  // The first request and two resends, no more.
  sim.runFor(1s);
  EXPECT_EQ(sim.server.connectRequests, 3);
  EXPECT_EQ(sim.stats().datagramsOut, 3u);
}

TEST(ClientConnectionTest, TheServersDisconnectEndsTheConnection) {
  SimulatedConnection sim(FakeServer::Mode::kAccept, testOptions());
  ClientProtocol& client = sim.client;
  ASSERT_TRUE(client.connect(sim.now));
  ASSERT_TRUE(sim.pump([&] { return client.connected() && sim.server.inputs > 0; }));
  wire::Packet bye;
  bye.mutable_disconnect()->set_reason(wire::DISCONNECT_SERVER_SHUTDOWN);
  sim.server.send(bye);
  ASSERT_TRUE(sim.pump([&] { return client.state() != ClientState::kConnected; }));
  EXPECT_EQ(client.state(), ClientState::kDisconnected);
  EXPECT_EQ(client.disconnectReason(), wire::DISCONNECT_SERVER_SHUTDOWN);
  EXPECT_NE(client.stateMessage().find("DISCONNECT_SERVER_SHUTDOWN"), std::string::npos)
      << client.stateMessage();
}

// Decoding whole (decodeEntities) or light: both survive a server with the keys that sends nonsense.
void survivesMutatedSnapshotDatagrams(bool decodeEntities) {
  ClientOptions options = testOptions();
  options.decodeEntities = decodeEntities;
  SimulatedConnection sim(FakeServer::Mode::kAccept, options);
  FakeServer& server = sim.server;
  ClientProtocol& client = sim.client;
  ASSERT_TRUE(client.connect(sim.now));
  ASSERT_TRUE(sim.pump([&] { return client.connected(); }));
  std::vector<wire::EntityState> world;
  for (std::uint32_t id = 1; id <= 80; ++id)
    world.push_back(entity(id, id % 3, 1.5f * id, -0.5f * id, 0.2f * id));
  wire::SnapshotRecord base;
  const auto partsBase = wire::encodeSnapshot({2000, world, {}}, nullptr, 1100, base);
  for (const auto& p : partsBase) server.sendSnapshot(p);
  ASSERT_TRUE(sim.pump([&] { return client.ackedTick() == 2000; }));
  for (auto& e : world) e.x += 9;
  const std::vector<std::uint32_t> removed{5, 6};
  wire::SnapshotRecord next;
  const auto partsNext = wire::encodeSnapshot({2002, world, removed}, &base, 300, next);

  // Bit flips, truncations and byte changes of valid snapshot datagrams, sealed after the change
  // (a server with the keys that sends nonsense: the decoder must survive it).
  std::mt19937 rng(12345);
  std::vector<std::vector<std::uint8_t>> valid;
  for (const auto* parts : {&partsBase, &partsNext}) {
    for (const auto& part : *parts) {
      wire::Packet p;
      *p.mutable_snapshot() = part;
      std::vector<std::uint8_t> bytes;
      ASSERT_TRUE(wire::encodeDatagram({wire::Packet::kSnapshot, 60000, 0, 0}, p, bytes));
      valid.push_back(bytes);
    }
  }
  const ClientStats before = sim.stats();
  const int kMutants = 600;
  for (int i = 0; i < kMutants; ++i) {
    std::vector<std::uint8_t> m = valid[rng() % valid.size()];
    switch (rng() % 3) {
      case 0:
        m[wire::kHeaderBytes + rng() % (m.size() - wire::kHeaderBytes)] ^=
            static_cast<std::uint8_t>(1u << (rng() % 8));
        break;
      case 1:
        m.resize(wire::kHeaderBytes + rng() % (m.size() - wire::kHeaderBytes));
        break;
      default:
        for (int k = 0; k < 3; ++k)
          m[wire::kHeaderBytes + rng() % (m.size() - wire::kHeaderBytes)] = static_cast<std::uint8_t>(rng());
        break;
    }
    server.sendRaw(server.sealed(m));
    if (i % 50 == 0) {  // interleaved with the client's updates and pings
      const std::uint64_t target = before.datagramsIn + static_cast<std::uint64_t>(i) + 1;
      ASSERT_TRUE(sim.pump([&] { return sim.stats().datagramsIn >= target; }));
    }
  }
  ASSERT_TRUE(sim.pump(
      [&] { return sim.stats().datagramsIn >= before.datagramsIn + static_cast<std::uint64_t>(kMutants); }));
  EXPECT_EQ(client.state(), ClientState::kConnected);
  EXPECT_GT(sim.stats().decodeFailures(), 0u);
  // And it still decodes a good snapshot after all that.
  wire::SnapshotRecord fresh;
  const auto partsFresh = wire::encodeSnapshot({3000, world, {}}, nullptr, 1100, fresh);
  for (const auto& p : partsFresh) server.sendSnapshot(p);
  ASSERT_TRUE(sim.pump([&] { return client.ackedTick() >= 3000; }));
  if (client.ackedTick() == 3000) {  // a mutant may have carried a later tick that decoded
    if (decodeEntities) {
      EXPECT_EQ(*client.latestSnapshot(), fresh);
    } else {
      EXPECT_EQ(client.latestSnapshot()->tick, 3000u);
      EXPECT_TRUE(client.latestSnapshot()->entities.empty());
    }
  }
}

TEST(ClientConnectionTest, MutatedSnapshotDatagramsAreSurvived) { survivesMutatedSnapshotDatagrams(true); }

TEST(ClientConnectionTest, MutatedSnapshotDatagramsAreSurvivedLight) {
  survivesMutatedSnapshotDatagrams(false);
}

// A light client (decodeEntities false) and a decoding one, sent the same snapshot parts: the same
// parts taken, refused and counted, the same ticks completed (onSnapshot) and acknowledged, the same
// own player; the light one holds ticks without entities.
TEST(ClientConnectionTest, LightSnapshotsAreAcknowledgedExactlyAsDecodedOnes) {
  std::vector<std::uint32_t> fullTicks, lightTicks;
  ClientOptions fo = testOptions();
  fo.onSnapshot = [&](std::uint32_t tick, TimePoint) { fullTicks.push_back(tick); };
  ClientOptions lo = testOptions();
  lo.decodeEntities = false;
  lo.onSnapshot = [&](std::uint32_t tick, TimePoint) { lightTicks.push_back(tick); };
  SimulatedConnection fullSim(FakeServer::Mode::kAccept, fo);
  SimulatedConnection lightSim(FakeServer::Mode::kAccept, lo);
  FakeServer& fullServer = fullSim.server;
  FakeServer& lightServer = lightSim.server;
  ClientProtocol& full = fullSim.client;
  ClientProtocol& light = lightSim.client;
  ASSERT_TRUE(full.connect(fullSim.now));
  ASSERT_TRUE(light.connect(lightSim.now));
  ASSERT_TRUE(fullSim.pump([&] { return full.connected(); }));
  ASSERT_TRUE(lightSim.pump([&] { return light.connected(); }));

  // Every snapshot part a client has dealt with, one way or another.
  auto partsSeen = [](const ClientStats& s) {
    return s.snapshotParts + s.partsDuplicate + s.partsStale + s.partsBaselineMissing + s.partsMalformed +
           s.partsOtherEpoch;
  };
  std::uint64_t sent = 0;
  auto sendBoth = [&](const wire::Snapshot& part) {
    fullServer.sendSnapshot(part);
    lightServer.sendSnapshot(part);
    ++sent;
  };
  auto expectSame = [&](const char* step) {
    SCOPED_TRACE(step);
    ASSERT_TRUE(fullSim.pump([&] { return partsSeen(fullSim.stats()) >= sent; }));
    ASSERT_TRUE(lightSim.pump([&] { return partsSeen(lightSim.stats()) >= sent; }));
    const ClientStats f = fullSim.stats(), l = lightSim.stats();
    EXPECT_EQ(l.snapshotParts, f.snapshotParts);
    EXPECT_EQ(l.snapshotsComplete, f.snapshotsComplete);
    EXPECT_EQ(l.partsDuplicate, f.partsDuplicate);
    EXPECT_EQ(l.partsStale, f.partsStale);
    EXPECT_EQ(l.partsBaselineMissing, f.partsBaselineMissing);
    EXPECT_EQ(l.partsMalformed, f.partsMalformed);
    EXPECT_EQ(l.snapshotsAbandoned, f.snapshotsAbandoned);
    EXPECT_EQ(l.decodeFailures(), f.decodeFailures());
    EXPECT_EQ(l.newestCompleteTick, f.newestCompleteTick);
    EXPECT_EQ(light.ackedTick(), full.ackedTick());
    EXPECT_EQ(lightTicks, fullTicks);
    EXPECT_EQ(light.interpolation().depth(), full.interpolation().depth());
    EXPECT_EQ(light.interpolation().newestTick(), full.interpolation().newestTick());
  };

  // Refused alike: a baseline never received; a part index past the count.
  wire::Snapshot missingBaseline;
  missingBaseline.set_tick(1003);
  missingBaseline.set_baseline_tick(1001);
  missingBaseline.set_part(0);
  missingBaseline.set_part_count(1);
  missingBaseline.set_id_hi(0xFFFFFFFF);
  sendBoth(missingBaseline);
  wire::Snapshot badIndex = missingBaseline;
  badIndex.set_baseline_tick(0);
  badIndex.set_part(3);
  sendBoth(badIndex);
  expectSame("refused parts");
  EXPECT_EQ(lightSim.stats().partsBaselineMissing, 1u);
  EXPECT_EQ(lightSim.stats().partsMalformed, 1u);
  EXPECT_EQ(light.ackedTick(), 0u);

  // A, whole, in three parts sent out of order, its first with the player's own state.
  std::vector<wire::EntityState> worldA;
  for (std::uint32_t id = 1; id <= 90; ++id)
    worldA.push_back(entity(id * 2, id % 2, -90.0f + 2.0f * id, 10.0f - 0.5f * id, 0.1f * id));
  wire::SnapshotRecord recordA;
  std::vector<wire::Snapshot> partsA = wire::encodeSnapshot({1010, worldA, {}}, nullptr, 300, recordA);
  ASSERT_GE(partsA.size(), 3u);
  partsA[0].mutable_own()->set_last_input(5);
  partsA[0].mutable_own()->set_x(1.5f);
  partsA[0].mutable_own()->set_y(-2.5f);
  sendBoth(partsA[1]);
  expectSame("A's second part: pending");
  EXPECT_EQ(light.ackedTick(), 0u);
  for (std::size_t i = partsA.size(); i-- > 0;) {
    if (i != 1) sendBoth(partsA[i]);
  }
  sendBoth(partsA[2]);  // duplicated by the network
  expectSame("A complete");
  EXPECT_EQ(light.ackedTick(), 1010u);
  ASSERT_TRUE(light.ownPlayer());
  EXPECT_EQ(light.ownPlayer()->lastInput, full.ownPlayer()->lastInput);
  EXPECT_EQ(light.ownPlayer()->x, 1.5f);
  EXPECT_EQ(light.ownPlayer()->tick, 1010u);
  ASSERT_NE(light.latestSnapshot(), nullptr);
  EXPECT_EQ(light.latestSnapshot()->tick, 1010u);
  EXPECT_TRUE(light.latestSnapshot()->entities.empty());
  EXPECT_EQ(lightSim.stats().entityCount, 0u);
  EXPECT_EQ(fullSim.stats().entityCount, 90u);

  // B, a delta against A: taken by both (the light one holds A's tick, so its baseline).
  std::vector<wire::EntityState> updatedB;
  for (wire::EntityState e : recordA.entities) {
    e.x += 9;
    updatedB.push_back(e);
  }
  wire::SnapshotRecord recordB;
  const auto partsB = wire::encodeSnapshot({1012, updatedB, {}}, &recordA, 1100, recordB);
  ASSERT_EQ(partsB.size(), 1u);
  sendBoth(partsB[0]);
  expectSame("B against A");
  EXPECT_EQ(light.ackedTick(), 1012u);

  // C against B, only its first part arrives: pending, not acknowledged; E against C (never whole):
  // refused by both for its baseline; D against B, whole: acknowledged.
  wire::SnapshotRecord recordC;
  const auto partsC = wire::encodeSnapshot({1014, updatedB, {}}, &recordB, 150, recordC);
  ASSERT_GE(partsC.size(), 2u);
  sendBoth(partsC[0]);
  wire::SnapshotRecord recordE;
  const auto partsE = wire::encodeSnapshot({1015, updatedB, {}}, &recordC, 1100, recordE);
  sendBoth(partsE[0]);
  expectSame("C in part, E against C");
  EXPECT_EQ(light.ackedTick(), 1012u);
  EXPECT_EQ(lightSim.stats().partsBaselineMissing, 2u);
  EXPECT_EQ(light.interpolation().newestTick(), 1014u);
  wire::SnapshotRecord recordD;
  const auto partsD = wire::encodeSnapshot({1016, updatedB, {}}, &recordB, 1100, recordD);
  sendBoth(partsD[0]);
  sendBoth(partsA[0]);  // A again, long after: a duplicate of a tick held
  expectSame("D against B, A again");
  EXPECT_EQ(light.ackedTick(), 1016u);
  EXPECT_EQ(lightTicks, (std::vector<std::uint32_t>{1010, 1012, 1016}));

  // Both acknowledge 1016 to their server; sampling gives the same kinds, the light one no entities.
  ASSERT_TRUE(fullSim.pump([&] { return fullServer.lastInput.ack_snapshot() == 1016; }));
  ASSERT_TRUE(lightSim.pump([&] { return lightServer.lastInput.ack_snapshot() == 1016; }));
  for (const double at : {1009.0, 1011.0, 1015.0, 1016.0, 1020.0, 1040.0}) {
    Sample fs, ls;
    full.interpolation().sample(at, fs);
    light.interpolation().sample(at, ls);
    EXPECT_EQ(ls.kind, fs.kind) << at;
    EXPECT_EQ(ls.fromTick, fs.fromTick) << at;
    EXPECT_EQ(ls.toTick, fs.toTick) << at;
    EXPECT_TRUE(ls.entities.empty()) << at;
    EXPECT_FALSE(fs.entities.empty()) << at;
  }

  // Garbage in snapshot datagrams, sealed by the server: counted drops for both, never fatal.
  wire::Packet p;
  *p.mutable_snapshot() = partsD[0];
  std::vector<std::uint8_t> good;
  ASSERT_TRUE(wire::encodeDatagram({wire::Packet::kSnapshot, 0, 0, 0}, p, good));
  const ClientStats before = lightSim.stats();
  std::vector<std::vector<std::uint8_t>> garbage;
  for (const std::size_t cut : {std::size_t{3}, std::size_t{9}, good.size() / 2}) {
    garbage.push_back(std::vector<std::uint8_t>(good.begin(), good.begin() + wire::kHeaderBytes + cut));
  }
  auto junk = good;
  for (std::size_t i = wire::kHeaderBytes; i < junk.size(); ++i) junk[i] = 0xFF;
  garbage.push_back(junk);
  for (const auto& g : garbage) lightServer.sendRaw(lightServer.sealed(g));
  ASSERT_TRUE(lightSim.pump([&] {
    const ClientStats s = lightSim.stats();
    return s.drops[static_cast<std::size_t>(wire::DropReason::kBadBody)] >=
           before.drops[static_cast<std::size_t>(wire::DropReason::kBadBody)] + garbage.size();
  }));
  EXPECT_EQ(lightSim.stats().decodeFailures(), before.decodeFailures() + garbage.size());
  EXPECT_EQ(lightSim.stats().snapshotParts, before.snapshotParts);
  EXPECT_EQ(light.state(), ClientState::kConnected);
  EXPECT_EQ(light.ackedTick(), 1016u);
}

wire::Packet replayStatus(std::uint32_t tick, std::uint32_t epoch, bool paused, float speed,
                          std::uint32_t applied) {
  wire::Packet p;
  wire::ReplayStatus* s = p.mutable_replay_status();
  s->set_tick(tick);
  s->set_first_tick(0);
  s->set_last_tick(900);
  s->set_paused(paused);
  s->set_speed(speed);
  s->set_epoch(epoch);
  s->set_control_applied(applied);
  return p;
}

// A served replay as the client library sees it: no controls to a server that never said it is
// one; a hostile status dropped; a paused one shown at its exact tick; a control resent until the
// status says it was applied; a seek's new epoch clears what was held, and the old epoch's
// snapshots that come late are dropped.
TEST(ClientConnectionTest, FollowsAServedReplaysStatusAndEpochs) {
  SimulatedConnection sim(FakeServer::Mode::kAccept, testOptions());
  FakeServer& server = sim.server;
  ClientProtocol& client = sim.client;
  ASSERT_TRUE(client.connect(sim.now));
  ASSERT_TRUE(sim.pump([&] { return client.connected() && server.pings >= 2; }));
  client.controlReplay(wire::REPLAY_PAUSE);  // not a replay server (no status yet): nothing sent
  ASSERT_TRUE(sim.pump([&] { return server.pings >= 4; }));
  EXPECT_TRUE(server.replayControls.empty());
  EXPECT_FALSE(client.replayStatus());

  server.send(replayStatus(40, 0, true, std::numeric_limits<float>::quiet_NaN(), 0));
  ASSERT_TRUE(sim.pump(
      [&] { return sim.stats().drops[static_cast<std::size_t>(wire::DropReason::kUnexpected)] >= 1; }));
  EXPECT_FALSE(client.replayStatus());

  server.send(replayStatus(40, 0, true, 1.0f, 0));
  ASSERT_TRUE(sim.pump([&] { return client.replayStatus().has_value(); }));
  EXPECT_EQ(client.renderTickAt(sim.now), 40.0);  // standing still: exactly its tick

  client.controlReplay(wire::REPLAY_STEP);
  ASSERT_TRUE(sim.pump([&] { return server.replayControls.size() >= 3; }));  // resent
  for (const wire::ReplayControl& c : server.replayControls) {
    EXPECT_EQ(c.request(), 1u);
    EXPECT_EQ(c.action(), wire::REPLAY_STEP);
  }
  server.send(replayStatus(41, 0, true, 1.0f, 1));
  ASSERT_TRUE(sim.pump([&] { return client.replayControlsPending() == 0; }));
  const std::size_t sent = server.replayControls.size();
  ASSERT_TRUE(sim.pump([&] { return server.pings >= 12; }));
  // None crossed the status: it came in before the client's next update().
  EXPECT_EQ(server.replayControls.size(), sent);

  // Epoch 0's snapshot, then a seek: epoch 1's snapshot replaces everything held.
  wire::SnapshotRecord record;
  const std::vector<wire::EntityState> world = {entity(1, 0, 1.0f, 2.0f, 0.0f),
                                                entity(2, 0, 3.0f, 4.0f, 0.0f)};
  std::vector<wire::Snapshot> parts = wire::encodeSnapshot({41, world, {}}, nullptr, 400, record);
  ASSERT_EQ(parts.size(), 1u);
  server.sendSnapshot(parts[0]);
  ASSERT_TRUE(sim.pump([&] { return client.latestSnapshot() != nullptr; }));
  EXPECT_EQ(client.latestSnapshot()->tick, 41u);
  parts = wire::encodeSnapshot({12, world, {}}, nullptr, 400, record);
  parts[0].set_epoch(1);
  server.sendSnapshot(parts[0]);
  ASSERT_TRUE(
      sim.pump([&] { return client.latestSnapshot() != nullptr && client.latestSnapshot()->tick == 12; }));
  EXPECT_EQ(client.interpolation().oldestTick(), 12u);
  EXPECT_EQ(sim.stats().replayEpochs, 1u);
  ASSERT_TRUE(sim.pump([&] { return server.lastInput.ack_epoch() == 1u; }));
  EXPECT_EQ(server.lastInput.ack_snapshot(), 12u);
  // Epoch 0's snapshot arriving late is of another timeline: dropped, counted.
  parts = wire::encodeSnapshot({50, world, {}}, nullptr, 400, record);
  server.sendSnapshot(parts[0]);
  ASSERT_TRUE(sim.pump([&] { return sim.stats().partsOtherEpoch == 1u; }));
  EXPECT_EQ(client.latestSnapshot()->tick, 12u);
  // A status of the older epoch (reordered) changes nothing.
  server.send(replayStatus(45, 0, true, 1.0f, 1));
  ASSERT_TRUE(sim.pump([&] { return server.pings >= 16; }));
  EXPECT_EQ(client.replayStatus()->tick(), 41u);
  // Nor does one of the same epoch from before the newest (it overtook nothing: it is late).
  server.send(replayStatus(60, 1, false, 1.0f, 1));
  ASSERT_TRUE(sim.pump([&] { return client.replayStatus()->tick() == 60u; }));
  server.send(replayStatus(55, 1, true, 1.0f, 1));
  ASSERT_TRUE(sim.pump([&] { return server.pings >= 22; }));
  EXPECT_EQ(client.replayStatus()->tick(), 60u);
  EXPECT_FALSE(client.replayStatus()->paused());
}

// --- On a real UDP socket: Client itself -----------------------------------------------------------

// End to end through Client's socket: the handshake, a snapshot decoded and acknowledged, pings
// answered, a goodbye.
TEST(ClientConnectionTest, ConnectsOverARealUdpSocket) {
  asio::io_context io;
  UdpFakeServer udpServer(io, FakeServer::Mode::kAccept);
  FakeServer& server = udpServer.server;
  Client client(io, testOptions(udpServer.endpoint()));
  ASSERT_TRUE(client.connect());
  ASSERT_TRUE(pumpUdp(io, client, udpServer, [&] { return client.connected() && server.pings >= 2; }))
      << clientStateName(client.state()) << ": " << client.stateMessage();
  EXPECT_EQ(server.badDatagrams, 0);
  EXPECT_EQ(client.server().clientId, 7u);
  std::vector<wire::EntityState> world;
  for (std::uint32_t id = 1; id <= 20; ++id)
    world.push_back(entity(id, id % 2, 2.0f * id, -1.0f * id, 0.1f * id));
  wire::SnapshotRecord record;
  const auto parts = wire::encodeSnapshot({1010, world, {}}, nullptr, 1100, record);
  ASSERT_EQ(parts.size(), 1u);
  server.sendSnapshot(parts[0]);
  ASSERT_TRUE(pumpUdp(io, client, udpServer, [&] { return server.lastInput.ack_snapshot() == 1010; }));
  ASSERT_NE(client.latestSnapshot(), nullptr);
  EXPECT_EQ(*client.latestSnapshot(), record);
  EXPECT_GE(client.clock().pongs(), 1u);
  const ClientStats s = client.stats();
  EXPECT_EQ(s.decodeFailures(), 0u);
  EXPECT_EQ(s.foreignDatagrams, 0u);
  EXPECT_EQ(s.sendFailures, 0u);
  client.disconnect();
  ASSERT_TRUE(pumpUdp(io, client, udpServer, [&] { return server.disconnects >= 3; }));
  EXPECT_EQ(server.lastDisconnect, wire::DISCONNECT_CLIENT_LEFT);
}

// The server's address is checked by Client's socket, not by ClientProtocol.
TEST(ClientConnectionTest, DatagramsFromOtherAddressesAreIgnored) {
  asio::io_context io;
  UdpFakeServer udpServer(io, FakeServer::Mode::kAccept);
  Client client(io, testOptions(udpServer.endpoint()));
  ASSERT_TRUE(client.connect());
  ASSERT_TRUE(pumpUdp(io, client, udpServer, [&] { return client.connected(); }));
  wire::Packet bye;
  bye.mutable_disconnect()->set_reason(wire::DISCONNECT_SERVER_SHUTDOWN);
  std::vector<std::uint8_t> bytes;
  ASSERT_TRUE(wire::encodeDatagram({wire::Packet::kDisconnect, 0, 0, 0}, bye, bytes));
  udp::socket raw(io, udp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  raw.send_to(asio::buffer(bytes), client.localEndpoint());
  ASSERT_TRUE(pumpUdp(io, client, udpServer, [&] { return client.stats().foreignDatagrams == 1; }));
  EXPECT_EQ(client.state(), ClientState::kConnected);
}

TEST(ClientConnectionTest, DestroyingAClientWithAReceivePendingIsSafe) {
  asio::io_context io;
  UdpFakeServer udpServer(io, FakeServer::Mode::kAccept);
  {
    Client client(io, testOptions(udpServer.endpoint()));
    ASSERT_TRUE(client.connect());
    io.poll();
  }
  io.restart();
  io.poll();  // the aborted receive runs and finds its client gone
  SUCCEED();
}

}  // namespace
}  // namespace steerd::client
