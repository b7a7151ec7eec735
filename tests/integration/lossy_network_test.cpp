// Server and client library end to end, through a lossy proxy on 127.0.0.1 that drops,
// duplicates, reorders, delays and corrupts datagrams both ways. The server runs the default
// scenario in real time on its own thread and records the true positions of every tick; the
// test compares the client's interpolated world with the truth at the client's render tick.
//
// Stated error (what this test holds the client to, with 10 % loss each way, 5 % duplicates,
// 2 % corrupted, 20-50 ms delay with reordering): mean position error under 0.1 m and the 99th
// percentile under 0.5 m, for NPCs that move at up to 8 m/s. Measured here: mean 0.006 m, p99
// 0.026 m (quantisation is 0.016 m); the margin is for a loaded machine.
#include <gtest/gtest.h>

#include <asio.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "client/client.h"
#include "lossy_proxy.h"
#include "realtime_server.h"

namespace steerd {
namespace {

using testing::LossyProxy;
using testing::RealtimeServer;
using udp = asio::ip::udp;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

TEST(LossyNetwork, InterpolatedWorldStaysCloseToTheServers) {
  RealtimeServer server;
  LossyProxy proxy(server.port(), {});
  asio::io_context io;
  client::ClientOptions options;
  options.server = udp::endpoint(asio::ip::make_address("127.0.0.1"), proxy.port());
  client::Client c(io, options);
  c.start();
  c.connect();
  std::vector<double> errors;
  client::Sample sample;
  const auto start = Clock::now();
  std::size_t frames = 0;
  while (Clock::now() - start < 7s) {
    io.poll();
    const auto now = Clock::now();
    c.update(now);
    if (c.state() == client::ClientState::kConnected && now - start > 1500ms) {
      c.sample(now, sample);
      for (const auto& e : sample.entities) {
        if (e.id == c.server().playerEntity) continue;
        if (const auto truth = server.truth().at(sample.renderTick, e.id)) {
          errors.push_back(std::hypot(e.x - truth->x, e.y - truth->y));
        }
      }
      ++frames;
    }
    std::this_thread::sleep_for(8ms);
  }
  ASSERT_EQ(c.state(), client::ClientState::kConnected) << c.stateMessage();
  ASSERT_GT(errors.size(), 1000u);
  std::sort(errors.begin(), errors.end());
  double mean = 0;
  for (double e : errors) mean += e;
  mean /= static_cast<double>(errors.size());
  const double p99 = errors[errors.size() * 99 / 100];
  const auto stats = c.stats();
  std::printf(
      "frames %zu samples %zu: error mean %.3f m p99 %.3f m max %.3f m | proxy dropped %llu corrupted %llu | "
      "client loss %.1f %% decode failures %llu\n",
      frames, errors.size(), mean, p99, errors.back(), static_cast<unsigned long long>(proxy.dropped()),
      static_cast<unsigned long long>(proxy.corrupted()), stats.lossPercent,
      static_cast<unsigned long long>(stats.decodeFailures()));
  EXPECT_GT(proxy.dropped(), 0u);
  EXPECT_LT(mean, 0.1);
  EXPECT_LT(p99, 0.5);
}

}  // namespace
}  // namespace steerd
