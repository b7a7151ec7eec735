// The scene's changes (docs/PROTOCOL.md, "Scene changes"): every snapshot says which scene version
// its tick had; while that differs from the version held, ask for what changed since (a
// SceneChangesRequest), page by page, and apply each page. A lost request or page is asked for
// again after the retry interval. Time is a parameter; requests go to an outbox.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "client/clock_sync.h"
#include "client/packet_outbox.h"
#include "proto/scene_changes_codec.h"

namespace steerd::client {

class SceneChangesFetch {
 public:
  explicit SceneChangesFetch(std::chrono::duration<double> retryInterval) : retry_(retryInterval) {}

  // A snapshot's scene_version: the version to catch up with (the newest heard).
  void onSnapshotVersion(std::uint32_t version) { target_ = version; }
  // A SceneChangesRequest when the held version is behind and no answer is awaited (or it is
  // overdue).
  void update(TimePoint now, PacketOutbox& out);
  // A page the server sent. A page for another request (a late answer) is ignored. Returns why a
  // page was refused (empty: taken or ignored).
  std::string onPage(const wire::SceneChanges& page, TimePoint now);
  // A served replay's new epoch: its world started again, so does what is held.
  void reset();

  std::uint32_t version() const { return held_; }
  const wire::SceneLive& live() const { return live_; }
  // +1 whenever live() changed: for a cache of what is built from it.
  std::uint64_t generation() const { return generation_; }

  struct Counters {
    std::uint64_t requests = 0;  // SceneChangesRequests sent
    std::uint64_t pages = 0;     // pages applied
    std::uint64_t malformed = 0;
    std::uint64_t stale = 0;  // pages for another request
  };
  Counters counters() const { return counters_; }

 private:
  std::chrono::duration<double> retry_;
  std::uint32_t target_ = 0;  // the newest snapshot's version
  std::uint32_t held_ = 0;    // the version live_ is at (once no page is pending)
  std::uint32_t after_ = 0;   // the next page's after_obstacle (0: the first page)
  std::uint32_t paging_ = 0;  // the first page's version while paging
  wire::SceneLive live_;
  std::uint64_t generation_ = 0;
  TimePoint nextRequestAt_ = TimePoint::min();
  Counters counters_;
};

}  // namespace steerd::client
