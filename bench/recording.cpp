// What --record costs the simulation thread, and how fast --replay runs. For each world size:
// the tick alone, World::stateHash(), World::stateDigest(32) and a whole SessionRecorder tick
// (digest, frame, write), in ms per tick (mean over --ticks), and the bytes a tick adds to the
// file with no players (the digest; inputs come on top, as received). Then a recording of
// --ticks ticks replayed headless: ticks per second.
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "record/recorded_scenario.h"
#include "record/replay.h"
#include "record/session_recorder.h"

namespace {

using namespace steerd;
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bench: the cost of steerd --record and the speed of --replay"};
  std::string scenario = "crowd";
  std::vector<std::size_t> sizes = {1000, 10000, 100000};
  unsigned threads = 2;
  std::uint64_t ticks = 100;
  app.add_option("--scenario", scenario, "built-in scenario or file");
  app.add_option("--agents", sizes, "world sizes");
  app.add_option("--threads", threads, "world threads");
  app.add_option("--ticks", ticks, "ticks per measurement")->check(CLI::Range(1, 100000));
  CLI11_PARSE(app, argc, argv);

  std::printf("%-9s %8s %10s %10s %12s %12s %11s %12s\n", "scenario", "agents", "tick ms", "hash ms",
              "digest ms", "recorder ms", "bytes/tick", "replay t/s");
  for (const std::size_t agents : sizes) {
    record::RecordedScenario text;
    std::string error;
    if (!record::readScenario(scenario, text, error)) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 2;
    }
    ScenarioLoad load = record::loadRecordedScenario(text, ScenarioOptions(1, threads, agents));
    if (!load.world) {
      std::fprintf(stderr, "scenario %s does not load\n", scenario.c_str());
      return 2;
    }
    World& world = *load.world;
    const std::string path =
        (std::filesystem::temp_directory_path() / ("steerd_bench_" + std::to_string(agents) + ".rec"))
            .string();
    record::Header header;
    header.set_scenario_name(text.name);
    header.set_scenario_text(text.text);
    header.set_builtin_scenario(text.builtin);
    header.set_seed(1);
    header.set_agents(agents);
    header.set_tick_rate(30.0);
    header.set_max_agents(4'000'000);
    header.set_send_rate(20.0);
    auto recorder = record::SessionRecorder::start(path, header, error);
    if (!recorder) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 2;
    }
    const std::vector<net::NetEvent> none;
    double stepMs = 0, hashMs = 0, digestMs = 0, recordMs = 0;
    std::uint64_t sink = 0;
    const std::uint64_t before = recorder->bytes();
    for (std::uint64_t t = 0; t < ticks; ++t) {
      auto a = Clock::now();
      world.step();
      stepMs += msSince(a);
      a = Clock::now();
      sink += world.stateHash();
      hashMs += msSince(a);
      a = Clock::now();
      sink += world.stateDigest(record::SessionRecorder::kDigestBlocks).whole;
      digestMs += msSince(a);
      a = Clock::now();
      recorder->afterStep(world, none);
      recordMs += msSince(a);
    }
    const double bytesPerTick = static_cast<double>(recorder->bytes() - before) / static_cast<double>(ticks);
    // The replay re-runs the file from tick 0: the recorder saw ticks 1..ticks of this world.
    recorder->finish();
    const auto r0 = Clock::now();
    const record::ReplayResult replay = record::replayRecording({path, threads, {}});
    const double replaySeconds = msSince(r0) / 1000.0;
    const auto n = static_cast<double>(ticks);
    std::printf("%-9s %8zu %10.3f %10.3f %12.3f %12.3f %11.0f %12.0f%s\n", scenario.c_str(),
                world.agentCount(), stepMs / n, hashMs / n, digestMs / n, recordMs / n, bytesPerTick,
                static_cast<double>(replay.ticks) / replaySeconds,
                replay.outcome == record::ReplayResult::Outcome::kEqual ? "" : "  (replay differs!)");
    std::filesystem::remove(path);
    if (sink == 42) std::printf(" ");
  }
  return 0;
}
