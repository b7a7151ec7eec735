#include "loadtest/report.h"

#include <cstdio>
#include <string_view>

#include "client/interpolation.h"
#include "loadtest/json_writer.h"

namespace steerd::loadtest {

namespace {

std::string format(const char* fmt, auto... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

std::string number(double v) { return format("%.3g", v); }

constexpr client::SampleKind kKinds[] = {client::SampleKind::kEmpty, client::SampleKind::kBehind,
                                         client::SampleKind::kInterpolated, client::SampleKind::kExtrapolated,
                                         client::SampleKind::kStalled};

}  // namespace

Verdict evaluate(const Thresholds& t, const Measured& m) {
  Verdict v;
  auto add = [&](std::string name, double limit, std::optional<double> value, bool pass, std::string why) {
    v.checks.push_back({std::move(name), limit, value, pass});
    if (!pass) {
      v.pass = false;
      v.failures.push_back(std::move(why));
    }
  };
  if (m.connected == 0) {
    v.pass = false;
    v.failures.push_back("no player could connect");
  }
  if (t.maxTickP99Ms) {
    const double limit = *t.maxTickP99Ms;
    if (!m.tickP99Ms) {
      add("max_tick_p99_ms", limit, std::nullopt, false,
          m.serverReachable ? "server tick p99 unknown: no ticks measured"
                            : "server tick p99 unknown: the metrics endpoint was unreachable");
    } else {
      add("max_tick_p99_ms", limit, m.tickP99Ms, *m.tickP99Ms <= limit,
          "server tick p99 " + number(*m.tickP99Ms) + " ms > " + number(limit) + " ms");
    }
  }
  if (t.maxStallMs) {
    const double limit = *t.maxStallMs;
    const double longest = m.stall.count > 0 ? m.stall.max : 0.0;
    add("max_stall_ms", limit, longest, longest <= limit,
        "longest stall " + number(longest) + " ms > " + number(limit) + " ms");
  }
  if (t.maxSnapshotIntervalP99Ms) {
    const double limit = *t.maxSnapshotIntervalP99Ms;
    if (m.snapshotInterval.count == 0) {
      add("max_snapshot_interval_p99_ms", limit, std::nullopt, false, "no snapshot interval measured");
    } else {
      add("max_snapshot_interval_p99_ms", limit, m.snapshotInterval.p99, m.snapshotInterval.p99 <= limit,
          "snapshot interval p99 " + number(m.snapshotInterval.p99) + " ms > " + number(limit) + " ms");
    }
  }
  if (t.minConnectedFraction) {
    const double limit = *t.minConnectedFraction;
    const double f =
        m.players > 0 ? static_cast<double>(m.connectedAtEnd) / static_cast<double>(m.players) : 0.0;
    add("min_connected_fraction", limit, f, f >= limit,
        "connected at the end " + std::to_string(m.connectedAtEnd) + "/" + std::to_string(m.players) + " = " +
            number(f) + " < " + number(limit));
  }
  return v;
}

Measured measuredOf(const Report& r) {
  Measured m;
  m.players = r.counts.players;
  m.connected = r.counts.connected;
  m.connectedAtEnd = r.counts.connectedAtEnd;
  m.tickP99Ms = r.server.tickP99Ms;
  m.snapshotInterval = r.series[kSnapshotInterval];
  m.stall = r.series[kStall];
  m.serverReachable = r.server.reachable;
  return m;
}

int exitCodeOf(const Report& r) {
  if (r.capacity) return r.capacity->highestHeld > 0 ? 0 : 1;
  return r.verdict.pass ? 0 : 1;
}

namespace {

void writeSummary(JsonWriter& j, const Summary& s) {
  j.beginObject()
      .field("count", static_cast<std::uint64_t>(s.count))
      .field("mean", s.mean)
      .field("p50", s.p50)
      .field("p95", s.p95)
      .field("p99", s.p99)
      .field("max", s.max)
      .endObject();
}

void writeThresholds(JsonWriter& j, const Thresholds& t) {
  j.beginObject()
      .field("max_tick_p99_ms", t.maxTickP99Ms)
      .field("max_stall_ms", t.maxStallMs)
      .field("max_snapshot_interval_p99_ms", t.maxSnapshotIntervalP99Ms)
      .field("min_connected_fraction", t.minConnectedFraction)
      .endObject();
}

void writeVerdict(JsonWriter& j, const Verdict& v) {
  j.key("checks").beginArray();
  for (const Check& c : v.checks) {
    j.beginObject()
        .field("name", c.name)
        .field("limit", c.limit)
        .field("value", c.value)
        .field("pass", c.pass);
    j.endObject();
  }
  j.endArray();
  j.field("verdict", v.pass ? "pass" : "fail");
  j.key("failures").beginArray();
  for (const auto& f : v.failures) j.value(f);
  j.endArray();
}

}  // namespace

std::string reportJson(const Report& r) {
  const LoadOptions& o = r.options;
  const Counts& c = r.counts;
  JsonWriter j;
  j.beginObject();
  j.field("schema", "steer-loadtest/1");
  j.key("config")
      .beginObject()
      .field("server", o.server)
      .field("players", static_cast<std::uint64_t>(o.players))
      .field("duration_s", o.durationSeconds)
      .field("ramp_per_s", o.rampPerSecond)
      .field("churn_per_s", o.churnPerSecond)
      .field("pattern", patternName(o.pattern))
      .field("loss", o.impairment.loss)
      .field("latency_ms", o.impairment.latencyMs)
      .field("jitter_ms", o.impairment.jitterMs)
      .field("seed", static_cast<std::uint64_t>(o.seed))
      .field("threads", r.threads)
      .field("view_rate_hz", o.viewRateHz)
      .field("metrics", r.server.address)
      .field("find_capacity", o.findCapacity)
      .field("capacity_step", static_cast<std::uint64_t>(o.capacityStep))
      .endObject();
  j.field("elapsed_s", r.elapsedSeconds).field("ramp_s", r.rampSeconds);
  // Intent mode: reconciles that moved a player's prediction, per second of the run (all players).
  j.field(
      "prediction_corrections_per_s",
      r.elapsedSeconds > 0 ? static_cast<double>(r.counts.predictionCorrections) / r.elapsedSeconds : 0.0);
  j.key("counts")
      .beginObject()
      .field("players", c.players)
      .field("started", c.started)
      .field("connected", c.connected)
      .field("connected_at_end", c.connectedAtEnd)
      .field("refused", c.refused)
      .field("timed_out", c.timedOut)
      .field("timed_out_after_connect", c.timedOutAfterConnect)
      .field("disconnected", c.disconnected)
      .field("failed", c.failed)
      .field("still_connecting", c.stillConnecting)
      .field("decode_failures", c.decodeFailures)
      .field("prediction_corrections", c.predictionCorrections)
      .field("snapshots", c.snapshots)
      .field("snapshot_parts", c.snapshotParts)
      .field("snapshots_abandoned", c.snapshotsAbandoned)
      .field("send_failures", c.sendFailures)
      .field("bytes_in", c.bytesIn)
      .field("bytes_out", c.bytesOut)
      .field("churned", c.churned)
      .field("entities_lost", c.entitiesLost)
      .field("entities_vanished", c.entitiesVanished)
      .field("entities_lost_joining", c.entitiesLostJoining)
      .field("entities_vanished_joining", c.entitiesVanishedJoining)
      .endObject();
  j.key("why").beginObject();
  j.field("refused", c.refusedExample).field("timed_out", c.timedOutExample);
  j.field("disconnected", c.disconnectedExample).field("failed", c.failedExample);
  j.endObject();
  for (int s = 0; s < kSeriesCount; ++s) {
    j.key(seriesName(static_cast<Series>(s)));
    writeSummary(j, r.series[static_cast<std::size_t>(s)]);
  }
  j.key("samples").beginObject();
  for (client::SampleKind k : kKinds)
    j.field(client::sampleKindName(k), c.samples[static_cast<std::size_t>(k)]);
  j.endObject();
  j.key("impairment")
      .beginObject()
      .field("active", o.impairment.active())
      .field("dropped_to_server", c.relayDroppedToServer)
      .field("dropped_to_client", c.relayDroppedToClient)
      .field("forwarded_to_server", c.relayForwardedToServer)
      .field("forwarded_to_client", c.relayForwardedToClient)
      .endObject();
  j.key("server")
      .beginObject()
      .field("metrics_reachable", r.server.reachable)
      .field("error", r.server.error)
      .field("tick_p99_ms", r.server.tickP99Ms)
      .field("tick_p99_since_server_start", r.server.tickSinceServerStart)
      .field("late_ticks", r.server.lateTicks)
      .field("clients_at_end", r.server.clientsAtEnd)
      .endObject();
  j.key("tester").beginObject().field("cpu_s", r.testerCpuSeconds).endObject();
  j.key("thresholds");
  writeThresholds(j, o.thresholds);
  writeVerdict(j, r.verdict);
  if (r.capacity) {
    j.key("capacity").beginObject();
    j.field("step", r.capacity->step).field("highest_held", r.capacity->highestHeld);
    j.key("steps").beginArray();
    for (const CapacityStep& s : r.capacity->steps) {
      j.beginObject().field("players", s.players).field("connected_at_end", s.measured.connectedAtEnd);
      j.field("tick_p99_ms", s.measured.tickP99Ms);
      j.field("snapshot_interval_p99_ms", s.measured.snapshotInterval.count
                                              ? std::optional<double>(s.measured.snapshotInterval.p99)
                                              : std::nullopt);
      j.field("max_stall_ms", s.measured.stall.max);
      writeVerdict(j, s.verdict);
      j.endObject();
    }
    j.endArray().endObject();
  }
  j.field("exit_code", static_cast<std::uint64_t>(exitCodeOf(r)));
  j.endObject();
  return j.str();
}

std::string reportTable(const Report& r) {
  const LoadOptions& o = r.options;
  const Counts& c = r.counts;
  std::string out;
  out += format(
      "steer-loadtest: %zu players (%s) against %s for %.1f s (ramp %.1f s), seed %llu, %llu thread(s)\n",
      o.players, patternName(o.pattern), o.server.c_str(), r.elapsedSeconds, r.rampSeconds,
      static_cast<unsigned long long>(o.seed), static_cast<unsigned long long>(r.threads));
  if (o.churnPerSecond > 0) {
    out += format("churn: %.3g players per second leave and are replaced\n", o.churnPerSecond);
  }
  if (o.impairment.active()) {
    out += format("simulated network: loss %.3g, latency %.3g ms +- %.3g ms each way\n", o.impairment.loss,
                  o.impairment.latencyMs, o.impairment.jitterMs);
  }
  out += "\n";
  out += format("%-28s %9s %9s %9s %9s %9s\n", "measure", "count", "p50", "p95", "p99", "max");
  const std::pair<Series, const char*> rows[] = {{kSnapshotInterval, "snapshot interval (ms)"},
                                                 {kStall, "stall (ms)"},
                                                 {kExtrapolation, "extrapolation (ms)"},
                                                 {kRtt, "rtt (ms)"},
                                                 {kKbpsIn, "kbps in (per player)"},
                                                 {kKbpsOut, "kbps out (per player)"},
                                                 {kEntities, "entities in view"},
                                                 {kConnect, "connect (ms)"},
                                                 {kTickLag, "tester tick lag (ms)"},
                                                 {kLostGap, "lost entity gap (ms)"}};
  for (const auto& [s, label] : rows) {
    const Summary& m = r.series[s];
    out += format("%-28s %9zu %9.1f %9.1f %9.1f %9.1f\n", label, m.count, m.p50, m.p95, m.p99, m.max);
  }
  out += "\n";
  out += format(
      "players %llu: connected %llu, at end %llu, refused %llu, timed out %llu (%llu after connecting), "
      "disconnected %llu, failed %llu, still connecting %llu\n",
      static_cast<unsigned long long>(c.players), static_cast<unsigned long long>(c.connected),
      static_cast<unsigned long long>(c.connectedAtEnd), static_cast<unsigned long long>(c.refused),
      static_cast<unsigned long long>(c.timedOut), static_cast<unsigned long long>(c.timedOutAfterConnect),
      static_cast<unsigned long long>(c.disconnected), static_cast<unsigned long long>(c.failed),
      static_cast<unsigned long long>(c.stillConnecting));
  if (c.churned > 0)
    out += format("  churned (left early and replaced) %llu\n", static_cast<unsigned long long>(c.churned));
  const std::pair<const std::string*, const char*> whys[] = {{&c.refusedExample, "refused"},
                                                             {&c.timedOutExample, "timed out"},
                                                             {&c.disconnectedExample, "disconnected"},
                                                             {&c.failedExample, "failed"}};
  for (const auto& [why, label] : whys) {
    if (!why->empty()) out += format("  %s, e.g.: %s\n", label, why->c_str());
  }
  std::uint64_t samples = 0;
  for (auto n : c.samples) samples += n;
  auto pct = [&](client::SampleKind k) {
    return samples ? 100.0 * static_cast<double>(c.samples[static_cast<std::size_t>(k)]) /
                         static_cast<double>(samples)
                   : 0.0;
  };
  out += format(
      "snapshots %llu (parts %llu, abandoned %llu), decode failures %llu, send failures %llu\n",
      static_cast<unsigned long long>(c.snapshots), static_cast<unsigned long long>(c.snapshotParts),
      static_cast<unsigned long long>(c.snapshotsAbandoned),
      static_cast<unsigned long long>(c.decodeFailures), static_cast<unsigned long long>(c.sendFailures));
  out += format(
      "samples %llu: interpolated %.2f%%, extrapolated %.2f%%, stalled %.2f%%, behind %.2f%%, empty %.2f%%\n",
      static_cast<unsigned long long>(samples), pct(client::SampleKind::kInterpolated),
      pct(client::SampleKind::kExtrapolated), pct(client::SampleKind::kStalled),
      pct(client::SampleKind::kBehind), pct(client::SampleKind::kEmpty));
  out += format(
      "view: NPCs gone while well inside the interest area: lost %llu (seen again), vanished %llu (not "
      "seen again within 5 s: despawned, or lost for good); of them in a player's first 2 s: %llu, %llu\n",
      static_cast<unsigned long long>(c.entitiesLost), static_cast<unsigned long long>(c.entitiesVanished),
      static_cast<unsigned long long>(c.entitiesLostJoining),
      static_cast<unsigned long long>(c.entitiesVanishedJoining));
  if (o.impairment.active()) {
    out += format("simulated drops: %llu to the server, %llu to the clients\n",
                  static_cast<unsigned long long>(c.relayDroppedToServer),
                  static_cast<unsigned long long>(c.relayDroppedToClient));
  }
  if (r.server.reachable) {
    out += "server (" + r.server.address + "): tick p99 " +
           (r.server.tickP99Ms ? format("%.2f ms", *r.server.tickP99Ms) : std::string("unknown")) +
           (r.server.tickSinceServerStart ? " (since the server started)" : "") +
           (r.server.lateTicks ? format(", late ticks %.0f", *r.server.lateTicks) : std::string()) +
           (r.server.clientsAtEnd ? format(", clients %.0f", *r.server.clientsAtEnd) : std::string()) + "\n";
  } else {
    out += "server (" + r.server.address + "): metrics unreachable (" + r.server.error + ")\n";
  }
  out += format("tester: %.1f s of CPU over %.1f s (%.0f%% of one core)\n", r.testerCpuSeconds,
                r.elapsedSeconds, r.elapsedSeconds > 0 ? 100.0 * r.testerCpuSeconds / r.elapsedSeconds : 0.0);
  if (r.capacity) {
    out += format("\ncapacity, steps of %llu players:\n", static_cast<unsigned long long>(r.capacity->step));
    for (const CapacityStep& s : r.capacity->steps) {
      out += format("  %6llu players: %s", static_cast<unsigned long long>(s.players),
                    s.verdict.pass ? "held" : "broke");
      for (const auto& f : s.verdict.failures) out += " | " + f;
      out += "\n";
    }
    out += format("highest count held: %llu\n", static_cast<unsigned long long>(r.capacity->highestHeld));
  }
  out += "\nthresholds:";
  if (r.verdict.checks.empty()) out += " none set";
  out += "\n";
  for (const Check& ch : r.verdict.checks) {
    out += format("  %-30s limit %-10s value %-10s %s\n", ch.name.c_str(), number(ch.limit).c_str(),
                  ch.value ? number(*ch.value).c_str() : "unknown", ch.pass ? "pass" : "FAIL");
  }
  if (r.capacity) {
    out += format("verdict: %s (highest count held %llu)\n", exitCodeOf(r) == 0 ? "PASS" : "FAIL",
                  static_cast<unsigned long long>(r.capacity->highestHeld));
  } else {
    out += std::string("verdict: ") + (r.verdict.pass ? "PASS" : "FAIL");
    for (const auto& f : r.verdict.failures) out += " | " + f;
    out += "\n";
  }
  return out;
}

}  // namespace steerd::loadtest
