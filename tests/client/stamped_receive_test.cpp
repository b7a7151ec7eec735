#include "client/stamped_receive.h"

#include <gtest/gtest.h>

#include <array>
#include <thread>

namespace steerd::client {
namespace {

using asio::ip::udp;

// Sent, left `wait`, then read: how long before the read it arrived.
Clock::duration ageWhenRead(udp::socket& tx, udp::socket& rx, std::chrono::milliseconds wait) {
  const std::array<std::uint8_t, 1> probe{0};
  tx.send_to(asio::buffer(probe), rx.local_endpoint());
  std::this_thread::sleep_for(wait);
  std::array<std::uint8_t, 64> buffer{};
  udp::endpoint from;
  bool error = false;
  const auto got = receiveStamped(rx, buffer, from, error);
  return got ? Clock::now() - got->arrival : Clock::duration::zero();
}

// A datagram that waited in the socket arrives when the kernel took it, not when it was read:
// sent, left 60 ms, then read, it is at least 50 ms old (a sleep never ends early, so the bound
// holds however busy the machine; only a lower bound is asserted).
TEST(StampedReceive, ADatagramThatWaitedArrivesWhenTheKernelTookIt) {
  asio::io_context io;
  udp::socket rx(io, udp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  udp::socket tx(io, udp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  ASSERT_TRUE(enableReceiveStamps(rx));
  std::array<std::uint8_t, 64> buffer{};
  udp::endpoint from;
  bool error = true;
  EXPECT_FALSE(receiveStamped(rx, buffer, from, error).has_value());  // nothing queued
  EXPECT_FALSE(error);
  // The first socket to ask turns stamping on in the kernel from a work queue, a moment later:
  // a datagram that comes before that is stamped when read. Probed until stamps are live (at
  // most 10 s, by a count of tries: a busy machine only takes more of them).
  bool live = false;
  for (int i = 0; i < 500 && !live; ++i)
    live = ageWhenRead(tx, rx, std::chrono::milliseconds(20)) >= std::chrono::milliseconds(15);
  ASSERT_TRUE(live) << "the kernel never stamped a datagram on arrival";

  const TimePoint before = Clock::now();
  const std::array<std::uint8_t, 3> hello{1, 2, 3};
  tx.send_to(asio::buffer(hello), rx.local_endpoint());
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  const auto got = receiveStamped(rx, buffer, from, error);
  const TimePoint read = Clock::now();
  ASSERT_TRUE(got.has_value());
  EXPECT_FALSE(error);
  EXPECT_EQ(got->bytes, 3u);
  EXPECT_EQ(buffer[2], 3);
  EXPECT_EQ(from, tx.local_endpoint());
  EXPECT_GE(read - got->arrival, std::chrono::milliseconds(50));
  EXPECT_GE(got->arrival, before - std::chrono::milliseconds(5));  // the two clocks agree that closely
}

}  // namespace
}  // namespace steerd::client
