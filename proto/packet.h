// The datagram framing shared by server and clients: a 14-byte little-endian header, then one
// serialized wire::Packet whose body must be the kind the header's type byte names.
//
//   offset size field
//   0      4    protocol id, "STRD" (0x53545244)
//   4      1    protocol version (kProtocolVersion)
//   5      1    packet type: the Packet body's field number (1..kLastPacketType)
//   6      2    sequence: the sender's packet counter
//   8      2    ack: the newest sequence received from the peer
//   10     4    ack bits: bit i set = sequence (ack - 1 - i) was received too
//
// Anything that does not check out is dropped and counted by reason, never trusted.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "proto/wire.pb.h"

namespace steerd::wire {

inline constexpr std::uint32_t kProtocolId = 0x53545244;  // "STRD"
// 2: heading turn rate, three-byte residuals; 3: static scene (SceneRequest, Scene), interest radius
// in Accept, the debug stream (DebugSelect, DebugInfo); 4: the control channel (Control,
// ControlReply), ConnectResponse.no_body, Accept.control_allowed; 5: sealed sessions
// (proto/session_seal.h: public keys in ConnectResponse and Accept, every later datagram sealed);
// also 5, as they only add: a served replay's ReplayControl and ReplayStatus, Snapshot.epoch and
// Input.ack_epoch (any other server drops ReplayControl; older clients see no timeline); 6: connect
// tokens with keys (PrivateToken, ClientToken, the key proofs in ConnectResponse and Accept); also
// 6, as they only add: the scene's changes (SceneChangesRequest, SceneChanges, Snapshot.scene_version,
// the doors of Scene), which an older client never asks for and whose fields it skips.
inline constexpr std::uint8_t kProtocolVersion = 6;
inline constexpr std::size_t kHeaderBytes = 14;
// The highest packet type byte (Packet's last body field); 1..this are valid.
inline constexpr int kLastPacketType = Packet::kSceneChanges;
inline constexpr std::size_t kMaxDatagramBytes = 1200;
// What sealing adds to a datagram: an 8-byte sequence and a 16-byte tag (proto/session_seal.h).
inline constexpr std::size_t kSealOverheadBytes = 24;
// The handshake's kinds travel in the clear; every other kind is sealed.
inline bool sealedKind(int type) {
  return type != Packet::kConnectRequest && type != Packet::kChallenge && type != Packet::kConnectResponse &&
         type != Packet::kAccept && type != Packet::kRefuse;
}
// The largest body of a sealed kind (every kind a connection sends): what budgets are cut to.
inline constexpr std::size_t kMaxBodyBytes = kMaxDatagramBytes - kHeaderBytes - kSealOverheadBytes;
// Connect requests are padded to at least this size (anti-amplification: the Challenge is smaller).
inline constexpr std::size_t kMinConnectDatagramBytes = 256;
// Connect responses are padded to this size: the Accept they are answered with (its archetype
// names, which a scenario file makes long or many) is never larger than the datagram that asked
// for it, so a spoofed source cannot amplify through the server. Padding reaches a size to within
// a few bytes of varint length, so this stays that far under kMaxDatagramBytes; --check-scenario
// refuses archetype names whose Accept would not fit under it.
inline constexpr std::size_t kMinConnectResponseBytes = kMaxDatagramBytes - 8;
// The smallest datagram of a kind (its padding): 0 for kinds that carry none.
inline std::size_t minimumDatagramBytes(int type) {
  return type == Packet::kConnectRequest    ? kMinConnectDatagramBytes
         : type == Packet::kConnectResponse ? kMinConnectResponseBytes
                                            : 0;
}

struct PacketHeader {
  std::uint8_t type = 0;  // Packet::BodyCase value
  std::uint16_t sequence = 0;
  std::uint16_t ack = 0;
  std::uint32_t ackBits = 0;
};

// Why a datagram was dropped. Every value is a label of the server's drops metric.
enum class DropReason : std::uint8_t {
  kNone = 0,
  kTruncated,  // shorter than the header
  kOversized,  // longer than kMaxDatagramBytes
  kBadProtocolId,
  kBadVersion,
  kBadType,        // type byte names no packet kind
  kBadBody,        // protobuf body does not parse
  kTypeMismatch,   // body is not the kind the header names
  kUnpadded,       // connect request/response under its minimum (minimumDatagramBytes)
  kBadCookie,      // cookie forged, expired, or from another address
  kUnknownClient,  // a connected-only packet from an address with no connection
  kUnexpected,     // a packet kind the receiver never accepts (a server-only kind sent to it)
  kBadInput,       // input with NaN/inf, out of the world, or malformed
  kReplayed,       // input older than what was already applied
  kRateLimited,
  kImplausibleSequence,  // a sequence number far ahead of any seen (corrupted or forged)
  kDebugNotAllowed,      // a DebugSelect to a server started without --allow-debug
  kControlNotAllowed,    // a Control packet from a client without the control role
  kBadCommand,           // a Control packet with more commands than a datagram could hold
  kBadSeal,              // a sealed datagram that does not authenticate (forged, or another session's)
  kStaleInput,           // an Input whose newest input was applied already (overtaken on the way)
  kBadKeyProof,          // a ConnectResponse whose token is good but whose key proof is not (a sniffed token)
  kCount,
};
std::string_view dropReasonName(DropReason r);

struct Decoded {
  DropReason drop = DropReason::kNone;
  PacketHeader header;
  Packet packet;
};

// The framing checks alone (size, protocol id, version, type byte, connect padding): kNone when the
// header can be trusted as far as it goes.
DropReason checkFraming(std::span<const std::uint8_t> datagram);

// Parses one datagram (in the clear: a sealed one is opened first, SessionSeal::unprotect). `drop` says why
// it was refused; header and packet are valid only when it is kNone.
void decodeDatagram(std::span<const std::uint8_t> datagram, Decoded& out);

// Header + body into `out` (cleared first). Returns false, writing nothing, when the result would
// exceed kMaxDatagramBytes (less kSealOverheadBytes for a sealed kind, so it fits once sealed). `minSize`
// pads the body (connect packets) to reach that datagram size.
bool encodeDatagram(const PacketHeader& header, const Packet& packet, std::vector<std::uint8_t>& out,
                    std::size_t minSize = 0);
// The same bytes as encodeDatagram of a Packet holding `part` (and the same limit), without
// computing the part's size again: it takes the sizes ByteSizeLong left cached in `part`
// (partBodyBytes calls it, so ClientView::build leaves them so), and `part` must not have
// changed since.
bool encodeSnapshotDatagram(const PacketHeader& header, const Snapshot& part, std::vector<std::uint8_t>& out);

// Sequence numbers wrap: a is newer than b when it is less than half the range ahead.
inline bool sequenceNewer(std::uint16_t a, std::uint16_t b) {
  return a != b && static_cast<std::uint16_t>(a - b) < 0x8000;
}

enum class Arrival : std::uint8_t {
  kNew,         // recorded
  kDuplicate,   // seen before: drop it
  kTooOld,      // older than the 32 tracked: cannot tell, so it is processed but not recorded
  kImplausible  // more than kMaxSequenceJump ahead of the newest: not recorded (corruption or forgery)
};

// A gap between two datagrams of one connection bigger than this means something is wrong: at
// 30 to 100 datagrams a second it is 10 to 30 s of silence, longer than any timeout.
inline constexpr std::uint16_t kMaxSequenceJump = 1024;

// Packet-level acks: records received sequences and produces (ack, ack bits) for outgoing headers.
class AckTracker {
 public:
  Arrival received(std::uint16_t sequence);
  std::uint16_t ack() const { return ack_; }
  std::uint32_t ackBits() const { return bits_; }
  bool any() const { return any_; }

 private:
  std::uint16_t ack_ = 0;
  std::uint32_t bits_ = 0;
  bool any_ = false;
};

}  // namespace steerd::wire
