// The control channel's reliable, ordered delivery (proto/reliable_channel.h), on simulated time:
// every message arrives once and in order through loss, duplication and reordering.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "proto/control.pb.h"
#include "proto/reliable_channel.h"

namespace steerd::wire {
namespace {

using control::Command;

Command query(std::uint32_t agent) {
  Command c;
  c.mutable_query()->set_agent(agent);
  return c;
}

TEST(ReliableOutbox, NumbersFromOneAndForgetsWhatIsAcknowledged) {
  ReliableOutbox<Command> out(8);
  EXPECT_EQ(out.push(query(10)), 1u);
  EXPECT_EQ(out.push(query(11)), 2u);
  EXPECT_EQ(out.push(query(12)), 3u);
  EXPECT_EQ(out.acknowledge(2), 2u);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out.front()->query().agent(), 12u);
  EXPECT_EQ(out.acknowledge(2), 0u);  // again: nothing more
  EXPECT_EQ(out.acknowledge(99), 0u) << "an acknowledgement of what was never sent is ignored";
  EXPECT_EQ(out.size(), 1u);
}

TEST(ReliableOutbox, RefusesPastItsCapacity) {
  ReliableOutbox<Command> out(2);
  EXPECT_NE(out.push(query(1)), 0u);
  EXPECT_NE(out.push(query(2)), 0u);
  EXPECT_EQ(out.push(query(3)), 0u);
  EXPECT_EQ(out.size(), 2u);
  EXPECT_EQ(out.nextSequence(), 3u) << "a refused push takes no sequence";
}

TEST(ReliableOutbox, ResendsOnlyWhatIsDueAndStopsWhenTheDatagramIsFull) {
  ReliableOutbox<Command> out(8);
  for (std::uint32_t i = 0; i < 4; ++i) out.push(query(i));
  std::vector<std::uint32_t> sent;
  auto room = [&](std::size_t n) {
    return [&sent, n](const Command& c) {
      if (sent.size() == n) return false;  // the datagram is full: not taken
      sent.push_back(c.sequence());
      return true;
    };
  };
  out.due(0.0, 0.1, out.beginPacket(), room(2));
  EXPECT_EQ(sent, (std::vector<std::uint32_t>{1, 2}));
  sent.clear();
  out.due(0.05, 0.1, out.beginPacket(), room(8));
  EXPECT_EQ(sent, (std::vector<std::uint32_t>{3, 4})) << "1 and 2 went 50 ms ago: not due yet";
  sent.clear();
  out.due(0.12, 0.1, out.beginPacket(), room(8));
  EXPECT_EQ(sent, (std::vector<std::uint32_t>{1, 2}));
  sent.clear();
  out.acknowledge(3);
  out.due(1.0, 0.1, out.beginPacket(), room(8));
  EXPECT_EQ(sent, (std::vector<std::uint32_t>{4}));
}

TEST(ReliableInbox, DeliversInOrderOnceEachAndHoldsEarlyOnes) {
  ReliableInbox<Command> in(16);
  Command c = query(0);
  c.set_sequence(2);
  EXPECT_EQ(in.receive(c), ReliableArrival::kAccepted);
  Command got;
  EXPECT_FALSE(in.next(got)) << "2 waits for 1";
  EXPECT_EQ(in.received(), 0u);
  c.set_sequence(1);
  EXPECT_EQ(in.receive(c), ReliableArrival::kAccepted);
  EXPECT_EQ(in.received(), 2u);
  ASSERT_TRUE(in.next(got));
  EXPECT_EQ(got.sequence(), 1u);
  ASSERT_TRUE(in.next(got));
  EXPECT_EQ(got.sequence(), 2u);
  EXPECT_FALSE(in.next(got));
  EXPECT_EQ(in.receive(c), ReliableArrival::kDuplicate);
  c.set_sequence(0);
  EXPECT_EQ(in.receive(c), ReliableArrival::kInvalid);
  c.set_sequence(3 + 16);
  EXPECT_EQ(in.receive(c), ReliableArrival::kBeyondWindow);
  EXPECT_EQ(in.held(), 0u);
}

TEST(ReliableChannel, PacketAcksStopResendsOfWhatArrivedPastALostDatagram) {
  ReliableOutbox<Command> out(16);
  ReliableInbox<Command> in(16);
  for (std::uint32_t i = 0; i < 6; ++i) out.push(query(i));
  // Three datagrams of two messages; the second is lost.
  for (int d = 0; d < 3; ++d) {
    const std::uint16_t packet = out.beginPacket();
    std::vector<Command> carried;
    out.due(0.0, 0.1, packet, [&](const Command& c) {
      if (carried.size() == 2) return false;
      carried.push_back(c);
      return true;
    });
    if (d == 1) continue;
    in.receivePacket(packet, carried);
  }
  EXPECT_EQ(in.received(), 2u) << "3 and 4 are missing";
  EXPECT_EQ(in.packetAck(), 2u);
  EXPECT_EQ(in.packetAckBits(), 0b10u) << "packet 0 arrived, packet 1 did not";
  out.acknowledge(in.received());
  out.acknowledgePackets(in.packetAck(), in.packetAckBits());
  out.acknowledgePackets(9, 0);  // a datagram never sent: ignored
  std::vector<std::uint32_t> again;
  out.due(1.0, 0.1, out.beginPacket(), [&](const Command& c) {
    again.push_back(c.sequence());
    return true;
  });
  EXPECT_EQ(again, (std::vector<std::uint32_t>{3, 4})) << "only the lost datagram's messages go again";
  EXPECT_EQ(out.resent(), 2u);
}

// Two ends over a simulated network that loses 10 %, duplicates 5 % and delays 20-50 ms (so
// reorders), as the control channel's integration test: 10,000 commands go one way, each answered
// by a message the other way.
TEST(ReliableChannel, TenThousandMessagesArriveOnceInOrderThroughALossyNetwork) {
  struct Datagram {
    double at;
    std::vector<Command> messages;
    std::uint32_t ack;
    bool toServer;
    std::uint16_t packet, packetAck;
    std::uint32_t packetAckBits;
    bool anyPacket;  // the sender has received a datagram: packetAck means something
  };
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<Datagram> inFlight;
  auto transmit = [&](Datagram d, double now) {
    if (u(rng) < 0.1) return;
    const int copies = u(rng) < 0.05 ? 2 : 1;
    for (int k = 0; k < copies; ++k) {
      d.at = now + 0.02 + 0.03 * u(rng);
      inFlight.push_back(d);
    }
  };
  ReliableOutbox<Command> clientOut(100000), serverOut(100000);
  ReliableInbox<Command> serverIn(1024), clientIn(1024);
  constexpr std::uint32_t kCommands = 10000;
  std::uint32_t queued = 0;
  std::vector<std::uint32_t> applied, answered;
  for (double now = 0.0; now < 120.0 && answered.size() < kCommands; now += 0.01) {
    for (int k = 0; k < 20 && queued < kCommands; ++k) clientOut.push(query(queued++));
    // Deliver what is due (in arrival-time order, so later sends can overtake).
    std::stable_sort(inFlight.begin(), inFlight.end(),
                     [](const Datagram& a, const Datagram& b) { return a.at < b.at; });
    std::size_t n = 0;
    while (n < inFlight.size() && inFlight[n].at <= now) ++n;
    std::vector<Datagram> due(inFlight.begin(), inFlight.begin() + static_cast<std::ptrdiff_t>(n));
    inFlight.erase(inFlight.begin(), inFlight.begin() + static_cast<std::ptrdiff_t>(n));
    for (const Datagram& d : due) {
      if (d.toServer) {
        serverOut.acknowledge(d.ack);
        if (d.anyPacket) serverOut.acknowledgePackets(d.packetAck, d.packetAckBits);
        serverIn.receivePacket(d.packet, d.messages);
        Command c;
        while (serverIn.next(c)) {
          applied.push_back(c.query().agent());
          serverOut.push(c);  // the "result"
        }
      } else {
        clientOut.acknowledge(d.ack);
        if (d.anyPacket) clientOut.acknowledgePackets(d.packetAck, d.packetAckBits);
        clientIn.receivePacket(d.packet, d.messages);
        Command c;
        while (clientIn.next(c)) answered.push_back(c.query().agent());
      }
    }
    // Each side sends one datagram of up to 40 due messages, with its acknowledgement.
    for (const bool toServer : {true, false}) {
      ReliableOutbox<Command>& out = toServer ? clientOut : serverOut;
      const ReliableInbox<Command>& in = toServer ? clientIn : serverIn;
      const std::uint16_t packet = out.beginPacket();
      Datagram d{0, {}, in.received(), toServer, packet, in.packetAck(), in.packetAckBits(), in.anyPacket()};
      out.due(now, 0.2, packet, [&](const Command& c) {
        d.messages.push_back(c);
        return d.messages.size() < 40;
      });
      transmit(std::move(d), now);
    }
  }
  ASSERT_EQ(applied.size(), kCommands);
  // With packet acks a lost message costs about one resend (10 % lost: about 0.11 resends a
  // message), not one for every message sent after it.
  std::printf("resent: %llu commands, %llu answers\n", static_cast<unsigned long long>(clientOut.resent()),
              static_cast<unsigned long long>(serverOut.resent()));
  EXPECT_LT(clientOut.resent(), kCommands * 2 / 10);
  EXPECT_LT(serverOut.resent(), kCommands * 2 / 10);
  ASSERT_EQ(answered.size(), kCommands);
  for (std::uint32_t i = 0; i < kCommands; ++i) {
    ASSERT_EQ(applied[i], i) << "applied out of order or twice";
    ASSERT_EQ(answered[i], i);
  }
}

}  // namespace
}  // namespace steerd::wire
