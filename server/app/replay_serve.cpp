#include "app/replay_serve.h"

#include <spdlog/spdlog.h>
#include <asio.hpp>

#include <chrono>
#include <csignal>
#include <thread>

#include "net/http_endpoint.h"
#include "net/net_endpoint.h"
#include "record/replay.h"

namespace steerd {

int runReplayServe(const Options& options) {
  using Clock = std::chrono::steady_clock;
  net::NetConfig config;
  config.bind = options.bind;
  config.port = options.port;
  config.maxClients = options.maxClients;
  config.clientTimeoutSeconds = options.clientTimeout;
  config.allowDebug = options.allowDebug;
  if (!options.tokenKeyFile.empty()) {
    std::string error;
    config.tokenKey = net::readTokenKeyFile(options.tokenKeyFile, error);
    if (!config.tokenKey) {
      spdlog::error("{}", error);
      return 2;
    }
  }
  net::ServerMetrics metrics;
  std::unique_ptr<net::NetEndpoint> endpoint;
  std::unique_ptr<net::HttpEndpoint> http;
  try {
    endpoint = std::make_unique<net::NetEndpoint>(config, metrics);
    http = std::make_unique<net::HttpEndpoint>(options.bind, options.metricsPort, metrics, 3600.0);
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return 2;
  }
  record::ReplayResult result;
  auto replayer = record::Replayer::open(
      {options.replay, options.threads, scenarioOptionsOf(options).navCacheDir, options.interestRadius},
      endpoint.get(), result, &metrics);
  if (!replayer) {
    std::printf("%s\n", result.summary.c_str());
    return result.exitCode();
  }
  endpoint->start();
  const double rate = replayer->tickRate();
  spdlog::info(
      "replaying {} ({}, seed {}, {} Hz) for viewers; playback starts when the first one connects; "
      "Ctrl-C stops",
      options.replay, replayer->header().scenario_name(), replayer->header().seed(), rate);
  spdlog::info("listening on udp {}:{}; metrics on http://{}:{}/metrics", options.bind, endpoint->port(),
               options.bind, http->port());

  asio::io_context io;
  asio::signal_set signals(io, SIGINT, SIGTERM);
  bool stopping = false;
  signals.async_wait([&](const std::error_code& ec, int signal) {
    if (ec) return;
    spdlog::info("signal {} received: stopping the replay at tick {}", signal, replayer->world().tick());
    stopping = true;
  });
  const auto period = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / rate));
  // Until a watcher is there: the session must still run (it admits them), so the first tick is
  // held, not played: nothing happens to the world while nobody watches.
  while (!stopping && metrics.clients.load(std::memory_order_relaxed) == 0) {
    io.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  auto next = Clock::now();
  auto lastStatus = next;
  while (!stopping) {
    io.poll();
    std::this_thread::sleep_until(next);
    next += period;
    const auto ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
    if (!replayer->next(ns)) break;
    metrics.ticks.fetch_add(1, std::memory_order_relaxed);
    metrics.lastTickSteadyNs.store(ns, std::memory_order_relaxed);
    metrics.lastTick.store(replayer->world().tick(), std::memory_order_relaxed);
    metrics.agents.store(replayer->world().agentCount(), std::memory_order_relaxed);
    if (options.statusInterval > 0 &&
        std::chrono::duration<double>(Clock::now() - lastStatus).count() >= options.statusInterval) {
      lastStatus = Clock::now();
      spdlog::info("replay tick {} | agents {} | watchers {}", replayer->world().tick(),
                   replayer->world().agentCount(), metrics.clients.load(std::memory_order_relaxed));
    }
  }
  endpoint->stop();
  http->stop();
  const record::ReplayResult& r = replayer->result();
  for (const auto& d : r.details) std::printf("  %s\n", d.c_str());
  if (stopping) {
    std::printf("replay stopped at tick %llu: %llu ticks played, every state hash equal\n",
                static_cast<unsigned long long>(replayer->world().tick()),
                static_cast<unsigned long long>(r.ticks));
    return 0;
  }
  std::printf("%s\n", r.summary.c_str());
  return r.exitCode();
}

}  // namespace steerd
