#include "proto/session_seal.h"

#include <sodium.h>

#include <cstring>
#include <stdexcept>

namespace steerd::wire {

namespace {

static_assert(kPublicKeyBytes == crypto_kx_PUBLICKEYBYTES);
static_assert(kSessionKeyBytes == crypto_kx_SESSIONKEYBYTES);
static_assert(kSessionKeyBytes == crypto_aead_chacha20poly1305_ietf_KEYBYTES);
static_assert(kSealTagBytes == crypto_aead_chacha20poly1305_ietf_ABYTES);

// The 96-bit IETF nonce: the 64-bit sequence, little-endian, then zeros. Each direction has its
// own key, so both ends counting from 0 never reuse a (key, nonce) pair.
std::array<std::uint8_t, crypto_aead_chacha20poly1305_ietf_NPUBBYTES> nonceOf(std::uint64_t sequence) {
  std::array<std::uint8_t, crypto_aead_chacha20poly1305_ietf_NPUBBYTES> n{};
  for (std::size_t i = 0; i < kSealSequenceBytes; ++i) n[i] = static_cast<std::uint8_t>(sequence >> (8 * i));
  return n;
}

std::uint64_t readU64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < kSealSequenceBytes; ++i) v |= std::uint64_t{p[i]} << (8 * i);
  return v;
}

void startSodium() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
}

}  // namespace

KeyPair KeyPair::generate() {
  startSodium();
  KeyPair k;
  k.publicKey.assign(kPublicKeyBytes, '\0');
  crypto_kx_keypair(reinterpret_cast<unsigned char*>(k.publicKey.data()), k.secretKey.data());
  return k;
}

std::optional<SessionKeys> clientSessionKeys(const KeyPair& client, std::string_view serverPublicKey) {
  if (serverPublicKey.size() != kPublicKeyBytes || client.publicKey.size() != kPublicKeyBytes)
    return std::nullopt;
  SessionKeys keys;
  if (crypto_kx_client_session_keys(keys.receive.data(), keys.transmit.data(),
                                    reinterpret_cast<const unsigned char*>(client.publicKey.data()),
                                    client.secretKey.data(),
                                    reinterpret_cast<const unsigned char*>(serverPublicKey.data())) != 0) {
    return std::nullopt;
  }
  return keys;
}

std::optional<SessionKeys> serverSessionKeys(const KeyPair& server, std::string_view clientPublicKey) {
  if (clientPublicKey.size() != kPublicKeyBytes || server.publicKey.size() != kPublicKeyBytes)
    return std::nullopt;
  SessionKeys keys;
  if (crypto_kx_server_session_keys(keys.receive.data(), keys.transmit.data(),
                                    reinterpret_cast<const unsigned char*>(server.publicKey.data()),
                                    server.secretKey.data(),
                                    reinterpret_cast<const unsigned char*>(clientPublicKey.data())) != 0) {
    return std::nullopt;
  }
  return keys;
}

bool ReplayWindow::replayed(std::uint64_t sequence) const {
  if (any_ && sequence <= newest_ && newest_ - sequence >= kSize) return true;  // behind the window
  return seen_[sequence % kSize] == sequence;
}

void ReplayWindow::accept(std::uint64_t sequence) {
  seen_[sequence % kSize] = sequence;
  if (!any_ || sequence > newest_) newest_ = sequence;
  any_ = true;
}

bool SessionSeal::protect(std::span<const std::uint8_t> plain, std::uint64_t sequence,
                          std::vector<std::uint8_t>& out) const {
  if (plain.size() < kHeaderBytes) return false;
  if (!sealedKind(plain[5])) {
    out.assign(plain.begin(), plain.end());
    return true;
  }
  if (!ready_ || plain.size() + kSealOverheadBytes > kMaxDatagramBytes) return false;
  const std::size_t body = plain.size() - kHeaderBytes;
  out.resize(plain.size() + kSealOverheadBytes);
  std::memcpy(out.data(), plain.data(), kHeaderBytes);
  out[6] = static_cast<std::uint8_t>(sequence);
  out[7] = static_cast<std::uint8_t>(sequence >> 8);
  for (std::size_t i = 0; i < kSealSequenceBytes; ++i)
    out[kHeaderBytes + i] = static_cast<std::uint8_t>(sequence >> (8 * i));
  const auto nonce = nonceOf(sequence);
  unsigned long long sealedBytes = 0;
  crypto_aead_chacha20poly1305_ietf_encrypt(out.data() + kHeaderBytes + kSealSequenceBytes, &sealedBytes,
                                            plain.data() + kHeaderBytes, body, out.data(), kHeaderBytes,
                                            nullptr, nonce.data(), keys_.transmit.data());
  return sealedBytes == body + kSealTagBytes;
}

DropReason SessionSeal::unprotect(std::span<const std::uint8_t> d, std::vector<std::uint8_t>& plain) {
  if (const DropReason framing = checkFraming(d); framing != DropReason::kNone) return framing;
  if (!sealedKind(d[5])) {
    plain.assign(d.begin(), d.end());
    return DropReason::kNone;
  }
  if (!ready_ || d.size() < kHeaderBytes + kSealOverheadBytes) return DropReason::kBadSeal;
  const std::uint64_t sequence = readU64(d.data() + kHeaderBytes);
  // The header's sequence is authenticated with the rest; one that disagrees was never sealed so.
  if (static_cast<std::uint16_t>(d[6] | d[7] << 8) != static_cast<std::uint16_t>(sequence))
    return DropReason::kBadSeal;
  if (window_.replayed(sequence)) return DropReason::kReplayed;
  if (window_.ahead(sequence, maxJump_)) return DropReason::kImplausibleSequence;
  const std::size_t sealedBytes = d.size() - kHeaderBytes - kSealSequenceBytes;
  plain.resize(kHeaderBytes + sealedBytes - kSealTagBytes);
  std::memcpy(plain.data(), d.data(), kHeaderBytes);
  const auto nonce = nonceOf(sequence);
  unsigned long long opened = 0;
  if (crypto_aead_chacha20poly1305_ietf_decrypt(
          plain.data() + kHeaderBytes, &opened, nullptr, d.data() + kHeaderBytes + kSealSequenceBytes,
          sealedBytes, d.data(), kHeaderBytes, nonce.data(), keys_.receive.data()) != 0) {
    plain.clear();
    return DropReason::kBadSeal;
  }
  // Recorded only once it authenticated: a forged datagram must not move the window.
  window_.accept(sequence);
  lastOpened_ = sequence;
  return DropReason::kNone;
}

}  // namespace steerd::wire
