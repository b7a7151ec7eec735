#include "client/scene_changes_fetch.h"

#include "client/durations.h"

namespace steerd::client {

void SceneChangesFetch::update(TimePoint now, PacketOutbox& out) {
  if ((target_ == held_ && after_ == 0) || now < nextRequestAt_) return;
  wire::Packet p;
  auto* r = p.mutable_scene_changes_request();
  r->set_have(held_);
  r->set_after_obstacle(after_);
  ++counters_.requests;
  out.post(p);
  nextRequestAt_ = now + toDuration(retry_);
}

std::string SceneChangesFetch::onPage(const wire::SceneChanges& page, TimePoint now) {
  if (page.have() != held_ || page.after_obstacle() != after_) {
    ++counters_.stale;
    return {};
  }
  if (std::string error = wire::applySceneChanges(page, live_); !error.empty()) {
    ++counters_.malformed;
    return "scene changes: " + error;
  }
  ++counters_.pages;
  ++generation_;
  // Versions only grow while a server runs, so the first page's is the oldest: every change up to
  // it is in once the last page is.
  if (after_ == 0) paging_ = page.version();
  if (page.through() != 0) {
    after_ = page.through();
  } else {
    held_ = paging_;
    after_ = 0;
  }
  nextRequestAt_ = now;  // the next page, or the next version, at once
  return {};
}

void SceneChangesFetch::reset() {
  target_ = held_ = after_ = paging_ = 0;
  live_ = {};
  ++generation_;
  nextRequestAt_ = TimePoint::min();
}

}  // namespace steerd::client
