// Light snapshot reading (ClientOptions::decodeEntities = false): of a snapshot datagram, only what
// a client needs to acknowledge it, without parsing the entity arrays into protobuf objects.
//
// The Packet body (proto/packet.h: a 14-byte header, then one serialized wire::Packet) is walked
// field by field with google::protobuf::io::CodedInputStream: the Snapshot's tick, baseline_tick,
// part, part_count and epoch (varints) and its `own` (a small message, parsed) are read; every
// other field (the entity arrays: kept, removed, residual, escaped, new_*) is skipped by its length
// without looking inside. What is read is checked as a full parse checks it: a datagram a full
// parse takes (decodeDatagram, a Snapshot body) gives the same fields here; one whose framing,
// tags, varints or lengths do not hold is refused with the DropReason a full parse would give
// (kBadBody, kTypeMismatch, ...). What is skipped is not checked: garbage inside an entity array
// passes here, where decodeSnapshotPart would refuse the part.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "proto/packet.h"

namespace steerd::client {

// Snapshot.own: the server's exact state of this client's player (intent mode).
struct SnapshotOwn {
  std::uint32_t lastInput = 0;
  float x = 0, y = 0, vx = 0, vy = 0;
  bool operator==(const SnapshotOwn&) const = default;
};

// The part bookkeeping fields of one snapshot part: what both the full and the light paths hand
// to the client's part bookkeeping.
struct SnapshotPartHeader {
  std::uint32_t tick = 0;
  std::uint32_t baselineTick = 0;  // 0: no baseline
  std::uint32_t part = 0;
  std::uint32_t partCount = 0;
  std::uint32_t epoch = 0;         // a served replay's; 0 elsewhere
  std::uint32_t sceneVersion = 0;  // Snapshot.scene_version (0: the static scene as sent)
  std::optional<SnapshotOwn> own;  // present when the part carries Snapshot.own
  bool operator==(const SnapshotPartHeader&) const = default;
};

// The header of a fully parsed part.
SnapshotPartHeader snapshotPartHeader(const wire::Snapshot& part);

// A Packet body (the bytes after the datagram header) whose body should be a Snapshot: its part
// header into `out`. kNone on success; kBadBody when the protobuf does not parse as far as it is
// read (a bad tag, varint or length, a truncated field, a Snapshot.own that does not parse);
// kTypeMismatch when the Packet's body is not a Snapshot.
wire::DropReason readSnapshotBody(std::span<const std::uint8_t> body, SnapshotPartHeader& out);

// A whole datagram in the clear (opened already: SessionSeal::unprotect): the framing checks of
// decodeDatagram, its header into `header`, then readSnapshotBody. kTypeMismatch when the header's
// type byte is not kSnapshot.
wire::DropReason readSnapshotDatagram(std::span<const std::uint8_t> datagram, wire::PacketHeader& header,
                                      SnapshotPartHeader& out);

}  // namespace steerd::client
