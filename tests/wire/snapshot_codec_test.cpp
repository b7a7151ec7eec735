#include "proto/snapshot_codec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "proto/packet.h"

namespace steerd::wire {
namespace {

// A moving crowd: n entities on straight lines with a gentle curve, quantised like the server does.
std::vector<EntityState> crowdAt(std::uint32_t tick, std::uint32_t n, std::uint32_t firstId = 0,
                                 float curve = 0.01f) {
  std::vector<EntityState> out;
  for (std::uint32_t i = 0; i < n; ++i) {
    const float t = static_cast<float>(tick) / 30.0f;
    const float angle = 0.3f * static_cast<float>(i) + curve * static_cast<float>(tick);
    EntityState e;
    e.id = firstId + i * 3;  // sparse ids, as in a world where agents come and go
    e.archetype = i % 4;
    e.x = quantizePosition(10.0f + static_cast<float>(i % 20) * 4.0f + 3.0f * t * std::cos(angle));
    e.y = quantizePosition(10.0f + static_cast<float>(i / 20) * 4.0f + 3.0f * t * std::sin(angle));
    e.heading = quantizeHeading(std::cos(angle), std::sin(angle));
    out.push_back(e);
  }
  return out;
}

SnapshotRecord decodeAll(const std::vector<Snapshot>& parts, const SnapshotRecord* baseline) {
  SnapshotRecord r;
  for (const auto& p : parts) {
    const std::string err = decodeSnapshotPart(p, baseline, r);
    EXPECT_EQ(err, "");
  }
  return r;
}

std::size_t bytesOf(const std::vector<Snapshot>& parts) {
  std::size_t n = 0;
  for (const auto& p : parts) n += kHeaderBytes + partBodyBytes(p);
  return n;
}

TEST(SnapshotCodec, Quantisation) {
  EXPECT_EQ(quantizePosition(1.0f), 64);
  EXPECT_EQ(quantizePosition(-0.5f), -32);
  EXPECT_EQ(quantizePosition(NAN), 0);
  EXPECT_FLOAT_EQ(positionMetres(96), 1.5f);
  EXPECT_EQ(quantizeHeading(1, 0), 0u);
  EXPECT_EQ(quantizeHeading(0, 1), 64u);
  EXPECT_EQ(quantizeHeading(-1, 0), 128u);
  EXPECT_EQ(quantizeHeading(0, -1), 192u);
  EXPECT_NEAR(headingRadians(64), 3.14159265f / 2, 1e-6);
}

TEST(SnapshotCodec, FullSnapshotRoundTrips) {
  const auto now = crowdAt(10, 50);
  SnapshotRecord record;
  const auto parts = encodeSnapshot({10, now, {}}, nullptr, kMaxBodyBytes - 3, record);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].baseline_tick(), 0u);
  const SnapshotRecord got = decodeAll(parts, nullptr);
  EXPECT_EQ(got, record);
  ASSERT_EQ(got.entities.size(), 50u);
  for (std::size_t i = 0; i < now.size(); ++i) {
    EXPECT_EQ(got.entities[i].x, now[i].x);
    EXPECT_EQ(got.entities[i].heading, now[i].heading);
    EXPECT_EQ(got.entities[i].archetype, now[i].archetype);
  }
}

TEST(SnapshotCodec, DeltaChainStaysExactAndSteadyMotionCostsAboutOneByte) {
  SnapshotRecord base;
  encodeSnapshot({1, crowdAt(1, 400), {}}, nullptr, kMaxBodyBytes - 3, base);
  SnapshotRecord clientBase = base;
  std::size_t bytes = 0, entities = 0;
  for (std::uint32_t tick = 3; tick < 120; tick += 2) {  // 15 Hz of a 30 Hz world, acked every time
    const auto now = crowdAt(tick, 400);
    SnapshotRecord record;
    const auto parts = encodeSnapshot({tick, now, {}}, &base, kMaxBodyBytes - 3, record);
    const SnapshotRecord got = decodeAll(parts, &clientBase);
    ASSERT_EQ(got, record) << "tick " << tick;
    for (std::size_t i = 0; i < now.size(); ++i) ASSERT_EQ(got.entities[i].x, now[i].x);
    if (tick > 7) {  // after the first deltas have a velocity to predict with
      bytes += bytesOf(parts);
      entities += now.size();
    }
    base = record;
    clientBase = got;
  }
  const double perEntity = static_cast<double>(bytes) / static_cast<double>(entities);
  std::printf("steady crowd: %.3f bytes per entity per snapshot\n", perEntity);
  EXPECT_LT(perEntity, 1.5);
}

TEST(SnapshotCodec, BigSnapshotsSplitIntoPartsThatEachDecodeAlone) {
  const auto now = crowdAt(5, 3000);
  SnapshotRecord record;
  const auto parts = encodeSnapshot({5, now, {}}, nullptr, kMaxBodyBytes - 3, record);
  ASSERT_GT(parts.size(), 3u);
  std::size_t total = 0;
  for (const auto& p : parts) {
    EXPECT_LE(kHeaderBytes + partBodyBytes(p), kMaxDatagramBytes);
    EXPECT_EQ(p.part_count(), parts.size());
    SnapshotRecord alone;
    ASSERT_EQ(decodeSnapshotPart(p, nullptr, alone), "");  // lose the others, keep this one
    for (const auto& e : alone.entities) EXPECT_TRUE(e.id >= p.id_lo() && e.id <= p.id_hi());
    total += alone.entities.size();
  }
  EXPECT_EQ(total, now.size());
  EXPECT_EQ(decodeAll(parts, nullptr), record);
}

TEST(SnapshotCodec, EntitiesEnterLeaveAndWaitCleanly) {
  SnapshotRecord base;
  const auto first = crowdAt(1, 10);  // ids 0, 3, ..., 27
  encodeSnapshot({1, first, {}}, nullptr, kMaxBodyBytes - 3, base);
  // Tick 4: id 3 left, id 6 waits (not updated, not removed), id 100 is new.
  auto now = crowdAt(4, 10);
  now.erase(now.begin() + 1, now.begin() + 3);
  EntityState fresh;
  fresh.id = 100;
  fresh.archetype = 2;
  fresh.x = 640;
  fresh.y = -64;
  fresh.heading = 17;
  now.push_back(fresh);
  const std::uint32_t removed[] = {3};
  SnapshotRecord record;
  const auto parts = encodeSnapshot({4, now, removed}, &base, kMaxBodyBytes - 3, record);
  const SnapshotRecord got = decodeAll(parts, &base);
  EXPECT_EQ(got, record);
  EXPECT_EQ(got.find(3), nullptr);
  ASSERT_NE(got.find(6), nullptr);
  EXPECT_EQ(*got.find(6), *base.find(6));  // carried as it was
  ASSERT_NE(got.find(100), nullptr);
  EXPECT_EQ(got.find(100)->x, 640);
  EXPECT_EQ(got.find(100)->archetype, 2u);
  EXPECT_EQ(got.entities.size(), 10u);
}

TEST(SnapshotCodec, TeleportsEscapeAndStayExact) {
  SnapshotRecord base;
  auto first = crowdAt(1, 5);
  encodeSnapshot({1, first, {}}, nullptr, kMaxBodyBytes - 3, base);
  auto now = first;
  now[2].x += 64 * 500;  // 500 m jump
  now[3].heading = (now[3].heading + 128) & 255;
  SnapshotRecord record;
  const auto parts = encodeSnapshot({2, now, {}}, &base, kMaxBodyBytes - 3, record);
  EXPECT_GT(parts[0].escaped_size(), 0);
  const SnapshotRecord got = decodeAll(parts, &base);
  EXPECT_EQ(got, record);
  EXPECT_EQ(got.find(now[2].id)->x, now[2].x);
  EXPECT_EQ(got.find(now[3].id)->heading, now[3].heading);
  // The jump's velocity is kept at the limit (it fits the record's 16 bits), on both sides; the
  // next snapshot, the body standing still there, decodes exactly against it.
  EXPECT_EQ(record.find(now[2].id)->vx, kVelocityLimit);
  SnapshotRecord next;
  const auto after = encodeSnapshot({3, now, {}}, &record, kMaxBodyBytes - 3, next);
  EXPECT_EQ(decodeAll(after, &got), next);
  EXPECT_EQ(next.find(now[2].id)->x, now[2].x);
}

TEST(SnapshotCodec, MalformedPartsAreRefusedNotTrusted) {
  SnapshotRecord base;
  encodeSnapshot({1, crowdAt(1, 20), {}}, nullptr, kMaxBodyBytes - 3, base);
  SnapshotRecord record;
  const auto good = encodeSnapshot({3, crowdAt(3, 20), {}}, &base, kMaxBodyBytes - 3, record)[0];
  auto refused = [&](Snapshot p, const SnapshotRecord* b = nullptr) {
    SnapshotRecord out;
    return !decodeSnapshotPart(p, b, out).empty() && out.entities.empty();
  };
  SnapshotRecord okOut;
  ASSERT_EQ(decodeSnapshotPart(good, &base, okOut), "");
  EXPECT_TRUE(refused(good, nullptr));  // no baseline
  {
    auto p = good;
    p.add_residual(0);
    EXPECT_TRUE(refused(p, &base));  // more residuals than entities
  }
  {
    auto p = good;
    p.mutable_residual()->RemoveLast();
    EXPECT_TRUE(refused(p, &base));
  }
  {
    auto p = good;
    p.set_residual(0, 0x7fffffff);
    EXPECT_TRUE(refused(p, &base));  // not a valid word
  }
  {
    auto p = good;
    p.set_part(5);
    EXPECT_TRUE(refused(p, &base));
  }
  {
    auto p = good;
    p.set_all_kept(false);
    p.set_kept("\x01");
    EXPECT_TRUE(refused(p, &base));  // bitmask of the wrong length
  }
  {
    auto p = good;
    p.add_new_id(1);  // columns of different lengths
    EXPECT_TRUE(refused(p, &base));
  }
  {
    auto p = good;
    p.add_new_id(0);
    p.add_new_archetype(0);
    p.add_new_x(0);
    p.add_new_y(0);
    p.add_new_heading(0);  // id 0 is already in the baseline
    EXPECT_TRUE(refused(p, &base));
  }
  {
    auto p = good;
    p.add_new_id(1000);
    p.add_new_archetype(65536);  // past any ArchetypeIndex
    p.add_new_x(0);
    p.add_new_y(0);
    p.add_new_heading(0);
    EXPECT_TRUE(refused(p, &base));
    p.set_new_archetype(0, 65535);
    p.set_id_hi(2000);
    EXPECT_FALSE(refused(p, &base));
  }
  {
    auto p = good;
    p.add_removed(1000);  // not in the baseline
    EXPECT_TRUE(refused(p, &base));
  }
  {
    auto p = good;
    p.set_baseline_tick(3);  // baseline not older
    EXPECT_TRUE(refused(p, &base));
  }
}

TEST(SnapshotCodec, RandomMutationsNeverCrash) {
  SnapshotRecord base;
  encodeSnapshot({1, crowdAt(1, 60), {}}, nullptr, kMaxBodyBytes - 3, base);
  SnapshotRecord record;
  const auto good = encodeSnapshot({3, crowdAt(3, 60), {}}, &base, kMaxBodyBytes - 3, record)[0];
  std::string bytes = good.SerializeAsString();
  std::mt19937 rng(3);
  int decoded = 0;
  for (int i = 0; i < 5000; ++i) {
    std::string m = bytes;
    for (int k = 0; k < 1 + static_cast<int>(rng() % 4); ++k) m[rng() % m.size()] = static_cast<char>(rng());
    Snapshot p;
    if (!p.ParseFromString(m)) continue;
    SnapshotRecord out;
    if (decodeSnapshotPart(p, p.baseline_tick() == 0 ? nullptr : &base, out).empty()) ++decoded;
  }
  SUCCEED() << decoded << " mutated parts still decoded";
}

}  // namespace
}  // namespace steerd::wire

namespace steerd::wire {
namespace {

// A crowd walking up and down a ramp: heights change a little every tick.
std::vector<EntityState> climbingAt(std::uint32_t tick, std::uint32_t n) {
  auto out = crowdAt(tick, n);
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i].z =
        quantizeHeight(2.0f + 1.5f * std::sin(0.05f * static_cast<float>(tick) + static_cast<float>(i)));
  return out;
}

TEST(SnapshotCodecHeights, QuantisedToAThirtySecondOfAMetre) {
  EXPECT_EQ(quantizeHeight(1.0f), 32);
  EXPECT_EQ(quantizeHeight(-0.5f), -16);
  EXPECT_EQ(quantizeHeight(NAN), 0);
  EXPECT_EQ(quantizeHeight(1e6f), 32767);
  EXPECT_FLOAT_EQ(heightMetres(48), 1.5f);
}

TEST(SnapshotCodecHeights, HeightsRoundTripThroughNewAndUpdatedEntities) {
  SnapshotRecord base, clientBase;
  const auto first = climbingAt(1, 300);
  SnapshotContent c0{1, first, {}};
  c0.heights = true;
  const auto parts0 = encodeSnapshot(c0, nullptr, kMaxBodyBytes - 3, base);
  clientBase = decodeAll(parts0, nullptr);
  ASSERT_EQ(clientBase, base);
  for (std::size_t i = 0; i < first.size(); ++i) ASSERT_EQ(clientBase.entities[i].z, first[i].z);
  for (std::uint32_t tick = 3; tick < 60; tick += 2) {
    const auto now = climbingAt(tick, 300);
    SnapshotContent c{tick, now, {}};
    c.heights = true;
    SnapshotRecord record;
    const auto parts = encodeSnapshot(c, &base, kMaxBodyBytes - 3, record);
    const SnapshotRecord got = decodeAll(parts, &clientBase);
    ASSERT_EQ(got, record) << "tick " << tick;
    for (std::size_t i = 0; i < now.size(); ++i) ASSERT_EQ(got.entities[i].z, now[i].z) << "tick " << tick;
    base = record;
    clientBase = got;
  }
}

// A flat world pays nothing: no height columns, the same bytes as before heights existed.
TEST(SnapshotCodecHeights, AFlatWorldSendsNoHeightBytes) {
  const auto now = crowdAt(10, 200);
  SnapshotRecord a, b;
  const auto flat = encodeSnapshot({10, now, {}}, nullptr, kMaxBodyBytes - 3, a);
  SnapshotContent sloped{10, now, {}};
  sloped.heights = true;
  const auto withHeights = encodeSnapshot(sloped, nullptr, kMaxBodyBytes - 3, b);
  for (const auto& p : flat) {
    EXPECT_EQ(p.height_size(), 0);
    EXPECT_EQ(p.new_height_size(), 0);
  }
  // The same entities at height 0: a byte each, and the column's tag and length.
  EXPECT_GE(bytesOf(withHeights) - bytesOf(flat), 200u);
  EXPECT_LE(bytesOf(withHeights) - bytesOf(flat), 210u);
}

TEST(SnapshotCodecHeights, HeightColumnsOfTheWrongLengthOrRangeAreRefused) {
  SnapshotRecord base;
  const auto first = climbingAt(1, 20);  // the content's spans point into these
  SnapshotContent c0{1, first, {}};
  c0.heights = true;
  auto parts = encodeSnapshot(c0, nullptr, kMaxBodyBytes - 3, base);
  ASSERT_EQ(parts.size(), 1u);
  Snapshot shortNew = parts[0];
  shortNew.mutable_new_height()->RemoveLast();
  SnapshotRecord out;
  EXPECT_NE(decodeSnapshotPart(shortNew, nullptr, out), "");
  Snapshot tall = parts[0];
  tall.set_new_height(3, 40000);
  EXPECT_EQ(decodeSnapshotPart(tall, nullptr, out), "height out of range");

  const auto second = climbingAt(3, 20);
  SnapshotContent c1{3, second, {}};
  c1.heights = true;
  SnapshotRecord next;
  auto delta = encodeSnapshot(c1, &base, kMaxBodyBytes - 3, next);
  ASSERT_EQ(delta.size(), 1u);
  ASSERT_GT(delta[0].height_size(), 0);
  Snapshot fewer = delta[0];
  fewer.mutable_height()->RemoveLast();
  SnapshotRecord got;
  EXPECT_EQ(decodeSnapshotPart(fewer, &base, got), "heights for some kept entities only");
  Snapshot jump = delta[0];
  jump.set_height(0, 70000);
  EXPECT_EQ(decodeSnapshotPart(jump, &base, got), "height out of range");
  jump.set_height(0, 2147483647);  // added to a positive height, no 32-bit sum may hold it
  EXPECT_EQ(decodeSnapshotPart(jump, &base, got), "height out of range");
  // Without a baseline a height change has nothing to change.
  Snapshot orphan = parts[0];
  orphan.add_height(1);
  EXPECT_NE(decodeSnapshotPart(orphan, nullptr, got), "");
}

}  // namespace
}  // namespace steerd::wire

namespace steerd::wire {
namespace {

// PROTOCOL.md's heights example, byte for byte: two updated entities (the first 3 units higher,
// the second unchanged) and one new entity at 80 units.
TEST(SnapshotCodecHeights, TheProtocolDocumentsExampleBytes) {
  std::vector<EntityState> before(2);
  before[0].id = 1, before[0].z = 0;
  before[1].id = 2, before[1].z = 10;
  SnapshotRecord base;
  encodeSnapshot({1, before, {}, true}, nullptr, kMaxBodyBytes - 3, base);
  std::vector<EntityState> now = before;
  now[0].z = 3;
  EntityState fresh;
  fresh.id = 5;
  fresh.z = 80;
  now.push_back(fresh);
  SnapshotRecord next;
  const auto parts = encodeSnapshot({2, now, {}, true}, &base, kMaxBodyBytes - 3, next);
  ASSERT_EQ(parts.size(), 1u);
  const std::string bytes = parts[0].SerializeAsString();
  EXPECT_NE(bytes.find(std::string("\x9a\x01\x02\x06\x00", 5)), std::string::npos);
  EXPECT_NE(bytes.find(std::string("\xa2\x01\x02\xa0\x01", 5)), std::string::npos);
  SnapshotRecord got;
  ASSERT_EQ(decodeSnapshotPart(parts[0], &base, got), "");
  ASSERT_EQ(got.entities.size(), 3u);
  EXPECT_EQ(got.entities[0].z, 3);
  EXPECT_EQ(got.entities[1].z, 10);
  EXPECT_EQ(got.entities[2].z, 80);
}

}  // namespace
}  // namespace steerd::wire

namespace steerd::wire {
namespace {

// Without the height columns, both sides agree whatever the states hold: kept entities keep the
// baseline's height, new ones start at 0.
TEST(SnapshotCodecHeights, WithoutHeightsTheRecordsStillAgree) {
  auto first = climbingAt(1, 30);
  SnapshotRecord base;
  const auto parts0 = encodeSnapshot({1, first, {}, false}, nullptr, kMaxBodyBytes - 3, base);
  const SnapshotRecord client0 = decodeAll(parts0, nullptr);
  ASSERT_EQ(client0, base);
  for (const auto& e : client0.entities) EXPECT_EQ(e.z, 0);
  const auto second = climbingAt(3, 40);
  SnapshotRecord next;
  const auto parts1 = encodeSnapshot({3, second, {}, false}, &base, kMaxBodyBytes - 3, next);
  EXPECT_EQ(decodeAll(parts1, &client0), next);
}

}  // namespace
}  // namespace steerd::wire
