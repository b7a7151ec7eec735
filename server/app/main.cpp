// steerd: the server process. Flags, logging, then the headless or the real-time run.
#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <exception>

#include "app/headless_run.h"
#include "app/logging.h"
#include "app/options.h"
#include "app/realtime_run.h"
#include "app/replay_serve.h"
#include "net/connect_token.h"
#include "record/replay.h"
#include "scenario/scenario_file.h"

int main(int argc, char** argv) {
  steerd::Options options;
  if (auto exitCode = steerd::parseOptions(argc, argv, options)) return *exitCode;

  // Logs go to stderr so that stdout carries only what scripts read (the report, state_hash).
  steerd::setUpLogging(options.logLevel, options.logFormat);
  // libprotobuf logs a line for each malformed string it parses (a peer's invalid UTF-8 in a
  // Control packet): those datagrams are dropped and counted (bad_body), so a flood of them must
  // not become a flood of stderr lines. Its messages go to the debug level.
  google::protobuf::SetLogHandler(
      [](google::protobuf::LogLevel level, const char* file, int line, const std::string& message) {
        if (level >= google::protobuf::LOGLEVEL_FATAL) {
          spdlog::critical("protobuf {}:{}: {}", file, line, message);
        } else {
          spdlog::debug("protobuf {}:{}: {}", file, line, message);
        }
      });

  try {
    if (options.issueToken >= 0) {
      std::string error;
      const auto key = steerd::net::readTokenKeyFile(options.tokenKeyFile, error);
      if (!key) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 2;
      }
      const auto now = std::chrono::duration_cast<std::chrono::seconds>(
          std::chrono::system_clock::now().time_since_epoch());
      const auto expires =
          static_cast<std::uint64_t>(now.count()) + static_cast<std::uint64_t>(options.tokenTtl);
      steerd::net::TokenGrant grant;
      grant.clientId = static_cast<std::uint64_t>(options.issueToken);
      grant.role = options.role == "control" ? steerd::wire::ROLE_CONTROL : steerd::wire::ROLE_PLAYER;
      grant.expiresUnixSeconds = expires;
      grant.serverAddresses = options.tokenServers;
      grant.timeoutSeconds = options.tokenTimeout;
      std::printf("%s\n", steerd::net::toHex(steerd::net::issueToken(*key, grant)).c_str());
      return 0;
    }
    if (!options.checkScenario.empty()) {
      const steerd::ScenarioLoad load =
          steerd::loadScenarioFile(options.checkScenario, steerd::scenarioOptionsOf(options), false);
      for (const auto& e : load.errors) std::fprintf(stderr, "%s\n", e.c_str());
      for (const auto& w : load.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
      if (!load.errors.empty()) {
        std::fprintf(stderr, "%s: %zu error(s)\n", options.checkScenario.c_str(), load.errors.size());
        return 1;
      }
      std::printf(
          "%s: ok (%s)%s\n", options.checkScenario.c_str(), load.summary.c_str(),
          load.warnings.empty() ? "" : (", " + std::to_string(load.warnings.size()) + " warning(s)").c_str());
      return 0;
    }
    if (!options.replay.empty() && options.serve) return steerd::runReplayServe(options);
    if (!options.replay.empty()) {
      const steerd::record::ReplayResult r =
          steerd::record::replayRecording({.path = options.replay,
                                           .threads = options.threads,
                                           .navCacheDir = steerd::scenarioOptionsOf(options).navCacheDir,
                                           .maxClients = options.maxClients});
      for (const auto& d : r.details) std::printf("  %s\n", d.c_str());
      std::printf("%s\n", r.summary.c_str());
      return r.exitCode();
    }
    return options.headless ? steerd::runHeadless(options, stdout) : steerd::runRealtime(options);
  } catch (const std::exception& e) {
    spdlog::critical("fatal: {}", e.what());
    return 1;
  }
}
