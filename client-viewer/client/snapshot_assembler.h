// Snapshot parts into whole snapshots (docs/PROTOCOL.md, "Snapshots"): each part checked (counts,
// epoch, duplicates, stale ticks, the baseline it was coded against), decoded against that
// baseline, held until its tick's other parts come, and the whole record kept in a ring of
// possible baselines; the newest whole tick is what inputs acknowledge. A served replay's seek
// starts a new epoch, and everything held before it is dropped. Time is a parameter; no socket.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "client/client_options.h"
#include "client/snapshot_header.h"
#include "proto/snapshot_codec.h"

namespace steerd::client {

class SnapshotAssembler {
 public:
  static constexpr std::uint32_t kMaxParts = 256;      // a snapshot of more parts is malformed
  static constexpr std::size_t kMaxPendingTicks = 16;  // incomplete ticks kept waiting for parts

  // `baselineRing`: whole snapshots kept as possible baselines (at least 1).
  explicit SnapshotAssembler(std::size_t baselineRing);

  enum class Admission : std::uint8_t {
    kRefused,          // malformed, or of an earlier epoch: counted, nothing else to do
    kAdmitted,         // go on with add()
    kAdmittedNewEpoch  // ... after everything of the earlier epoch was dropped here
  };
  // The first look at a part: its numbers, and its epoch.
  Admission admit(const SnapshotPartHeader& part);

  struct Outcome {
    enum Kind : std::uint8_t { kDropped, kPartial, kComplete } kind = kDropped;
    // kPartial: the part decoded (its entities); kComplete: the whole snapshot, as kept in the ring.
    // Valid until the next call.
    const wire::SnapshotRecord* record = nullptr;
    std::string error;  // why a part was malformed, when the decoder said
  };
  // An admitted part. `full`: the parsed part, decoded against its baseline; null for a light part
  // (no entities: an empty record stands for it). Both are checked, counted and assembled alike.
  // `tickRate` (ticks per second) times the snapshots' interarrival jitter.
  Outcome add(const SnapshotPartHeader& part, const wire::Snapshot* full, TimePoint now, double tickRate);

  // Drops everything held (a served replay's seek, seen in its status first).
  void startEpoch(std::uint32_t epoch);
  // A part refused for numbers found elsewhere (a non-finite Snapshot.own).
  void countMalformed() { ++counters_.malformed; }

  std::uint32_t epoch() const { return epoch_; }
  std::uint32_t newestComplete() const { return newestComplete_; }  // 0: none yet
  const wire::SnapshotRecord* record(std::uint32_t tick) const;
  const wire::SnapshotRecord* latest() const { return record(newestComplete_); }
  double jitterMs() const { return jitterMs_; }  // RFC 3550 interarrival jitter of whole ones

  struct Counters {
    std::uint64_t parts = 0, complete = 0, duplicate = 0, stale = 0, baselineMissing = 0, malformed = 0,
                  otherEpoch = 0, abandoned = 0;
  };
  const Counters& counters() const { return counters_; }

 private:
  struct Pending {
    std::uint32_t partCount = 0;
    std::uint32_t received = 0;
    std::vector<bool> have;
    std::vector<wire::SnapshotRecord> parts;  // by part index
  };
  // Parts of ticks older than this are of no use: their baselines and their records would fall out
  // of the ring at once.
  std::uint32_t staleBefore() const;
  const wire::SnapshotRecord& complete(wire::SnapshotRecord whole, TimePoint now, double tickRate);
  void prunePending();

  std::size_t ringSize_;
  std::deque<wire::SnapshotRecord> ring_;  // whole snapshots, ascending by tick
  std::map<std::uint32_t, Pending> pending_;
  wire::SnapshotRecord dropped_;  // a whole one too old for a full ring, for its outcome
  std::uint32_t newestComplete_ = 0;
  std::uint32_t epoch_ = 0;
  TimePoint lastArrival_{};
  double jitterMs_ = 0.0;
  Counters counters_;
};

}  // namespace steerd::client
