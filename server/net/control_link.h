// One control client's channel, on the simulation thread (docs/CONTROL.md): its commands in
// order and once each (a ReliableInbox), its results and events until acknowledged (a
// ReliableOutbox), the rate limit on events, and the ControlReply datagrams that carry them.
//
// Bounded everywhere: commands are taken from the inbox only while their results have room, so a
// client that floods commands without reading its replies stalls itself, never the tick; events
// past the rate or the queue are counted and reported as one EVENT_OVERFLOW when there is room.
// Time is a parameter (the session passes the tick's time), so tests run on simulated time.
#pragma once

#include <cstdint>
#include <vector>

#include "net/net_endpoint.h"
#include "net/server_metrics.h"
#include "proto/control.pb.h"
#include "proto/reliable_channel.h"

namespace steerd::net {

struct ControlLimits {
  std::size_t queue = 4096;       // results awaiting acknowledgement; events may use as much again
  std::uint32_t window = 1024;    // commands held ahead of the next one in order
  double eventsPerSecond = 2000;  // sustained, per client
  double eventBurst = 4000;
  double resendSeconds = 0.2;     // unacknowledged results and events go again after this (> RTT)
  int maxDatagramsPerFlush = 16;  // ControlReply datagrams per client per tick
};

class ControlLink {
 public:
  ControlLink(std::uint32_t clientId, ControlLimits limits);

  // A Control packet: the client's acknowledgement, and its commands into the inbox. A command
  // too far ahead is dropped (the client sends it again); counted in `beyondWindow`.
  void receive(const wire::Control& packet, double now);
  // The next command in order, while its result has room. False: none ready, or no room.
  bool nextCommand(control::Command& out);
  // The result of a command taken with nextCommand (always has room).
  void result(const control::CommandResult& r, ServerMetrics& metrics);
  // An event the client's subscription matched: queued, or counted as missed.
  void event(const control::Event& e, ServerMetrics& metrics);
  // Datagrams due at `now` (results and events not acknowledged, the acknowledgement of commands).
  void flush(double now, std::vector<OutDatagram>& out, ServerMetrics& metrics);

  std::uint32_t commandsReceived() const { return inbox_.received(); }
  std::size_t queued() const { return outbox_.size(); }
  std::uint64_t beyondWindow() const { return beyondWindow_; }
  std::uint64_t eventsMissed() const { return missedTotal_; }

 private:
  void refill(double now);

  std::uint32_t clientId_;
  ControlLimits limits_;
  wire::ReliableInbox<control::Command> inbox_;
  wire::ReliableOutbox<wire::ControlMessage> outbox_;
  std::size_t awaitingResults_ = 0;  // commands taken, results not yet queued
  double credit_;
  double lastRefill_ = 0.0;
  bool refilled_ = false;
  std::uint32_t missed_ = 0;  // events not yet reported in an EVENT_OVERFLOW
  std::uint64_t missedTotal_ = 0, beyondWindow_ = 0;
  std::uint32_t ackSent_ = 0;  // commandsReceived() last sent
  double lastSent_ = -1e9;
};

}  // namespace steerd::net
