#include "client/control_channel.h"

#include "proto/packet.h"
#include "proto/varint_size.h"

namespace steerd::client {

std::uint32_t ControlChannel::send(control::Command command) {
  if (commands_.size() >= maxUnacknowledged_) return 0;
  const std::uint32_t seq = commands_.push(std::move(command));
  if (seq != 0) ++counters_.sent;
  return seq;
}

void ControlChannel::update(TimePoint now, PacketOutbox& out) {
  const double t = std::chrono::duration<double>(now.time_since_epoch()).count();
  const bool ackDue = ackDirty_ || (messages_.received() > 0 && now - lastSend_ >= kAckRepeat);
  for (int d = 0; d < kMaxDatagramsPerUpdate; ++d) {
    wire::Packet p;
    wire::Control* c = p.mutable_control();
    c->set_messages_received(messages_.received());
    if (messages_.anyPacket()) {
      c->set_reply_ack(messages_.packetAck());
      c->set_reply_ack_bits(messages_.packetAckBits());
    }
    const std::uint16_t number = commands_.beginPacket();
    c->set_packet(number);
    bool more = false;
    std::size_t controlBytes = c->ByteSizeLong();
    commands_.due(t, resend_.count(), number, [&](const control::Command& cmd) {
      const std::size_t add = wire::embeddedBytes(wire::Control::kCommandsFieldNumber, cmd.ByteSizeLong());
      if (wire::embeddedBytes(wire::Packet::kControlFieldNumber, controlBytes + add) > wire::kMaxBodyBytes) {
        more = true;
        return false;
      }
      controlBytes += add;
      *c->add_commands() = cmd;
      return true;
    });
    if (c->commands_size() == 0 && !(d == 0 && ackDue)) return;
    out.post(p);
    ackDirty_ = false;
    lastSend_ = now;
    if (!more) return;
  }
}

void ControlChannel::onReply(const wire::ControlReply& r) {
  counters_.acknowledged += commands_.acknowledge(r.commands_received());
  if (r.has_control_ack())
    commands_.acknowledgePackets(static_cast<std::uint16_t>(r.control_ack()), r.control_ack_bits());
  counters_.duplicates +=
      messages_.receivePacket(static_cast<std::uint16_t>(r.packet()), r.messages()).duplicates;
  if (r.messages_size() > 0) ackDirty_ = true;
  wire::ControlMessage next;
  while (messages_.next(next)) {
    if (delivered_.size() == kMaxUntaken) {
      delivered_.pop_front();
      ++counters_.untakenDropped;
    }
    delivered_.push_back(std::move(next));
    ++counters_.delivered;
  }
}

void ControlChannel::take(std::vector<wire::ControlMessage>& out) {
  for (auto& m : delivered_) out.push_back(std::move(m));
  delivered_.clear();
}

}  // namespace steerd::client
