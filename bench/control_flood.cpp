// Control flood: what one hostile control client can do to the tick (issue 38). Runs a built-in
// scenario at its tick rate, as fast as it goes: with no flood, then with one control client
// flooding `subscribe` commands, then `spawn` commands (and, with --floods, `move_to`: a plain
// command, to compare with), alternating over --repeats, at each --agents size. Prints the tick's
// mean, p50, p99 and max for each, the p99 against no flood, commands applied a second, error
// results (those refused for a full queue among them), commands deferred by the control budget,
// the agents at the end, Controller::applyPending's time per command, and the tick but its step.
// scripts/bench.sh control-flood runs it.
//
// The timed part of a tick is all the simulation thread does for the client: its Control packets
// into the ControlLink (order, window, queue), Controller::applyPending, the world step,
// Controller::afterTick and the ControlReply datagrams. The client's datagrams are built and
// decoded untimed (the server's network thread decodes them); no sockets. The flood client sends
// up to its rate (--subscribe-rate: the attack in issue 38 sent 293,000 in 30 s; --spawn-rate:
// 63,000 in 40 s), never more than the server's window (1,024) past its last result (the window
// counts from the next command taken, and a command is taken before it is answered), so none is
// dropped and none needs resending; it reads and acknowledges every reply at once. Spawns go to
// random points of the world (a point inside an obstacle is refused, as it would be live).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "control/control.h"
#include "net/control_link.h"
#include "scenario/scenario_file.h"

namespace {

using namespace steerd;

// Milliseconds now, on the wall clock or on this thread's CPU clock. The CPU clock leaves out
// what other processes take from a busy machine (the development VM's 2 vCPUs are shared), so its
// p99 is the tick's own; it sees only this thread, so it goes with --threads 1.
double nowMs(bool threadCpu) {
  if (threadCpu) {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
  }
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// What the client floods: nothing, `subscribe`, `spawn`, or `move_to` (a plain command, to
// compare the others' costs with).
enum class Flood { kNone, kSubscribe, kSpawn, kMove };
constexpr Flood kFloods[] = {Flood::kNone, Flood::kSubscribe, Flood::kSpawn, Flood::kMove};
const char* nameOf(Flood f) {
  switch (f) {
    case Flood::kNone:
      return "none";
    case Flood::kSubscribe:
      return "subscribe";
    case Flood::kSpawn:
      return "spawn";
    case Flood::kMove:
      return "move_to";
  }
  return "?";
}

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
  std::vector<double> controlMs;  // each tick but its step: the work the flood itself costs
  double applyMs = 0;             // Controller::applyPending, summed
  std::uint64_t sent = 0, applied = 0, rejected = 0, deferred = 0, queueFull = 0;
  std::size_t agentsAtEnd = 0;
};

struct Setup {
  std::string scenario;
  std::size_t agents = 0;
  unsigned threads = 1;
  std::uint32_t ticks = 300;
  double subscribeRate = 10000, spawnRate = 1600, moveRate = 10000;
  std::uint64_t seed = 1;
  bool threadCpu = false;         // time on this thread's CPU clock, not the wall clock
  std::vector<float> spawnPoint;  // x, y: every spawn there (empty: random points)
};

Run runOnce(const Setup& setup, Flood flood) {
  ScenarioOptions o;
  o.seed = setup.seed;
  o.threads = setup.threads;
  o.agents = setup.agents;
  auto world = openScenario(setup.scenario, o).world;
  control::Controller controller(*world);
  net::ServerMetrics metrics;
  const net::ControlLimits limits{};
  net::ControlLink link(1, limits);
  const control::SubscriberId sub = controller.addSubscriber(
      {.onEvent = [&](const control::Event& e) { link.event(e, metrics); },
       .onResult = [&](const control::CommandResult& r) { link.result(r, metrics); }});
  std::string spawnArchetype;
  for (const Archetype& a : world->archetypes()) {
    if (a.name != kPlayerArchetypeName && spawnArchetype.empty()) spawnArchetype = a.name;
  }
  const Bounds b = world->geometry().bounds;
  std::mt19937_64 rng(setup.seed);
  std::uniform_real_distribution<double> u(0, 1);
  const double rate = flood == Flood::kSubscribe ? setup.subscribeRate
                      : flood == Flood::kSpawn   ? setup.spawnRate
                      : flood == Flood::kMove    ? setup.moveRate
                                                 : 0.0;
  std::vector<AgentId> npcs;
  const std::int32_t player = world->archetypeIndex(kPlayerArchetypeName);
  for (std::size_t s = 0; s < world->agentCount(); ++s) {
    if (world->agents().archetype[s] != player) npcs.push_back(world->agents().id[s]);
  }
  std::uint32_t sequence = 0, packetNumber = 0, lastMessage = 0, lastResult = 0;
  double credit = 0;
  const double dt = world->config().dt;
  Run run;
  run.ms.reserve(setup.ticks);
  std::vector<std::uint8_t> bytes;
  std::vector<net::OutDatagram> out;
  wire::Decoded decoded;
  for (std::uint32_t t = 0; t < setup.ticks; ++t) {
    // The client's datagrams for this tick (not timed).
    std::vector<std::vector<std::uint8_t>> datagrams;
    credit = std::min(credit + rate * dt, static_cast<double>(limits.window));
    wire::Packet p;
    wire::Control* c = p.mutable_control();
    auto send = [&] {
      if (c->commands_size() == 0) return;
      c->set_packet(packetNumber++ & 0xffffu);
      c->set_messages_received(lastMessage);
      wire::encodeDatagram({wire::Packet::kControl, 0, 0, 0}, p, bytes);
      datagrams.push_back(bytes);
      c->Clear();
    };
    for (; credit >= 1.0 && sequence - lastResult < limits.window; credit -= 1.0) {
      control::Command* cmd = c->add_commands();
      if (flood == Flood::kSubscribe) {
        cmd->mutable_subscribe();  // every kind, every archetype: a fresh look at every agent
      } else if (flood == Flood::kMove) {
        const AgentId a =
            npcs[static_cast<std::size_t>(u(rng) * static_cast<double>(npcs.size())) % npcs.size()];
        *cmd = control::moveTo(a, static_cast<float>(b.minX + u(rng) * b.width()),
                               static_cast<float>(b.minY + u(rng) * b.height()), 2.0f);
      } else {
        if (setup.spawnPoint.size() == 2) {
          *cmd = control::spawnAt(spawnArchetype, setup.spawnPoint[0], setup.spawnPoint[1]);
        } else {
          *cmd = control::spawnAt(spawnArchetype, static_cast<float>(b.minX + u(rng) * b.width()),
                                  static_cast<float>(b.minY + u(rng) * b.height()));
        }
      }
      cmd->set_sequence(++sequence);
      ++run.sent;
      if (c->commands_size() >= 200 || p.ByteSizeLong() > wire::kMaxBodyBytes - 64) send();
    }
    send();

    // The network thread decodes datagrams (NetEvent::control): not the tick's work.
    std::vector<wire::Control> packets;
    for (const auto& d : datagrams) {
      wire::decodeDatagram(d, decoded);
      packets.push_back(decoded.packet.control());
    }

    const double start = nowMs(setup.threadCpu);
    for (const wire::Control& packet : packets) {
      link.receive(packet, static_cast<double>(t) * dt);
      control::Command next;
      while (link.nextCommand(next)) controller.submit(sub, std::move(next));
    }
    const double applying = nowMs(setup.threadCpu);
    controller.applyPending();
    run.applyMs += nowMs(setup.threadCpu) - applying;
    run.deferred += controller.lastBoundary().deferred;
    run.queueFull += controller.lastBoundary().refused;
    const double stepping = nowMs(setup.threadCpu);
    world->step();
    const double stepMs = nowMs(setup.threadCpu) - stepping;
    controller.afterTick();
    out.clear();
    link.flush(static_cast<double>(t + 1) * dt, out, metrics);
    run.ms.push_back(nowMs(setup.threadCpu) - start);
    run.controlMs.push_back(run.ms.back() - stepMs);
    // The client reads every reply at once and acknowledges it (nothing is lost here).
    for (const auto& d : out) {
      wire::decodeDatagram(d.bytes, decoded);
      const wire::ControlReply& reply = decoded.packet.control_reply();
      for (const auto& m : reply.messages()) {
        lastMessage = std::max(lastMessage, m.sequence());
        if (m.has_result()) lastResult = std::max(lastResult, m.result().sequence());
      }
    }
    wire::Control ack;
    ack.set_messages_received(lastMessage);
    link.receive(ack, static_cast<double>(t + 1) * dt);
  }
  run.applied = metrics.commandsApplied.load();
  run.rejected = metrics.commandsRejected.load();
  run.agentsAtEnd = world->agentCount();
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  Setup setup;
  setup.scenario = "default";
  std::vector<std::size_t> sizes{0, 10000};
  std::vector<std::string> floods{"none", "subscribe", "spawn"};
  double seconds = 10;
  int repeats = 2;
  CLI::App app{"control_flood: the tick with and without one control client's flood"};
  app.add_option("--scenario", setup.scenario, "a built-in (default, crowd) or a file");
  app.add_option("--agents", sizes, "world sizes (0: the scenario's own)");
  app.add_option("--floods", floods, "none, subscribe, spawn, move_to")
      ->check(CLI::IsMember({"none", "subscribe", "spawn", "move_to"}));
  app.add_option("--threads", setup.threads, "world threads")->check(CLI::Range(1u, 256u));
  app.add_option("--seconds", seconds, "simulated seconds per run")->check(CLI::Range(1.0, 3600.0));
  app.add_option("--subscribe-rate", setup.subscribeRate, "subscribe commands a second")
      ->check(CLI::Range(1.0, 1e7));
  app.add_option("--spawn-rate", setup.spawnRate, "spawn commands a second")->check(CLI::Range(1.0, 1e7));
  app.add_option("--move-rate", setup.moveRate, "move_to commands a second")->check(CLI::Range(1.0, 1e7));
  app.add_option("--repeats", repeats, "runs of each, alternating")->check(CLI::Range(1, 20));
  app.add_option("--seed", setup.seed, "world and command seed");
  app.add_option("--spawn-point", setup.spawnPoint,
                 "x y: every spawn at this one point (a pile), not at random")
      ->expected(2);
  std::string clock = "wall";
  app.add_option("--clock", clock,
                 "wall, or thread-cpu: this thread's CPU time (with --threads 1: the tick's own time, "
                 "without what other processes take on a busy machine)")
      ->check(CLI::IsMember({"wall", "thread-cpu"}));
  CLI11_PARSE(app, argc, argv);
  setup.threadCpu = clock == "thread-cpu";
  if (setup.threadCpu && setup.threads != 1) {
    std::fprintf(stderr, "--clock thread-cpu sees one thread: use it with --threads 1\n");
    return 2;
  }
  std::vector<Flood> chosen;
  for (const Flood f : kFloods) {
    if (std::find(floods.begin(), floods.end(), nameOf(f)) != floods.end()) chosen.push_back(f);
  }

  std::printf(
      "%s, %u thread(s), %.0f s a run, %d run(s) each, alternating; floods: %.0f subscribes/s, %.0f "
      "spawns/s, "
      "%.0f move_to/s\n",
      setup.scenario.c_str(), setup.threads, seconds, repeats, setup.subscribeRate, setup.spawnRate,
      setup.moveRate);
  std::printf("%-7s %-10s %8s %8s %8s %8s %11s %10s %8s %8s %9s %7s %8s\n", "agents", "flood", "mean ms",
              "p50 ms", "p99 ms", "max ms", "p99 vs none", "applied/s", "errors", "q. full", "deferred",
              "at end", "us/cmd");
  for (const std::size_t agents : sizes) {
    setup.agents = agents;
    ScenarioOptions probe;
    probe.agents = agents;
    auto load = openScenario(setup.scenario, probe);
    if (!load.world) {
      for (const auto& e : load.errors) std::fprintf(stderr, "%s\n", e.c_str());
      return 2;
    }
    setup.ticks = static_cast<std::uint32_t>(seconds / load.world->config().dt);
    const std::size_t size = load.world->agentCount();
    load.world.reset();
    std::vector<double> all[std::size(kFloods)], control[std::size(kFloods)];
    for (int r = 0; r < repeats; ++r) {
      for (const Flood flood : chosen) {
        const Run run = runOnce(setup, flood);
        auto& ms = all[static_cast<int>(flood)];
        ms.insert(ms.end(), run.ms.begin(), run.ms.end());
        auto& c = control[static_cast<int>(flood)];
        c.insert(c.end(), run.controlMs.begin(), run.controlMs.end());
        const Stats s = statsOf(run.ms);
        const std::uint64_t commands = run.applied + run.rejected;
        std::printf("%-7zu %-10s %8.3f %8.3f %8.3f %8.3f %11s %10.0f %8llu %8llu %9llu %7zu %8.2f\n", size,
                    nameOf(flood), s.mean, s.p50, s.p99, s.max, "",
                    static_cast<double>(run.applied) / seconds, static_cast<unsigned long long>(run.rejected),
                    static_cast<unsigned long long>(run.queueFull),
                    static_cast<unsigned long long>(run.deferred), run.agentsAtEnd,
                    commands > 0 ? run.applyMs * 1000.0 / static_cast<double>(commands) : 0.0);
      }
    }
    const Stats none = statsOf(all[0]);
    for (const Flood flood : chosen) {
      const Stats s = statsOf(all[static_cast<int>(flood)]);
      const Stats c = statsOf(control[static_cast<int>(flood)]);
      char ratio[32] = "";
      if (flood != Flood::kNone && none.p99 > 0)
        std::snprintf(ratio, sizeof ratio, "%+.1f %%", 100.0 * (s.p99 / none.p99 - 1.0));
      std::printf(
          "%-7zu %-10s %8.3f %8.3f %8.3f %8.3f %11s  all runs; the tick but its step: mean %.3f, p99 %.3f "
          "ms\n",
          size, nameOf(flood), s.mean, s.p50, s.p99, s.max, ratio, c.mean, c.p99);
    }
  }
  return 0;
}
