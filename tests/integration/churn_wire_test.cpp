// Agent indices reused over the wire (issue 17's fourth hole): agents come and go while a client
// watches, and their indices come back with a new generation. The client library must see each
// newcomer as a new entity, never as the departed one moved, and end with exactly the world's
// agents. The server is stepped on the test's thread (tests/net/udp_harness.h), the client is the
// real library.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "../net/udp_harness.h"
#include "client/client.h"

namespace steerd::net {
namespace {

struct Watcher {
  asio::io_context io;
  client::Client client;
  explicit Watcher(std::uint16_t port) : client(io, options(port)) {}
  static client::ClientOptions options(std::uint16_t port) {
    client::ClientOptions o;
    o.server = udp::endpoint(asio::ip::make_address("127.0.0.1"), port);
    o.noBody = true;  // the whole world in view
    o.interpolate = false;
    return o;
  }
  void pump() {
    io.restart();
    io.poll();
    client.update(client::Clock::now());
  }
  std::set<AgentId> seen() const {
    std::set<AgentId> ids;
    if (const wire::SnapshotRecord* r = client.latestSnapshot())
      for (const auto& e : r->entities) ids.insert(e.id);
    return ids;
  }
};

std::set<AgentId> liveIds(const World& w) { return {w.agents().id.begin(), w.agents().id.end()}; }

TEST(ChurnOverTheWire, AWatcherSeesNewcomersOnReusedIndicesAsNewEntities) {
  Server s;
  Watcher watcher(s.endpoint->port());
  ASSERT_TRUE(watcher.client.connect());
  ASSERT_TRUE(s.stepUntil([&] {
    watcher.pump();
    return watcher.client.latestSnapshot() != nullptr;
  }));
  std::set<AgentId> everSeen;
  auto stepWatching = [&](std::uint64_t ticks) {
    for (std::uint64_t t = 0; t < ticks; ++t) {
      s.step();
      std::this_thread::sleep_for(1ms);  // the network thread sends, the watcher receives
      watcher.pump();
      for (const AgentId id : watcher.seen()) everSeen.insert(id);
    }
  };
  std::set<AgentId> departed;
  for (int round = 0; round < 3; ++round) {
    std::vector<AgentId> batch;
    for (int k = 0; k < 12; ++k)
      batch.push_back(s.world->spawn(
          0, {20.0f + 10.0f * static_cast<float>(k), 40.0f + 30.0f * static_cast<float>(round)}));
    // Until the watcher has seen every one of them (a hang guard of 5 s, not a time asserted).
    ASSERT_TRUE(s.stepUntil([&] {
      watcher.pump();
      const std::set<AgentId> seen = watcher.seen();
      everSeen.insert(seen.begin(), seen.end());
      return std::all_of(batch.begin(), batch.end(), [&](AgentId id) { return seen.count(id) > 0; });
    }));
    for (const AgentId id : batch) {
      s.world->despawn(id);
      departed.insert(id);
    }
    stepWatching(World::kIndexReuseDelayTicks + 1);
  }
  // The last round's newcomers took the first round's indices, with generation 2 by now.
  const std::vector<AgentId> last = [&] {
    std::vector<AgentId> ids;
    for (int k = 0; k < 12; ++k)
      ids.push_back(s.world->spawn(0, {30.0f + 10.0f * static_cast<float>(k), 150.0f}));
    return ids;
  }();
  EXPECT_GE(agentGeneration(last.front()), 1u);
  ASSERT_TRUE(s.stepUntil([&] {
    watcher.pump();
    return watcher.seen() == liveIds(*s.world);
  })) << "the watcher ends with exactly the world's agents";
  for (const AgentId id : departed) EXPECT_FALSE(watcher.seen().count(id)) << id;
  for (const AgentId id : departed)
    EXPECT_TRUE(everSeen.count(id)) << "it watched " << id << " while it was there";
  // Every id it ever saw was a real agent's: the departed or the living.
  for (const AgentId id : everSeen) EXPECT_TRUE(departed.count(id) || s.world->isAlive(id)) << id;
  EXPECT_EQ(watcher.client.stats().decodeFailures(), 0u);
}

}  // namespace
}  // namespace steerd::net
