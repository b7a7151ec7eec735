// Light snapshot reading (client/snapshot_header.h): the part header read without parsing the
// entity arrays is the one a full parse gives, for real encoded snapshots (whole, delta, split,
// with Snapshot.own and a replay epoch); garbage is refused with a reason and never crashes; and
// protobuf's rules (last value wins, unknown fields skipped, a oneof switched) are kept.
#include "client/snapshot_header.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "client/protobuf_log.h"
#include "proto/packet.h"
#include "proto/snapshot_codec.h"

namespace steerd::client {
namespace {

std::vector<wire::EntityState> crowdAt(std::uint32_t tick, std::uint32_t n) {
  std::vector<wire::EntityState> out;
  for (std::uint32_t i = 0; i < n; ++i) {
    const float angle = 0.3f * static_cast<float>(i) + 0.02f * static_cast<float>(tick);
    wire::EntityState e;
    e.id = 1 + i * 3;
    e.archetype = i % 4;
    e.x = wire::quantizePosition(5.0f + static_cast<float>(i % 25) * 3.0f + 0.1f * tick * std::cos(angle));
    e.y = wire::quantizePosition(5.0f + static_cast<float>(i / 25) * 3.0f + 0.1f * tick * std::sin(angle));
    e.heading = wire::quantizeHeading(std::cos(angle), std::sin(angle));
    out.push_back(e);
  }
  return out;
}

std::vector<std::uint8_t> datagramOf(const wire::Snapshot& part, std::uint16_t sequence = 4321) {
  wire::Packet p;
  *p.mutable_snapshot() = part;
  std::vector<std::uint8_t> bytes;
  EXPECT_TRUE(wire::encodeDatagram({wire::Packet::kSnapshot, sequence, 77, 0xA5A5A5A5u}, p, bytes));
  return bytes;
}

// The datagram's body (after the header) as bytes, made by hand.
std::vector<std::uint8_t> withBody(const std::vector<std::uint8_t>& body) {
  std::vector<std::uint8_t> d = datagramOf(wire::Snapshot{});
  d.resize(wire::kHeaderBytes);
  d.insert(d.end(), body.begin(), body.end());
  return d;
}

// What a full parse says of a datagram: kNone and the header of its Snapshot, or why not.
wire::DropReason fullParse(const std::vector<std::uint8_t>& d, wire::PacketHeader& header,
                           SnapshotPartHeader& part) {
  wire::Decoded decoded;
  wire::decodeDatagram(d, decoded);
  if (decoded.drop != wire::DropReason::kNone) return decoded.drop;
  header = decoded.header;
  part = snapshotPartHeader(decoded.packet.snapshot());
  return wire::DropReason::kNone;
}

void expectSameAsFullParse(const std::vector<std::uint8_t>& d) {
  wire::PacketHeader fullHeader, lightHeader;
  SnapshotPartHeader full, light;
  ASSERT_EQ(fullParse(d, fullHeader, full), wire::DropReason::kNone);
  ASSERT_EQ(readSnapshotDatagram(d, lightHeader, light), wire::DropReason::kNone);
  EXPECT_EQ(light, full);
  EXPECT_EQ(lightHeader.type, fullHeader.type);
  EXPECT_EQ(lightHeader.sequence, fullHeader.sequence);
  EXPECT_EQ(lightHeader.ack, fullHeader.ack);
  EXPECT_EQ(lightHeader.ackBits, fullHeader.ackBits);
}

TEST(SnapshotHeaderTest, RealEncodedSnapshotsReadAsAFullParseReadsThem) {
  // Whole, in many parts.
  wire::SnapshotRecord recordA;
  const auto worldA = crowdAt(100, 300);
  std::vector<wire::Snapshot> partsA = wire::encodeSnapshot({100, worldA, {}}, nullptr, 400, recordA);
  ASSERT_GE(partsA.size(), 3u);
  // Part 0 carries the player's own state (intent mode), as the server sends it.
  wire::OwnPlayer* own = partsA[0].mutable_own();
  own->set_last_input(4242);
  own->set_x(12.5f);
  own->set_y(-3.25f);
  own->set_vx(1.5f);
  own->set_vy(-0.5f);
  for (const wire::Snapshot& part : partsA) expectSameAsFullParse(datagramOf(part));
  {
    wire::PacketHeader h;
    SnapshotPartHeader light;
    ASSERT_EQ(readSnapshotDatagram(datagramOf(partsA[0]), h, light), wire::DropReason::kNone);
    EXPECT_EQ(h.sequence, 4321);
    EXPECT_EQ(light.tick, 100u);
    EXPECT_EQ(light.baselineTick, 0u);
    EXPECT_EQ(light.part, 0u);
    EXPECT_EQ(light.partCount, partsA.size());
    ASSERT_TRUE(light.own);
    EXPECT_EQ(*light.own, (SnapshotOwn{4242, 12.5f, -3.25f, 1.5f, -0.5f}));
    ASSERT_EQ(readSnapshotDatagram(datagramOf(partsA.back()), h, light), wire::DropReason::kNone);
    EXPECT_EQ(light.part, partsA.size() - 1);
    EXPECT_FALSE(light.own);
  }
  // A delta against A, moved, new and removed, in one part and in several; a replay's epoch.
  auto worldB = crowdAt(102, 300);
  for (std::uint32_t id = 2000; id < 2010; ++id) worldB.push_back(worldA[id % 7]), worldB.back().id = id;
  const std::vector<std::uint32_t> removed{4, 7, 10};
  for (const std::size_t budget : {std::size_t{1100}, std::size_t{300}}) {
    wire::SnapshotRecord recordB;
    std::vector<wire::Snapshot> partsB =
        wire::encodeSnapshot({102, worldB, removed}, &recordA, budget, recordB);
    for (wire::Snapshot& part : partsB) {
      ASSERT_EQ(part.baseline_tick(), 100u);
      part.set_epoch(3);
      expectSameAsFullParse(datagramOf(part));
      wire::PacketHeader h;
      SnapshotPartHeader light;
      ASSERT_EQ(readSnapshotDatagram(datagramOf(part), h, light), wire::DropReason::kNone);
      EXPECT_EQ(light.baselineTick, 100u);
      EXPECT_EQ(light.epoch, 3u);
      EXPECT_EQ(light.partCount, partsB.size());
    }
  }
}

TEST(SnapshotHeaderTest, ProtobufRulesAreKept) {
  // Fields in any order, unknown fields (varint, fixed, length-delimited, a group) skipped, the
  // last value of a field winning, a tick as a 10-byte varint truncated to 32 bits.
  const std::vector<std::uint8_t> snapshot = {
      0x20, 0x03,                                                        // part_count 3
      0x08, 0x05,                                                        // tick 5
      0x98, 0x01, 0x07,                                                  // field 19 (unknown) varint
      0x18, 0x01,                                                        // part 1
      0x42, 0x02, 0xFF, 0x01,                                            // kept (skipped)
      0xA9, 0x06, 1,    2,    3,    4,    5,    6,    7,    8,           // field 101 fixed64 (unknown)
      0xAB, 0x06, 0x08, 0x01, 0xAC, 0x06,                                // field 101 as a group (unknown)
      0x08, 0x86, 0x80, 0x80, 0x80, 0x90, 0x80, 0x80, 0x80, 0x80, 0x01,  // tick again: 6 + high bits
      0x10, 0x02,                                                        // baseline_tick 2
      0x0A, 0x01, 0x09,                                                  // tick as length-delimited: unknown
      0x90, 0x01, 0x09,                                                  // epoch 9
  };
  std::vector<std::uint8_t> body = {0x3A, static_cast<std::uint8_t>(snapshot.size())};
  body.insert(body.end(), snapshot.begin(), snapshot.end());
  expectSameAsFullParse(withBody(body));
  wire::PacketHeader h;
  SnapshotPartHeader light;
  ASSERT_EQ(readSnapshotDatagram(withBody(body), h, light), wire::DropReason::kNone);
  EXPECT_EQ(light.tick, 6u);
  EXPECT_EQ(light.part, 1u);
  EXPECT_EQ(light.partCount, 3u);
  EXPECT_EQ(light.baselineTick, 2u);
  EXPECT_EQ(light.epoch, 9u);

  // Two occurrences of Packet.snapshot merge: the second's tick wins, the first's part stays.
  const std::vector<std::uint8_t> merged = {0x3A, 0x04, 0x08, 0x05, 0x18, 0x01, 0x3A, 0x02, 0x08, 0x07};
  expectSameAsFullParse(withBody(merged));
  ASSERT_EQ(readSnapshotDatagram(withBody(merged), h, light), wire::DropReason::kNone);
  EXPECT_EQ(light.tick, 7u);
  EXPECT_EQ(light.part, 1u);

  // The oneof switched to a Ping after the Snapshot: not a snapshot, as a full parse says.
  const std::vector<std::uint8_t> switched = {0x3A, 0x02, 0x08, 0x05, 0x42, 0x02, 0x08, 0x01};
  wire::PacketHeader fh;
  SnapshotPartHeader full;
  EXPECT_EQ(fullParse(withBody(switched), fh, full), wire::DropReason::kTypeMismatch);
  EXPECT_EQ(readSnapshotDatagram(withBody(switched), h, light), wire::DropReason::kTypeMismatch);
  // ... and back to a Snapshot: a fresh one (the first's tick is gone).
  const std::vector<std::uint8_t> back = {0x3A, 0x02, 0x08, 0x05, 0x42, 0x00, 0x3A, 0x02, 0x18, 0x02};
  expectSameAsFullParse(withBody(back));
  ASSERT_EQ(readSnapshotDatagram(withBody(back), h, light), wire::DropReason::kNone);
  EXPECT_EQ(light.tick, 0u);
  EXPECT_EQ(light.part, 2u);

  // Snapshot.own twice: merged.
  const std::vector<std::uint8_t> owns = {0x3A, 0x0F, 0x8A, 0x01, 0x02, 0x08, 0x09,        // own.last_input 9
                                          0x8A, 0x01, 0x05, 0x15, 0x00, 0x00, 0x80, 0x3F,  // own.x 1.0
                                          0x08, 0x01};
  expectSameAsFullParse(withBody(owns));
  ASSERT_EQ(readSnapshotDatagram(withBody(owns), h, light), wire::DropReason::kNone);
  ASSERT_TRUE(light.own);
  EXPECT_EQ(light.own->lastInput, 9u);
  EXPECT_EQ(light.own->x, 1.0f);
}

TEST(SnapshotHeaderTest, GarbageIsRefusedWithAReason) {
  wire::SnapshotRecord record;
  const auto parts = wire::encodeSnapshot({100, crowdAt(100, 40), {}}, nullptr, 1100, record);
  const std::vector<std::uint8_t> good = datagramOf(parts[0]);
  wire::PacketHeader h;
  SnapshotPartHeader light;
  auto reason = [&](const std::vector<std::uint8_t>& d) { return readSnapshotDatagram(d, h, light); };

  // The framing, as decodeDatagram checks it.
  EXPECT_EQ(reason({1, 2, 3}), wire::DropReason::kTruncated);
  EXPECT_EQ(reason(std::vector<std::uint8_t>(1300, 0x53)), wire::DropReason::kOversized);
  EXPECT_EQ(reason(std::vector<std::uint8_t>(40, 0xAB)), wire::DropReason::kBadProtocolId);
  auto badVersion = good;
  badVersion[4] = 99;
  EXPECT_EQ(reason(badVersion), wire::DropReason::kBadVersion);
  auto notSnapshot = good;
  notSnapshot[5] = wire::Packet::kPong;
  EXPECT_EQ(reason(notSnapshot), wire::DropReason::kTypeMismatch);

  // The body: nothing, another kind, or protobuf that does not parse.
  const std::vector<std::vector<std::uint8_t>> badBodies = {
      {0x08},                    // a tag and no value
      {0x3A, 0x05, 0x08, 0x01},  // a length past the end
      {0x3A, 0x01, 0x08},        // a tick tag and no value inside the Snapshot
      {0x3A, 0x02, 0x08, 0xFF},  // ... cut short by the Snapshot's length
      {0x3A, 0x0B, 0x08, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},  // an 11-byte varint
      {0x3A, 0x02, 0x0E, 0x00},                                                        // wire type 6
      {0x3A, 0x02, 0x0F, 0x00},                                                        // wire type 7
      {0x3A, 0x01, 0x0C},                    // an end-group tag with no group
      {0x3A, 0x02, 0x00, 0x00},              // tag 0
      {0x3A, 0x02, 0x02, 0x00},              // field number 0
      {0x3A, 0x04, 0x8A, 0x01, 0x02, 0x15},  // Snapshot.own cut short
      {0x3A, 0x02, 0x08, 0x01, 0x00},        // a 0 byte after the Snapshot
      {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},
  };
  for (const auto& body : badBodies) {
    const auto d = withBody(body);
    EXPECT_EQ(reason(d), wire::DropReason::kBadBody) << testing::PrintToString(body);
    wire::PacketHeader fh;
    SnapshotPartHeader full;
    EXPECT_NE(fullParse(d, fh, full), wire::DropReason::kNone) << testing::PrintToString(body);
  }
  EXPECT_EQ(reason(withBody({})), wire::DropReason::kTypeMismatch);                        // no body at all
  EXPECT_EQ(reason(withBody({0x4A, 0x02, 0x08, 0x01})), wire::DropReason::kTypeMismatch);  // a Pong
  EXPECT_EQ(reason(withBody({0x38, 0x05})), wire::DropReason::kTypeMismatch);  // field 7 as a varint
  // A refusal leaves nothing read behind.
  EXPECT_EQ(light, SnapshotPartHeader{});

  // Inside the entity arrays nothing is looked at: garbage there passes here (the full path's
  // decodeSnapshotPart would refuse the part).
  wire::Snapshot bad = parts[0];
  bad.clear_new_x();
  EXPECT_EQ(reason(datagramOf(bad)), wire::DropReason::kNone);
  EXPECT_EQ(light.tick, 100u);
  wire::SnapshotRecord out;
  EXPECT_FALSE(wire::decodeSnapshotPart(bad, nullptr, out).empty());
}

// Bit flips, truncations and byte changes of real snapshot datagrams: never a crash; whatever a
// full parse takes, the light reader takes with the same header; whatever the light reader
// refuses, a full parse refuses too.
TEST(SnapshotHeaderTest, MutatedDatagramsAgreeWithAFullParse) {
  quietProtobufParseWarnings();  // a mutant may hold a string of invalid UTF-8: libprotobuf says so
  wire::SnapshotRecord recordA, recordB;
  auto partsA = wire::encodeSnapshot({500, crowdAt(500, 200), {}}, nullptr, 600, recordA);
  partsA[0].mutable_own()->set_last_input(17);
  partsA[0].mutable_own()->set_x(3.0f);
  const std::vector<std::uint32_t> removed{7, 10};
  const auto partsB = wire::encodeSnapshot({502, crowdAt(502, 200), removed}, &recordA, 300, recordB);
  std::vector<std::vector<std::uint8_t>> valid;
  for (const auto& part : partsA) valid.push_back(datagramOf(part));
  for (const auto& part : partsB) valid.push_back(datagramOf(part));
  std::mt19937 rng(2024);
  int agreedOk = 0, bothRefused = 0, onlyLight = 0;
  for (int i = 0; i < 20000; ++i) {
    std::vector<std::uint8_t> m = valid[rng() % valid.size()];
    const std::size_t bodyBytes = m.size() - wire::kHeaderBytes;
    switch (rng() % 4) {
      case 0:
        m[wire::kHeaderBytes + rng() % bodyBytes] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
        break;
      case 1:
        m.resize(wire::kHeaderBytes + rng() % bodyBytes);
        break;
      case 2:
        for (int k = 0; k < 3; ++k)
          m[wire::kHeaderBytes + rng() % bodyBytes] = static_cast<std::uint8_t>(rng());
        break;
      default:  // among the first bytes, where the header fields are
        m[wire::kHeaderBytes + rng() % std::min<std::size_t>(bodyBytes, 16)] =
            static_cast<std::uint8_t>(rng());
        break;
    }
    wire::PacketHeader fh, lh;
    SnapshotPartHeader full, light;
    const wire::DropReason f = fullParse(m, fh, full);
    const wire::DropReason l = readSnapshotDatagram(m, lh, light);
    if (f == wire::DropReason::kNone) {
      ASSERT_EQ(l, wire::DropReason::kNone) << "mutant " << i;
      ASSERT_EQ(light, full) << "mutant " << i;
      ++agreedOk;
    } else if (l != wire::DropReason::kNone) {
      ++bothRefused;
    } else {
      ++onlyLight;  // garbage inside an array the light reader skips
    }
  }
  EXPECT_GT(agreedOk, 100);
  EXPECT_GT(bothRefused, 100);
  RecordProperty("only_light", onlyLight);
}

}  // namespace
}  // namespace steerd::client
