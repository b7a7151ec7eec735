// Snapshot parts into whole snapshots (client/snapshot_assembler.h), with parts made by the
// server's encoder: assembly in any order, deltas against a held baseline, duplicates, missing
// baselines, stale ticks, overlapping parts, epochs, and the bound on ticks left waiting.
#include "client/snapshot_assembler.h"

#include <gtest/gtest.h>

#include "recording_outbox.h"

namespace steerd::client {
namespace {

using namespace std::chrono_literals;

std::vector<wire::EntityState> crowd(std::size_t n, float offset) {
  std::vector<wire::EntityState> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    v[i].id = static_cast<std::uint32_t>(i + 1);
    v[i].archetype = 0;
    v[i].x = wire::quantizePosition(static_cast<float>(i) + offset);
    v[i].y = wire::quantizePosition(offset);
    v[i].heading = wire::quantizeHeading(1.0f, 0.0f);
  }
  return v;
}

// The parts of `tick` (small parts, so a crowd of 200 takes several), against `baseline`.
std::vector<wire::Snapshot> partsOf(std::uint32_t tick, const std::vector<wire::EntityState>& entities,
                                    const wire::SnapshotRecord* baseline, wire::SnapshotRecord& record) {
  return wire::encodeSnapshot(wire::SnapshotContent(tick, entities), baseline, 400, record);
}

SnapshotAssembler::Outcome add(SnapshotAssembler& a, const wire::Snapshot& part, TimePoint now) {
  const SnapshotPartHeader h = snapshotPartHeader(part);
  if (a.admit(h) == SnapshotAssembler::Admission::kRefused) return {};
  return a.add(h, &part, now, 30.0);
}

TEST(ClientSnapshotAssembler, PartsInAnyOrderMakeTheWholeSnapshotOnceTheLastComes) {
  SnapshotAssembler a(8);
  wire::SnapshotRecord expected;
  const auto parts = partsOf(100, crowd(200, 0.0f), nullptr, expected);
  ASSERT_GE(parts.size(), 3u);
  const TimePoint t = test::simulatedStart();
  for (std::size_t i = parts.size(); i-- > 1;) {
    const auto o = add(a, parts[i], t);
    EXPECT_EQ(o.kind, SnapshotAssembler::Outcome::kPartial);
    ASSERT_NE(o.record, nullptr);
    EXPECT_FALSE(o.record->entities.empty());  // the part's own entities, for the buffer
  }
  EXPECT_EQ(a.newestComplete(), 0u);
  const auto o = add(a, parts[0], t);
  ASSERT_EQ(o.kind, SnapshotAssembler::Outcome::kComplete);
  EXPECT_EQ(*o.record, expected);
  EXPECT_EQ(a.newestComplete(), 100u);
  EXPECT_EQ(a.counters().parts, parts.size());
  EXPECT_EQ(a.counters().complete, 1u);
  // Every part again: duplicates, nothing changes.
  for (const auto& p : parts) EXPECT_EQ(add(a, p, t).kind, SnapshotAssembler::Outcome::kDropped);
  EXPECT_EQ(a.counters().duplicate, parts.size());
}

TEST(ClientSnapshotAssembler, ADeltaDecodesAgainstItsBaselineAndIsRefusedWithoutIt) {
  SnapshotAssembler a(8);
  const TimePoint t = test::simulatedStart();
  wire::SnapshotRecord first, second;
  for (const auto& p : partsOf(10, crowd(50, 0.0f), nullptr, first)) add(a, p, t);
  ASSERT_EQ(a.newestComplete(), 10u);
  const auto delta = partsOf(12, crowd(50, 0.5f), &first, second);
  ASSERT_EQ(delta[0].baseline_tick(), 10u);
  for (const auto& p : delta) add(a, p, t + 66ms);
  EXPECT_EQ(a.newestComplete(), 12u);
  ASSERT_NE(a.latest(), nullptr);
  EXPECT_EQ(*a.latest(), second);

  SnapshotAssembler fresh(8);  // never had tick 10
  for (const auto& p : delta) EXPECT_EQ(add(fresh, p, t).kind, SnapshotAssembler::Outcome::kDropped);
  EXPECT_EQ(fresh.counters().baselineMissing, delta.size());
  EXPECT_EQ(fresh.newestComplete(), 0u);
}

TEST(ClientSnapshotAssembler, MalformedNumbersAndPartsThatOverlapAreCountedAndNamed) {
  SnapshotAssembler a(8);
  SnapshotPartHeader bad;
  bad.tick = 5;
  bad.partCount = 2;
  bad.part = 2;  // past the count
  EXPECT_EQ(a.admit(bad), SnapshotAssembler::Admission::kRefused);
  bad.part = 0;
  bad.partCount = SnapshotAssembler::kMaxParts + 1;
  EXPECT_EQ(a.admit(bad), SnapshotAssembler::Admission::kRefused);
  bad.partCount = 1;
  bad.tick = 0;
  EXPECT_EQ(a.admit(bad), SnapshotAssembler::Admission::kRefused);
  EXPECT_EQ(a.counters().malformed, 3u);

  // Two parts of one tick that both hold entity 1.
  wire::SnapshotRecord r;
  auto parts = partsOf(7, crowd(1, 0.0f), nullptr, r);
  ASSERT_EQ(parts.size(), 1u);
  parts[0].set_part_count(2);
  wire::Snapshot second = parts[0];
  second.set_part(1);
  const TimePoint t = test::simulatedStart();
  EXPECT_EQ(add(a, parts[0], t).kind, SnapshotAssembler::Outcome::kPartial);
  const auto o = add(a, second, t);
  EXPECT_EQ(o.kind, SnapshotAssembler::Outcome::kDropped);
  EXPECT_EQ(o.error, "snapshot parts overlap");
  EXPECT_EQ(a.newestComplete(), 0u);
}

TEST(ClientSnapshotAssembler, AFullRingRefusesTicksOlderThanItsOldest) {
  SnapshotAssembler a(2);
  const TimePoint t = test::simulatedStart();
  for (std::uint32_t tick : {20u, 22u, 24u}) {
    wire::SnapshotRecord r;
    for (const auto& p : partsOf(tick, crowd(3, 0.0f), nullptr, r)) add(a, p, t);
  }
  EXPECT_EQ(a.record(20), nullptr);  // fell out of the ring of 2
  ASSERT_NE(a.record(22), nullptr);
  wire::SnapshotRecord r;
  for (const auto& p : partsOf(21, crowd(3, 0.0f), nullptr, r))
    EXPECT_EQ(add(a, p, t).kind, SnapshotAssembler::Outcome::kDropped);
  EXPECT_EQ(a.counters().stale, 1u);
}

TEST(ClientSnapshotAssembler, TicksLeftIncompleteAreAbandonedPastTheBound) {
  SnapshotAssembler a(64);
  const TimePoint t = test::simulatedStart();
  const std::size_t ticks = SnapshotAssembler::kMaxPendingTicks + 5;
  for (std::uint32_t i = 0; i < ticks; ++i) {
    wire::SnapshotRecord r;
    const auto parts = partsOf(100 + i, crowd(200, 0.0f), nullptr, r);
    ASSERT_GE(parts.size(), 2u);
    add(a, parts[0], t);  // never the rest
  }
  wire::SnapshotRecord r;
  add(a, partsOf(500, crowd(200, 0.0f), nullptr, r)[0], t);
  // The oldest went first: of the ticks + 1 begun, kMaxPendingTicks wait (plus the newest, pruned
  // at the next call, so its outcome stays valid until then).
  EXPECT_EQ(a.counters().abandoned, (ticks + 1) - (SnapshotAssembler::kMaxPendingTicks + 1));
  EXPECT_EQ(a.counters().complete, 0u);
}

TEST(ClientSnapshotAssembler, ANewEpochDropsEverythingHeldAndAnOlderOneIsRefused) {
  SnapshotAssembler a(8);
  const TimePoint t = test::simulatedStart();
  wire::SnapshotRecord r;
  for (const auto& p : partsOf(300, crowd(3, 0.0f), nullptr, r)) add(a, p, t);
  ASSERT_EQ(a.newestComplete(), 300u);
  auto next = partsOf(40, crowd(3, 0.0f), nullptr, r);  // a seek back to tick 40
  for (auto& p : next) p.set_epoch(1);
  EXPECT_EQ(a.admit(snapshotPartHeader(next[0])), SnapshotAssembler::Admission::kAdmittedNewEpoch);
  EXPECT_EQ(a.newestComplete(), 0u);
  EXPECT_EQ(a.record(300), nullptr);
  EXPECT_EQ(a.add(snapshotPartHeader(next[0]), &next[0], t, 30.0).kind,
            SnapshotAssembler::Outcome::kComplete);
  EXPECT_EQ(a.newestComplete(), 40u);
  auto old = partsOf(301, crowd(3, 0.0f), nullptr, r);  // epoch 0, late
  EXPECT_EQ(add(a, old[0], t).kind, SnapshotAssembler::Outcome::kDropped);
  EXPECT_EQ(a.counters().otherEpoch, 1u);
}

TEST(ClientSnapshotAssembler, JitterIsTheDeviationFromTheServersTickSpacing) {
  SnapshotAssembler a(8);
  TimePoint t = test::simulatedStart();
  wire::SnapshotRecord r;
  // Two ticks apart at 30 Hz is 66.7 ms: arrivals exactly that far apart have no jitter.
  for (std::uint32_t tick = 2; tick <= 40; tick += 2) {
    for (const auto& p : partsOf(tick, crowd(2, 0.0f), nullptr, r)) add(a, p, t);
    t += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(2.0 / 30.0));
  }
  EXPECT_LT(a.jitterMs(), 0.01);
  // One 20 ms late: RFC 3550's estimate moves by 1/16 of it.
  t += 20ms;
  for (const auto& p : partsOf(42, crowd(2, 0.0f), nullptr, r)) add(a, p, t);
  EXPECT_NEAR(a.jitterMs(), 20.0 / 16.0, 0.01);
}

TEST(ClientSnapshotAssembler, LightPartsAreAssembledAndCountedAlike) {
  SnapshotAssembler a(8);
  wire::SnapshotRecord r;
  const auto parts = partsOf(9, crowd(200, 0.0f), nullptr, r);
  const TimePoint t = test::simulatedStart();
  SnapshotAssembler::Outcome o;
  for (const auto& p : parts) {
    const SnapshotPartHeader h = snapshotPartHeader(p);
    ASSERT_NE(a.admit(h), SnapshotAssembler::Admission::kRefused);
    o = a.add(h, nullptr, t, 30.0);
  }
  ASSERT_EQ(o.kind, SnapshotAssembler::Outcome::kComplete);
  EXPECT_TRUE(o.record->entities.empty());  // no entities read
  EXPECT_EQ(a.newestComplete(), 9u);
  EXPECT_EQ(a.counters().parts, parts.size());
}

}  // namespace
}  // namespace steerd::client
