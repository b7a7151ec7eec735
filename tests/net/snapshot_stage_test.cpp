// Snapshots built off the tick (net/snapshot_stage.h): the stage runs one round at a time on its
// own threads, and a session that uses it sends the same snapshots as one that builds them within
// the tick, whatever joins, acks and leaves come while a round is in flight.
#include "net/snapshot_stage.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "sim_net.h"

namespace steerd::net {
namespace {

TEST(SnapshotStage, StartRunsTheJobOnAnotherThreadAndWaitWaitsForIt) {
  SnapshotStage stage(2);
  EXPECT_FALSE(stage.busy());
  std::atomic<bool> release{false};
  std::thread::id ranOn;
  stage.start([&](const SnapshotStage::ParallelFor&) {
    ranOn = std::this_thread::get_id();
    while (!release.load()) std::this_thread::yield();
  });
  EXPECT_TRUE(stage.busy());  // held until released: busy cannot have cleared
  release = true;
  stage.wait();
  EXPECT_FALSE(stage.busy());
  EXPECT_NE(ranOn, std::this_thread::get_id());
}

TEST(SnapshotStage, ParallelForCoversEveryIndexOnceInBothWays) {
  SnapshotStage stage(3);
  for (const bool inBackground : {true, false}) {
    std::vector<std::atomic<int>> hits(1000);
    const SnapshotStage::Job job = [&](const SnapshotStage::ParallelFor& parallelFor) {
      parallelFor(hits.size(), 7, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) hits[i].fetch_add(1);
      });
    };
    if (inBackground) {
      stage.start(job);
      stage.wait();
    } else {
      stage.runHere(job);
    }
    for (std::size_t i = 0; i < hits.size(); ++i) ASSERT_EQ(hits[i].load(), 1) << i;
  }
}

TEST(SnapshotStage, DestructionFinishesTheRoundInFlight) {
  std::atomic<bool> finished{false};
  {
    SnapshotStage stage(1);
    stage.start([&](const SnapshotStage::ParallelFor&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      finished = true;
    });
  }
  EXPECT_TRUE(finished.load());
}

// Every snapshot a client got, by tick: the packet's bytes (the seal's differ by key).
using SnapshotsByTick = std::map<std::uint32_t, std::string>;

// Three clients on a server whose snapshots are built within the tick (threads 0) or beside it,
// waited for after each tick (SimServer::tickNow) so the rounds are the same; the clients ack what
// they get, and the second one leaves half way.
std::vector<SnapshotsByTick> runSession(unsigned snapshotThreads) {
  ServerSetup setup;
  setup.session.snapshotThreads = snapshotThreads;
  SimServer s(setup);
  std::vector<std::unique_ptr<SimClient>> clients;
  for (std::uint16_t i = 0; i < 3; ++i) {
    clients.push_back(std::make_unique<SimClient>(s, static_cast<std::uint16_t>(31000 + i)));
    EXPECT_TRUE(clients.back()->connect().has_value());
  }
  std::vector<SnapshotsByTick> got(clients.size());
  for (int t = 0; t < 60; ++t) {
    s.step();
    for (std::size_t c = 0; c < clients.size(); ++c) {
      wire::Decoded d;
      std::uint32_t newest = 0;
      while (clients[c]->receive(d)) {
        if (d.drop != wire::DropReason::kNone || !d.packet.has_snapshot()) continue;
        got[c][d.packet.snapshot().tick()] = d.packet.SerializeAsString();
        newest = std::max(newest, d.packet.snapshot().tick());
      }
      if (c == 1 && t == 30) {
        wire::Packet bye;
        bye.mutable_disconnect()->set_reason(wire::DISCONNECT_CLIENT_LEFT);
        clients[c]->send(bye);
      } else if (newest != 0 && !(c == 1 && t > 30)) {
        clients[c]->send(ClientSession::positionInput(
            static_cast<std::uint32_t>(t + 1), 90.0f + static_cast<float>(c + t % 7), 100.0f, 0, 0, newest));
      }
    }
  }
  return got;
}

TEST(SnapshotStage, ASessionSendsTheSameSnapshotsOffTheTickAsWithinIt) {
  const std::vector<SnapshotsByTick> within = runSession(0);
  const std::vector<SnapshotsByTick> beside = runSession(2);
  ASSERT_EQ(within.size(), beside.size());
  for (std::size_t c = 0; c < within.size(); ++c) {
    EXPECT_GT(within[c].size(), 15u) << "client " << c;
    EXPECT_EQ(within[c], beside[c]) << "client " << c;
  }
}

// Leaves, joins and acks that come while a round is in flight wait for it (the views are the
// round's then): many clients, ticks not waited for, everyone leaving at once half way.
TEST(SnapshotStage, ClientsComingAndGoingDuringRoundsLeaveNothingBehind) {
  ServerSetup setup;
  setup.session.snapshotThreads = 2;
  SimServer s(setup);
  std::vector<std::unique_ptr<SimClient>> clients;
  for (int round = 0; round < 2; ++round) {
    clients.clear();
    for (std::uint16_t i = 0; i < 40; ++i) {
      clients.push_back(std::make_unique<SimClient>(s));
      ASSERT_TRUE(clients.back()->connect().has_value());
    }
    for (int t = 0; t < 20; ++t) {
      s.tick->run(s.now.steadyNs);  // not waited for: it may still be building when the next tick takes acks
      s.protocol->flushOutgoing(s.now);
      s.advance(s.tickSeconds);
      for (auto& c : clients) {
        wire::Decoded d;
        std::uint32_t newest = 0;
        while (c->receive(d)) {
          if (d.drop == wire::DropReason::kNone && d.packet.has_snapshot())
            newest = std::max(newest, d.packet.snapshot().tick());
        }
        if (newest != 0)
          c->send(ClientSession::positionInput(static_cast<std::uint32_t>(t + 1), 100, 90, 0, 0, newest));
      }
    }
    for (auto& c : clients) {
      wire::Packet bye;
      bye.mutable_disconnect()->set_reason(wire::DISCONNECT_CLIENT_LEFT);
      c->send(bye);
    }
    s.tickNow();
    s.session->waitForSnapshots();
    EXPECT_EQ(s.session->clientCount(), 0u);
    EXPECT_EQ(s.world->agentCount(), 1u);  // the deer alone
  }
  EXPECT_GT(s.metrics.snapshotsSent.load(), 40u * 10u);
}

}  // namespace
}  // namespace steerd::net

namespace steerd::net {
namespace {

// The real-time loop's follow-up round (setRoundDoneHandler): called once a round, and a round
// started between ticks never repeats the tick a client already has.
TEST(SnapshotStage, RoundsReportWhenDoneAndNeverRepeatATick) {
  ServerSetup setup;
  setup.session.snapshotThreads = 2;
  SimServer s(setup);
  std::atomic<int> done{0};
  s.session->setRoundDoneHandler([&] { done.fetch_add(1); });
  SimClient c(s);
  ASSERT_TRUE(c.connect().has_value());
  std::map<std::uint32_t, int> ticksSeen;
  for (int t = 0; t < 30; ++t) {
    s.step();
    s.session->sendDueSnapshots();  // as a round's follow-up would, between ticks
    s.session->waitForSnapshots();
    s.protocol->flushOutgoing(s.now);
    wire::Decoded d;
    while (c.receive(d)) {
      if (d.drop == wire::DropReason::kNone && d.packet.has_snapshot())
        ++ticksSeen[d.packet.snapshot().tick()];
    }
  }
  EXPECT_GE(ticksSeen.size(), 18u);  // 20 a second at 30 ticks a second, for a second
  for (const auto& [tick, count] : ticksSeen) EXPECT_EQ(count, 1) << "tick " << tick;
  EXPECT_EQ(done.load(), static_cast<int>(s.metrics.snapshotsSent.load()));  // one client: a round each
  s.session->setRoundDoneHandler(nullptr);
}

}  // namespace
}  // namespace steerd::net

namespace steerd::net {
namespace {

// Records each batch of snapshots the session hands over: the client ids in it, in order. Safe to call from
// the stage's threads (the session serialises its calls; the lock makes the test's reads safe).
class BatchTransport final : public SessionTransport {
 public:
  std::vector<NetEvent> events;
  void takeEvents(std::vector<NetEvent>& out) override {
    out.clear();
    out.swap(events);
  }
  void send(std::vector<OutDatagram>& batch) override {
    std::lock_guard lock(mutex_);
    std::vector<std::uint32_t> ids;
    for (const OutDatagram& d : batch) {
      if (d.bytes.size() > wire::kHeaderBytes && d.bytes[5] == wire::Packet::kSnapshot)
        ids.push_back(d.clientId);
    }
    if (!ids.empty()) batches_.push_back(std::move(ids));
    batch.clear();
  }
  void publishTick(std::uint32_t, std::int64_t, double) override {}
  void setScene(const std::vector<wire::Scene>&) override {}
  bool debugAllowed() const override { return false; }
  std::vector<std::vector<std::uint32_t>> takeBatches() {
    std::lock_guard lock(mutex_);
    return std::exchange(batches_, {});
  }

 private:
  std::mutex mutex_;
  std::vector<std::vector<std::uint32_t>> batches_;
};

// A round's datagrams leave as its clients are built, not all at its end, and still in join
// order: with twelve clients (three chunks of four) built on one thread, three batches.
TEST(SnapshotStage, ARoundHandsOverEachChunkAsItIsBuiltInJoinOrder) {
  for (const unsigned snapshotThreads : {0u, 2u}) {
    ServerSetup setup;
    setup.session.snapshotThreads = snapshotThreads;
    setup.session.sendRate = setup.session.tickRate;  // every client due at every tick
    World world(std::move(setup.geometry), std::move(setup.archetypes), WorldConfig{});
    ServerMetrics metrics;
    BatchTransport transport;
    GameSession session(world, transport, metrics, setup.session);
    ServerTick tick(world, session, transport, setup.session.tickRate);
    std::vector<std::uint32_t> joined;
    for (std::uint32_t id = 1; id <= 12; ++id) {
      NetEvent e;
      e.kind = NetEvent::Kind::kJoin;
      e.clientId = 100 - id;  // join order differs from id order
      transport.events.push_back(e);
      joined.push_back(e.clientId);
    }
    std::vector<std::vector<std::uint32_t>> batches;
    for (std::int64_t t = 1; t <= 5 && batches.empty(); ++t) {  // until the first round
      tick.run(t * 33'333'333);
      session.waitForSnapshots();
      batches = transport.takeBatches();
    }
    std::vector<std::uint32_t> order;
    for (const auto& b : batches) {
      for (const std::uint32_t id : b) {
        if (order.empty() || order.back() != id) order.push_back(id);  // parts of one snapshot
      }
    }
    EXPECT_EQ(order, joined) << "snapshot threads " << snapshotThreads;
    if (snapshotThreads == 0) {
      // World pool of one thread: the chunks are built one after another, each sent when done.
      ASSERT_EQ(batches.size(), 3u);
      for (const auto& b : batches) EXPECT_GE(b.size(), 4u);
    } else {
      EXPECT_GE(batches.size(), 1u);
    }
  }
}

}  // namespace
}  // namespace steerd::net
