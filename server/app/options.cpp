#include "app/options.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>

#include "app/build_info.h"
#include "scenario/scenario_file.h"

namespace steerd {

namespace {
constexpr std::uintmax_t kMaxConfigBytes = 256 * 1024;  // flags, one a line: a few KiB at most
constexpr long kMaxConfigSectionDepth = 8;
}  // namespace

std::string defaultNavCacheDir() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg != nullptr && *xdg != '\0') return std::string(xdg) + "/steerd";
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0' || std::string(home) == "/nonexistent") return {};
  return std::string(home) + "/.cache/steerd";
}

ScenarioOptions scenarioOptionsOf(const Options& o) {
  ScenarioOptions s;
  s.seed = o.seed;
  s.threads = o.threads;
  s.agents = o.agents;
  s.navCacheDir = o.navCache == "none" ? std::string{} : o.navCache;
  s.levelScale = o.levelScale;
  s.levelUp = o.levelUp;
  s.levelWalkable = o.levelWalkable;
  s.levelBlocking = o.levelBlocking;
  s.levelMetresPerTile = o.levelMetresPerTile;
  return s;
}

// A config file is read whole by CLI11's parser: a device (/dev/urandom) would be read without end
// and deeply nested section headers made it allocate without bound (std::bad_alloc), so only a
// regular file of a config's size, with headers a few levels deep, is handed to it.
std::string configTextProblem(const std::string& text, const std::string& name) {
  if (text.size() > kMaxConfigBytes)
    return name + " is larger than " + std::to_string(kMaxConfigBytes / 1024) + " KiB";
  std::istringstream in(text);
  int lineNumber = 0;
  for (std::string line; std::getline(in, line);) {
    ++lineNumber;
    const auto start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] != '[') continue;
    if (std::count(line.begin(), line.end(), '.') > kMaxConfigSectionDepth)
      return name + ":" + std::to_string(lineNumber) + ": a section header more than " +
             std::to_string(kMaxConfigSectionDepth) + " levels deep";
  }
  return {};
}

std::string configFileProblem(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return path + " is not a regular file";
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size > kMaxConfigBytes)
    return path + " is larger than " + std::to_string(kMaxConfigBytes / 1024) + " KiB";
  std::ifstream in(path, std::ios::binary);
  std::string text(kMaxConfigBytes + 1, '\0');  // a file that grew since is still read no further
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return configTextProblem(text, path);
}

// "host:port" as a token names a server: something before the last colon, a port after it.
std::string hostPortProblem(const std::string& s) {
  const auto colon = s.rfind(':');
  if (colon == std::string::npos || colon == 0 || s.size() > 255) return "'" + s + "' is not host:port";
  const std::string port = s.substr(colon + 1);
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoul(port) == 0 || std::stoul(port) > 65535)
    return "'" + s + "': the port must be 1 to 65535";
  return {};
}

namespace {

// parseOptions, or (`configText` given) the text of a --config file instead of a command line.
std::optional<int> parseWith(int argc, char** argv, const std::string* configText, Options& out) {
  CLI::App app{"steerd: server-authoritative steering server for game NPCs"};
  app.option_defaults()->always_capture_default();
  const auto names = scenarioNames();
  std::string builtins;
  for (const auto& n : names) builtins += (builtins.empty() ? "" : ", ") + n;
  app.add_option("--scenario", out.scenario, "Built-in scenario (" + builtins + ") or scenario file (.txtpb)")
      ->envname("STEERD_SCENARIO")
      ->check(
          [names](const std::string& v) -> std::string {
            for (const auto& n : names) {
              if (n == v) return {};
            }
            return CLI::ExistingFile(v).empty() ? std::string{}
                                                : "no built-in scenario or readable file named '" + v + "'";
          },
          "NAME or FILE");
  app.add_option("--level", out.level,
                 "A game's level to run: a mesh (.obj, .gltf, .glb) or a Tiled map (.tmx, .tmj), crowded "
                 "with --agents walkers (default 200) going between random points (docs/LEVELS.md)")
      ->check(CLI::ExistingFile)
      ->excludes("--scenario");
  app.add_option("--level-scale", out.levelScale, "Level meshes: file units to metres (default 1)")
      ->check(CLI::Range(1e-4f, 1e4f));
  app.add_option("--level-up", out.levelUp, "Level meshes: the file's up axis, y (default; glTF's) or z")
      ->check(CLI::IsMember({"y", "z"}));
  app.add_option("--level-walkable", out.levelWalkable,
                 "Level meshes: glob over object, node and mesh names that may be walked on (default *)");
  app.add_option(
      "--level-blocking", out.levelBlocking,
      "Level meshes: glob over names that only block, never walked on (wins over --level-walkable)");
  app.add_option("--level-metres-per-tile", out.levelMetresPerTile, "Tiled maps: metres per tile (default 1)")
      ->check(CLI::Range(1e-3f, 1e3f));
  app.add_option("--check-scenario", out.checkScenario,
                 "Validate a scenario file (or the built-in default), report every error, and exit");
  app.add_option("--nav-cache", out.navCache,
                 "Directory where built navmeshes are cached by geometry hash (\"none\": always build)")
      ->envname("STEERD_NAV_CACHE");
  app.add_flag("--watch", out.watch,
               "Reload the scenario file's archetypes when the file changes (SIGHUP always reloads)");
  app.add_option("--bind", out.bind, "Address to listen on (UDP game port and metrics)")
      ->envname("STEERD_BIND");
  app.add_option("--port", out.port, "UDP game port (0: any free port, logged)")->envname("STEERD_PORT");
  app.add_option("--metrics-port", out.metricsPort,
                 "HTTP port for /metrics, /healthz and /readyz (0: any free port, logged)")
      ->envname("STEERD_METRICS_PORT");
  app.add_option("--send-rate", out.sendRate, "Snapshots per second to each client (at most --tick-rate)")
      ->check(CLI::Range(1.0, 1000.0))
      ->envname("STEERD_SEND_RATE");
  app.add_option("--max-clients", out.maxClients, "Clients admitted at once; more are refused")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100'000}))
      ->envname("STEERD_MAX_CLIENTS");
  app.add_option("--max-clients-per-address", out.maxClientsPerAddress,
                 "Sessions one address (an IPv4 address, an IPv6 /64) may hold at once, so one machine "
                 "cannot take every slot; more than one, for players sharing a home or office NAT; "
                 "loopback is not counted; 0: no cap")
      ->check(CLI::Range(std::size_t{0}, std::size_t{100'000}))
      ->envname("STEERD_MAX_CLIENTS_PER_ADDRESS");
  app.add_option("--client-kbps", out.clientKbps, "Snapshot bandwidth budget per client, kbit/s")
      ->check(CLI::Range(8.0, 100'000.0))
      ->envname("STEERD_CLIENT_KBPS");
  app.add_flag("--snapshots-in-tick", out.snapshotsInTick,
               "Build clients' snapshots within the tick, on the simulation's threads (default: on as many "
               "threads of their own, while the next tick steps; a round still being built when the next "
               "is due delays that one instead of the tick)")
      ->envname("STEERD_SNAPSHOTS_IN_TICK");
  app.add_option("--interest-radius", out.interestRadius,
                 "Each client sees the entities within this many m of its player (0: the whole world)")
      ->check(CLI::Range(0.0f, 1e6f));
  app.add_option("--client-timeout", out.clientTimeout, "Seconds of silence before a client is dropped")
      ->check(CLI::Range(0.5, 3600.0));
  app.add_option("--token-key", out.tokenKeyFile,
                 "File with a 64-hex-digit key shared with the matchmaker: only clients with a connect token "
                 "sealed with it, and its keys, get in")
      ->check(CLI::ExistingFile)
      ->envname("STEERD_TOKEN_KEY_FILE");
  app.add_option("--issue-token", out.issueToken,
                 "Print a connect token for this client id, sealed with --token-key, with its keys, and exit "
                 "(a matchmaker's job)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1} << 62));
  app.add_option("--token-ttl", out.tokenTtl, "Seconds a token from --issue-token stays valid")
      ->check(CLI::Range(1.0, 1e9));
  app.add_option("--token-server", out.tokenServers,
                 "A server (host:port) the token --issue-token prints is good for; repeat for a list. "
                 "None: any server with the key")
      ->check(hostPortProblem, "HOST:PORT");
  app.add_option("--token-timeout", out.tokenTimeout,
                 "Seconds of silence that end the session of the token --issue-token prints (0: the "
                 "server's --client-timeout, which also caps it)")
      ->check(CLI::Range(0u, 3600u));
  app.add_option("--public-address", out.publicAddresses,
                 "This server's address as clients reach it (host:port, repeat for several): a connect "
                 "token that names servers must name one of these (without it: one with this --port)")
      ->check(hostPortProblem, "HOST:PORT")
      ->envname("STEERD_PUBLIC_ADDRESS");
  app.add_option("--role", out.role,
                 "Role of the token --issue-token prints: player, or control (a game-logic client whose "
                 "commands drive the NPCs: docs/CONTROL.md)")
      ->check(CLI::IsMember({"player", "control"}));
  app.add_option("--player-input", out.playerInput,
                 "How clients move their players: intent (the client says where it wants to go; the "
                 "server moves the body, colliding with the scene, and the client predicts it: "
                 "docs/PROTOCOL.md) or position (the client says where, for games whose player "
                 "movement is authoritative elsewhere; the server checks bounds, speed and jumps)")
      ->check(CLI::IsMember({"position", "intent"}))
      ->envname("STEERD_PLAYER_INPUT");
  app.add_flag("--allow-control", out.allowControl,
               "Give every client the control role (spawn, despawn and command NPCs; local development "
               "only: in production give control tokens with --issue-token ID --role control)")
      ->envname("STEERD_ALLOW_CONTROL");
  app.add_option("--max-agents", out.maxAgents,
                 "Live agents past which control API spawns are refused. The default, 100000, is what "
                 "2 vCPUs tick at 30 Hz in the default scenario's mix (25 ms a tick on 2 threads; "
                 "200000 take 47 ms, past a tick's 33 ms: docs/PERFORMANCE.md); raise it with the cores")
      ->check(CLI::Range(std::size_t{1}, std::size_t{4'000'000}));
  app.add_flag("--allow-debug", out.allowDebug,
               "Send the debug stream of one agent (brain state, transitions, behaviour forces; about 5 a "
               "second, outside the snapshot budget) to clients that ask; off: their requests are dropped")
      ->envname("STEERD_ALLOW_DEBUG");
  app.add_flag(
         "--agones", out.agones,
         "Run as an Agones game server: Ready, Health, player count and Shutdown through the SDK sidecar "
         "(port from AGONES_SDK_HTTP_PORT, default 9358)")
      ->envname("STEERD_AGONES");
  app.add_option("--agones-health-interval", out.agonesHealthInterval, "Seconds between Agones Health pings")
      ->check(CLI::Range(0.1, 60.0));
  app.add_option("--shutdown-when-empty", out.shutdownWhenEmpty,
                 "End the match this many seconds after the last player leaves (with --agones: ask for "
                 "Shutdown); 0: never")
      ->check(CLI::Range(0.0, 1e7))
      ->envname("STEERD_SHUTDOWN_WHEN_EMPTY");
  app.add_option("--match-time-limit", out.matchTimeLimit,
                 "End the match this many seconds after it starts (with --agones: after allocation; then "
                 "ask for Shutdown); 0: no limit")
      ->check(CLI::Range(0.0, 1e7))
      ->envname("STEERD_MATCH_TIME_LIMIT");
  app.add_flag("--agones-allocate-on-connect", out.agonesAllocateOnConnect,
               "With --agones: admit players while the GameServer is Ready and Allocate it at the first "
               "one (players who get the address without an allocation); default: refuse players until "
               "the GameServer is Allocated");
  app.add_option("--scenario-dir", out.scenarioDir,
                 "Where the scenario an allocation names (annotation steerd.dev/scenario: a built-in name or "
                 "a FILE.txtpb) is looked up")
      ->envname("STEERD_SCENARIO_DIR");
  app.add_option("--seed", out.seed, "World seed: same seed and inputs give the same world")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--threads", out.threads, "Simulation threads (0: one per hardware thread)")
      ->check(CLI::Range(0u, 256u))
      ->envname("STEERD_THREADS");
  app.add_option("--agents", out.agents,
                 "Agents: the crowd's exact size; for default and scenario files, about this many (the "
                 "file's world is repeated side by side)")
      ->check(CLI::Range(std::size_t{0}, std::size_t{4'000'000}));
  app.add_option("--tick-rate", out.tickRate, "Simulation ticks per second")
      ->check(CLI::Range(1.0, 1000.0))
      ->envname("STEERD_TICK_RATE");
  app.add_flag("--headless", out.headless,
               "Run --ticks ticks as fast as possible, no network; print state_hash");
  app.add_option("--ticks", out.ticks, "Ticks to run (required with --headless; 0 = until SIGINT otherwise)");
  app.add_flag("--report", out.report,
               "With --headless: motion quality, time in each brain state and transitions, agents in each "
               "region of the scenario file");
  app.add_flag(
      "--lod", out.lod,
      "With --headless: update level of detail: agents far from every player steer every 2nd, 4th or "
      "8th tick (bands per archetype: lod_distances)");
  app.add_option(
         "--bots", out.bots,
         "With --headless: N stand-in players wandering the world (archetype \"bot\"); turns on --lod")
      ->check(CLI::Range(std::size_t{0}, std::size_t{100'000}));
  app.add_flag("--no-lod", out.noLod,
               "With --bots: no level of detail, every agent at full rate (to compare)");
  app.add_option("--expect", out.expect,
                 "With --headless: REGION:ARCHETYPE>=SHARE@SECONDS, e.g. pen:sheep>=0.9@120 (repeatable); "
                 "exit 1 unless that share of the archetype is in the scenario file's region at that time");
  app.add_option("--record", out.record,
                 "Record the session to this file: the scenario, the seed, every join, leave, input and "
                 "command, and every tick's state hash (docs/RECORDING.md)");
  app.add_option("--replay", out.replay,
                 "Re-run a recording headless (any --threads), check every tick against it, report the "
                 "first tick that differs, and exit (0: every tick equal)")
      ->check(CLI::ExistingFile);
  app.add_flag("--serve", out.serve,
               "With --replay: play the recording in real time for viewers (on --port) to watch, still "
               "checking every tick; starts when the first viewer connects");
  app.add_option("--log-level", out.logLevel, "trace, debug, info, warn, error, critical, off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}))
      ->envname("STEERD_LOG_LEVEL");
  app.add_option("--log-format", out.logFormat,
                 "text (one line each, UTC time) or json (one object per line: time in UTC, level, message)")
      ->check(CLI::IsMember({"text", "json"}))
      ->envname("STEERD_LOG_FORMAT");
  app.set_version_flag("--version", versionText(), "Print the version, compiler and build flags, and exit");
  // Same keys as the flags, without the dashes: `tick-rate = 20`, `scenario = "yard.txtpb"` (TOML
  // or INI); flags on the command line win over the file.
  app.set_config("--config", "", "Read flags from this TOML file (keys are the flag names: tick-rate = 20)")
      ->check(CLI::ExistingFile)
      ->check(configFileProblem, "FILE");
  app.allow_config_extras(CLI::config_extras_mode::error);  // a misspelt key is an error, not ignored
  app.add_option("--status-interval", out.statusInterval, "Seconds between status lines (0: none)")
      ->check(CLI::Range(0.0, 3600.0));
  try {
    if (configText != nullptr) {
      std::istringstream in(*configText);
      app.parse_from_stream(in);  // what --config FILE does with the file's text
    } else {
      app.parse(argc, argv);
    }
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every refused flag or config file exits 2, the usage-error
    // convention (CLI11's own codes, 100 and up, mean nothing to a shell script or an orchestrator).
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (!out.level.empty()) out.scenario = out.level;
  // CLI11's Range lets NaN through (every comparison with NaN is false).
  const std::pair<const char*, double> numbers[] = {{"--tick-rate", out.tickRate},
                                                    {"--status-interval", out.statusInterval},
                                                    {"--send-rate", out.sendRate},
                                                    {"--client-kbps", out.clientKbps},
                                                    {"--interest-radius", out.interestRadius},
                                                    {"--client-timeout", out.clientTimeout},
                                                    {"--token-ttl", out.tokenTtl},
                                                    {"--agones-health-interval", out.agonesHealthInterval},
                                                    {"--shutdown-when-empty", out.shutdownWhenEmpty},
                                                    {"--match-time-limit", out.matchTimeLimit},
                                                    {"--level-scale", out.levelScale},
                                                    {"--level-metres-per-tile", out.levelMetresPerTile}};
  for (const auto& [name, value] : numbers) {
    if (!std::isfinite(value)) {
      std::fprintf(stderr, "%s must be a finite number\nRun with --help for more information.\n", name);
      return 2;
    }
  }
  if (out.sendRate > out.tickRate) {
    std::fprintf(stderr,
                 "--send-rate (%g) cannot exceed --tick-rate (%g)\nRun with --help for more information.\n",
                 out.sendRate, out.tickRate);
    return 2;
  }
  if (out.issueToken >= 0 && out.tokenKeyFile.empty()) {
    std::fprintf(stderr, "--issue-token needs --token-key FILE\nRun with --help for more information.\n");
    return 2;
  }
  if (out.headless && out.ticks == 0) {
    std::fprintf(stderr, "--headless needs --ticks N (N > 0)\nRun with --help for more information.\n");
    return 2;
  }
  if (!out.expect.empty() && !out.headless) {
    std::fprintf(stderr, "--expect works with --headless only\nRun with --help for more information.\n");
    return 2;
  }
  for (const std::string& e : out.expect) {
    ReportExpectation parsed;
    if (const std::string error = parseExpectation(e, parsed); !error.empty()) {
      std::fprintf(stderr, "--expect: %s\nRun with --help for more information.\n", error.c_str());
      return 2;
    }
  }
  if ((out.lod || out.noLod || out.bots > 0) && !out.headless) {
    std::fprintf(
        stderr,
        "--lod, --no-lod and --bots work with --headless only\nRun with --help for more information.\n");
    return 2;
  }
  if (out.lod && out.noLod) {
    std::fprintf(stderr, "--lod and --no-lod contradict each other\nRun with --help for more information.\n");
    return 2;
  }
  if (out.report && !out.headless) {
    std::fprintf(stderr, "--report works with --headless only\nRun with --help for more information.\n");
    return 2;
  }
  if (!out.record.empty() && (out.headless || !out.replay.empty() || !out.checkScenario.empty())) {
    std::fprintf(stderr,
                 "--record records a real-time server (a --headless run is already reproduced by its seed)\n"
                 "Run with --help for more information.\n");
    return 2;
  }
  if (out.serve && out.replay.empty()) {
    std::fprintf(stderr, "--serve works with --replay FILE only\nRun with --help for more information.\n");
    return 2;
  }
  if (!out.replay.empty() && out.headless) {
    std::fprintf(
        stderr, "--replay runs headless by itself: drop --headless\nRun with --help for more information.\n");
    return 2;
  }
  if (out.agonesAllocateOnConnect && !out.agones) {
    std::fprintf(
        stderr,
        "--agones-allocate-on-connect works with --agones only\nRun with --help for more information.\n");
    return 2;
  }
  if (out.threads == 0) out.threads = std::max(1u, std::thread::hardware_concurrency());
  return std::nullopt;
}

}  // namespace

std::optional<int> parseOptions(int argc, char** argv, Options& out) {
  return parseWith(argc, argv, nullptr, out);
}

std::optional<int> parseConfigText(const std::string& text, Options& out) {
  if (const std::string problem = configTextProblem(text, "config"); !problem.empty()) {
    std::fprintf(stderr, "--config: %s\nRun with --help for more information.\n", problem.c_str());
    return 2;
  }
  return parseWith(0, nullptr, &text, out);
}

}  // namespace steerd
