// What one client is sent: everything when it fits, and when it does not, about the byte budget
// (the cost estimate corrects itself from what encoding really cost).
#include "net/client_view.h"

#include <gtest/gtest.h>

#include "proto/packet.h"
#include "world/scenarios.h"

namespace steerd::net {
namespace {

struct Stream {
  std::unique_ptr<World> world;
  AgentId player = 0;
  ClientView view{1, 0};
  std::vector<wire::EntityState> states;

  explicit Stream(std::size_t agents) {
    ScenarioOptions o;
    o.seed = 2;
    o.threads = 1;
    o.agents = agents;
    world = makeCrowdScenario(o);
    const auto p = static_cast<ArchetypeIndex>(world->archetypeIndex("player"));
    player = world->spawnExternal(p, {100, 100});
    view = ClientView(1, player);
  }
  // One snapshot, acknowledged at once (unless `ack` is false); returns its bytes on the wire.
  std::size_t next(const InterestConfig& interest, SnapshotStats& stats, bool ack = true) {
    world->step();
    wireStatesOf(*world, states);
    const auto tick = static_cast<std::uint32_t>(world->tick());
    std::size_t bytes = 0;
    for (const auto& part : view.build(*world, states, tick, interest, stats)) {
      // build() leaves the parts' sizes cached: framed from them, the datagram is the same.
      std::vector<std::uint8_t> framed, plain;
      EXPECT_TRUE(wire::encodeSnapshotDatagram({wire::Packet::kSnapshot, 0, 0, 0}, part, framed));
      wire::Packet packet;
      *packet.mutable_snapshot() = part;
      EXPECT_TRUE(wire::encodeDatagram({wire::Packet::kSnapshot, 0, 0, 0}, packet, plain));
      EXPECT_EQ(framed, plain);
      bytes += wire::kHeaderBytes + wire::partBodyBytes(part);
    }
    if (ack) view.acknowledge(tick);
    return bytes;
  }
};

TEST(ClientView, EverythingGoesWhenItFits) {
  Stream s(200);
  InterestConfig interest;
  interest.budgetBytes = 100000;
  SnapshotStats stats;
  s.next(interest, stats);
  EXPECT_EQ(stats.entitiesSent, s.world->agentCount());
  EXPECT_EQ(stats.entitiesWaiting, 0u);
}

// Acks only move forward, so the records before the acked one are dropped: a client whose acks
// arrive holds a few records, not the whole history (each holds every entity the client has).
TEST(ClientView, KeepsOnlyTheRecordsFromTheAckedOneOn) {
  Stream s(300);
  InterestConfig interest;
  SnapshotStats stats;
  for (int k = 0; k < 10; ++k) s.next(interest, stats, false);
  EXPECT_EQ(s.view.recordsKept(), 10u);
  const auto eighth = static_cast<std::uint32_t>(s.world->tick()) - 2;
  s.view.acknowledge(eighth);
  EXPECT_EQ(s.view.ackedTick(), eighth);
  EXPECT_EQ(s.view.recordsKept(), 3u);
  s.view.acknowledge(eighth - 1);  // older: ignored
  EXPECT_EQ(s.view.ackedTick(), eighth);
  // The next snapshot is encoded against the acked record.
  s.world->step();
  wireStatesOf(*s.world, s.states);
  const auto parts =
      s.view.build(*s.world, s.states, static_cast<std::uint32_t>(s.world->tick()), interest, stats);
  ASSERT_FALSE(parts.empty());
  EXPECT_EQ(parts.front().baseline_tick(), eighth);
  // Without acks the history is capped, and the acked record goes with it: the next is whole.
  for (std::size_t k = 0; k < ClientView::kHistory + 4; ++k) s.next(interest, stats, false);
  EXPECT_EQ(s.view.recordsKept(), ClientView::kHistory);
  EXPECT_EQ(s.view.ackedTick(), 0u);
  // Acked at once from here on: one record kept after each ack.
  s.next(interest, stats);
  EXPECT_EQ(s.view.recordsKept(), 1u);
}

TEST(ClientView, StaysNearTheByteBudget) {
  Stream s(3000);
  InterestConfig interest;
  interest.budgetBytes = 1600;  // 256 kbps at 20 snapshots a second
  std::size_t bytes = 0;
  int counted = 0;
  for (int k = 0; k < 200; ++k) {
    SnapshotStats stats;
    const std::size_t b = s.next(interest, stats);
    EXPECT_GT(stats.entitiesWaiting, 0u);
    if (k >= 20) {  // once the cost estimate has settled
      bytes += b;
      ++counted;
    }
  }
  const double mean = static_cast<double>(bytes) / counted;
  std::printf("mean %.0f bytes per snapshot for a budget of 1600\n", mean);
  EXPECT_LT(mean, 1600 * 1.1);
  EXPECT_GT(mean, 1600 * 0.7);  // and it uses the budget, rather than starving the client
}

// The budget is a cap on each snapshot, not an average (issue 20: at 30 kbps, 188 bytes a
// snapshot, 99 of 279 snapshots were over it, the largest 300 bytes).
TEST(ClientView, NoSnapshotGoesOverTheByteBudget) {
  for (const std::size_t budget : {188u, 400u, 1600u}) {
    Stream s(3000);
    InterestConfig interest;
    interest.budgetBytes = budget;
    std::size_t largest = 0, bytes = 0;
    const int snapshots = 279;
    for (int k = 0; k < snapshots; ++k) {
      SnapshotStats stats;
      const std::size_t b = s.next(interest, stats);
      largest = std::max(largest, b);
      bytes += b;
      EXPECT_LE(b, budget) << "snapshot " << k;
    }
    std::printf("budget %zu: largest %zu, mean %.0f bytes, %.2f encodings a snapshot\n", budget, largest,
                static_cast<double>(bytes) / snapshots,
                static_cast<double>(s.view.encodings()) / static_cast<double>(snapshots));
    // Encoding is the dear part of a snapshot: extra encodings stay the exception.
    EXPECT_LT(static_cast<double>(s.view.encodings()) / static_cast<double>(snapshots), 1.5);
    EXPECT_EQ(s.view.snapshotsOverBudget(), 0u);
    EXPECT_EQ(s.view.snapshotsBuilt(), static_cast<std::uint64_t>(snapshots));
    EXPECT_GT(static_cast<double>(bytes) / snapshots,
              0.85 * static_cast<double>(budget));  // and still uses it (measured 0.94-0.95)
  }
}

// The player's own body goes in every snapshot, however far over the budget the world is (its
// priority key once named candidate 0 instead, so a player not first in id order was left out).
TEST(ClientView, ThePlayersOwnBodyGoesInEverySnapshot) {
  for (const std::size_t budget : {188u, 1600u}) {
    Stream s(3000);  // the player joins last: the highest id, the last candidate
    InterestConfig interest;
    interest.budgetBytes = budget;
    for (int k = 0; k < 60; ++k) {
      SnapshotStats stats;
      s.next(interest, stats);
      ASSERT_GT(stats.entitiesWaiting, 0u);  // over the budget: chosen by priority
      const wire::SnapshotRecord* held = s.view.newestRecord();
      ASSERT_NE(held, nullptr);
      const wire::EntityState* own = held->find(s.player);
      ASSERT_NE(own, nullptr) << "budget " << budget << " snapshot " << k;
      EXPECT_EQ(own->tick, s.world->tick()) << "budget " << budget << " snapshot " << k;
    }
  }
}

}  // namespace
}  // namespace steerd::net
