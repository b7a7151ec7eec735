#include "app/realtime_run.h"

#include <spdlog/spdlog.h>
#include <asio.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>

#include "app/agones_match.h"
#include "app/agones_sdk.h"
#include "app/fixed_timestep.h"
#include "app/metrics_setup.h"
#include "app/tick_stats.h"
#include "net/game_session.h"
#include "net/http_endpoint.h"
#include "net/net_endpoint.h"
#include "net/server_metrics.h"
#include "net/server_tick.h"
#include "record/recorded_scenario.h"
#include "record/session_recorder.h"
#include "scenario/scenario_file.h"
#include "world/scenarios.h"

namespace steerd {

namespace {

using Clock = std::chrono::steady_clock;

class RealtimeServer {
 public:
  RealtimeServer(const Options& options, World& world, net::GameSession& session, net::NetEndpoint& endpoint,
                 net::ServerMetrics& metrics, AgonesSdk* agones, std::string startOnly,
                 record::SessionRecorder* recorder)
      : options_(options),
        agones_(agones),
        world_(world),
        session_(session),
        metrics_(metrics),
        timestep_(1.0 / options.tickRate, 5),
        timer_(io_),
        signals_(io_, SIGINT, SIGTERM),
        reloadSignal_(io_, SIGHUP),
        startOnly_(std::move(startOnly)),
        tick_(world, session, endpoint, options.tickRate),
        recorder_(recorder) {
    tick_.setObserver(recorder);
    // A snapshot round that outlasted a tick is followed at once by the next (the world has not
    // moved since the last tick, so the round takes that tick's picture).
    session_.setRoundDoneHandler([this] { asio::post(io_, [this] { session_.sendDueSnapshots(); }); });
  }
  ~RealtimeServer() { session_.setRoundDoneHandler(nullptr); }  // waits for the round in flight
  RealtimeServer(const RealtimeServer&) = delete;
  RealtimeServer& operator=(const RealtimeServer&) = delete;

  void run() {
    signals_.async_wait([this](const std::error_code& ec, int signal) {
      if (ec) return;
      spdlog::info("signal {} received: stopping after tick {}", signal, world_.tick());
      metrics_.accepting.store(false, std::memory_order_relaxed);  // /readyz: 503 from now on
      stopping_ = true;
      timer_.cancel();
    });
    armReload();
    watchedTime_ = fileTime();
    last_ = Clock::now();
    if (!(agones_ != nullptr && options_.agonesAllocateOnConnect)) matchStart_ = last_;
    lastStatus_ = last_;
    arm();
    io_.run();
  }

 private:
  void arm() {
    const auto wait = std::chrono::duration<double>(timestep_.untilNextTick());
    timer_.expires_at(last_ + std::chrono::duration_cast<Clock::duration>(wait));
    timer_.async_wait([this](const std::error_code& ec) {
      if (ec || stopping_) {
        stop();
        return;
      }
      onTimer();
    });
  }

  void onTimer() {
    const auto now = Clock::now();
    const FixedTimestep::Plan plan = timestep_.advance(std::chrono::duration<double>(now - last_).count());
    last_ = now;
    for (int i = 0; i < plan.ticks; ++i) {
      // A tick, as timed and reported, is everything the simulation thread does for it: inputs,
      // the world's step, and starting the snapshot round (building it, with --snapshot-threads 0).
      const std::int64_t ns =
          std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
      const net::TickTimes times = tick_.run(ns);
      stats_.add(times.tickMs);
      metrics_.tickSeconds.observe(times.tickMs / 1000.0);
      metrics_.ticks.fetch_add(1, std::memory_order_relaxed);
      metrics_.agents.store(world_.agentCount(), std::memory_order_relaxed);
      metrics_.lastTick.store(world_.tick(), std::memory_order_relaxed);
      metrics_.lastTickSteadyNs.store(ns, std::memory_order_relaxed);
      if (agones_ != nullptr) trackPlayers(now);
    }
    metrics_.lateTicks.fetch_add(static_cast<std::uint64_t>(plan.late + plan.dropped),
                                 std::memory_order_relaxed);
    stats_.addLate(plan.late + plan.dropped);
    totalLate_ += plan.late + plan.dropped;
    if (plan.dropped > 0) spdlog::warn("fell {} ticks behind real time: skipped them", plan.dropped);
    if (options_.ticks > 0 && world_.tick() >= options_.ticks) {
      spdlog::info("ran {} ticks: stopping", world_.tick());
      endMatch();
      return;
    }
    if (matchOver(now) || timeIsUp(now)) return;
    if (agones_ != nullptr) {
      // Health goes from the tick loop, so a stuck tick stops it and Agones notices.
      if (std::chrono::duration<double>(now - lastHealth_).count() >= options_.agonesHealthInterval) {
        agones_->health();
        lastHealth_ = now;
      }
      if (session_.clientCount() != reportedPlayers_) {
        reportedPlayers_ = session_.clientCount();
        agones_->players(reportedPlayers_);
      }
    }
    const double sinceStatus = std::chrono::duration<double>(now - lastStatus_).count();
    if (options_.statusInterval > 0 && sinceStatus >= options_.statusInterval) {
      spdlog::info(
          "tick {} | agents {} | clients {} | tick mean {:.2f} ms p99 {:.2f} ms | late {} (total {})",
          world_.tick(), world_.agentCount(), session_.clientCount(), stats_.mean(), stats_.percentile(99),
          stats_.late(), totalLate_);
      stats_.reset();
      lastStatus_ = now;
      if (options_.watch) {
        const auto t = fileTime();
        if (t != watchedTime_) {
          watchedTime_ = t;
          reload("file changed");
        }
      }
    }
    arm();
  }

  void stop() {
    signals_.cancel();
    reloadSignal_.cancel();
  }

  void endMatch() {
    metrics_.accepting.store(false, std::memory_order_relaxed);
    if (agones_ != nullptr) agones_->shutdown();
    stop();
  }

  // Agones' "players" List and label follow joins and leaves of clients with a body (not control
  // clients or watchers); with --agones-allocate-on-connect the first of them allocates the server.
  void trackPlayers(Clock::time_point now) {
    for (const net::NetEvent& e : session_.takenEvents()) {
      if (e.kind == net::NetEvent::Kind::kJoin && !e.noBody) {
        players_.insert(e.clientId);
        agones_->playerJoined(e.clientId);
        if (options_.agonesAllocateOnConnect && !allocated_) {
          spdlog::info("agones: first player (client {}): Allocate", e.clientId);
          agones_->allocate();
          allocated_ = true;
          matchStart_ = now;
        }
      } else if (e.kind == net::NetEvent::Kind::kLeave && players_.erase(e.clientId) > 0) {
        agones_->playerLeft(e.clientId);
      }
    }
  }

  // --match-time-limit: from the match's start (allocation, or the first player with
  // --agones-allocate-on-connect, or the server's start without Agones).
  bool timeIsUp(Clock::time_point now) {
    if (options_.matchTimeLimit <= 0 || !matchStart_) return false;
    if (std::chrono::duration<double>(now - *matchStart_).count() < options_.matchTimeLimit) return false;
    spdlog::info("the match's time limit of {} s is up: the match is over", options_.matchTimeLimit);
    endMatch();
    return true;
  }

  // --shutdown-when-empty: once someone has played and everyone has left for that long.
  bool matchOver(Clock::time_point now) {
    if (options_.shutdownWhenEmpty <= 0) return false;
    if (session_.clientCount() > 0) {
      hadPlayers_ = true;
      emptySince_.reset();
      return false;
    }
    if (!hadPlayers_) return false;
    if (!emptySince_) emptySince_ = now;
    if (std::chrono::duration<double>(now - *emptySince_).count() < options_.shutdownWhenEmpty) return false;
    spdlog::info("no players for {} s: the match is over", options_.shutdownWhenEmpty);
    endMatch();
    return true;
  }

  void armReload() {
    reloadSignal_.async_wait([this](const std::error_code& ec, int) {
      if (ec) return;
      reload("SIGHUP");
      armReload();
    });
  }

  bool isFile() const {
    const auto names = scenarioNames();
    return std::find(names.begin(), names.end(), options_.scenario) == names.end();
  }

  std::filesystem::file_time_type fileTime() const {
    std::error_code ignored;
    return isFile() ? std::filesystem::last_write_time(options_.scenario, ignored)
                    : std::filesystem::file_time_type{};
  }

  // Live tuning: the file's archetypes replace the running ones between ticks; agents and their
  // memory stay. A file that does not load, or changes which archetypes exist, is rejected with
  // its errors and the running version stays in force. Geometry and spawns need a restart.
  void reload(const char* why) {
    if (!isFile()) {
      spdlog::warn("reload ({}): built-in scenario '{}' has no file to reload", why, options_.scenario);
      return;
    }
    record::RecordedScenario text;
    std::string readError;
    if (!record::readScenario(options_.scenario, text, readError, scenarioOptionsOf(options_))) {
      spdlog::error("reload ({}) rejected: {}; the running version stays in force", why, readError);
      return;
    }
    ScenarioLoad load = loadScenarioText(text.text, options_.scenario, scenarioOptionsOf(options_), false,
                                         std::filesystem::path(options_.scenario).parent_path().string());
    for (const auto& e : load.errors) spdlog::error("{}", e);
    for (const auto& w : load.warnings) spdlog::warn("reload ({}): {}", why, w);
    std::string problem =
        load.errors.empty() ? std::string{} : std::to_string(load.errors.size()) + " error(s)";
    const std::size_t archetypesBefore = world_.archetypes().size();
    if (problem.empty()) problem = world_.replaceArchetypes(std::move(load.archetypes));
    if (!problem.empty()) {
      spdlog::error("reload ({}) of {} rejected: {}; the running version stays in force", why,
                    options_.scenario, problem);
      return;
    }
    if (recorder_ != nullptr) recorder_->reloaded(std::move(text.text));
    const std::size_t added = world_.archetypes().size() - archetypesBefore;
    spdlog::info("reloaded {} ({}): archetype parameters and behaviours updated at tick {}, {} agents kept{}",
                 options_.scenario, why, world_.tick(), world_.agentCount(),
                 added > 0 ? fmt::format(", {} archetype(s) added (spawn them with the control API)", added)
                           : std::string{});
    if (load.startOnly != startOnly_) {
      spdlog::warn(
          "reload ({}): {} changed geometry, paths, spawn groups or the navmesh: those are read at start "
          "only and the running world keeps its own (restart to use them; add agents at run time "
          "with the control API's Spawn)",
          why, options_.scenario);
      startOnly_ = load.startOnly;  // said once per edit
    }
  }

  const Options& options_;
  AgonesSdk* agones_;
  Clock::time_point lastHealth_{};
  std::size_t reportedPlayers_ = static_cast<std::size_t>(-1);
  bool hadPlayers_ = false;
  bool allocated_ = false;                       // --agones-allocate-on-connect: Allocate was called
  std::optional<Clock::time_point> matchStart_;  // for --match-time-limit
  std::set<std::uint32_t> players_;              // clients with a body, as told to Agones
  std::optional<Clock::time_point> emptySince_;
  World& world_;
  net::GameSession& session_;
  net::ServerMetrics& metrics_;
  FixedTimestep timestep_;
  asio::io_context io_;
  asio::steady_timer timer_;
  asio::signal_set signals_;
  asio::signal_set reloadSignal_;
  std::string startOnly_;  // the file's start-only parts as loaded (ScenarioLoad::startOnly)
  std::filesystem::file_time_type watchedTime_;
  Clock::time_point last_, lastStatus_;
  TickStats stats_;
  net::ServerTick tick_;
  record::SessionRecorder* recorder_;
  std::uint64_t totalLate_ = 0;
  bool stopping_ = false;
};

}  // namespace

namespace {

// The match's world: the scenario read once (a recording embeds those very bytes) and built.
struct MatchWorld {
  record::RecordedScenario scenario;
  std::unique_ptr<World> world;
  std::string startOnly;
};

std::optional<MatchWorld> loadMatchWorld(const Options& options) {
  MatchWorld m;
  if (std::string error;
      !record::readScenario(options.scenario, m.scenario, error, scenarioOptionsOf(options))) {
    spdlog::error("{}", error);
    return std::nullopt;
  }
  ScenarioLoad load = record::loadRecordedScenario(m.scenario, scenarioOptionsOf(options));
  for (const auto& e : load.errors) spdlog::error("{}", e);
  for (const auto& w : load.warnings) spdlog::warn("{}", w);
  if (!load.world) return std::nullopt;
  m.world = std::move(load.world);
  m.startOnly = std::move(load.startOnly);
  return m;
}

// The network's settings; nullopt, logged, when the token key file does not load.
std::optional<net::NetConfig> netConfigOf(const Options& options) {
  net::NetConfig netConfig;
  netConfig.bind = options.bind;
  netConfig.port = options.port;
  netConfig.maxClients = options.maxClients;
  netConfig.maxClientsPerAddress = options.maxClientsPerAddress;
  netConfig.clientTimeoutSeconds = options.clientTimeout;
  netConfig.allowDebug = options.allowDebug;
  netConfig.allowControl = options.allowControl;
  if (!options.tokenKeyFile.empty()) {
    std::string error;
    netConfig.tokenKey = net::readTokenKeyFile(options.tokenKeyFile, error);
    netConfig.publicAddresses = options.publicAddresses;
    if (!netConfig.tokenKey) {
      spdlog::error("{}", error);
      return std::nullopt;
    }
  }
  return netConfig;
}

// The metrics endpoint and the game's UDP endpoint, bound (the UDP one not started yet).
struct Listeners {
  std::unique_ptr<net::HttpEndpoint> http;
  std::unique_ptr<net::NetEndpoint> endpoint;
};

// nullopt, logged, when a port cannot be bound.
std::optional<Listeners> openListeners(const Options& options, const net::NetConfig& netConfig,
                                       net::ServerMetrics& metrics) {
  Listeners l;
  try {
    l.http = std::make_unique<net::HttpEndpoint>(options.bind, options.metricsPort, metrics);
    l.endpoint = std::make_unique<net::NetEndpoint>(netConfig, metrics);
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return std::nullopt;
  }
  return l;
}

// The SDK sidecar's client, watching the game server; nullptr, logged, when the environment does
// not say where the sidecar is.
std::unique_ptr<AgonesSdk> connectAgones() {
  AgonesConfig agonesConfig;
  if (const std::string problem = agonesConfigFromEnvironment(agonesConfig); !problem.empty()) {
    spdlog::error("{}", problem);
    return nullptr;
  }
  spdlog::info("agones: SDK sidecar at http://{}:{}", agonesConfig.host, agonesConfig.port);
  auto agones = std::make_unique<AgonesSdk>(agonesConfig);
  agones->watch();
  return agones;
}

// Ready while refusing players, then the allocation's scenario into options.scenario. False when
// a signal came before any allocation: everything is stopped and shut down then.
bool awaitMatch(AgonesSdk& agones, Options& options, Listeners& l, net::ServerMetrics& metrics) {
  l.endpoint->setAdmitting(false);
  metrics.awaitingMatch.store(true, std::memory_order_relaxed);
  l.endpoint->start();
  spdlog::info("listening on udp {}:{} (refusing players until allocated); metrics on http://{}:{}/metrics",
               options.bind, l.endpoint->port(), options.bind, l.http->port());
  agones.ready();
  const auto allocation = awaitAllocation(agones, options);
  metrics.awaitingMatch.store(false, std::memory_order_relaxed);
  if (!allocation) {
    agones.shutdown();
    l.endpoint->stop();
    l.http->stop();
    spdlog::info("stopped cleanly before any match");
    return false;
  }
  const MatchScenario chosen = scenarioForMatch(options, *allocation);
  if (chosen.refused) {
    spdlog::error("agones: {}", chosen.note);
  } else {
    spdlog::info("agones: allocated: {}", chosen.note);
  }
  options.scenario = chosen.scenario;
  return true;
}

// options.scenario's world or, when an allocation named one that does not load, the fleet's
// (options.scenario then names it again).
std::optional<MatchWorld> loadWorldForMatch(Options& options, const std::string& fleetScenario) {
  auto match = loadMatchWorld(options);
  if (!match && options.scenario != fleetScenario) {
    spdlog::error("the allocation's scenario {} does not load: running the fleet's {}", options.scenario,
                  fleetScenario);
    options.scenario = fleetScenario;
    match = loadMatchWorld(options);
  }
  return match;
}

// --record: what a replay needs to build the same world and run it the same way.
record::Header recordingHeader(const Options& options, const net::NetConfig& netConfig,
                               const MatchWorld& match) {
  const record::RecordedScenario& scenario = match.scenario;
  record::Header header;
  header.set_scenario_name(scenario.name);
  header.set_scenario_text(scenario.text);
  header.set_builtin_scenario(scenario.builtin);
  header.set_seed(options.seed);
  header.set_agents(options.agents);
  header.set_tick_rate(options.tickRate);
  header.set_player_intents(options.playerInput == "intent");
  header.set_max_agents(options.maxAgents);
  header.set_max_clients(netConfig.maxClients);
  header.set_send_rate(options.sendRate);
  header.set_started_unix_ms(std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count());
  header.set_start_tick(match.world->tick());
  return header;
}

// The recorder for --record, started; nullptr, logged, when the file cannot be written.
std::unique_ptr<record::SessionRecorder> startRecording(const Options& options,
                                                        const net::NetConfig& netConfig,
                                                        const MatchWorld& match) {
  std::string error;
  auto recorder =
      record::SessionRecorder::start(options.record, recordingHeader(options, netConfig, match), error);
  if (!recorder) {
    spdlog::error("{}", error);
    return nullptr;
  }
  spdlog::info("recording to {} (replay with steerd --replay {})", options.record, options.record);
  return recorder;
}

net::SessionConfig sessionConfigOf(const Options& options, const World& world) {
  net::SessionConfig sessionConfig;
  sessionConfig.tickRate = options.tickRate;
  sessionConfig.sendRate = options.sendRate;
  sessionConfig.clientKbps = options.clientKbps;
  sessionConfig.interestRadius = options.interestRadius;
  sessionConfig.snapshotThreads = options.snapshotsInTick ? 0u : world.threadCount();
  sessionConfig.controller.maxAgents = options.maxAgents;
  sessionConfig.playerInput =
      options.playerInput == "intent" ? net::PlayerInputMode::kIntent : net::PlayerInputMode::kPosition;
  return sessionConfig;
}

void logServing(const Options& options, const net::NetConfig& netConfig, const World& world,
                const Listeners& l) {
  spdlog::info("steerd: scenario {} seed {}, {} agents, {} Hz, {} threads; Ctrl-C stops", options.scenario,
               options.seed, world.agentCount(), options.tickRate, options.threads);
  spdlog::info("listening on udp {}:{} ({} snapshots/s, up to {} clients{}); metrics on http://{}:{}/metrics",
               options.bind, l.endpoint->port(), options.sendRate, options.maxClients,
               netConfig.tokenKey ? ", connect token required" : "", options.bind, l.http->port());
  if (options.allowDebug) spdlog::info("--allow-debug: clients may ask for one agent's debug stream");
  if (options.allowControl)
    spdlog::warn("--allow-control: every client may spawn, despawn and command NPCs (development only)");
}

void finishRecording(record::SessionRecorder& recorder, const std::string& file) {
  if (recorder.finish()) {
    spdlog::info("recorded {} ticks ({} bytes) to {}", recorder.ticks(), recorder.bytes(), file);
  } else {
    spdlog::error("the recording {} is incomplete: {}", file, recorder.error());
  }
}

}  // namespace

int runRealtime(const Options& fleetOptions) {
  // The network first: under Agones it refuses players while the server waits for its match.
  const std::optional<net::NetConfig> netConfig = netConfigOf(fleetOptions);
  if (!netConfig) return 2;
  net::ServerMetrics metrics;
  describeServer(metrics, fleetOptions);
  // /healthz turns 503 when no tick has completed for a second, or ten ticks if those are longer.
  metrics.stallSeconds = std::max(1.0, 10.0 / fleetOptions.tickRate);
  std::optional<Listeners> listeners = openListeners(fleetOptions, *netConfig, metrics);
  if (!listeners) return 2;
  net::NetEndpoint& endpoint = *listeners->endpoint;

  // Under Agones (docs/OPERATIONS.md): Ready once listening, then, unless players may allocate
  // the server themselves, wait for the allocation and take its scenario.
  Options options = fleetOptions;
  std::unique_ptr<AgonesSdk> agones;
  if (options.agones) {
    agones = connectAgones();
    if (!agones) return 2;
    if (!options.agonesAllocateOnConnect && !awaitMatch(*agones, options, *listeners, metrics)) return 0;
  }

  auto match = loadWorldForMatch(options, fleetOptions.scenario);
  if (!match) {
    if (agones) agones->shutdown();
    return 2;
  }
  World& world = *match->world;
  std::unique_ptr<record::SessionRecorder> recorder;
  if (!options.record.empty()) {
    recorder = startRecording(options, *netConfig, *match);
    if (!recorder) return 2;
  }
  const net::SessionConfig sessionConfig = sessionConfigOf(options, world);
  net::GameSession session(world, endpoint, metrics, sessionConfig);
  if (!endpoint.started()) endpoint.start();
  endpoint.setAdmitting(true);
  metrics.accepting.store(true, std::memory_order_relaxed);
  logServing(options, *netConfig, world, *listeners);
  if (agones && options.agonesAllocateOnConnect) agones->ready();  // (else Ready before the allocation)
  RealtimeServer server(options, world, session, endpoint, metrics, agones.get(), match->startOnly,
                        recorder.get());
  server.run();
  metrics.accepting.store(false, std::memory_order_relaxed);
  endpoint.stop();
  listeners->http->stop();
  if (recorder) finishRecording(*recorder, options.record);
  spdlog::info("stopped cleanly at tick {} (state_hash {:016x})", world.tick(), world.stateHash());
  return 0;
}

}  // namespace steerd
