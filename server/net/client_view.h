// What one client sees: its area of interest, the priority accumulator that shares its byte
// budget fairly, and the history of snapshots sent to it (the baselines its acks refer to).
// Lives on the simulation thread.
#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <vector>

#include "net/interest_grid.h"
#include "proto/snapshot_codec.h"
#include "world/agent_heights.h"
#include "world/world.h"

namespace steerd::net {

struct InterestConfig {
  float radius = 0.0f;             // m around the player; 0: the whole world
  std::size_t budgetBytes = 1600;  // per snapshot (kbps * 1000 / 8 / send rate)
  std::size_t partReserve = 0;     // bytes each part leaves free (for Snapshot.own in part 0)
  std::uint32_t epoch = 0;         // Snapshot.epoch of every part (0: none)
  std::uint32_t sceneVersion = 0;  // Snapshot.scene_version of every part (0: never changed)
};

// What a round of snapshots is built from: taken after a tick, read while the next one steps.
struct ViewFrame {
  std::span<const wire::EntityState> states;  // every agent's wire state, in id order (wireStatesOf)
  std::size_t indexCapacity = 0;              // World::indexCapacity() at that tick
  std::uint32_t tick = 0;
  const InterestGrid* grid = nullptr;  // over `states`, for an interest radius (null: a scan of all)
  bool heights = false;                // a level with heights: snapshots carry them (states' z)
};

// Where a client's player was at that tick (its area of interest's centre).
struct ViewCentre {
  bool hasPlayer = false;
  float x = 0.0f, y = 0.0f;
};
ViewCentre viewCentreOf(const World& world, AgentId player);

struct SnapshotStats {
  std::size_t entitiesSent = 0;     // entity updates in the snapshot (new or changed)
  std::size_t entitiesWaiting = 0;  // in the area of interest but over the budget this time
};

class ClientView {
 public:
  static constexpr std::size_t kHistory = 32;  // snapshots kept as possible baselines

  ClientView(std::uint32_t clientId, AgentId player) : clientId_(clientId), player_(player) {}

  std::uint32_t clientId() const { return clientId_; }
  AgentId player() const { return player_; }

  // The client says it holds snapshot `tick` whole. Older or unknown ticks are ignored; the
  // records before it are dropped (no later ack can name them).
  void acknowledge(std::uint32_t tick);
  std::uint32_t ackedTick() const { return acked_; }
  // Snapshot records held as possible baselines: from the acked one on, at most kHistory.
  std::size_t recordsKept() const { return sent_.size(); }
  // What the client holds after the newest snapshot (null before the first).
  const wire::SnapshotRecord* newestRecord() const { return sent_.empty() ? nullptr : &sent_.back(); }
  // The client starts afresh (a served replay's seek): the next snapshot is whole.
  void forgetBaselines() {
    acked_ = 0;
    sent_.clear();
  }

  // Chooses what to send at `tick` and encodes it against the acked baseline, in parts that each
  // fit a datagram. Records what the client will hold.
  // `states` holds every agent's wire state in id order (wireStatesOf), made once per tick for all clients.
  // Into `parts` (resized to the part count): a caller that keeps it from one snapshot to the next
  // reuses the parts' storage. Each part's sizes are left cached (ByteSizeLong), for
  // wire::encodeSnapshotDatagram.
  // `own` (intent mode: the player's body as the server has it) goes in part 0, and
  // interest.epoch in every part, before the parts are measured: the budget counts them.
  void build(const ViewFrame& frame, ViewCentre centre, const InterestConfig& interest, SnapshotStats& stats,
             std::vector<wire::Snapshot>& parts, const wire::OwnPlayer* own = nullptr);
  std::vector<wire::Snapshot> build(const ViewFrame& frame, ViewCentre centre, const InterestConfig& interest,
                                    SnapshotStats& stats) {
    std::vector<wire::Snapshot> parts;
    build(frame, centre, interest, stats, parts);
    return parts;
  }
  // The same, from the world as it is now.
  std::vector<wire::Snapshot> build(const World& world, std::span<const wire::EntityState> states,
                                    std::uint32_t tick, const InterestConfig& interest,
                                    SnapshotStats& stats) {
    return build({states, world.indexCapacity(), tick}, viewCentreOf(world, player_), interest, stats);
  }

  // Snapshots built, and how many of them came out over the byte budget anyway (only when even
  // the player's own body and the removals do not fit).
  std::uint64_t snapshotsBuilt() const { return snapshotsBuilt_; }
  std::uint64_t snapshotsOverBudget() const { return snapshotsOverBudget_; }
  // Encodings made for them: one a snapshot, more only when the first came out over the budget.
  std::uint64_t encodings() const { return encodings_; }

 private:
  const wire::SnapshotRecord* baseline() const;
  // The candidates whose keys_ (priority order keys) fit `budget`, highest first, as the greedy
  // walk in priority order would take them (exactly, but sorting only where the budget runs
  // out), appended to chosen_; `used` grows by their estimated cost.
  void chooseByPriority(std::size_t budget, std::size_t& used);
  static constexpr std::size_t kPriorityBuckets = 4096;
  // Priority keys: (priority float bits << 32 | ~candidate index), larger first. The player's own
  // body has all ones above its index: first, before any priority (a float's bits, even NaN's,
  // stay below 0xffffffff).
  static constexpr std::uint64_t kPlayerKeyHigh = 0xffffffff00000000ull;
  static constexpr bool isPlayerKey(std::uint64_t key) { return (key & kPlayerKeyHigh) == kPlayerKeyHigh; }
  static constexpr std::uint32_t indexOfKey(std::uint64_t key) { return ~static_cast<std::uint32_t>(key); }

  std::uint32_t clientId_;
  AgentId player_;
  std::uint32_t acked_ = 0;
  std::deque<wire::SnapshotRecord> sent_;  // oldest first
  // Records dropped from sent_, kept for their storage (a few: an ack may drop several at once,
  // and each holds room for every entity in view).
  std::vector<wire::SnapshotRecord> spares_;
  static constexpr std::size_t kSpares = 4;
  void retire(wire::SnapshotRecord&& record) {
    if (spares_.size() < kSpares) spares_.push_back(std::move(record));
  }
  std::vector<float> priority_;       // by agent index: grows while an entity waits
  std::vector<float> gain_;           // per candidate: this snapshot's priority gain
  std::vector<std::uint64_t> marks_;  // by state index (InterestGrid::gather)
  std::vector<wire::EntityState> candidates_;
  std::vector<wire::EntityState> updated_;  // the chosen candidates first (build()), sized for all
  std::vector<std::uint32_t> removed_;
  std::vector<std::uint64_t> keys_;                    // priority order keys (build())
  std::vector<std::uint64_t> byBucket_;                // keys_ by priority bucket, highest first
  std::vector<std::uint32_t> bucketEnd_, bucketCost_;  // per bucket (chooseByPriority)
  std::vector<std::uint32_t> chosen_;                  // candidates chosen (by priority bucket, or id)
  std::vector<std::uint8_t> selected_;                 // per candidate: in the encoding being tried
  std::vector<std::uint8_t> inBaseline_;               // per candidate
  std::uint64_t snapshotsBuilt_ = 0, snapshotsOverBudget_ = 0, encodings_ = 0;
  double costScale_ = 1.0;  // bytes actually sent / bytes estimated, smoothed over snapshots
};

// An agent's state as the wire carries it; its height from `heights` when given.
wire::EntityState entityStateOf(const World& world, std::uint32_t slot,
                                const AgentHeights* heights = nullptr);
// Every agent's, in id order (quantising headings costs an atan2 each, and sorting by id a few
// passes: once per tick, not per client). `heights`, updated for this tick, when the level has them.
void wireStatesOf(const World& world, std::vector<wire::EntityState>& out,
                  const AgentHeights* heights = nullptr);

}  // namespace steerd::net
