// A steerd server for integration tests: the default scenario (or a setup's) in real time on its
// own thread, 30 Hz, snapshots at 20 Hz, with the true positions of every tick recorded.
#pragma once

#include <asio.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "net/game_session.h"
#include "net/net_endpoint.h"
#include "net/server_tick.h"
#include "scenario/scenario_file.h"

namespace steerd::testing {

using Clock = std::chrono::steady_clock;

struct Truth final : net::TickObserver {
  void afterStep(const World& world, const std::vector<net::NetEvent>&) override {
    std::lock_guard lock(mutex);
    auto& positions = byTick[static_cast<std::uint32_t>(world.tick())];
    const AgentColumns& a = world.agents();
    for (std::size_t s = 0; s < a.size(); ++s) positions[a.id[s]] = {a.px[s], a.py[s]};
  }
  std::mutex mutex;
  std::map<std::uint32_t, std::map<std::uint32_t, steer::Vec2>> byTick;  // tick -> id -> position

  std::optional<steer::Vec2> at(double tick, std::uint32_t id) {
    std::lock_guard lock(mutex);
    const auto lo = static_cast<std::uint32_t>(std::floor(tick));
    auto a = byTick.find(lo), b = byTick.find(lo + 1);
    if (a == byTick.end() || b == byTick.end()) return std::nullopt;
    auto pa = a->second.find(id), pb = b->second.find(id);
    if (pa == a->second.end() || pb == b->second.end()) return std::nullopt;
    const float t = static_cast<float>(tick - lo);
    return pa->second + (pb->second - pa->second) * t;
  }
};

// A real-time server on its own thread: the default scenario at 30 Hz, snapshots at 20 Hz.
class RealtimeServer {
 public:
  explicit RealtimeServer(net::NetConfig config = {}, net::SessionConfig session = {}) {
    ScenarioOptions o;
    o.seed = 3;
    o.threads = 1;
    world_ = openScenario("default", o).world;
    config.bind = "127.0.0.1";
    config.port = 0;
    endpoint_ = std::make_unique<net::NetEndpoint>(config, metrics_);
    session_ = std::make_unique<net::GameSession>(*world_, *endpoint_, metrics_, session);
    tick_ = std::make_unique<net::ServerTick>(*world_, *session_, *endpoint_, 30.0);
    tick_->setObserver(&truth_);
    endpoint_->start();
    thread_ = std::thread([this] { loop(); });
  }
  ~RealtimeServer() {
    stop_ = true;
    thread_.join();
    endpoint_->stop();
  }
  std::uint16_t port() const { return endpoint_->port(); }
  Truth& truth() { return truth_; }
  const net::ServerMetrics& metrics() const { return metrics_; }

 private:
  void loop() {
    auto next = Clock::now();
    while (!stop_) {
      tick_->run(
          std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count());
      next += std::chrono::microseconds(33333);
      std::this_thread::sleep_until(next);
    }
  }

  net::ServerMetrics metrics_;
  std::unique_ptr<World> world_;
  std::unique_ptr<net::NetEndpoint> endpoint_;
  std::unique_ptr<net::GameSession> session_;
  std::unique_ptr<net::ServerTick> tick_;
  Truth truth_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace steerd::testing
