// Snapshot bandwidth report: runs a built-in scenario headless and streams it to simulated
// clients through the real ClientView (interest, budget, codec) and the real decoder, with a
// round-trip delay before each acknowledgement and seeded loss. Prints bytes per entity update
// and per moving entity, parts per snapshot and kbps per client. No sockets: the numbers are
// the protocol's, not the machine's. scripts/bench.sh net runs it.
#include <CLI/CLI.hpp>
#include <algorithm>

#include <cmath>
#include <cstdio>
#include <deque>
#include <map>
#include <random>

#include "net/client_view.h"
#include "proto/packet.h"
#include "scenario/scenario_file.h"

namespace {

using namespace steerd;

struct InFlight {
  std::uint32_t arriveTick;  // when the client has it (one-way delay)
  wire::Snapshot part;
};

}  // namespace

int main(int argc, char** argv) {
  std::string scenario = "default";
  double seconds = 60, sendRate = 20, tickRate = 30, rttMs = 100, loss = 0, kbps = 256;
  std::size_t agents = 0;
  std::uint64_t seed = 1;
  CLI::App app{"snapshot_bytes: bytes per entity of steerd's snapshot stream"};
  app.add_option("--scenario", scenario, "default or crowd")->check(CLI::IsMember({"default", "crowd"}));
  app.add_option("--agents", agents, "agents (0: the scenario's own)");
  app.add_option("--seconds", seconds, "simulated seconds")->check(CLI::Range(1.0, 3600.0));
  app.add_option("--send-rate", sendRate, "snapshots per second")->check(CLI::Range(1.0, 60.0));
  app.add_option("--rtt-ms", rttMs, "round trip before an ack reaches the server")
      ->check(CLI::Range(0.0, 2000.0));
  app.add_option("--loss", loss, "fraction of snapshot datagrams lost")->check(CLI::Range(0.0, 0.9));
  app.add_option("--client-kbps", kbps, "per-client budget")->check(CLI::Range(8.0, 100000.0));
  app.add_option("--seed", seed, "world and loss seed");
  CLI11_PARSE(app, argc, argv);

  ScenarioOptions o;
  o.seed = seed;
  o.threads = 1;
  o.agents = agents;
  auto world = openScenario(scenario == "crowd" ? "crowd" : "default", o).world;
  const auto player = static_cast<ArchetypeIndex>(world->archetypeIndex("player"));
  const Bounds& b = world->geometry().bounds;
  const AgentId me = world->spawnExternal(player, {(b.minX + b.maxX) / 2, (b.minY + b.maxY) / 2});
  net::ClientView view(1, me);
  std::vector<wire::EntityState> states;
  net::InterestConfig interest;
  interest.budgetBytes = static_cast<std::size_t>(kbps * 1000 / 8 / sendRate);

  std::mt19937_64 rng(seed);
  std::bernoulli_distribution lost(loss);
  const auto oneWay = static_cast<std::uint32_t>(std::lround(rttMs / 2000.0 * tickRate));
  std::deque<InFlight> toClient;
  std::deque<std::pair<std::uint32_t, std::uint32_t>> acks;  // (arrive tick at server, acked tick)
  std::map<std::uint32_t, wire::SnapshotRecord> clientHas;   // complete records by tick
  std::map<std::uint32_t, std::vector<wire::Snapshot>> partsOf;
  std::map<std::uint32_t, wire::EntityState> lastSent;  // to count moving entities

  std::uint64_t bytes = 0, updates = 0, moving = 0, parts = 0, snapshots = 0, datagramsLost = 0, failures = 0;
  std::uint64_t measuredSnapshots = 0, overBudget = 0;
  std::size_t largestSnapshot = 0;
  std::uint64_t wordClass[4] = {0, 0, 0, 0};  // residual words: one, two, three bytes, escaped
  double credit = 1.0;
  const auto ticks = static_cast<std::uint64_t>(seconds * tickRate);
  const std::uint64_t warmup = static_cast<std::uint64_t>(2 * tickRate);  // the first full snapshots
  for (std::uint64_t t = 0; t < ticks; ++t) {
    world->step();
    const auto tick = static_cast<std::uint32_t>(world->tick());
    while (!acks.empty() && acks.front().first <= tick) {
      view.acknowledge(acks.front().second);
      acks.pop_front();
    }
    credit += sendRate / tickRate;
    if (credit >= 1.0) {
      credit = std::min(credit - 1.0, 1.0);
      net::SnapshotStats stats;
      net::wireStatesOf(*world, states);
      auto out = view.build(*world, states, tick, interest, stats);
      ++snapshots;
      std::size_t snapshotBytes = 0;
      if (t >= warmup) ++measuredSnapshots;
      for (auto& p : out) {
        if (t >= warmup) {
          for (std::uint32_t w : p.residual()) {
            ++wordClass[(w & 1u) == 0 ? 0 : (w & 3u) == 1 ? 1 : (w & 7u) == 3 ? 2 : 3];
          }
        }
        wire::Packet packet;
        *packet.mutable_snapshot() = p;
        std::vector<std::uint8_t> d;
        if (!wire::encodeDatagram({wire::Packet::kSnapshot, 0, 0, 0}, packet, d)) return 1;
        snapshotBytes += d.size();
        if (t >= warmup) {
          bytes += d.size();
          ++parts;
        }
        if (lost(rng)) {
          ++datagramsLost;
          continue;
        }
        toClient.push_back({tick + oneWay, std::move(p)});
      }
      if (t >= warmup) updates += stats.entitiesSent;
      largestSnapshot = std::max(largestSnapshot, snapshotBytes);
      overBudget += snapshotBytes > interest.budgetBytes ? 1 : 0;
      // Moving: entities whose quantised position changed since the last snapshot (counted
      // after the warm-up), from the wire states this snapshot was built from.
      for (const wire::EntityState& e : states) {
        auto it = lastSent.find(e.id);
        if (t >= warmup && (it == lastSent.end() || it->second.x != e.x || it->second.y != e.y)) ++moving;
        lastSent[e.id] = e;
      }
    }
    // The client: decode what arrived, ack complete snapshots after the return trip.
    while (!toClient.empty() && toClient.front().arriveTick <= tick) {
      wire::Snapshot part = std::move(toClient.front().part);
      toClient.pop_front();
      auto& list = partsOf[part.tick()];
      list.push_back(part);
      if (list.size() != part.part_count()) continue;
      const wire::SnapshotRecord* base = nullptr;
      if (part.baseline_tick() != 0) {
        auto it = clientHas.find(part.baseline_tick());
        if (it == clientHas.end()) {
          ++failures;
          continue;
        }
        base = &it->second;
      }
      std::sort(list.begin(), list.end(), [](auto& x, auto& y) { return x.part() < y.part(); });
      wire::SnapshotRecord record;
      bool ok = true;
      for (const auto& p : list) ok = ok && wire::decodeSnapshotPart(p, base, record).empty();
      if (!ok) {
        ++failures;
        continue;
      }
      clientHas[part.tick()] = std::move(record);
      while (clientHas.size() > 64) clientHas.erase(clientHas.begin());
      partsOf.erase(partsOf.begin(), partsOf.upper_bound(part.tick()));
      acks.emplace_back(tick + oneWay, part.tick());
    }
  }
  const double measured = static_cast<double>(ticks - warmup) / tickRate;
  std::printf("scenario %s, %zu entities, %.0f s at %.0f Hz, rtt %.0f ms, loss %.0f %%, budget %.0f kbps\n",
              scenario.c_str(), world->agentCount(), seconds, sendRate, rttMs, loss * 100, kbps);
  std::printf("bytes per entity update      %.3f\n",
              static_cast<double>(bytes) / static_cast<double>(updates));
  std::printf("bytes per moving entity      %.3f\n",
              static_cast<double>(bytes) / static_cast<double>(moving));
  std::printf("datagrams per snapshot       %.2f\n",
              static_cast<double>(parts) / static_cast<double>(measuredSnapshots));
  const double words = static_cast<double>(wordClass[0] + wordClass[1] + wordClass[2] + wordClass[3]);
  std::printf(
      "residual words               %.1f %% one byte, %.1f %% two, %.1f %% three, %.1f %% escaped\n",
      100.0 * static_cast<double>(wordClass[0]) / words, 100.0 * static_cast<double>(wordClass[1]) / words,
      100.0 * static_cast<double>(wordClass[2]) / words, 100.0 * static_cast<double>(wordClass[3]) / words);
  std::printf("kbps per client              %.1f\n", static_cast<double>(bytes) * 8 / 1000 / measured);
  std::printf("entity updates per snapshot  %.1f\n", static_cast<double>(updates) / (measured * sendRate));
  std::printf(
      "snapshots over the budget     %llu of %llu (budget %zu bytes, largest %zu; %.2f encodings a "
      "snapshot)\n",
      static_cast<unsigned long long>(overBudget), static_cast<unsigned long long>(snapshots),
      interest.budgetBytes, largestSnapshot,
      static_cast<double>(view.encodings()) / static_cast<double>(std::max<std::uint64_t>(snapshots, 1)));
  std::printf("datagrams lost %llu, snapshots undecodable %llu\n",
              static_cast<unsigned long long>(datagramsLost), static_cast<unsigned long long>(failures));
  return failures > 0 && loss == 0 ? 1 : 0;
}
