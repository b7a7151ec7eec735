// The control channel end to end over real UDP: two control clients (steerd_client), each behind
// its own lossy proxy (10 % loss each way, 5 % duplicated, 20-50 ms delay so datagrams overtake
// each other), send 5,000 commands each to a real-time server. Every command must be applied
// exactly once and in order per client, and every result and every event must arrive.
//
// Corruption is left out here: a flipped byte is the seal's to catch (a bad_seal drop, tested in
// tests/net/sealed_session_test.cpp); this test is about loss, duplication and order.
#include <gtest/gtest.h>

#include <asio.hpp>

#include <chrono>
#include <set>
#include <thread>

#include "client/client.h"
#include "lossy_proxy.h"
#include "realtime_server.h"

namespace steerd {
namespace {

using testing::LossyProxy;
using testing::RealtimeServer;
using udp = asio::ip::udp;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr std::uint32_t kCommandsPerClient = 5000;
constexpr std::uint32_t kSpawnsPerClient = 250;  // each a spawned event for the clients subscribed by then

struct Director {
  LossyProxy proxy;
  client::Client client;
  std::uint32_t queued = 0;
  std::vector<control::CommandResult> results;
  std::set<std::uint32_t> spawnedSeen;  // agent ids of spawned events
  std::uint64_t spawnEvents = 0;

  Director(asio::io_context& io, std::uint16_t serverPort, unsigned seed)
      : proxy(serverPort, {0.10, 0.05, 0.0, 20, 50}, seed), client(io, optionsFor(proxy.port())) {}
  static client::ClientOptions optionsFor(std::uint16_t port) {
    client::ClientOptions o;
    o.server = udp::endpoint(asio::ip::make_address("127.0.0.1"), port);
    o.noBody = true;
    o.interpolate = false;
    return o;
  }
  // Command i of this client: a subscription first, spawns spread through, queries otherwise.
  control::Command command(std::uint32_t i) const {
    control::Command c;
    if (i == 0) {
      c.mutable_subscribe()->add_kinds(control::EVENT_SPAWNED);
    } else if (i % (kCommandsPerClient / kSpawnsPerClient) == 1) {
      c.mutable_spawn()->set_archetype("boid");
      c.mutable_spawn()->mutable_position()->set_x(20.0f + static_cast<float>(i % 200));
      c.mutable_spawn()->mutable_position()->set_y(8.0f);
    } else {
      c.mutable_query()->set_agent(0);
    }
    return c;
  }
  void pump() {
    // Up to 200 new commands at a time, as a game would send them.
    for (int k = 0; k < 200 && queued < kCommandsPerClient && client.connected(); ++k) {
      if (client.sendCommand(command(queued)) == 0) break;
      ++queued;
    }
    std::vector<wire::ControlMessage> got;
    client.takeControlMessages(got);
    for (const auto& m : got) {
      if (m.has_result()) results.push_back(m.result());
      if (m.has_event() && m.event().kind() == control::EVENT_SPAWNED) {
        ++spawnEvents;
        spawnedSeen.insert(m.event().agent());
      }
    }
  }
  // The agents its own spawns made (its subscription came first, so it hears of every one).
  std::set<std::uint32_t> ownSpawns() const {
    std::set<std::uint32_t> ids;
    for (std::uint32_t i = 0; i < results.size(); ++i) {
      if (command(i).has_spawn()) ids.insert(results[i].agent());
    }
    return ids;
  }
  bool done() const {
    if (results.size() < kCommandsPerClient) return false;
    for (const std::uint32_t id : ownSpawns()) {
      if (spawnedSeen.count(id) == 0) return false;
    }
    return true;
  }
};

TEST(ControlChannel, TenThousandCommandsFromTwoClientsApplyOnceInOrderThroughLoss) {
  net::NetConfig config;
  config.allowControl = true;
  RealtimeServer server(config);
  asio::io_context io;
  Director a(io, server.port(), 21), b(io, server.port(), 22);
  a.client.connect();
  b.client.connect();
  const auto start = Clock::now();
  while (Clock::now() - start < 60s && !(a.done() && b.done())) {
    io.poll();
    const auto now = Clock::now();
    a.client.update(now);
    b.client.update(now);
    a.pump();
    b.pump();
    std::this_thread::sleep_for(2ms);
  }
  ASSERT_TRUE(a.client.connected()) << a.client.stateMessage();
  ASSERT_TRUE(b.client.connected()) << b.client.stateMessage();
  for (Director* d : {&a, &b}) {
    ASSERT_EQ(d->results.size(), kCommandsPerClient) << "every result arrives, once";
    std::uint64_t lastTick = 0;
    for (std::uint32_t i = 0; i < kCommandsPerClient; ++i) {
      const control::CommandResult& r = d->results[i];
      ASSERT_EQ(r.sequence(), i + 1) << "in order, none twice";
      ASSERT_EQ(r.status(), control::STATUS_OK) << r.error();
      ASSERT_GE(r.tick(), lastTick) << "applied in order";
      lastTick = r.tick();
    }
    // Its own spawns all; the other's from its subscription on; each event once.
    const std::set<std::uint32_t> own = d->ownSpawns();
    EXPECT_EQ(own.size(), kSpawnsPerClient);
    for (const std::uint32_t id : own)
      EXPECT_EQ(d->spawnedSeen.count(id), 1u) << "spawned event for agent " << id;
    EXPECT_EQ(d->spawnEvents, d->spawnedSeen.size()) << "no event twice";
    EXPECT_LE(d->spawnEvents, 2 * kSpawnsPerClient);
    EXPECT_GT(d->proxy.dropped(), 0u);
  }
  EXPECT_EQ(server.metrics().commandsApplied.load(), 2 * kCommandsPerClient) << "applied exactly once";
  EXPECT_EQ(server.metrics().commandsRejected.load(), 0u);
  const auto sa = a.client.stats();
  std::printf(
      "%.1f s; server resent %llu; client a: %llu datagrams out, %llu duplicates of results/events; proxy "
      "dropped %llu\n",
      std::chrono::duration<double>(Clock::now() - start).count(),
      static_cast<unsigned long long>(server.metrics().controlResends.load()),
      static_cast<unsigned long long>(sa.datagramsOut), static_cast<unsigned long long>(sa.controlDuplicates),
      static_cast<unsigned long long>(a.proxy.dropped()));
}

}  // namespace
}  // namespace steerd
