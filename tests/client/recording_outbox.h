// A PacketOutbox that keeps what the client's parts send, for tests on simulated time.
#pragma once

#include <vector>

#include "client/packet_outbox.h"

namespace steerd::client::test {

class RecordingOutbox : public PacketOutbox {
 public:
  std::vector<wire::Packet> packets;
  std::vector<std::size_t> minBytes;

  std::size_t count(wire::Packet::BodyCase kind) const {
    std::size_t n = 0;
    for (const wire::Packet& p : packets) n += p.body_case() == kind ? 1 : 0;
    return n;
  }
  void clear() {
    packets.clear();
    minBytes.clear();
  }

 protected:
  void deliver(const wire::Packet& packet, std::size_t bytes) override {
    packets.push_back(packet);
    minBytes.push_back(bytes);
  }
};

// A fixed start for simulated time, far from the clock's epoch.
inline TimePoint simulatedStart() { return TimePoint{} + std::chrono::hours(1); }

}  // namespace steerd::client::test
