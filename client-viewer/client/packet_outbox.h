// Where the parts of the client put what they send. ClientProtocol seals each packet with the
// session's keys and hands it to its datagram sink at once; a test keeps the packets to look at.
// The parts own no socket and read no clock (time comes in as a parameter), so every one of them
// runs on simulated time.
#pragma once

#include <cstddef>

#include "proto/wire.pb.h"

namespace steerd::client {

class PacketOutbox {
 public:
  virtual ~PacketOutbox() = default;
  // `minBytes`: the smallest datagram the packet must fill (handshake packets are padded so a
  // forged source cannot use the server as an amplifier).
  void post(const wire::Packet& packet, std::size_t minBytes = 0) { deliver(packet, minBytes); }

 protected:
  virtual void deliver(const wire::Packet& packet, std::size_t minBytes) = 0;
};

}  // namespace steerd::client
