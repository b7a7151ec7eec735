#include "net/control_link.h"

#include <algorithm>

#include "proto/varint_size.h"

namespace steerd::net {

namespace {

// With nothing new to say, the acknowledgement is still repeated this often (a lost one would
// otherwise leave the client resending commands the server already has).
constexpr double kAckRepeatSeconds = 0.25;

}  // namespace

// The outbox holds twice the limit. Commands are taken only while the queue and the results
// awaited stay under the limit; events may fill the rest but never the room awaited results need,
// so every result fits, and a client slow to acknowledge events holds back its own commands.
ControlLink::ControlLink(std::uint32_t clientId, ControlLimits limits)
    : clientId_(clientId),
      limits_(limits),
      inbox_(limits.window),
      outbox_(limits.queue * 2),
      credit_(limits.eventBurst) {}

void ControlLink::refill(double now) {
  if (refilled_ && now > lastRefill_)
    credit_ = std::min(limits_.eventBurst, credit_ + (now - lastRefill_) * limits_.eventsPerSecond);
  if (!refilled_ || now > lastRefill_) lastRefill_ = now;
  refilled_ = true;
}

void ControlLink::receive(const wire::Control& packet, double now) {
  refill(now);
  outbox_.acknowledge(packet.messages_received());
  if (packet.has_reply_ack())
    outbox_.acknowledgePackets(static_cast<std::uint16_t>(packet.reply_ack()), packet.reply_ack_bits());
  beyondWindow_ +=
      inbox_.receivePacket(static_cast<std::uint16_t>(packet.packet()), packet.commands()).beyondWindow;
}

bool ControlLink::nextCommand(control::Command& out) {
  if (outbox_.size() + awaitingResults_ >= limits_.queue) return false;
  if (!inbox_.next(out)) return false;
  ++awaitingResults_;
  return true;
}

void ControlLink::result(const control::CommandResult& r, ServerMetrics& metrics) {
  if (awaitingResults_ > 0) --awaitingResults_;
  wire::ControlMessage m;
  *m.mutable_result() = r;
  // A message must fit a datagram on its own, or it would hold up every one after it.
  if (m.ByteSizeLong() + 16 > wire::kMaxBodyBytes) {
    m.mutable_result()->clear_info();
    m.mutable_result()->set_status(control::STATUS_ERROR);
    m.mutable_result()->set_error("result too large for a datagram");
  }
  (m.result().status() == control::STATUS_OK ? metrics.commandsApplied : metrics.commandsRejected)
      .fetch_add(1, std::memory_order_relaxed);
  outbox_.push(std::move(m));
}

void ControlLink::event(const control::Event& e, ServerMetrics& metrics) {
  // Room for this event and an overflow report, with the awaited results' room kept free.
  const auto room = [&] { return outbox_.size() + awaitingResults_ + 2 <= outbox_.capacity(); };
  if (room() && missed_ > 0 && credit_ >= 2.0) {
    wire::ControlMessage m;
    m.mutable_event()->set_kind(control::EVENT_OVERFLOW);
    m.mutable_event()->set_tick(e.tick());
    m.mutable_event()->set_count(missed_);
    outbox_.push(std::move(m));
    credit_ -= 1.0;
    missed_ = 0;
  }
  if (!room() || credit_ < 1.0) {
    ++missed_;
    ++missedTotal_;
    metrics.controlEventsDropped.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  credit_ -= 1.0;
  wire::ControlMessage m;
  *m.mutable_event() = e;
  outbox_.push(std::move(m));
  metrics.controlEvents.fetch_add(1, std::memory_order_relaxed);
}

void ControlLink::flush(double now, std::vector<OutDatagram>& out, ServerMetrics& metrics) {
  refill(now);
  wire::Packet packet;
  int datagrams = 0;
  const std::uint64_t resentBefore = outbox_.resent();
  bool more = true;
  while (more && datagrams < limits_.maxDatagramsPerFlush) {
    wire::ControlReply* reply = packet.mutable_control_reply();
    reply->Clear();
    reply->set_commands_received(inbox_.received());
    if (inbox_.anyPacket()) {
      reply->set_control_ack(inbox_.packetAck());
      reply->set_control_ack_bits(inbox_.packetAckBits());
    }
    const std::uint16_t number = outbox_.beginPacket();
    reply->set_packet(number);
    // Messages until the datagram is full; the one that did not fit waits for the next datagram.
    // Sizes are added up, not measured again with each message (that was a fifth of the cost).
    more = false;
    std::size_t replyBytes = reply->ByteSizeLong();
    outbox_.due(now, limits_.resendSeconds, number, [&](const wire::ControlMessage& m) {
      const std::size_t add = wire::embeddedBytes(wire::ControlReply::kMessagesFieldNumber, m.ByteSizeLong());
      if (wire::embeddedBytes(wire::Packet::kControlReplyFieldNumber, replyBytes + add) >
          wire::kMaxBodyBytes) {
        more = true;
        return false;
      }
      replyBytes += add;
      *reply->add_messages() = m;
      return true;
    });
    const bool ackNews = reply->commands_received() != ackSent_ || now - lastSent_ >= kAckRepeatSeconds;
    if (reply->messages_size() == 0 && !(ackNews && (reply->commands_received() > 0 || outbox_.size() > 0)))
      break;
    OutDatagram d{clientId_, {}};
    if (!wire::encodeDatagram({wire::Packet::kControlReply, 0, 0, 0}, packet, d.bytes)) break;
    metrics.controlBytes.fetch_add(d.bytes.size(), std::memory_order_relaxed);
    out.push_back(std::move(d));
    ackSent_ = reply->commands_received();
    lastSent_ = now;
    ++datagrams;
  }
  metrics.controlResends.fetch_add(outbox_.resent() - resentBefore, std::memory_order_relaxed);
}

}  // namespace steerd::net
