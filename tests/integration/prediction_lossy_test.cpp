// Issue 18's bar for prediction under a bad link: a player walking a figure of eight on the
// default scenario through a lossy proxy (5 % loss each way, 40-60 ms each way: about 100 ms of
// round trip with 20 ms of jitter, reordering) against a real-time server in intent mode. The
// client library predicts its player; at each Snapshot.own the distance between where it
// predicted the body after that input and where the server has it must have a p99 under 10 cm.
// The figures are printed (they go in the note); the bound is the issue's.
#include <gtest/gtest.h>

#include <asio.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
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

TEST(PredictionLossy, AFigureOfEightThroughALossyLinkIsPredictedWithinTenCentimetres) {
  net::SessionConfig session;
  session.playerInput = net::PlayerInputMode::kIntent;
  RealtimeServer server({}, session);
  LossyProxy proxy(server.port(), {0.05, 0.0, 0.0, 40, 60});
  asio::io_context io;
  client::ClientOptions options;
  options.server = udp::endpoint(asio::ip::make_address("127.0.0.1"), proxy.port());
  options.fetchScene = true;
  client::Client c(io, options);
  c.start();
  ASSERT_TRUE(c.connect());
  std::vector<float> errors;
  std::optional<steer::Vec2> centre;
  float farthest = 0.0f;  // from the centre: it did walk the figure
  const auto start = Clock::now();
  Clock::time_point walking{};
  while (Clock::now() - start < 20s) {  // a hang guard; the walk itself is 10 s
    io.poll();
    const auto now = Clock::now();
    c.update(now);
    if (c.connected() && c.sceneComplete()) {
      if (const auto p = c.predictedPlayer(now)) {
        if (!centre) {
          centre = steer::Vec2{p->x, p->y};
          walking = now;
        }
        // A figure of eight, 12 m by 6 m, once every 8 s, chased from where the body is predicted.
        const double t = std::chrono::duration<double>(now - walking).count();
        const double w = 2.0 * 3.14159265358979 / 8.0;
        const steer::Vec2 target{centre->x + 6.0f * static_cast<float>(std::sin(w * t)),
                                 centre->y + 3.0f * static_cast<float>(std::sin(2.0 * w * t))};
        const float speed = std::max(c.server().playerLimits.maxSpeed, 1e-3f);
        c.setMove(1.5f * (target.x - p->x) / speed, 1.5f * (target.y - p->y) / speed);
        farthest = std::max(farthest, steer::distance({p->x, p->y}, *centre));
        if (t > 10.0) break;
      }
    }
    c.takePredictionErrors(errors);
    std::this_thread::sleep_for(5ms);
  }
  c.takePredictionErrors(errors);
  ASSERT_GT(errors.size(), 100u) << "the walk was heard";
  EXPECT_GT(farthest, 4.0f) << "it walked the figure";
  std::sort(errors.begin(), errors.end());
  double mean = 0;
  for (float e : errors) mean += e;
  mean /= static_cast<double>(errors.size());
  const float p99 = errors[errors.size() * 99 / 100];
  std::printf("prediction error over %zu reports: mean %.4f m, p99 %.4f m, max %.4f m, %llu corrections\n",
              errors.size(), mean, p99, errors.back(),
              static_cast<unsigned long long>(c.stats().predictionCorrections));
  EXPECT_LT(p99, 0.10f);
}

}  // namespace
}  // namespace steerd
