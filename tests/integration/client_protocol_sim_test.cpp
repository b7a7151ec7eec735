// The client's protocol (client/client_protocol.h) against the server's (net/net_protocol.h) on
// made-up time: no sockets, no threads, no sleeps. Every datagram either way passes through the
// test, which may lose some on a fixed schedule, so the handshake, the snapshot deltas against
// acknowledged baselines and the player's inputs are checked end to end, exactly and repeatably.
#include <gtest/gtest.h>

#include <deque>

#include "../net/sim_net.h"
#include "client/client_protocol.h"

namespace steerd {
namespace {

using client::ClientOptions;
using client::ClientProtocol;
using client::ClientState;
using client::TimePoint;

// One client and the simulated server, joined by two queues; `lose(n)` says whether the n-th
// datagram the server sends is lost on the way.
struct SimLink {
  explicit SimLink(net::ServerSetup setup = {}, std::function<bool(std::uint64_t)> loseFromServer = {})
      : server(std::move(setup)),
        address(asio::ip::make_address("127.0.0.1"), 41000),
        lose(std::move(loseFromServer)),
        client(options(), [this](std::span<const std::uint8_t> d) {
          toServer.emplace_back(d.begin(), d.end());
          return true;
        }) {}

  static ClientOptions options() {
    ClientOptions o;
    o.server = asio::ip::udp::endpoint(asio::ip::make_address("127.0.0.1"), 7777);
    o.inputRateHz = 30.0;
    return o;
  }
  TimePoint clientNow() const { return TimePoint(std::chrono::nanoseconds(server.now.steadyNs)); }

  // One tick of the server, then what each side sent reaches the other, then the client's update.
  void step() {
    for (const auto& d : toServer) server.deliver(d, address);
    toServer.clear();
    server.step();
    auto& q = server.toClient[address];
    while (!q.empty()) {
      if (!lose || !lose(sentByServer++)) client.onDatagram(q.front(), clientNow());
      q.pop_front();
    }
    client.update(clientNow());
  }
  bool stepUntil(const std::function<bool()>& done, int maxTicks = 600) {
    for (int i = 0; i < maxTicks; ++i) {
      step();
      if (done()) return true;
    }
    return false;
  }

  net::SimServer server;
  net::Address address;
  std::function<bool(std::uint64_t)> lose;
  std::uint64_t sentByServer = 0;
  std::deque<std::vector<std::uint8_t>> toServer;
  ClientProtocol client;
};

TEST(ClientProtocolSim, ConnectsFollowsSnapshotsAndMovesItsPlayer) {
  SimLink link;
  ASSERT_TRUE(link.client.connect(link.clientNow()));
  ASSERT_TRUE(link.stepUntil([&] { return link.client.connected(); })) << link.client.stateMessage();
  const std::uint32_t player = link.client.server().playerEntity;
  link.client.setPlayer(60.0f, 40.0f, 0.0f, 0.0f);
  ASSERT_TRUE(link.stepUntil([&] {
    const wire::SnapshotRecord* s = link.client.latestSnapshot();
    const wire::EntityState* e = s != nullptr ? s->find(player) : nullptr;
    return e != nullptr && std::abs(wire::positionMetres(e->x) - 60.0f) < 0.1f &&
           std::abs(wire::positionMetres(e->y) - 40.0f) < 0.1f;
  }));
  for (int i = 0; i < 60; ++i) link.step();  // two seconds more: a buffer of snapshots to draw from
  // The deer the server spawned is there too.
  EXPECT_NE(link.client.latestSnapshot()->find(static_cast<std::uint32_t>(link.server.deer)), nullptr);
  const client::ClientStats stats = link.client.stats(link.clientNow());
  EXPECT_EQ(stats.decodeFailures(), 0u);
  EXPECT_EQ(stats.lossPercent, 0.0);
  EXPECT_GT(stats.snapshotsComplete, 40u);
  EXPECT_EQ(stats.partsBaselineMissing, 0u);
  client::Sample sample;
  link.client.sample(link.clientNow(), sample);
  EXPECT_EQ(sample.kind, client::SampleKind::kInterpolated);
}

TEST(ClientProtocolSim, EveryFifthServerDatagramLostStillConvergesWithoutADecodeFailure) {
  // Deltas go against the newest baseline the client acknowledged: with parts lost, the client
  // must never be sent a delta against one it does not hold.
  SimLink link({}, [](std::uint64_t n) { return n % 5 == 4; });
  ASSERT_TRUE(link.client.connect(link.clientNow()));
  ASSERT_TRUE(link.stepUntil([&] { return link.client.connected(); })) << link.client.stateMessage();
  link.client.setPlayer(150.0f, 150.0f, 0.0f, 0.0f);
  for (int i = 0; i < 300; ++i) link.step();
  const client::ClientStats stats = link.client.stats(link.clientNow());
  EXPECT_EQ(stats.partsBaselineMissing, 0u);
  EXPECT_EQ(stats.partsMalformed, 0u);
  EXPECT_EQ(stats.decodeFailures(), 0u);
  EXPECT_GT(stats.snapshotsComplete, 100u);
  EXPECT_NEAR(stats.lossPercent, 20.0, 2.0);
  const wire::EntityState* me = link.client.latestSnapshot()->find(link.client.server().playerEntity);
  ASSERT_NE(me, nullptr);
  EXPECT_NEAR(wire::positionMetres(me->x), 150.0f, 0.1f);
  EXPECT_EQ(link.client.state(), ClientState::kConnected);
}

// With an interest radius the client holds only what is near its player: what is outside is
// withheld, and an agent that leaves the radius (here: the player walks away) is removed.
TEST(ClientProtocolSim, AnInterestRadiusWithholdsWhatIsFarAndRemovesWhatLeaves) {
  net::ServerSetup setup;
  setup.session.interestRadius = 30.0f;
  Archetype post;  // stands still: only the player moves
  post.name = "post";
  setup.archetypes.push_back(post);
  SimLink link(setup);
  const AgentId near = link.server.world->spawn(1, {110, 100});
  const AgentId far = link.server.world->spawn(1, {180, 180});
  ASSERT_TRUE(link.client.connect(link.clientNow()));
  ASSERT_TRUE(link.stepUntil([&] { return link.client.connected(); }));
  EXPECT_EQ(link.client.server().interestRadius, 30.0f);
  link.client.setPlayer(100.0f, 105.0f, 0.0f, 0.0f);
  const auto holds = [&](AgentId id) {
    const wire::SnapshotRecord* s = link.client.latestSnapshot();
    return s != nullptr && s->find(static_cast<std::uint32_t>(id)) != nullptr;
  };
  ASSERT_TRUE(link.stepUntil([&] { return holds(near) && holds(link.server.deer); }));
  for (int i = 0; i < 30; ++i) {
    link.step();
    EXPECT_FALSE(holds(far)) << "tick " << i;  // 110 m away: never sent
  }
  // The player walks to the far corner: the near ones leave its radius and are removed.
  for (int k = 1; k <= 1000 && !(holds(far) && !holds(near)); ++k) {  // 0.1 m a tick: 3 m/s
    link.client.setPlayer(std::min(100.0f + 0.1f * k, 175.0f), std::min(105.0f + 0.1f * k, 175.0f), 0, 0);
    link.step();
  }
  EXPECT_TRUE(holds(far));
  EXPECT_FALSE(holds(near));
  EXPECT_EQ(link.client.stats(link.clientNow()).decodeFailures(), 0u);
}

TEST(ClientProtocolSim, TheServersShutdownEndsTheConnectionWithItsReason) {
  SimLink link;
  ASSERT_TRUE(link.client.connect(link.clientNow()));
  ASSERT_TRUE(link.stepUntil([&] { return link.client.connected(); }));
  link.server.protocol->shutdown(link.server.now);
  link.step();
  EXPECT_EQ(link.client.state(), ClientState::kDisconnected);
  EXPECT_EQ(link.client.disconnectReason(), wire::DISCONNECT_SERVER_SHUTDOWN);
}

TEST(ClientProtocolSim, TheClientsDisconnectFreesItsSessionOnTheServer) {
  SimLink link;
  ASSERT_TRUE(link.client.connect(link.clientNow()));
  ASSERT_TRUE(link.stepUntil([&] { return link.client.connected(); }));
  EXPECT_EQ(link.server.protocol->connectionCount(), 1u);
  link.client.disconnect();
  link.step();
  EXPECT_EQ(link.server.protocol->connectionCount(), 0u);
  EXPECT_EQ(link.client.state(), ClientState::kDisconnected);
}

}  // namespace
}  // namespace steerd
