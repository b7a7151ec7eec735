#include "app/replay_serve.h"

#include <spdlog/spdlog.h>
#include <asio.hpp>

#include <chrono>
#include <csignal>
#include <thread>

#include "app/metrics_setup.h"
#include "net/http_endpoint.h"
#include "net/net_endpoint.h"
#include "record/replay_playback.h"

namespace steerd {

int runReplayServe(const Options& options) {
  using Clock = std::chrono::steady_clock;
  net::NetConfig config;
  config.bind = options.bind;
  config.port = options.port;
  config.maxClients = options.maxClients;
  config.maxClientsPerAddress = options.maxClientsPerAddress;
  config.clientTimeoutSeconds = options.clientTimeout;
  config.allowDebug = options.allowDebug;
  config.replayControls = true;
  if (!options.tokenKeyFile.empty()) {
    std::string error;
    config.tokenKey = net::readTokenKeyFile(options.tokenKeyFile, error);
    config.publicAddresses = options.publicAddresses;
    if (!config.tokenKey) {
      spdlog::error("{}", error);
      return 2;
    }
  }
  net::ServerMetrics metrics;
  describeServer(metrics, options);
  metrics.stallSeconds = 3600.0;  // a paused replay ticks no more, and is still well
  std::unique_ptr<net::NetEndpoint> endpoint;
  std::unique_ptr<net::HttpEndpoint> http;
  try {
    endpoint = std::make_unique<net::NetEndpoint>(config, metrics);
    http = std::make_unique<net::HttpEndpoint>(options.bind, options.metricsPort, metrics);
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return 2;
  }
  record::ReplayResult opened;
  auto playback =
      record::ReplayPlayback::open({options.replay, options.threads, scenarioOptionsOf(options).navCacheDir,
                                    options.interestRadius, true, options.clientKbps, options.maxClients},
                                   *endpoint, opened, &metrics);
  if (!playback) {
    std::printf("%s\n", opened.summary.c_str());
    return opened.exitCode();
  }
  endpoint->start();
  metrics.accepting.store(true, std::memory_order_relaxed);
  spdlog::info(
      "replaying {} ({}, seed {}, {} Hz, ticks {} to {}) for viewers; playback starts when the first one "
      "connects, and they can pause, step, change the speed and seek; it ends once played to its end "
      "with no viewer left; Ctrl-C stops",
      options.replay, playback->header().scenario_name(), playback->header().seed(),
      playback->header().tick_rate(), playback->firstTick(), playback->lastTick());
  spdlog::info("listening on udp {}:{}; metrics on http://{}:{}/metrics", options.bind, endpoint->port(),
               options.bind, http->port());

  asio::io_context io;
  asio::signal_set signals(io, SIGINT, SIGTERM);
  bool stopping = false;
  signals.async_wait([&](const std::error_code& ec, int signal) {
    if (ec) return;
    spdlog::info("signal {} received: stopping the replay at tick {}", signal, playback->tick());
    stopping = true;
  });
  const auto steadyNs = [] {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
  };
  auto lastStatus = Clock::now();
  while (!stopping && !(playback->ended() && playback->watcherCount() == 0)) {
    io.poll();
    const std::int64_t next = playback->update(steadyNs());
    if (options.statusInterval > 0 &&
        std::chrono::duration<double>(Clock::now() - lastStatus).count() >= options.statusInterval) {
      lastStatus = Clock::now();
      spdlog::info("replay tick {} of {} | {}{}x | agents {} | watchers {}", playback->tick(),
                   playback->lastTick(), playback->paused() ? "paused | " : "", playback->speed(),
                   playback->world().agentCount(), playback->watcherCount());
    }
    const std::int64_t wait = next - steadyNs();
    if (wait > 0) std::this_thread::sleep_for(std::chrono::nanoseconds(wait));
  }
  metrics.accepting.store(false, std::memory_order_relaxed);
  endpoint->stop();
  http->stop();
  const record::ReplayResult& r = playback->result();
  for (const auto& d : r.details) std::printf("  %s\n", d.c_str());
  if (!playback->ended() && r.outcome == record::ReplayResult::Outcome::kEqual) {
    std::printf("replay stopped at tick %llu: %llu ticks played, every state hash equal\n",
                static_cast<unsigned long long>(playback->tick()),
                static_cast<unsigned long long>(playback->ticksPlayed()));
    return r.exitCode();
  }
  std::printf("%s\n", r.summary.c_str());
  return r.exitCode();
}

}  // namespace steerd
