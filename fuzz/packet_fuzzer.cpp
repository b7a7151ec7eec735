// libFuzzer target for everything a peer's datagram reaches before it is trusted: opening a
// sealed datagram (SessionSeal::unprotect, with a fixed session's keys), the framing and protobuf
// parse (decodeDatagram: what an opened datagram goes through), then the snapshot part decoder
// against a real baseline and the scene part decoder.
// Built with clang by scripts/fuzz.sh; CI runs it for a fixed number of inputs.
#include <google/protobuf/stubs/logging.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "proto/packet.h"
#include "proto/scene_codec.h"
#include "proto/session_seal.h"
#include "proto/snapshot_codec.h"

namespace {

// A baseline the fuzzed snapshot parts can refer to (tick 10, 50 entities).
const steerd::wire::SnapshotRecord& baseline() {
  static const steerd::wire::SnapshotRecord record = [] {
    std::vector<steerd::wire::EntityState> entities;
    for (std::uint32_t i = 0; i < 50; ++i) {
      steerd::wire::EntityState e;
      e.id = i * 2;
      e.archetype = i % 3;
      e.x = static_cast<std::int32_t>(i * 97);
      e.y = static_cast<std::int32_t>(i * 31);
      e.heading = i * 5 % 256;
      entities.push_back(e);
    }
    steerd::wire::SnapshotRecord r;
    steerd::wire::encodeSnapshot({10, entities, {}}, nullptr, steerd::wire::kMaxBodyBytes - 3, r);
    return r;
  }();
  return record;
}

steerd::wire::SessionSeal& session() {
  static steerd::wire::SessionSeal seal = [] {
    steerd::wire::SessionKeys keys;
    keys.receive.fill(7);
    keys.transmit.fill(9);
    return steerd::wire::SessionSeal(keys);
  }();
  return seal;
}

}  // namespace

// libprotobuf logs each malformed string it meets: quiet here (steerd sends them to debug).
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  google::protobuf::SetLogHandler(nullptr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> opened;
  (void)session().unprotect(std::span<const std::uint8_t>(data, size), opened);
  steerd::wire::Decoded decoded;
  steerd::wire::decodeDatagram(std::span<const std::uint8_t>(data, size), decoded);
  if (decoded.drop != steerd::wire::DropReason::kNone) return 0;
  if (decoded.packet.has_scene()) {
    steerd::wire::SceneGeometry scene;
    (void)steerd::wire::decodeScenePart(decoded.packet.scene(), scene);
    return 0;
  }
  if (!decoded.packet.has_snapshot()) return 0;
  const auto& part = decoded.packet.snapshot();
  steerd::wire::SnapshotRecord out;
  const steerd::wire::SnapshotRecord* base = part.baseline_tick() == 10 ? &baseline() : nullptr;
  if (part.baseline_tick() == 0 || base != nullptr) (void)steerd::wire::decodeSnapshotPart(part, base, out);
  return 0;
}
