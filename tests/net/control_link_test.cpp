// EVENT_OVERFLOW (net/control_link.h): events past a control client's rate are counted, and once
// there is credit again the count is reported as one OVERFLOW event before the next event, on
// simulated time.
#include "net/control_link.h"

#include <gtest/gtest.h>

#include "proto/packet.h"

namespace steerd::net {
namespace {

control::Event spawned(std::uint32_t agent) {
  control::Event e;
  e.set_kind(control::EVENT_SPAWNED);
  e.set_agent(agent);
  e.set_tick(agent);
  return e;
}

// Every event in the datagrams `flush` gives at `now`, in order.
std::vector<control::Event> flushedEvents(ControlLink& link, double now, ServerMetrics& metrics) {
  std::vector<OutDatagram> out;
  link.flush(now, out, metrics);
  std::vector<control::Event> events;
  for (const OutDatagram& d : out) {
    wire::Decoded decoded;
    wire::decodeDatagram(d.bytes, decoded);
    EXPECT_EQ(decoded.drop, wire::DropReason::kNone);
    for (const wire::ControlMessage& m : decoded.packet.control_reply().messages())
      if (m.has_event()) events.push_back(m.event());
  }
  return events;
}

TEST(ControlLink, EventsPastTheRateAreCountedThenReportedAsOneOverflow) {
  ControlLimits limits;
  limits.eventsPerSecond = 10;
  limits.eventBurst = 5;
  limits.resendSeconds = 1000;  // nothing sent twice within the test: each flush shows what is new
  ControlLink link(1, limits);
  ServerMetrics metrics;
  for (std::uint32_t i = 1; i <= 20; ++i) link.event(spawned(i), metrics);  // a burst of 20 at once
  EXPECT_EQ(link.eventsMissed(), 15u);
  EXPECT_EQ(metrics.controlEventsDropped.load(), 15u);
  const std::vector<control::Event> first = flushedEvents(link, 0.0, metrics);
  ASSERT_EQ(first.size(), 5u);  // the burst's worth
  EXPECT_EQ(first.back().agent(), 5u);
  // Still no credit: one more missed. A second later (credit comes back at a flush) the next
  // event finds room, and the 16 missed are reported as one OVERFLOW just before it.
  link.event(spawned(21), metrics);
  EXPECT_TRUE(flushedEvents(link, 1.0, metrics).empty());
  link.event(spawned(22), metrics);
  const std::vector<control::Event> later = flushedEvents(link, 1.0, metrics);
  ASSERT_EQ(later.size(), 2u);
  EXPECT_EQ(later[0].kind(), control::EVENT_OVERFLOW);
  EXPECT_EQ(later[0].count(), 16u);
  EXPECT_EQ(later[1].kind(), control::EVENT_SPAWNED);
  EXPECT_EQ(later[1].agent(), 22u);
  EXPECT_EQ(link.eventsMissed(), 16u);
}

}  // namespace
}  // namespace steerd::net
