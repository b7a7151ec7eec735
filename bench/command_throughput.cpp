// Command throughput: what a game's logic commanding NPCs costs the tick. Runs a built-in scenario
// at its tick rate, as fast as it goes, twice over the same seconds, alternating: once with no
// commands and once with --rate commands a second arriving over the control channel, and prints
// the tick's mean, p50, p99 and max for both. The timed part of a tick with commands is all the
// server does for them: decoding the Control datagrams, the ControlLink (order, window, queue),
// applying them at the boundary (Controller::applyPending), the world step, the events
// (Controller::afterTick) and encoding the ControlReply datagrams. Building the client's
// datagrams is not timed; no sockets. scripts/bench.sh control runs it.
//
// The commands are a game's mix: move_to on a random NPC (60 %), stop or release (15 %), a signal
// raised or lowered (10 %), a query (10 %), a spawn and later its despawn (5 %).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <unordered_set>
#include <vector>

#include "control/control.h"
#include "net/control_link.h"
#include "scenario/scenario_file.h"

namespace {

using namespace steerd;
using Clock = std::chrono::steady_clock;

struct Stats {
  double mean = 0, p50 = 0, p99 = 0, max = 0;
};

Stats statsOf(std::vector<double> ms) {
  Stats s;
  if (ms.empty()) return s;
  std::sort(ms.begin(), ms.end());
  for (double m : ms) s.mean += m;
  s.mean /= static_cast<double>(ms.size());
  s.p50 = ms[ms.size() / 2];
  s.p99 = ms[std::min(ms.size() - 1, ms.size() * 99 / 100)];
  s.max = ms.back();
  return s;
}

struct Run {
  std::vector<double> ms;
  double phaseMs[5] = {};  // receive, apply, step, events, reply: summed over the run
  std::uint64_t applied = 0, rejected = 0, events = 0, replyBytes = 0;
};

// One run of `ticks` ticks; `rate` commands a second (0: none).
Run runOnce(const std::string& scenario, std::size_t agents, unsigned threads, std::uint32_t ticks,
            double rate, std::size_t pool, std::uint64_t seed) {
  ScenarioOptions o;
  o.seed = seed;
  o.threads = threads;
  o.agents = agents;
  auto world = openScenario(scenario, o).world;
  control::Controller controller(*world);
  net::ServerMetrics metrics;
  const net::ControlLimits limits{};
  net::ControlLink link(1, limits);
  const control::SubscriberId sub = controller.addSubscriber(
      {.onEvent = [&](const control::Event& e) { link.event(e, metrics); },
       .onResult = [&](const control::CommandResult& r) { link.result(r, metrics); }});
  {
    control::Command all;
    all.mutable_subscribe();
    (void)controller.apply(sub, all);
  }
  std::vector<AgentId> npcs;
  const std::int32_t player = world->archetypeIndex(kPlayerArchetypeName);
  for (std::size_t s = 0; s < world->agentCount(); ++s) {
    if (world->agents().archetype[s] != player) npcs.push_back(world->agents().id[s]);
  }
  std::sort(npcs.begin(), npcs.end());
  if (pool > 0 && pool < npcs.size()) npcs.resize(pool);  // the NPCs the game's logic commands
  std::string spawnArchetype = world->archetypes()[world->agents().archetype[0]].name;
  const Bounds b = world->geometry().bounds;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<AgentId> spawned;  // made by this run's spawn commands (from their results)
  std::unordered_set<std::uint32_t> spawnSequences;
  std::uint32_t sequence = 0, packetNumber = 0, lastMessage = 0, lastResult = 0;
  double credit = 0;
  const double dt = world->config().dt;
  Run run;
  std::vector<std::uint8_t> bytes;
  std::vector<net::OutDatagram> out;
  wire::Decoded decoded;
  for (std::uint32_t t = 0; t < ticks; ++t) {
    // The client's datagrams for this tick (not timed): commands at `rate`, acks of everything.
    std::vector<std::vector<std::uint8_t>> datagrams;
    // Commands wait at the client, as the client library's do (16,384 at most), while the server
    // holds its window's worth (1,024) past the last result (the window counts from the next
    // command taken, and a command is taken before it is answered): none is dropped and none
    // needs resending when the control budget holds commands back.
    credit = std::min(credit + rate * dt, 16384.0);
    wire::Packet p;
    wire::Control* c = p.mutable_control();
    auto flush = [&] {
      if (c->commands_size() == 0) return;
      c->set_packet(packetNumber++ & 0xffffu);
      c->set_messages_received(lastMessage);
      wire::encodeDatagram({wire::Packet::kControl, 0, 0, 0}, p, bytes);
      datagrams.push_back(bytes);
      c->Clear();
    };
    for (; credit >= 1.0 && sequence - lastResult < limits.window; credit -= 1.0) {
      control::Command* cmd = c->add_commands();
      cmd->set_sequence(++sequence);
      const double k = u(rng);
      const AgentId a =
          npcs[static_cast<std::size_t>(u(rng) * static_cast<double>(npcs.size())) % npcs.size()];
      if (k < 0.60) {
        *cmd = control::moveTo(a, static_cast<float>(b.minX + u(rng) * b.width()),
                               static_cast<float>(b.minY + u(rng) * b.height()), 2.0f, u(rng) < 0.5);
      } else if (k < 0.75) {
        *cmd = u(rng) < 0.5 ? control::stopAgent(a) : control::releaseAgent(a);
      } else if (k < 0.85) {
        *cmd = control::raiseSignal(a, u(rng) < 0.5 ? "alarm" : "rally", u(rng) < 0.5);
      } else if (k < 0.95) {
        *cmd = control::queryAgent(a);
      } else if (spawned.empty() || u(rng) < 0.5) {
        *cmd = control::spawnAt(spawnArchetype, static_cast<float>(b.minX + u(rng) * b.width()),
                                static_cast<float>(b.minY + u(rng) * b.height()));
        spawnSequences.insert(sequence);
      } else {
        *cmd = control::despawnAgent(spawned.back());
        spawned.pop_back();
      }
      cmd->set_sequence(sequence);
      if (p.ByteSizeLong() > wire::kMaxBodyBytes - 64) flush();
    }
    flush();

    Clock::time_point at[6];
    at[0] = Clock::now();
    for (const auto& d : datagrams) {
      wire::decodeDatagram(d, decoded);
      link.receive(decoded.packet.control(), static_cast<double>(t) * dt);
      control::Command next;
      while (link.nextCommand(next)) controller.submit(sub, std::move(next));
    }
    at[1] = Clock::now();
    controller.applyPending();
    at[2] = Clock::now();
    world->step();
    at[3] = Clock::now();
    controller.afterTick();
    at[4] = Clock::now();
    out.clear();
    link.flush(static_cast<double>(t + 1) * dt, out, metrics);
    at[5] = Clock::now();
    run.ms.push_back(std::chrono::duration<double, std::milli>(at[5] - at[0]).count());
    for (int k = 0; k < 5; ++k)
      run.phaseMs[k] += std::chrono::duration<double, std::milli>(at[k + 1] - at[k]).count();
    for (const auto& d : out) run.replyBytes += d.bytes.size();
    // The client has every reply at once and acknowledges it (nothing is lost here).
    for (const auto& d : out) {
      wire::decodeDatagram(d.bytes, decoded);
      for (const auto& m : decoded.packet.control_reply().messages()) {
        lastMessage = std::max(lastMessage, m.sequence());
        if (m.has_result()) lastResult = std::max(lastResult, m.result().sequence());
        if (m.has_result() && spawnSequences.erase(m.result().sequence()) &&
            m.result().status() == control::STATUS_OK)
          spawned.push_back(m.result().agent());
      }
    }
    wire::Control ack;
    ack.set_messages_received(lastMessage);
    link.receive(ack, static_cast<double>(t + 1) * dt);
  }
  run.applied = metrics.commandsApplied.load();
  run.rejected = metrics.commandsRejected.load();
  run.events = metrics.controlEvents.load();
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  std::string scenario = "default";
  std::size_t agents = 0;
  unsigned threads = 1;
  double seconds = 30, rate = 10000;
  int repeats = 3;
  std::size_t pool = 0;
  std::uint64_t seed = 1;
  CLI::App app{"command_throughput: the tick with and without a game's commands"};
  app.add_option("--scenario", scenario, "a built-in (default, crowd) or a file");
  app.add_option("--agents", agents, "agents (0: the scenario's own)");
  app.add_option("--threads", threads, "world threads")->check(CLI::Range(1u, 256u));
  app.add_option("--seconds", seconds, "simulated seconds per run")->check(CLI::Range(1.0, 3600.0));
  app.add_option("--rate", rate, "commands per second")->check(CLI::Range(1.0, 1e7));
  app.add_option("--repeats", repeats, "runs of each, alternating")->check(CLI::Range(1, 20));
  app.add_option("--pool", pool, "commands name only the first N NPCs (0: any NPC)");
  app.add_option("--seed", seed, "world and command seed");
  CLI11_PARSE(app, argc, argv);

  ScenarioOptions probe;
  probe.agents = agents;
  auto world = openScenario(scenario, probe);
  if (!world.world) {
    for (const auto& e : world.errors) std::fprintf(stderr, "%s\n", e.c_str());
    return 2;
  }
  const auto ticks = static_cast<std::uint32_t>(seconds / world.world->config().dt);
  const std::string to = pool > 0 ? "the first " + std::to_string(pool) + " NPCs" : std::string("any NPC");
  std::printf(
      "%s, %zu agents, %u thread(s), %u ticks a run, %d runs each, alternating; %.0f commands/s to %s\n",
      scenario.c_str(), world.world->agentCount(), threads, ticks, repeats, rate, to.c_str());
  std::printf("%-22s %9s %9s %9s %9s %10s %9s %9s\n", "run", "mean ms", "p50 ms", "p99 ms", "max ms",
              "applied/s", "errors", "reply kB/s");
  std::vector<double> all[2];
  for (int r = 0; r < repeats; ++r) {
    for (int with = 0; with < 2; ++with) {
      const Run run = runOnce(scenario, agents, threads, ticks, with ? rate : 0.0, pool, seed);
      const Stats s = statsOf(run.ms);
      all[with].insert(all[with].end(), run.ms.begin(), run.ms.end());
      std::printf("%-22s %9.3f %9.3f %9.3f %9.3f %10.0f %9llu %9.1f\n", with ? "with commands" : "without",
                  s.mean, s.p50, s.p99, s.max, static_cast<double>(run.applied) / seconds,
                  static_cast<unsigned long long>(run.rejected),
                  static_cast<double>(run.replyBytes) / 1000.0 / seconds);
      const double n = static_cast<double>(run.ms.size());
      std::printf("%-22s receive %.3f apply %.3f step %.3f events %.3f reply %.3f (ms a tick)\n", "",
                  run.phaseMs[0] / n, run.phaseMs[1] / n, run.phaseMs[2] / n, run.phaseMs[3] / n,
                  run.phaseMs[4] / n);
    }
  }
  const Stats without = statsOf(all[0]), with = statsOf(all[1]);
  std::printf(
      "all runs: without p99 %.3f ms, with %.0f commands/s p99 %.3f ms (%+.1f %%); mean %.3f -> %.3f ms\n",
      without.p99, rate, with.p99, 100.0 * (with.p99 / without.p99 - 1.0), without.mean, with.mean);
  return 0;
}
