#include "client/scene_fetch.h"

#include "client/durations.h"

namespace steerd::client {

void SceneFetch::update(TimePoint now, PacketOutbox& out) {
  if (complete() || now < nextRequestAt_) return;
  // Part 0 until the part count is known, then the first missing parts.
  wire::Packet p;
  auto* r = p.mutable_scene_request();
  if (count_ == 0) {
    r->add_parts(0);
  } else {
    for (std::uint32_t i = 0; i < count_ && r->parts_size() < kPartsPerRequest; ++i) {
      if (!have_[i]) r->add_parts(i);
    }
  }
  ++requests_;
  out.post(p);
  nextRequestAt_ = now + toDuration(retry_);
}

std::string SceneFetch::onPart(const wire::Scene& part, TimePoint now) {
  if (part.part_count() == 0 || part.part_count() > kMaxParts || part.part() >= part.part_count() ||
      (count_ != 0 && part.part_count() != count_)) {
    ++malformed_;
    return {};
  }
  if (count_ != 0 && have_[part.part()]) return {};  // asked twice, answered twice
  if (std::string error = wire::decodeScenePart(part, geometry_); !error.empty()) {
    ++malformed_;
    return "scene part " + std::to_string(part.part()) + ": " + error;
  }
  if (count_ == 0) {
    count_ = part.part_count();
    have_.assign(count_, false);
    nextRequestAt_ = now;  // the count is known: ask for the rest at once
  }
  have_[part.part()] = true;
  ++received_;
  return {};
}

}  // namespace steerd::client
