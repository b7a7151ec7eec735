// Entities lost from a player's view while inside its area of interest.
//
// The server sends each client the entities within the interest radius of its player and tells it
// to drop those that left the area (or the world) in `removed`; an entity it holds but had no room
// for is carried, not removed. So, from one complete snapshot to the next newer one, an entity
// that goes from the client's record while it was well inside the area (predicted within
// `inside` x the radius of the player both at the old tick and at the new one) should not have
// gone at all, unless it was despawned. An id never names another agent (a departed agent's index
// comes back with a new generation, so a new id), so one that comes back later was
// lost, not despawned: that is `lost`. One that does not come back within `comeBackSeconds` of
// server time was despawned (by the control API) or lost for good: `vanished` (in a world nobody
// despawns from, a fault too).
//
// Only NPCs are judged: a player's body goes where its client says (its first input places it
// anywhere in the world) and is despawned when the player leaves.
//
// Those gone within `joiningSeconds` of the first snapshot observed are counted apart as well: a
// new client's first snapshots are whole (nothing acknowledged yet), and a whole snapshot holds
// only what fits the byte budget, so a crowded area blinks while a client joins.
//
// Cheap: one merge walk over the previous and the new record (both sorted by id) per snapshot,
// a copy of the record, and a binary search per entity gone.
#pragma once

#include <cstdint>
#include <vector>

#include "proto/snapshot_codec.h"

namespace steerd::loadtest {

struct ViewLossConfig {
  float interestRadius = 0.0f;   // m, from Accept; 0: the whole world is in view
  float inside = 0.8f;           // counted only within this fraction of the radius, before and after
  double tickRate = 30.0;        // server ticks per second
  double comeBackSeconds = 5.0;  // gone longer than this (server time): vanished rather than lost
  double maxGapSeconds = 1.0;   // snapshots further apart than this (or entity states older) are not compared
  double joiningSeconds = 2.0;  // from the first snapshot observed: gone while joining
};

struct ViewLossCounts {
  std::uint64_t lost = 0;      // gone while well inside, and seen again later
  std::uint64_t vanished = 0;  // gone while well inside, not seen again within comeBackSeconds
  std::uint64_t lostJoining = 0, vanishedJoining = 0;  // of which gone within joiningSeconds
};

class ViewLossTracker {
 public:
  explicit ViewLossTracker(ViewLossConfig config);

  // One complete snapshot, newer than any observed before. `self` is the player's own entity (its
  // position is the centre of the area), `playerArchetype` the archetype of player bodies, not
  // judged (-1: none). For each lost entity seen again, appends how long it was out of view (ms of server
  // time, from the last snapshot that held it to the one that has it again) to `gapsMs`.
  void observe(const wire::SnapshotRecord& record, std::uint32_t self, std::int64_t playerArchetype,
               std::vector<double>& gapsMs);

  const ViewLossCounts& counts() const { return counts_; }
  std::size_t waiting() const { return gone_.size(); }  // gone, neither back nor given up on yet

 private:
  struct Gone {
    std::uint32_t id = 0;
    std::uint32_t lastSeenTick = 0;  // tick of the last snapshot that held it
    bool joining = false;
  };

  ViewLossConfig config_;
  ViewLossCounts counts_;
  std::vector<wire::EntityState> previous_;
  std::uint32_t previousTick_ = 0;
  bool havePrevious_ = false;
  std::uint32_t firstTick_ = 0;  // of the first snapshot observed
  std::vector<Gone> gone_;
};

}  // namespace steerd::loadtest
