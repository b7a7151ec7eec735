// Snapshot build cost on the server: many clients, each with its own player body, served the way
// GameSession serves them (ClientView::build, then one datagram per part), on one thread, so the
// figure is CPU per snapshot. Every client acks the snapshot sent two rounds earlier (100 ms at
// 20 snapshots/s). Prints microseconds per snapshot (the choice and encoding, and the datagrams),
// bytes and entities per snapshot. scripts/bench.sh net runs it after snapshot_bytes.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <deque>

#include "net/client_view.h"
#include "proto/packet.h"
#include "scenario/scenario_file.h"
#include "steering/random.h"

int main(int argc, char** argv) {
  using namespace steerd;
  using Clock = std::chrono::steady_clock;
  std::string scenario = "default";
  std::size_t agents = 0, players = 1000, rounds = 60;
  double kbps = 256, sendRate = 20, radius = 0;
  CLI::App app{"snapshot_build: server CPU per snapshot, many clients"};
  app.add_option("--scenario", scenario, "default or crowd")->check(CLI::IsMember({"default", "crowd"}));
  app.add_option("--agents", agents, "agents (0: the scenario's own)");
  app.add_option("--players", players, "clients, each with a player body")->check(CLI::Range(1, 100000));
  app.add_option("--rounds", rounds, "snapshot rounds measured (after 40 of warm-up)")
      ->check(CLI::Range(1, 100000));
  app.add_option("--client-kbps", kbps, "per-client budget (steerd's default)")
      ->check(CLI::Range(8.0, 100000.0));
  app.add_option("--interest-radius", radius, "m around the player; 0: the whole world")
      ->check(CLI::Range(0.0, 1e6));
  bool digest = false;
  app.add_flag("--digest", digest,
               "print a hash of every datagram's bytes, to check that a change keeps them (the "
               "datagram time then includes the hashing)");
  CLI11_PARSE(app, argc, argv);

  ScenarioOptions o;
  o.seed = 1;
  o.threads = 1;
  o.agents = agents;
  auto world = openScenario(scenario, o).world;
  const auto playerArchetype = static_cast<ArchetypeIndex>(std::max(0, world->archetypeIndex("player")));
  const Bounds& b = world->geometry().bounds;
  steer::Rng rng(7);
  std::vector<net::ClientView> views;
  views.reserve(players);
  for (std::size_t i = 0; i < players; ++i) {
    const steer::Vec2 p{b.minX + rng.uniform() * b.width(), b.minY + rng.uniform() * b.height()};
    views.emplace_back(static_cast<std::uint32_t>(i + 1), world->spawnExternal(playerArchetype, p));
  }
  net::InterestConfig interest;
  interest.radius = static_cast<float>(radius);
  interest.budgetBytes = static_cast<std::size_t>(kbps * 1000 / 8 / sendRate);

  std::vector<wire::EntityState> states;
  net::InterestGrid grid;
  std::deque<std::uint32_t> sentTicks;
  double buildSeconds = 0, datagramSeconds = 0, statesSeconds = 0;
  std::uint64_t snapshots = 0, bytes = 0, entities = 0, datagrams = 0, encodingsBefore = 0;
  std::uint64_t hash = 14695981039346656037ull;  // FNV-1a over every datagram, warm-up included
  // Past the history each view keeps (its records are reused from then on, as in a server that
  // has run a while: the first 32 rounds are fresh allocations).
  const std::size_t warmup = net::ClientView::kHistory + 8;
  std::vector<wire::Snapshot> parts;  // reused from one snapshot to the next, as GameSession does
  for (std::size_t round = 0; round < warmup + rounds; ++round) {
    world->step();
    world->step();  // 30 Hz ticks, 20 Hz snapshots: 1.5 ticks a snapshot
    const auto tick = static_cast<std::uint32_t>(world->tick());
    if (sentTicks.size() >= 2) {
      for (auto& v : views) v.acknowledge(sentTicks.front());
      sentTicks.pop_front();
    }
    const bool measured = round >= warmup;
    if (round == warmup)
      for (const auto& v : views) encodingsBefore += v.encodings();
    const auto t0 = Clock::now();
    net::wireStatesOf(*world, states);
    net::ViewFrame frame{states, world->indexCapacity(), tick, nullptr};
    if (interest.radius > 0) {  // as GameSession does: one grid a round for every client
      grid.build(states, interest.radius);
      frame.grid = &grid;
    }
    const auto t1 = Clock::now();
    if (measured) statesSeconds += std::chrono::duration<double>(t1 - t0).count();
    std::vector<std::uint8_t> d;
    for (auto& v : views) {
      net::SnapshotStats stats;
      const auto a = Clock::now();
      v.build(frame, net::viewCentreOf(*world, v.player()), interest, stats, parts);
      const auto m = Clock::now();
      for (const auto& part : parts) {
        if (!wire::encodeSnapshotDatagram({wire::Packet::kSnapshot, 0, 0, 0}, part, d)) return 1;
        if (measured) bytes += d.size(), ++datagrams;
        if (digest) {
          for (const std::uint8_t byte : d) hash = (hash ^ byte) * 1099511628211ull;
        }
      }
      const auto e = Clock::now();
      if (!measured) continue;
      buildSeconds += std::chrono::duration<double>(m - a).count();
      datagramSeconds += std::chrono::duration<double>(e - m).count();
      ++snapshots;
      entities += stats.entitiesSent;
    }
    sentTicks.push_back(tick);
  }
  const double n = static_cast<double>(snapshots);
  std::printf("snapshot_build: %s, %zu agents, %zu clients, %.0f kbps (%zu B a snapshot), radius %.0f m\n",
              scenario.c_str(), world->agents().size(), players, kbps, interest.budgetBytes, radius);
  std::printf("  build (choice + encoding)  %8.2f us/snapshot\n", buildSeconds * 1e6 / n);
  std::printf("  datagrams                  %8.2f us/snapshot\n", datagramSeconds * 1e6 / n);
  std::printf("  total                      %8.2f us/snapshot  (%.0f snapshots/s on one core)\n",
              (buildSeconds + datagramSeconds) * 1e6 / n, n / (buildSeconds + datagramSeconds));
  std::printf("  wire states (and the interest grid), once a round  %8.2f us\n",
              statesSeconds * 1e6 / static_cast<double>(rounds));
  std::printf("  %.3f entities, %.3f bytes, %.2f datagrams a snapshot\n", static_cast<double>(entities) / n,
              static_cast<double>(bytes) / n, static_cast<double>(datagrams) / n);
  std::uint64_t encodings = 0;
  for (const auto& v : views) encodings += v.encodings();
  std::printf("  %.3f encodings a snapshot (more than 1: over the budget, cut by bisection)\n",
              static_cast<double>(encodings - encodingsBefore) / n);
  if (digest) std::printf("  digest %016llx\n", static_cast<unsigned long long>(hash));
  return 0;
}
