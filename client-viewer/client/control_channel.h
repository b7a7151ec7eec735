// The control role's channel (docs/CONTROL.md, "Over the wire"): commands out, each sent again
// until the server acknowledges it, packed into as many Control datagrams as they take; results
// and events in, delivered once each in the server's order, and acknowledged (at once when new
// ones came, else repeated every 250 ms). Time is a parameter; datagrams go to an outbox.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <limits>
#include <vector>

#include "client/clock_sync.h"
#include "client/packet_outbox.h"
#include "proto/control.pb.h"
#include "proto/reliable_channel.h"

namespace steerd::client {

class ControlChannel {
 public:
  static constexpr std::chrono::milliseconds kAckRepeat{250};
  static constexpr int kMaxDatagramsPerUpdate = 8;
  static constexpr std::size_t kMaxMessagesHeld = 8192;  // received out of order, not yet delivered
  // Delivered but not taken, at most: a caller that never takes loses the oldest (counted).
  static constexpr std::size_t kMaxUntaken = 65536;

  // Commands unacknowledged longer than `resendInterval` go again; at most `maxUnacknowledged` wait.
  ControlChannel(std::chrono::duration<double> resendInterval, std::size_t maxUnacknowledged)
      : resend_(resendInterval), maxUnacknowledged_(maxUnacknowledged) {}

  // A command for the server: its sequence, or 0 when too many wait.
  std::uint32_t send(control::Command command);
  // Commands due and the acknowledgement, when either is.
  void update(TimePoint now, PacketOutbox& out);
  void onReply(const wire::ControlReply& reply);
  // Results and events delivered since the last call, in order, each once.
  void take(std::vector<wire::ControlMessage>& out);

  std::size_t unacknowledged() const { return commands_.size(); }
  struct Counters {
    std::uint64_t sent = 0, acknowledged = 0, delivered = 0, duplicates = 0;
    std::uint64_t untakenDropped = 0;  // delivered, then dropped untaken (kMaxUntaken)
  };
  const Counters& counters() const { return counters_; }

 private:
  std::chrono::duration<double> resend_;
  std::size_t maxUnacknowledged_;
  wire::ReliableOutbox<control::Command> commands_{std::numeric_limits<std::size_t>::max()};
  wire::ReliableInbox<wire::ControlMessage> messages_{kMaxMessagesHeld};
  std::deque<wire::ControlMessage> delivered_;  // not yet taken
  bool ackDirty_ = false;
  TimePoint lastSend_{};
  Counters counters_;
};

}  // namespace steerd::client
