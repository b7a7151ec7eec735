// Sealed sessions: after the handshake every datagram of a connection is authenticated and
// encrypted, so a forged source address can neither speak for a client nor disconnect it, and a
// captured datagram cannot be played again.
//
// Keys: the client sends a fresh X25519 public key in its ConnectResponse, the server answers
// with its own in the Accept; each side derives a key per direction (libsodium crypto_kx).
// Sealing: ChaCha20-Poly1305 (IETF) with a 64-bit per-direction sequence as the nonce and the
// 14-byte header as additional data. The sealed datagram is
//
//   header (14, in the clear, authenticated) | sequence (8, little-endian) | ciphertext | tag (16)
//
// and the header's 16-bit sequence is that sequence's low bits. The handshake kinds
// (ConnectRequest, Challenge, ConnectResponse, Accept, Refuse) are never sealed; every other kind
// always is (sealedKind).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proto/packet.h"

namespace steerd::wire {

inline constexpr std::size_t kPublicKeyBytes = 32;
inline constexpr std::size_t kSessionKeyBytes = 32;
inline constexpr std::size_t kSealSequenceBytes = 8;
inline constexpr std::size_t kSealTagBytes = 16;
static_assert(kSealOverheadBytes == kSealSequenceBytes + kSealTagBytes);

using SessionKey = std::array<std::uint8_t, kSessionKeyBytes>;

// True for the packet kinds that travel sealed (every kind after the handshake).
bool sealedKind(int type);

// One side's key pair for the exchange (crypto_kx): a client makes one per connection attempt,
// the server one per session it admits.
struct KeyPair {
  std::string publicKey;  // kPublicKeyBytes
  std::array<std::uint8_t, 32> secretKey{};
  static KeyPair generate();  // throws std::runtime_error if libsodium cannot start
};

struct SessionKeys {
  SessionKey receive{};  // opens what the peer sealed
  SessionKey transmit{};
};

// The keys each side derives; nullopt when the peer's public key is the wrong size or unusable
// (a low-order point).
std::optional<SessionKeys> clientSessionKeys(const KeyPair& client, std::string_view serverPublicKey);
std::optional<SessionKeys> serverSessionKeys(const KeyPair& server, std::string_view clientPublicKey);

// Sequences already opened, for refusing replays: the newest and a window of kSize behind it.
// Anything older than the window counts as replayed (it cannot be told apart from one).
class ReplayWindow {
 public:
  static constexpr std::size_t kSize = 256;
  ReplayWindow() { seen_.fill(kEmpty); }
  bool replayed(std::uint64_t sequence) const;
  // More than `by` ahead of the newest opened (none opened yet: never).
  bool ahead(std::uint64_t sequence, std::uint64_t by) const {
    return any_ && sequence > newest_ && sequence - newest_ > by;
  }
  void accept(std::uint64_t sequence);

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  std::array<std::uint64_t, kSize> seen_{};
  std::uint64_t newest_ = 0;
  bool any_ = false;
};

// One end of a sealed session: its keys, what it has opened, and the sequence of the last datagram
// it opened.
class SessionSeal {
 public:
  SessionSeal() = default;
  explicit SessionSeal(const SessionKeys& keys) : keys_(keys), ready_(true) {}
  bool ready() const { return ready_; }

  // `plain` is a whole datagram (encodeDatagram's output). Sealed kinds are sealed under
  // `sequence`, whose low 16 bits are written into the header first; other kinds are copied.
  // False (nothing written) without keys for a sealed kind or when the result would not fit
  // kMaxDatagramBytes.
  bool protect(std::span<const std::uint8_t> plain, std::uint64_t sequence,
               std::vector<std::uint8_t>& out) const;
  // A received datagram, ready for decodeDatagram in `plain`: sealed kinds opened (kBadSeal when it
  // does not authenticate, kReplayed for a sequence already opened or older than the window),
  // other kinds copied. The framing is checked first (kTruncated, kOversized, ...).
  DropReason unprotect(std::span<const std::uint8_t> datagram, std::vector<std::uint8_t>& plain);
  std::uint64_t lastOpened() const { return lastOpened_; }
  // From now on a sequence more than `sequences` ahead of the newest opened is kImplausibleSequence,
  // before it is opened: one datagram (its sender's bug, or a client poisoning its own session)
  // cannot move the window so far that every datagram after it counts as replayed. The server
  // uses the header's limit (kMaxSequenceJump); by default there is none.
  void refuseJumpsOver(std::uint64_t sequences) { maxJump_ = sequences; }

 private:
  SessionKeys keys_{};
  bool ready_ = false;
  ReplayWindow window_;
  std::uint64_t maxJump_ = ~std::uint64_t{0};
  std::uint64_t lastOpened_ = 0;
};

}  // namespace steerd::wire
