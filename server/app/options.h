// Command-line options of steerd.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace steerd {

// $STEERD_NAV_CACHE is read by the flag; else $XDG_CACHE_HOME/steerd, else $HOME/.cache/steerd,
// else none (a container user without a home).
std::string defaultNavCacheDir();

struct Options {
  std::string scenario = "default";  // a built-in name or a scenario file
  std::string checkScenario;         // --check-scenario FILE: validate and exit
  // --level FILE: a game's level (.obj, .gltf, .glb, .tmx, .tmj) crowded with --agents walkers
  // (docs/LEVELS.md); the same as --scenario FILE, plus what the file cannot say.
  std::string level;
  float levelScale = 0.0f;
  std::string levelUp, levelWalkable, levelBlocking;
  float levelMetresPerTile = 0.0f;
  std::uint64_t seed = 1;
  unsigned threads = 0;    // 0: one per hardware thread
  std::size_t agents = 0;  // 0: the scenario's default
  double tickRate = 30.0;  // Hz
  bool headless = false;
  std::uint64_t ticks = 0;  // headless: ticks to run (required); realtime: 0 runs until a signal
  bool report = false;
  // Headless: update level of detail (far agents steer less often), and stand-in players for it.
  bool lod = false;
  bool noLod = false;  // with --bots: every agent at full rate (to compare against)
  std::size_t bots = 0;
  // --expect REGION:ARCHETYPE>=SHARE@SECONDS (repeatable): with --headless, exit 1 unless met.
  std::vector<std::string> expect;
  std::string record;  // real-time: write a recording of the session here (docs/RECORDING.md)
  std::string replay;  // re-run this recording headless, checking every tick's state hash
  bool serve = false;  // with replay: play it in real time for viewers to watch
  std::string logLevel = "info";
  std::string logFormat = "text";               // "text" or "json" (one object per line); UTC either way
  double statusInterval = 1.0;                  // s between status lines; 0 turns them off
  bool watch = false;                           // reload the scenario file's archetypes when it changes
  std::string navCache = defaultNavCacheDir();  // built navmeshes are kept here ("" or "none": off)

  // Network (real-time mode).
  std::string bind = "0.0.0.0";
  std::uint16_t port = 7777;         // UDP game port; 0: the system picks one
  std::uint16_t metricsPort = 9100;  // HTTP /metrics and /healthz; 0: the system picks one
  double sendRate = 20.0;            // snapshots per second
  std::size_t maxClients = 256;
  // Sessions one address may hold at once; 0: no cap.
  std::size_t maxClientsPerAddress = 4;
  double clientKbps = 256.0;
  bool snapshotsInTick = false;              // build snapshots within the tick, not beside the next one
  float interestRadius = 0.0f;               // m; 0: whole world
  double clientTimeout = 5.0;                // s of silence before a client is dropped
  std::string tokenKeyFile;                  // clients need a connect token sealed with this key
  std::int64_t issueToken = -1;              // >= 0: print a token for this client id and exit
  double tokenTtl = 3600.0;                  // s a token issued with --issue-token stays valid
  bool allowDebug = false;                   // answer clients' DebugSelect (brain state, forces of one agent)
  std::string role = "player";               // --issue-token: "player" or "control" (may send commands)
  std::vector<std::string> tokenServers;     // --issue-token: the servers ("host:port") it is good for
  std::uint32_t tokenTimeout = 0;            // --issue-token: seconds of silence that end its session
  std::vector<std::string> publicAddresses;  // this server's "host:port", as tokens name it
  std::string playerInput = "intent";        // "intent" (the server moves the body) or "position" (validated)
  bool allowControl = false;                 // every client gets the control role (local development)
  std::size_t maxAgents = 100000;            // the control API refuses spawns past this many live agents

  // Running under Agones.
  bool agones = false;                    // follow the SDK lifecycle through the sidecar's HTTP API
  double agonesHealthInterval = 2.0;      // s between Health pings (sent from the tick loop)
  double shutdownWhenEmpty = 0.0;         // s: after the last player leaves, end the match (0: never)
  double matchTimeLimit = 0.0;            // s: end the match this long after it starts (0: no limit)
  bool agonesAllocateOnConnect = false;   // admit players while Ready; Allocate at the first one
  std::string scenarioDir = "scenarios";  // where an allocation's steerd.dev/scenario file is looked up
};

// Parses argv. On --help or a bad flag, prints to stdout/stderr and returns the exit code to use;
// otherwise fills `out` and returns nullopt.
std::optional<int> parseOptions(int argc, char** argv, Options& out);
// The text of a --config file, parsed as --config FILE reads it (the same limits on its size and
// section depth first, the same keys, checks and exit codes), with no command line around it.
std::optional<int> parseConfigText(const std::string& text, Options& out);
// Why such a text is not handed to the parser (`name`: how messages call it), or empty.
std::string configTextProblem(const std::string& text, const std::string& name);

struct ScenarioOptions;
// What a scenario load needs of the options (seed, threads, agents, navmesh cache).
ScenarioOptions scenarioOptionsOf(const Options& o);

}  // namespace steerd
