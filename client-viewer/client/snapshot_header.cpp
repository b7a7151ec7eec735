#include "client/snapshot_header.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

namespace steerd::client {

namespace {

using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;

constexpr std::uint32_t fieldOf(std::uint32_t tag) { return tag >> 3; }
constexpr WireFormatLite::WireType wireTypeOf(std::uint32_t tag) {
  return static_cast<WireFormatLite::WireType>(tag & 7u);
}

// The bytes of a length-delimited field whose length has just been read: where they start in
// `data`, checked against what is left. False when they run past the end.
bool lengthDelimited(CodedInputStream& in, std::span<const std::uint8_t> data,
                     std::span<const std::uint8_t>& out) {
  int length = 0;
  if (!in.ReadVarintSizeAsInt(&length) || length < 0) return false;
  const auto at = static_cast<std::size_t>(in.CurrentPosition());
  if (at > data.size() || static_cast<std::size_t>(length) > data.size() - at) return false;
  out = data.subspan(at, static_cast<std::size_t>(length));
  return in.Skip(length);
}

// One Snapshot message (one occurrence of Packet.snapshot; a repeated occurrence merges into the
// same `out`, as protobuf merges them: the last value of each field wins, `own` merges).
bool readSnapshot(std::span<const std::uint8_t> data, SnapshotPartHeader& out, wire::OwnPlayer& own,
                  bool& hasOwn) {
  CodedInputStream in(data.data(), static_cast<int>(data.size()));
  for (;;) {
    const std::uint32_t tag = in.ReadTag();
    if (tag == 0) return in.ConsumedEntireMessage();  // the end, or a bad tag
    if (fieldOf(tag) == 0) return false;              // field number 0: protobuf refuses it
    std::uint32_t* scalar = nullptr;
    switch (fieldOf(tag)) {
      case wire::Snapshot::kTickFieldNumber:
        scalar = &out.tick;
        break;
      case wire::Snapshot::kBaselineTickFieldNumber:
        scalar = &out.baselineTick;
        break;
      case wire::Snapshot::kPartFieldNumber:
        scalar = &out.part;
        break;
      case wire::Snapshot::kPartCountFieldNumber:
        scalar = &out.partCount;
        break;
      case wire::Snapshot::kEpochFieldNumber:
        scalar = &out.epoch;
        break;
      case wire::Snapshot::kSceneVersionFieldNumber:
        scalar = &out.sceneVersion;
        break;
      case wire::Snapshot::kOwnFieldNumber:
        if (wireTypeOf(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
          std::span<const std::uint8_t> bytes;
          if (!lengthDelimited(in, data, bytes)) return false;
          wire::OwnPlayer piece;
          if (!piece.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return false;
          own.MergeFrom(piece);
          hasOwn = true;
          continue;
        }
        break;
      default:
        break;
    }
    if (scalar != nullptr && wireTypeOf(tag) == WireFormatLite::WIRETYPE_VARINT) {
      // uint32 fields: a longer varint is truncated to its low 32 bits, as protobuf does.
      if (!in.ReadVarint32(scalar)) return false;
      continue;
    }
    // The entity arrays, unknown fields, and known fields of another wire type (which protobuf
    // keeps as unknown): skipped by their length, their contents unread.
    if (!WireFormatLite::SkipField(&in, tag)) return false;
  }
}

}  // namespace

SnapshotPartHeader snapshotPartHeader(const wire::Snapshot& part) {
  SnapshotPartHeader h;
  h.tick = part.tick();
  h.baselineTick = part.baseline_tick();
  h.part = part.part();
  h.partCount = part.part_count();
  h.epoch = part.epoch();
  h.sceneVersion = part.scene_version();
  if (part.has_own()) {
    const wire::OwnPlayer& o = part.own();
    h.own = SnapshotOwn{o.last_input(), o.x(), o.y(), o.vx(), o.vy()};
  }
  return h;
}

wire::DropReason readSnapshotBody(std::span<const std::uint8_t> body, SnapshotPartHeader& out) {
  out = SnapshotPartHeader{};
  if (body.size() > static_cast<std::size_t>(wire::kMaxDatagramBytes)) return wire::DropReason::kOversized;
  CodedInputStream in(body.data(), static_cast<int>(body.size()));
  wire::OwnPlayer own;
  bool hasOwn = false;
  int bodyCase = 0;  // Packet's oneof: the last body field seen wins, as in a full parse
  for (;;) {
    const std::uint32_t tag = in.ReadTag();
    if (tag == 0) {
      if (!in.ConsumedEntireMessage()) return wire::DropReason::kBadBody;
      break;
    }
    const std::uint32_t field = fieldOf(tag);
    if (field == 0) return wire::DropReason::kBadBody;
    const bool message = wireTypeOf(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED;
    if (message && field == static_cast<std::uint32_t>(wire::Packet::kSnapshot)) {
      std::span<const std::uint8_t> bytes;
      if (!lengthDelimited(in, body, bytes)) return wire::DropReason::kBadBody;
      // A Snapshot after another body kind starts a fresh one (the oneof switched).
      if (bodyCase != wire::Packet::kSnapshot) {
        out = SnapshotPartHeader{};
        own.Clear();
        hasOwn = false;
      }
      if (!readSnapshot(bytes, out, own, hasOwn)) return wire::DropReason::kBadBody;
      bodyCase = wire::Packet::kSnapshot;
      continue;
    }
    if (message && field >= 1 && field <= static_cast<std::uint32_t>(wire::kLastPacketType)) {
      bodyCase = static_cast<int>(field);  // another kind of body: its contents unread
    }
    if (!WireFormatLite::SkipField(&in, tag)) return wire::DropReason::kBadBody;
  }
  if (bodyCase != wire::Packet::kSnapshot) {
    out = SnapshotPartHeader{};
    return wire::DropReason::kTypeMismatch;
  }
  if (hasOwn) out.own = SnapshotOwn{own.last_input(), own.x(), own.y(), own.vx(), own.vy()};
  return wire::DropReason::kNone;
}

wire::DropReason readSnapshotDatagram(std::span<const std::uint8_t> d, wire::PacketHeader& header,
                                      SnapshotPartHeader& out) {
  out = SnapshotPartHeader{};
  if (const wire::DropReason framing = wire::checkFraming(d); framing != wire::DropReason::kNone) {
    return framing;
  }
  header.type = d[5];
  header.sequence = static_cast<std::uint16_t>(d[6] | d[7] << 8);
  header.ack = static_cast<std::uint16_t>(d[8] | d[9] << 8);
  header.ackBits = std::uint32_t{d[10]} | std::uint32_t{d[11]} << 8 | std::uint32_t{d[12]} << 16 |
                   std::uint32_t{d[13]} << 24;
  if (header.type != wire::Packet::kSnapshot) return wire::DropReason::kTypeMismatch;
  return readSnapshotBody(d.subspan(wire::kHeaderBytes), out);
}

}  // namespace steerd::client
