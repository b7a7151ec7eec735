#include "proto/packet.h"

#include <cstring>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

namespace steerd::wire {

namespace {

std::uint32_t readU32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
         std::uint32_t{p[3]} << 24;
}
std::uint16_t readU16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] | p[1] << 8); }
void writeU32(std::uint8_t* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
void writeU16(std::uint8_t* p, std::uint16_t v) {
  p[0] = static_cast<std::uint8_t>(v);
  p[1] = static_cast<std::uint8_t>(v >> 8);
}

bool fitsDatagram(const PacketHeader& header, std::size_t body) {
  const std::size_t limit = kMaxDatagramBytes - (sealedKind(header.type) ? kSealOverheadBytes : 0);
  return kHeaderBytes + body <= limit;
}

// Sizes `out` to the header and a body of `body` bytes, and writes the header.
void startDatagram(const PacketHeader& header, std::size_t body, std::vector<std::uint8_t>& out) {
  out.resize(kHeaderBytes + body);
  writeU32(out.data(), kProtocolId);
  out[4] = kProtocolVersion;
  out[5] = header.type;
  writeU16(out.data() + 6, header.sequence);
  writeU16(out.data() + 8, header.ack);
  writeU32(out.data() + 10, header.ackBits);
}

}  // namespace

std::string_view dropReasonName(DropReason r) {
  switch (r) {
    case DropReason::kNone:
      return "none";
    case DropReason::kTruncated:
      return "truncated";
    case DropReason::kOversized:
      return "oversized";
    case DropReason::kBadProtocolId:
      return "bad_protocol_id";
    case DropReason::kBadVersion:
      return "bad_version";
    case DropReason::kBadType:
      return "bad_type";
    case DropReason::kBadBody:
      return "bad_body";
    case DropReason::kTypeMismatch:
      return "type_mismatch";
    case DropReason::kUnpadded:
      return "unpadded_connect";
    case DropReason::kBadCookie:
      return "bad_cookie";
    case DropReason::kUnknownClient:
      return "unknown_client";
    case DropReason::kUnexpected:
      return "unexpected_kind";
    case DropReason::kBadInput:
      return "bad_input";
    case DropReason::kReplayed:
      return "replayed";
    case DropReason::kRateLimited:
      return "rate_limited";
    case DropReason::kImplausibleSequence:
      return "implausible_sequence";
    case DropReason::kDebugNotAllowed:
      return "debug_not_allowed";
    case DropReason::kControlNotAllowed:
      return "control_not_allowed";
    case DropReason::kBadCommand:
      return "bad_command";
    case DropReason::kBadSeal:
      return "bad_seal";
    case DropReason::kStaleInput:
      return "stale_input";
    case DropReason::kBadKeyProof:
      return "bad_key_proof";
    case DropReason::kCount:
      break;
  }
  return "unknown";
}

DropReason checkFraming(std::span<const std::uint8_t> d) {
  if (d.size() < kHeaderBytes) return DropReason::kTruncated;
  if (d.size() > kMaxDatagramBytes) return DropReason::kOversized;
  if (readU32(d.data()) != kProtocolId) return DropReason::kBadProtocolId;
  if (d[4] != kProtocolVersion) return DropReason::kBadVersion;
  const std::uint8_t type = d[5];
  if (type < Packet::kConnectRequest || type > kLastPacketType) return DropReason::kBadType;
  if (d.size() < minimumDatagramBytes(type)) return DropReason::kUnpadded;
  return DropReason::kNone;
}

void decodeDatagram(std::span<const std::uint8_t> d, Decoded& out) {
  out.drop = checkFraming(d);
  if (out.drop != DropReason::kNone) return;
  const std::uint8_t type = d[5];
  out.header.type = type;
  out.header.sequence = readU16(d.data() + 6);
  out.header.ack = readU16(d.data() + 8);
  out.header.ackBits = readU32(d.data() + 10);
  out.packet.Clear();
  if (!out.packet.ParseFromArray(d.data() + kHeaderBytes, static_cast<int>(d.size() - kHeaderBytes))) {
    out.drop = DropReason::kBadBody;
    return;
  }
  if (static_cast<int>(out.packet.body_case()) != type) out.drop = DropReason::kTypeMismatch;
}

bool encodeDatagram(const PacketHeader& header, const Packet& packet, std::vector<std::uint8_t>& out,
                    std::size_t minSize) {
  out.clear();
  const std::size_t body = packet.ByteSizeLong();
  if (!fitsDatagram(header, body)) return false;
  startDatagram(header, body, out);
  packet.SerializeWithCachedSizesToArray(out.data() + kHeaderBytes);
  if (out.size() < minSize) {
    // Padding goes inside the body (the `padding` field) so the body still parses: re-encode.
    Packet padded = packet;
    std::string* pad = padded.has_connect_request()    ? padded.mutable_connect_request()->mutable_padding()
                       : padded.has_connect_response() ? padded.mutable_connect_response()->mutable_padding()
                                                       : nullptr;
    if (pad == nullptr) return false;  // only connect packets carry padding
    // The field's tag and length prefix take a few bytes too: grow the zeros until it reaches minSize.
    std::size_t paddedBody = 0;
    for (std::size_t zeros = minSize - out.size(); zeros < kMaxDatagramBytes; ++zeros) {
      pad->assign(zeros, '\0');
      paddedBody = padded.ByteSizeLong();
      if (kHeaderBytes + paddedBody >= minSize) break;
    }
    if (kHeaderBytes + paddedBody > kMaxDatagramBytes) return false;
    out.resize(kHeaderBytes + paddedBody);
    padded.SerializeWithCachedSizesToArray(out.data() + kHeaderBytes);
  }
  return true;
}

bool encodeSnapshotDatagram(const PacketHeader& header, const Snapshot& part,
                            std::vector<std::uint8_t>& out) {
  out.clear();
  // As protobuf writes Packet's `snapshot` (its only field set): tag, length, the part.
  using google::protobuf::internal::WireFormatLite;
  using google::protobuf::io::CodedOutputStream;
  const std::uint32_t tag =
      WireFormatLite::MakeTag(Packet::kSnapshotFieldNumber, WireFormatLite::WIRETYPE_LENGTH_DELIMITED);
  const auto size = static_cast<std::uint32_t>(part.GetCachedSize());
  const std::size_t body =
      CodedOutputStream::VarintSize32(tag) + CodedOutputStream::VarintSize32(size) + size;
  if (!fitsDatagram(header, body)) return false;
  startDatagram(header, body, out);
  std::uint8_t* p = CodedOutputStream::WriteTagToArray(tag, out.data() + kHeaderBytes);
  p = CodedOutputStream::WriteVarint32ToArray(size, p);
  part.SerializeWithCachedSizesToArray(p);
  return true;
}

Arrival AckTracker::received(std::uint16_t sequence) {
  if (!any_) {
    any_ = true;
    ack_ = sequence;
    bits_ = 0;
    return Arrival::kNew;
  }
  if (sequenceNewer(sequence, ack_)) {
    const std::uint16_t shift = static_cast<std::uint16_t>(sequence - ack_);
    if (shift > kMaxSequenceJump) return Arrival::kImplausible;
    if (shift > 32) {
      bits_ = 0;  // the old ack is out of the window too
    } else if (shift == 32) {
      bits_ = 1u << 31;
    } else {
      bits_ = (bits_ << shift) | (1u << (shift - 1));
    }
    ack_ = sequence;
    return Arrival::kNew;
  }
  if (sequence == ack_) return Arrival::kDuplicate;
  const std::uint16_t back = static_cast<std::uint16_t>(ack_ - sequence);
  if (back > 32) return Arrival::kTooOld;
  const std::uint32_t bit = 1u << (back - 1);
  if (bits_ & bit) return Arrival::kDuplicate;
  bits_ |= bit;
  return Arrival::kNew;
}

}  // namespace steerd::wire
