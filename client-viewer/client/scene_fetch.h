// The static scene (docs/PROTOCOL.md, "Scene"): part 0 first, then the parts still missing (at
// most 16 a request, the server's limit), asked again every retry interval until every part is
// in; the parts merged in the order they came. Time is a parameter; requests go to an outbox.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "client/clock_sync.h"
#include "client/packet_outbox.h"
#include "proto/scene_codec.h"

namespace steerd::client {

class SceneFetch {
 public:
  static constexpr std::uint32_t kMaxParts = 65536;  // a scene of more parts is malformed
  static constexpr int kPartsPerRequest = 16;        // the server's limit per SceneRequest

  explicit SceneFetch(std::chrono::duration<double> retryInterval) : retry_(retryInterval) {}

  // Connected: the first request goes at the next update().
  void start(TimePoint now) { nextRequestAt_ = now; }
  // A SceneRequest when one is due and parts are missing.
  void update(TimePoint now, PacketOutbox& out);
  // A part the server sent. Returns why it was refused (empty: taken, or a repeat).
  std::string onPart(const wire::Scene& part, TimePoint now);

  bool complete() const { return count_ != 0 && received_ == count_; }
  const wire::SceneGeometry& geometry() const { return geometry_; }

  struct Counters {
    std::uint64_t requests = 0;   // SceneRequests sent
    std::uint64_t malformed = 0;  // refused parts
    std::uint32_t received = 0;   // distinct parts held
    std::uint32_t count = 0;      // parts the scene has (0: not known yet)
  };
  Counters counters() const { return {requests_, malformed_, received_, count_}; }

 private:
  std::chrono::duration<double> retry_;
  wire::SceneGeometry geometry_;  // every part received, merged
  std::uint32_t count_ = 0;       // parts the scene has (0: not known yet)
  std::vector<bool> have_;        // by part
  std::uint32_t received_ = 0;
  std::uint64_t requests_ = 0, malformed_ = 0;
  TimePoint nextRequestAt_ = TimePoint::max();  // not before start()
};

}  // namespace steerd::client
