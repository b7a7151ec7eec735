#include "proto/packet.h"

#include <gtest/gtest.h>

#include <random>

#include "proto/snapshot_codec.h"

namespace steerd::wire {
namespace {

std::vector<std::uint8_t> pingDatagram(std::uint16_t seq = 7) {
  Packet p;
  p.mutable_ping()->set_client_time_us(123456);
  std::vector<std::uint8_t> out;
  EXPECT_TRUE(encodeDatagram({Packet::kPing, seq, 3, 0x80000001u}, p, out));
  return out;
}

DropReason dropOf(const std::vector<std::uint8_t>& d) {
  Decoded out;
  decodeDatagram(d, out);
  return out.drop;
}

TEST(Packet, HeaderIsFourteenLittleEndianBytes) {
  const auto d = pingDatagram(0x1234);
  ASSERT_GE(d.size(), kHeaderBytes);
  EXPECT_EQ(d[0], 0x44);  // "STRD" as a little-endian u32: D R T S
  EXPECT_EQ(d[3], 0x53);
  EXPECT_EQ(d[4], kProtocolVersion);
  EXPECT_EQ(d[5], Packet::kPing);
  EXPECT_EQ(d[6], 0x34);
  EXPECT_EQ(d[7], 0x12);
  EXPECT_EQ(d[8], 3);
  EXPECT_EQ(d[10], 0x01);
  EXPECT_EQ(d[13], 0x80);
}

TEST(Packet, RoundTrip) {
  Decoded out;
  decodeDatagram(pingDatagram(42), out);
  ASSERT_EQ(out.drop, DropReason::kNone);
  EXPECT_EQ(out.header.sequence, 42);
  EXPECT_EQ(out.header.ack, 3);
  EXPECT_EQ(out.header.ackBits, 0x80000001u);
  EXPECT_EQ(out.packet.ping().client_time_us(), 123456u);
}

TEST(Packet, EveryMalformedClassIsDroppedWithItsReason) {
  auto d = pingDatagram();
  EXPECT_EQ(dropOf({}), DropReason::kTruncated);
  EXPECT_EQ(dropOf(std::vector<std::uint8_t>(d.begin(), d.begin() + 13)), DropReason::kTruncated);
  EXPECT_EQ(dropOf(std::vector<std::uint8_t>(1201, 0)), DropReason::kOversized);
  auto badId = d;
  badId[0] ^= 1;
  EXPECT_EQ(dropOf(badId), DropReason::kBadProtocolId);
  auto badVersion = d;
  badVersion[4] = 99;
  EXPECT_EQ(dropOf(badVersion), DropReason::kBadVersion);
  auto badType = d;
  badType[5] = 0;
  EXPECT_EQ(dropOf(badType), DropReason::kBadType);
  badType[5] = 200;
  EXPECT_EQ(dropOf(badType), DropReason::kBadType);
  auto mismatch = d;
  mismatch[5] = Packet::kPong;  // says pong, body is a ping
  EXPECT_EQ(dropOf(mismatch), DropReason::kTypeMismatch);
  // Garbage body: a field tag with a length running past the end.
  auto garbage = d;
  garbage.resize(kHeaderBytes);
  garbage.insert(garbage.end(), {0x42, 0x7f, 0x01});
  EXPECT_EQ(dropOf(garbage), DropReason::kBadBody);
  // A varint that never ends (11 continuation bytes).
  auto badVarint = d;
  badVarint.resize(kHeaderBytes);
  badVarint.push_back(0x08);
  for (int i = 0; i < 11; ++i) badVarint.push_back(0xff);
  EXPECT_EQ(dropOf(badVarint), DropReason::kBadBody);
  // An empty body parses as a Packet with no body: not the kind the header names.
  auto empty = d;
  empty.resize(kHeaderBytes);
  EXPECT_EQ(dropOf(empty), DropReason::kTypeMismatch);
}

TEST(Packet, ConnectPacketsMustBePadded) {
  Packet p;
  p.mutable_connect_request();
  std::vector<std::uint8_t> d;
  ASSERT_TRUE(encodeDatagram({Packet::kConnectRequest, 0, 0, 0}, p, d));
  EXPECT_LT(d.size(), kMinConnectDatagramBytes);
  EXPECT_EQ(dropOf(d), DropReason::kUnpadded);
  ASSERT_TRUE(encodeDatagram({Packet::kConnectRequest, 0, 0, 0}, p, d, kMinConnectDatagramBytes));
  EXPECT_GE(d.size(), kMinConnectDatagramBytes);
  EXPECT_LE(d.size(), kMinConnectDatagramBytes + 4);
  EXPECT_EQ(dropOf(d), DropReason::kNone);
}

TEST(Packet, RefusesToEncodeOverTheLimit) {
  Packet p;
  p.mutable_refuse()->set_message(std::string(2000, 'x'));
  std::vector<std::uint8_t> d{1, 2, 3};
  EXPECT_FALSE(encodeDatagram({Packet::kRefuse, 0, 0, 0}, p, d));
  EXPECT_TRUE(d.empty());
}

// The server frames snapshot parts without measuring them again: the bytes must be the ones
// encodeDatagram makes of a Packet holding the part, also with what the session adds (own, epoch).
TEST(Packet, ASnapshotPartFramedFromItsCachedSizesIsTheSameDatagram) {
  std::mt19937 rng(3);
  std::vector<EntityState> now;
  for (std::uint32_t i = 0; i < 700; ++i) {
    EntityState e;
    e.id = 1 + i * (1 + rng() % 5);
    e.archetype = rng() % 6;
    e.x = static_cast<std::int32_t>(rng() % 200000) - 100000;
    e.y = static_cast<std::int32_t>(rng() % 200000) - 100000;
    e.heading = rng() % 256;
    now.push_back(e);
  }
  SnapshotRecord record;
  for (const std::size_t maxPart : {kMaxBodyBytes - 3, std::size_t{300}}) {
    std::vector<Snapshot> parts = encodeSnapshot({10, now, {}}, nullptr, maxPart, record);
    ASSERT_GT(parts.size(), 1u);
    for (std::size_t k = 0; k < parts.size(); ++k) {
      Snapshot& part = parts[k];
      if (k == 1) {
        part.mutable_own()->set_last_input(77);
        part.mutable_own()->set_x(1.5f);
        part.set_epoch(300);
      }
      partBodyBytes(part);  // caches the sizes, as ClientView::build does
      Packet packet;
      *packet.mutable_snapshot() = part;
      std::vector<std::uint8_t> plain, framed;
      const PacketHeader header{Packet::kSnapshot, static_cast<std::uint16_t>(k), 9, 0x5u};
      ASSERT_TRUE(encodeDatagram(header, packet, plain));
      ASSERT_TRUE(encodeSnapshotDatagram(header, part, framed));
      EXPECT_EQ(plain, framed) << "part " << k;
    }
  }
  // Over the limit: refused by both, nothing written.
  Snapshot big;
  big.set_tick(1);
  for (int i = 0; i < 2000; ++i) big.add_residual(300);
  big.ByteSizeLong();
  Packet packet;
  *packet.mutable_snapshot() = big;
  std::vector<std::uint8_t> plain, framed;
  EXPECT_FALSE(encodeDatagram({Packet::kSnapshot, 0, 0, 0}, packet, plain));
  EXPECT_FALSE(encodeSnapshotDatagram({Packet::kSnapshot, 0, 0, 0}, big, framed));
  EXPECT_TRUE(framed.empty());
}

TEST(Packet, RandomBytesNeverCrashAndAreMostlyDropped) {
  std::mt19937 rng(1);
  Decoded out;
  int accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    std::vector<std::uint8_t> d(rng() % 1400);
    for (auto& b : d) b = static_cast<std::uint8_t>(rng());
    // Half of them get a valid prefix so the body parser is exercised too.
    if (i % 2 == 0 && d.size() >= kHeaderBytes) {
      const auto good = pingDatagram();
      std::copy(good.begin(), good.begin() + 5, d.begin());
      d[5] = static_cast<std::uint8_t>(1 + rng() % 10);
    }
    decodeDatagram(d, out);
    accepted += out.drop == DropReason::kNone ? 1 : 0;
  }
  EXPECT_LT(accepted, 200);
}

TEST(AckTracker, TracksTheLast33Sequences) {
  AckTracker t;
  EXPECT_EQ(t.received(10), Arrival::kNew);
  EXPECT_EQ(t.received(10), Arrival::kDuplicate);
  EXPECT_EQ(t.received(12), Arrival::kNew);
  EXPECT_EQ(t.ack(), 12);
  EXPECT_EQ(t.ackBits(), 0b10u);             // 11 missing, 10 received
  EXPECT_EQ(t.received(11), Arrival::kNew);  // late, reordered
  EXPECT_EQ(t.ackBits(), 0b11u);
  EXPECT_EQ(t.received(11), Arrival::kDuplicate);
  EXPECT_EQ(t.received(45), Arrival::kNew);  // 33 ahead: 12 becomes bit 32, out of the window
  EXPECT_EQ(t.ackBits(), 0u);
  EXPECT_EQ(t.received(12), Arrival::kTooOld);  // cannot tell: processed, not recorded
}

TEST(AckTracker, AnImplausibleJumpDoesNotMoveTheWindow) {
  AckTracker t;
  t.received(100);
  // A corrupted header: 30,000 ahead. Refused, and the real sequence carries on as before.
  EXPECT_EQ(t.received(30100), Arrival::kImplausible);
  EXPECT_EQ(t.ack(), 100);
  EXPECT_EQ(t.received(101), Arrival::kNew);
  EXPECT_EQ(t.received(static_cast<std::uint16_t>(101 + kMaxSequenceJump)),
            Arrival::kNew);  // a long gap, still plausible
}

TEST(AckTracker, WrapsAround) {
  AckTracker t;
  t.received(65535);
  EXPECT_EQ(t.received(1), Arrival::kNew);
  EXPECT_EQ(t.ack(), 1);
  EXPECT_EQ(t.ackBits(), 0b10u);  // 0 missing, 65535 received
  EXPECT_TRUE(sequenceNewer(1, 65535));
  EXPECT_FALSE(sequenceNewer(65535, 1));
}

}  // namespace
}  // namespace steerd::wire
