// Reliable, ordered messages over unreliable datagrams: the control channel's two halves, used by
// both ends (the client's commands, the server's results and events). The shape of yojimbo's
// reliable-ordered channel: every message gets the next sequence number (from 1) and the sender
// keeps it, sending it again every `resend` seconds, until the peer acknowledges it, either
//   - cumulatively ("every message up to N arrived", the receiver's in-order point), or
//   - by packet: each datagram of the channel has its own 16-bit number and the peer acks those
//     as the datagram header does (newest + 32 bits); an acked datagram acks every message it
//     carried. One lost datagram then costs a resend of its own messages, not of every message
//     sent after it (which the cumulative point alone would: it waits at the gap).
// The receiver holds messages that arrive early (within a window) and hands them over in order,
// once each.
//
// Pure logic: time is a parameter (seconds, any origin), no sockets, so it is tested on simulated
// time and the datagram loss, duplication and reordering are the test's to choose.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <utility>
#include <vector>

#include "proto/packet.h"

namespace steerd::wire {

// Messages (protobuf types with sequence()/set_sequence()) waiting for the peer's acknowledgement.
template <class Message>
class ReliableOutbox {
 public:
  explicit ReliableOutbox(std::size_t capacity) : capacity_(capacity) {}

  std::size_t size() const { return queue_.size(); }
  bool full() const { return queue_.size() >= capacity_; }
  std::size_t capacity() const { return capacity_; }
  // The sequence the next push() gives.
  std::uint32_t nextSequence() const { return next_; }

  // Appends `m` with the next sequence; returns it, or 0 (nothing appended) when full.
  std::uint32_t push(Message m) {
    if (full()) return 0;
    m.set_sequence(next_);
    queue_.push_back({std::move(m), kNever, false});
    return next_++;
  }

  // The peer has every message up to `received`: forget them. Returns how many were dropped.
  // An acknowledgement of something never sent (a forged or corrupted one) is ignored.
  std::size_t acknowledge(std::uint32_t received) {
    if (received >= next_) return 0;
    std::size_t n = 0;
    while (!queue_.empty() && queue_.front().message.sequence() <= received) {
      queue_.pop_front();
      ++n;
    }
    return n;
  }

  // Starts the next datagram of the channel: its number, for due() and the peer's packet acks.
  std::uint16_t beginPacket() {
    const std::uint16_t p = nextPacket_++;
    Carried& c = carried_[p % carried_.size()];
    c.packet = p;
    c.valid = true;
    c.sequences.clear();
    return p;
  }

  // Offers take(const Message&) the messages due at `now` (never sent, or last sent `resend` or
  // more seconds ago, and not known to have arrived), oldest first, until it returns false (its
  // datagram is full); each one it takes counts as sent now, in datagram `packet` (beginPacket).
  template <class Take>
  void due(double now, double resend, std::uint16_t packet, Take&& take) {
    Carried& c = carried_[packet % carried_.size()];
    for (Entry& e : queue_) {
      if (e.arrived || now - e.sentAt < resend) continue;
      if (!take(e.message)) return;
      if (e.sentAt != kNever) ++resent_;
      e.sentAt = now;
      if (c.valid && c.packet == packet) c.sequences.push_back(e.message.sequence());
    }
  }

  // The peer received datagram `ack` and, for each bit i set, datagram ack - 1 - i: what they
  // carried arrived. Datagrams too old to be remembered (256 back) are ignored.
  void acknowledgePackets(std::uint16_t ack, std::uint32_t bits) {
    markCarried(ack);
    for (int i = 0; i < 32; ++i) {
      if (bits & (1u << i)) markCarried(static_cast<std::uint16_t>(ack - 1 - i));
    }
  }

  // Messages sent again (not acknowledged within `resend`) since construction.
  std::uint64_t resent() const { return resent_; }
  const Message* front() const { return queue_.empty() ? nullptr : &queue_.front().message; }

 private:
  static constexpr double kNever = -std::numeric_limits<double>::infinity();
  struct Entry {
    Message message;
    double sentAt;
    bool arrived;  // in a datagram the peer acknowledged: never sent again
  };
  struct Carried {
    std::uint16_t packet = 0;
    bool valid = false;
    std::vector<std::uint32_t> sequences;
  };
  void markCarried(std::uint16_t packet) {
    Carried& c = carried_[packet % carried_.size()];
    if (!c.valid || c.packet != packet) return;
    // A datagram from beyond the window (a forged ack) names nothing: only real ones are here.
    const std::uint16_t age = static_cast<std::uint16_t>(nextPacket_ - packet);
    if (age == 0 || age > carried_.size()) return;
    if (!queue_.empty()) {
      const std::uint32_t first = queue_.front().message.sequence();
      for (const std::uint32_t s : c.sequences) {
        if (s >= first && s - first < queue_.size()) queue_[s - first].arrived = true;
      }
    }
    c.valid = false;
  }

  std::deque<Entry> queue_;
  std::size_t capacity_;
  std::uint32_t next_ = 1;
  std::uint16_t nextPacket_ = 0;
  std::array<Carried, 256> carried_{};
  std::uint64_t resent_ = 0;
};

enum class ReliableArrival : std::uint8_t {
  kAccepted,      // new: delivered in order by next()
  kDuplicate,     // already had it (a resend, or the network duplicated it)
  kBeyondWindow,  // too far ahead to hold: dropped, the sender sends it again later
  kInvalid,       // sequence 0
};

// The receiving half: in-order delivery, each message once, and the acknowledgements to send back.
// Early messages wait in a ring of `window` slots (no allocation per message).
template <class Message>
class ReliableInbox {
 public:
  explicit ReliableInbox(std::uint32_t window) : window_(window), slots_(window), present_(window, false) {}

  struct PacketArrival {
    std::size_t duplicates = 0;    // messages it had already
    std::size_t beyondWindow = 0;  // messages dropped: too far ahead
  };
  // A datagram of the channel arrived (its number, as the sender's beginPacket gave it) with these
  // messages. It is acknowledged only when every message it carried is held or delivered: one
  // dropped beyond the window must be sent again.
  template <class Messages>
  PacketArrival receivePacket(std::uint16_t packet, const Messages& messages) {
    PacketArrival a;
    for (const auto& m : messages) {
      const ReliableArrival r = receive(m);
      a.duplicates += r == ReliableArrival::kDuplicate ? 1 : 0;
      a.beyondWindow += r == ReliableArrival::kBeyondWindow ? 1 : 0;
    }
    if (a.beyondWindow == 0) packets_.received(packet);
    return a;
  }
  // The packet acknowledgement to send back (AckTracker: newest and the 32 before it).
  std::uint16_t packetAck() const { return packets_.ack(); }
  std::uint32_t packetAckBits() const { return packets_.ackBits(); }
  bool anyPacket() const { return packets_.any(); }

  ReliableArrival receive(const Message& m) {
    const std::uint32_t s = m.sequence();
    if (s == 0) return ReliableArrival::kInvalid;
    if (s < expected_) return ReliableArrival::kDuplicate;
    if (s - expected_ >= window_) return ReliableArrival::kBeyondWindow;
    const std::size_t at = s % window_;
    if (present_[at]) return ReliableArrival::kDuplicate;
    slots_[at] = m;
    present_[at] = true;
    ++held_;
    return ReliableArrival::kAccepted;
  }

  // The next message in order, if it has arrived: moved into `out`.
  bool next(Message& out) {
    const std::size_t at = expected_ % window_;
    if (!present_[at]) return false;
    out = std::move(slots_[at]);
    present_[at] = false;
    --held_;
    ++expected_;
    return true;
  }

  // Every sequence up to this one has arrived (delivered or ready for next()); 0: none. The
  // cumulative acknowledgement.
  std::uint32_t received() const {
    std::uint32_t r = expected_ - 1;
    while (r + 1 - expected_ < window_ && present_[(r + 1) % window_]) ++r;
    return r;
  }
  std::size_t held() const { return held_; }

 private:
  std::uint32_t window_;
  std::uint32_t expected_ = 1;
  std::vector<Message> slots_;  // sequence s at s % window_, while present
  std::vector<bool> present_;
  std::size_t held_ = 0;
  AckTracker packets_;
};

}  // namespace steerd::wire
