// The impairment stage: decisions fixed by the seed, the loss rate and delay range as asked; and
// the relay that applies it to real datagrams on 127.0.0.1.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "loadtest/impairment.h"
#include "loadtest/relay.h"

namespace steerd::loadtest {
namespace {

using namespace std::chrono_literals;
using udp = asio::ip::udp;

// "d" + number, by appending (GCC 12 warns, wrongly, about "d" + std::to_string(i)).
std::string label(int i) {
  std::string s = "d";
  s += std::to_string(i);
  return s;
}

std::vector<bool> drops(const ImpairmentConfig& c, std::uint64_t seed, std::uint64_t player, Direction d,
                        int n) {
  Impairment imp(c, seed, player, d);
  std::vector<bool> out;
  for (int i = 0; i < n; ++i) out.push_back(imp.next().drop);
  return out;
}

TEST(ImpairmentTest, SameSeedSameDrops) {
  const ImpairmentConfig c{0.2, 0, 0};
  EXPECT_EQ(drops(c, 42, 7, Direction::kToServer, 5000), drops(c, 42, 7, Direction::kToServer, 5000));
  // Another seed, another player or the other direction: another pattern.
  EXPECT_NE(drops(c, 42, 7, Direction::kToServer, 5000), drops(c, 43, 7, Direction::kToServer, 5000));
  EXPECT_NE(drops(c, 42, 7, Direction::kToServer, 5000), drops(c, 42, 8, Direction::kToServer, 5000));
  EXPECT_NE(drops(c, 42, 7, Direction::kToServer, 5000), drops(c, 42, 7, Direction::kToClient, 5000));
}

TEST(ImpairmentTest, LatencyDoesNotChangeWhichAreDropped) {
  EXPECT_EQ(drops({0.3, 0, 0}, 9, 1, Direction::kToClient, 2000),
            drops({0.3, 80, 40}, 9, 1, Direction::kToClient, 2000));
}

TEST(ImpairmentTest, LossRateIsAsAsked) {
  for (double p : {0.01, 0.1, 0.5}) {
    const auto d = drops({p, 0, 0}, 1, 0, Direction::kToServer, 100000);
    const double rate = static_cast<double>(std::count(d.begin(), d.end(), true)) / d.size();
    EXPECT_NEAR(rate, p, 0.01) << p;
  }
  const auto none = drops({0.0, 0, 0}, 1, 0, Direction::kToServer, 10000);
  EXPECT_EQ(std::count(none.begin(), none.end(), true), 0);
  const auto all = drops({1.0, 0, 0}, 1, 0, Direction::kToServer, 10000);
  EXPECT_EQ(std::count(all.begin(), all.end(), true), 10000);
}

TEST(ImpairmentTest, DelayIsLatencyPlusOrMinusJitterNeverNegative) {
  Impairment imp({0, 50, 20}, 3, 2, Direction::kToServer);
  double lo = 1e9, hi = -1e9;
  for (int i = 0; i < 20000; ++i) {
    const double ms = std::chrono::duration<double, std::milli>(imp.next().delay).count();
    lo = std::min(lo, ms);
    hi = std::max(hi, ms);
  }
  EXPECT_GE(lo, 30.0);
  EXPECT_LE(hi, 70.0);
  EXPECT_LT(lo, 31.0);  // the range is used, not just its middle
  EXPECT_GT(hi, 69.0);

  Impairment small({0, 5, 20}, 3, 2, Direction::kToServer);
  for (int i = 0; i < 5000; ++i) EXPECT_GE(small.next().delay.count(), 0);
  Impairment fixed({0, 12, 0}, 3, 2, Direction::kToServer);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(fixed.next().delay, std::chrono::milliseconds(12));
}

TEST(ImpairmentTest, ActiveOnlyWithSomethingToDo) {
  EXPECT_FALSE(ImpairmentConfig{}.active());
  EXPECT_TRUE((ImpairmentConfig{0.01, 0, 0}.active()));
  EXPECT_TRUE((ImpairmentConfig{0, 1, 0}.active()));
  EXPECT_TRUE((ImpairmentConfig{0, 0, 1}.active()));
}

// A client socket -> relay -> echo server -> relay -> client, on 127.0.0.1. Which datagrams get
// through each way is exactly what the seed's Impairment streams say.
TEST(ImpairedRelayTest, ForwardsBothWaysDroppingWhatTheSeedSays) {
  asio::io_context io;
  udp::socket server(io, udp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  udp::socket client(io, udp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  server.non_blocking(true);
  client.non_blocking(true);
  const ImpairmentConfig config{0.3, 3, 2};
  const std::uint64_t seed = 77, player = 5;
  std::error_code ec;
  auto relay =
      ImpairedRelay::create(asio::make_strand(io), server.local_endpoint(), config, seed, player, ec);
  ASSERT_TRUE(relay) << ec.message();
  relay->start();

  const int kSent = 300;
  // What should get through: the server sees the non-dropped ones; it echoes each, and the
  // client sees those the other stream keeps.
  Impairment up(config, seed, player, Direction::kToServer), down(config, seed, player, Direction::kToClient);
  std::set<std::string> expectAtServer, expectAtClient;
  for (int i = 0; i < kSent; ++i) {
    if (!up.next().drop) expectAtServer.insert(label(i));
  }
  // The echo order is the server's arrival order, which jitter may shuffle: the down stream's
  // decisions apply in that order, so collect the arrivals first and predict per arrival.
  std::vector<std::string> serverOrder;
  std::set<std::string> atClient;
  std::array<char, 64> buf{};
  // The server echoes what arrives; the client collects what comes back.
  auto service = [&] {
    io.restart();
    io.poll();
    for (;;) {
      udp::endpoint from;
      std::error_code e;
      const std::size_t n = server.receive_from(asio::buffer(buf), from, 0, e);
      if (e) break;
      EXPECT_EQ(from.port(), relay->endpoint().port());
      serverOrder.emplace_back(buf.data(), n);
      server.send_to(asio::buffer(buf.data(), n), from);
      if (!down.next().drop) expectAtClient.insert(serverOrder.back());
    }
    for (;;) {
      udp::endpoint from;
      std::error_code e;
      const std::size_t n = client.receive_from(asio::buffer(buf), from, 0, e);
      if (e) break;
      EXPECT_EQ(from, relay->endpoint());
      atClient.emplace(buf.data(), n);
    }
  };
  // One at a time, each counted by the relay before the next (a burst could overflow a socket's
  // receive buffer, and the kernel's drops are not the ones under test).
  for (int i = 0; i < kSent; ++i) {
    client.send_to(asio::buffer(label(i)), relay->endpoint());
    const auto until = std::chrono::steady_clock::now() + 10s;  // a hang guard only
    while (relay->counters().forwarded[0] + relay->counters().dropped[0] <
               static_cast<std::uint64_t>(i) + 1 &&
           std::chrono::steady_clock::now() < until) {
      service();
    }
  }
  const auto deadline = std::chrono::steady_clock::now() + 10s;  // a hang guard only
  while (std::chrono::steady_clock::now() < deadline) {
    service();
    const RelayCounters c = relay->counters();
    if (serverOrder.size() == expectAtServer.size() && c.forwarded[1] + c.dropped[1] == serverOrder.size() &&
        atClient.size() == expectAtClient.size()) {
      break;
    }
    std::this_thread::sleep_for(1ms);
  }
  EXPECT_EQ(std::set<std::string>(serverOrder.begin(), serverOrder.end()), expectAtServer);
  EXPECT_EQ(serverOrder.size(), expectAtServer.size());  // nothing twice
  EXPECT_EQ(atClient, expectAtClient);
  EXPECT_GT(expectAtClient.size(), 100u);
  EXPECT_LT(expectAtClient.size(), 200u);
  const RelayCounters c = relay->counters();
  EXPECT_EQ(c.forwarded[0], expectAtServer.size());
  EXPECT_EQ(c.dropped[0], kSent - expectAtServer.size());
  EXPECT_EQ(c.forwarded[1], expectAtClient.size());
  EXPECT_EQ(c.dropped[1], serverOrder.size() - expectAtClient.size());
  relay->stop();
  io.restart();
  io.poll();
}

TEST(ImpairedRelayTest, TotalLossLetsNothingThrough) {
  asio::io_context io;
  udp::socket server(io, udp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  udp::socket client(io, udp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  server.non_blocking(true);
  std::error_code ec;
  auto relay = ImpairedRelay::create(asio::make_strand(io), server.local_endpoint(), {1.0, 0, 0}, 1, 0, ec);
  ASSERT_TRUE(relay);
  relay->start();
  for (int i = 0; i < 50; ++i) client.send_to(asio::buffer("x", 1), relay->endpoint());
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (relay->counters().dropped[0] < 50 && std::chrono::steady_clock::now() < deadline) {
    io.poll();
    io.restart();
    std::this_thread::sleep_for(1ms);
  }
  EXPECT_EQ(relay->counters().dropped[0], 50u);
  EXPECT_EQ(relay->counters().forwarded[0], 0u);
  std::array<char, 8> buf{};
  udp::endpoint from;
  std::error_code e;
  server.receive_from(asio::buffer(buf), from, 0, e);
  EXPECT_TRUE(e);  // nothing arrived (would_block)
  relay->stop();
  io.restart();
  io.poll();
}

}  // namespace
}  // namespace steerd::loadtest
