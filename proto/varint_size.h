// Bytes a protobuf varint takes, for the encoders that fill datagrams up to a byte budget
// (snapshots, the static scene) without serializing to find out.
#pragma once

#include <cstddef>
#include <cstdint>

namespace steerd::wire {

inline std::size_t varintBytes(std::uint64_t v) {
  std::size_t n = 1;
  while (v >= 128) {
    v >>= 7;
    ++n;
  }
  return n;
}

// A sint32/sint64 field's value: zigzag, then varint.
inline std::size_t zigzagBytes(std::int64_t v) {
  return varintBytes(static_cast<std::uint64_t>((v << 1) ^ (v >> 63)));
}

// Bytes a length-delimited field (an embedded message) of `bytes` takes: its tag (one byte for
// field numbers up to 15, two up to 2047), its length and its body.
inline std::size_t embeddedBytes(int fieldNumber, std::size_t bytes) {
  return varintBytes(static_cast<std::uint64_t>(fieldNumber) << 3) + varintBytes(bytes) + bytes;
}

}  // namespace steerd::wire
