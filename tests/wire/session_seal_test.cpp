// Sealed sessions (proto/session_seal.h): the keys both ends derive agree, a sealed datagram opens
// only with its session's key and only once, and any changed byte is caught.
#include "proto/session_seal.h"

#include <gtest/gtest.h>

namespace steerd::wire {
namespace {

struct Pair {
  SessionSeal client, server;
};

Pair session() {
  const KeyPair c = KeyPair::generate();
  const KeyPair s = KeyPair::generate();
  const auto ck = clientSessionKeys(c, s.publicKey);
  const auto sk = serverSessionKeys(s, c.publicKey);
  EXPECT_TRUE(ck && sk);
  return {SessionSeal(*ck), SessionSeal(*sk)};
}

std::vector<std::uint8_t> inputDatagram(std::uint32_t sequence) {
  Packet p;
  auto* i = p.mutable_input()->add_inputs();
  i->set_sequence(sequence);
  i->set_x(12.5f);
  std::vector<std::uint8_t> d;
  EXPECT_TRUE(encodeDatagram({Packet::kInput, 0, 3, 7}, p, d));
  return d;
}

TEST(SessionSeal, BothEndsDeriveMatchingKeysPerDirection) {
  const KeyPair c = KeyPair::generate();
  const KeyPair s = KeyPair::generate();
  EXPECT_EQ(c.publicKey.size(), kPublicKeyBytes);
  const auto ck = clientSessionKeys(c, s.publicKey);
  const auto sk = serverSessionKeys(s, c.publicKey);
  ASSERT_TRUE(ck && sk);
  EXPECT_EQ(ck->transmit, sk->receive);
  EXPECT_EQ(ck->receive, sk->transmit);
  EXPECT_NE(ck->transmit, ck->receive);
  EXPECT_FALSE(clientSessionKeys(c, s.publicKey.substr(1)));
  EXPECT_FALSE(serverSessionKeys(s, std::string()));
}

TEST(SessionSeal, ASealedDatagramOpensToTheSameBytesWithTheSequenceInItsHeader) {
  Pair p = session();
  std::vector<std::uint8_t> plain = inputDatagram(5);
  std::vector<std::uint8_t> sealed, opened;
  ASSERT_TRUE(p.client.protect(plain, 0x1234'5678'9abcull, sealed));
  EXPECT_EQ(sealed.size(), plain.size() + kSealOverheadBytes);
  EXPECT_EQ(sealed[6], 0xbc);  // the header's sequence is the nonce's low 16 bits
  EXPECT_EQ(sealed[7], 0x9a);
  EXPECT_EQ(sealed[kHeaderBytes], 0xbc);  // then the whole sequence, little-endian
  EXPECT_EQ(sealed[kHeaderBytes + 5], 0x12);
  ASSERT_EQ(p.server.unprotect(sealed, opened), DropReason::kNone);
  plain[6] = 0xbc;
  plain[7] = 0x9a;
  EXPECT_EQ(opened, plain);
  EXPECT_EQ(p.server.lastOpened(), 0x1234'5678'9abcull);
  Decoded d;
  decodeDatagram(opened, d);
  ASSERT_EQ(d.drop, DropReason::kNone);
  EXPECT_EQ(d.packet.input().inputs(0).sequence(), 5u);
}

TEST(SessionSeal, AnyChangedByteIsABadSealAndDoesNotMoveTheWindow) {
  Pair p = session();
  std::vector<std::uint8_t> sealed, opened;
  ASSERT_TRUE(p.client.protect(inputDatagram(1), 40, sealed));
  // Header bytes past the framing (sequence, acks), the sequence, the ciphertext, the tag.
  for (std::size_t i = 6; i < sealed.size(); ++i) {
    std::vector<std::uint8_t> bad = sealed;
    bad[i] ^= 0x20;
    EXPECT_EQ(p.server.unprotect(bad, opened), DropReason::kBadSeal) << "byte " << i;
  }
  // None of those moved the window: the honest datagram still opens.
  EXPECT_EQ(p.server.unprotect(sealed, opened), DropReason::kNone);
  // Truncated to less than the seal's overhead.
  sealed.resize(kHeaderBytes + 10);
  EXPECT_EQ(p.server.unprotect(sealed, opened), DropReason::kBadSeal);
}

TEST(SessionSeal, AnotherSessionsKeyOrNoKeyOpensNothing) {
  Pair a = session();
  Pair b = session();
  std::vector<std::uint8_t> sealed, opened;
  ASSERT_TRUE(a.client.protect(inputDatagram(1), 0, sealed));
  EXPECT_EQ(b.server.unprotect(sealed, opened), DropReason::kBadSeal);
  SessionSeal none;
  EXPECT_EQ(none.unprotect(sealed, opened), DropReason::kBadSeal);
  EXPECT_FALSE(none.protect(inputDatagram(1), 0, sealed)) << "no keys: a sealed kind cannot go out";
  // The client's own sealing does not open with its own receive key (directions differ).
  EXPECT_EQ(a.client.unprotect(sealed, opened), DropReason::kBadSeal);
}

TEST(SessionSeal, EachSequenceOpensOnceInAnyOrderWithinTheWindow) {
  Pair p = session();
  std::vector<std::vector<std::uint8_t>> sent(300);
  for (std::uint64_t s = 0; s < sent.size(); ++s) ASSERT_TRUE(p.client.protect(inputDatagram(1), s, sent[s]));
  std::vector<std::uint8_t> opened;
  EXPECT_EQ(p.server.unprotect(sent[10], opened), DropReason::kNone);
  EXPECT_EQ(p.server.unprotect(sent[12], opened), DropReason::kNone);
  EXPECT_EQ(p.server.unprotect(sent[11], opened), DropReason::kNone) << "late but new";
  EXPECT_EQ(p.server.unprotect(sent[12], opened), DropReason::kReplayed);
  EXPECT_EQ(p.server.unprotect(sent[10], opened), DropReason::kReplayed);
  EXPECT_EQ(p.server.unprotect(sent[299], opened), DropReason::kNone);
  EXPECT_EQ(p.server.unprotect(sent[44], opened), DropReason::kNone) << "255 behind: in the window";
  EXPECT_EQ(p.server.unprotect(sent[43], opened), DropReason::kReplayed) << "256 behind: cannot tell";
}

// One datagram sealed 2^40 ahead (the key holder's bug, or a client poisoning its own session)
// would move the window so far that every honest datagram after it counts as replayed. With the
// header's limit set (the server's), it is implausible and the window stays where it was.
TEST(SessionSeal, ASequenceFarAheadDoesNotMoveTheWindowWhenJumpsAreLimited) {
  Pair p = session();
  p.server.refuseJumpsOver(kMaxSequenceJump);
  std::vector<std::uint8_t> sealed, opened;
  ASSERT_TRUE(p.client.protect(inputDatagram(1), 5, sealed));
  EXPECT_EQ(p.server.unprotect(sealed, opened), DropReason::kNone);
  ASSERT_TRUE(p.client.protect(inputDatagram(1), 6 + (std::uint64_t{1} << 40), sealed));
  EXPECT_EQ(p.server.unprotect(sealed, opened), DropReason::kImplausibleSequence);
  ASSERT_TRUE(p.client.protect(inputDatagram(1), 6 + kMaxSequenceJump, sealed));
  EXPECT_EQ(p.server.unprotect(sealed, opened), DropReason::kImplausibleSequence) << "1,025 ahead";
  ASSERT_TRUE(p.client.protect(inputDatagram(1), 5 + kMaxSequenceJump, sealed));
  EXPECT_EQ(p.server.unprotect(sealed, opened), DropReason::kNone) << "1,024 ahead: plausible";
  ASSERT_TRUE(p.client.protect(inputDatagram(1), 6, sealed));
  EXPECT_EQ(p.server.unprotect(sealed, opened), DropReason::kReplayed) << "a real jump does move it";
  // Without the limit (the default: the client's side), the jump is taken.
  Pair q = session();
  ASSERT_TRUE(q.client.protect(inputDatagram(1), 5, sealed));
  EXPECT_EQ(q.server.unprotect(sealed, opened), DropReason::kNone);
  ASSERT_TRUE(q.client.protect(inputDatagram(1), std::uint64_t{1} << 40, sealed));
  EXPECT_EQ(q.server.unprotect(sealed, opened), DropReason::kNone);
}

TEST(SessionSeal, HandshakeKindsPassInTheClearAndSealedKindsNever) {
  for (int type = Packet::kConnectRequest; type <= kLastPacketType; ++type) {
    const bool handshake = type == Packet::kConnectRequest || type == Packet::kChallenge ||
                           type == Packet::kConnectResponse || type == Packet::kAccept ||
                           type == Packet::kRefuse;
    EXPECT_EQ(sealedKind(type), !handshake) << type;
  }
  Packet p;
  p.mutable_refuse()->set_message("full");
  std::vector<std::uint8_t> plain, out, opened;
  ASSERT_TRUE(encodeDatagram({Packet::kRefuse, 0, 0, 0}, p, plain));
  SessionSeal none;
  ASSERT_TRUE(none.protect(plain, 9, out));
  EXPECT_EQ(out, plain);
  EXPECT_EQ(none.unprotect(out, opened), DropReason::kNone);
  EXPECT_EQ(opened, plain);
  // Framing is checked before anything else.
  out[0] = 'X';
  EXPECT_EQ(none.unprotect(out, opened), DropReason::kBadProtocolId);
}

// A Control packet whose body is `bytes` long (a spawn with a long archetype name).
Packet controlOfBodySize(std::size_t bytes) {
  Packet p;
  auto* name = p.mutable_control()->add_commands()->mutable_spawn()->mutable_archetype();
  for (std::size_t n = 0; p.ByteSizeLong() < bytes; ++n) name->assign(n, 'a');
  EXPECT_EQ(p.ByteSizeLong(), bytes);
  return p;
}

TEST(SessionSeal, ASealedKindFitsADatagramOnlyWithRoomForTheSeal) {
  std::vector<std::uint8_t> d, sealed;
  EXPECT_FALSE(encodeDatagram({Packet::kControl, 0, 0, 0}, controlOfBodySize(kMaxBodyBytes + 1), d));
  ASSERT_TRUE(encodeDatagram({Packet::kControl, 0, 0, 0}, controlOfBodySize(kMaxBodyBytes), d));
  Pair s = session();
  ASSERT_TRUE(s.client.protect(d, 0, sealed));
  EXPECT_EQ(sealed.size(), kMaxDatagramBytes);
}

}  // namespace
}  // namespace steerd::wire
