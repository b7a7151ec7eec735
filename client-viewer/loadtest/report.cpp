#include "loadtest/report.h"

#include <cmath>
#include <cstdio>
#include <string_view>

#include "client/interpolation.h"

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

const char* endReasonName(EndReason e) {
  switch (e) {
    case EndReason::kDuration:
      return "duration";
    case EndReason::kSignal:
      return "signal";
    case EndReason::kAbortOnFail:
      return "abort_on_fail";
    case EndReason::kPlayersEnded:
      return "players_ended";
  }
  return "unknown";
}

Verdict evaluate(const Thresholds& t, const Json& report) {
  Verdict v;
  if (numberAt(report, {"counts", "connected"}).value_or(0.0) == 0.0) {
    v.pass = false;
    v.failures.push_back("no player could connect");
  }
  for (const ThresholdExpr& e : t.checks()) {
    Check c = judge(e, report);
    if (!c.pass) {
      v.pass = false;
      v.failures.push_back(c.failure);
    }
    v.checks.push_back(std::move(c));
  }
  return v;
}

int exitCodeOf(const Report& r) {
  if (r.capacity) return r.capacity->highestHeld > 0 ? 0 : 1;
  return r.verdict.pass ? 0 : 1;
}

namespace {

// A number, or null when not finite.
// A number to 6 significant digits (the series hold floats; more digits would be noise), or null
// when not finite.
Json num(double v) { return std::isfinite(v) ? Json(std::stod(format("%.6g", v))) : Json(nullptr); }
Json num(std::optional<double> v) { return v ? num(*v) : Json(nullptr); }

// An empty series is not measured (null figures), unless it counts bad events: none is zeros.
Json summaryJson(const Summary& s, bool zeroWhenEmpty) {
  Json j;
  j["count"] = static_cast<std::uint64_t>(s.count);
  const bool measured = s.count > 0 || zeroWhenEmpty;
  j["mean"] = measured ? num(s.mean) : Json(nullptr);
  j["p50"] = measured ? num(s.p50) : Json(nullptr);
  j["p95"] = measured ? num(s.p95) : Json(nullptr);
  j["p99"] = measured ? num(s.p99) : Json(nullptr);
  j["max"] = measured ? num(s.max) : Json(nullptr);
  return j;
}

Json checkJson(const Check& c) {
  Json j;
  j["name"] = c.name;
  j["expression"] = c.expression;
  j["limit"] = num(c.limit);
  j["value"] = num(c.value);
  j["pass"] = c.pass;
  return j;
}

void addVerdict(Json& j, const Verdict& v) {
  Json checks = Json::array();
  for (const Check& c : v.checks) checks.push_back(checkJson(c));
  j["checks"] = std::move(checks);
  j["verdict"] = v.pass ? "pass" : "fail";
  j["failures"] = v.failures;
}

std::optional<double> p99Of(const Summary& s) {
  return s.count ? std::optional<double>(s.p99) : std::nullopt;
}

}  // namespace

Json reportJsonValue(const Report& r, bool withVerdict) {
  const LoadOptions& o = r.options;
  const Counts& c = r.counts;
  Json j;
  j["schema"] = "steer-loadtest/1";
  Json config;
  config["server"] = o.server;
  config["players"] = static_cast<std::uint64_t>(o.players);
  config["duration_s"] = num(o.durationSeconds);
  config["ramp_per_s"] = num(o.rampPerSecond);
  config["churn_per_s"] = num(o.churnPerSecond);
  config["pattern"] = patternName(o.pattern);
  config["loss"] = num(o.impairment.loss);
  config["latency_ms"] = num(o.impairment.latencyMs);
  config["jitter_ms"] = num(o.impairment.jitterMs);
  config["seed"] = static_cast<std::uint64_t>(o.seed);
  config["threads"] = r.threads;
  config["view_rate_hz"] = num(o.viewRateHz);
  config["full_decode"] = fullDecodeText(o.fullDecode);
  config["metrics"] = r.server.address;
  config["find_capacity"] = o.findCapacity;
  config["capacity_step"] = static_cast<std::uint64_t>(o.capacityStep);
  config["abort_on_fail"] = o.abortOnFail;
  config["out"] = o.seriesFile;
  j["config"] = std::move(config);
  j["elapsed_s"] = num(r.elapsedSeconds);
  j["ramp_s"] = num(r.rampSeconds);
  j["held_s"] = num(r.heldSeconds);
  j["interrupted"] = r.end == EndReason::kSignal;
  j["signal"] = r.signal.empty() ? Json(nullptr) : Json(r.signal);
  j["end"] = endReasonName(r.end);
  if (r.aborted) {
    Json a;
    a["at_s"] = num(r.aborted->atSeconds);
    a["name"] = r.aborted->check.name;
    a["expression"] = r.aborted->check.expression;
    a["limit"] = num(r.aborted->check.limit);
    a["value"] = num(r.aborted->check.value);
    a["failure"] = r.aborted->check.failure;
    j["aborted"] = std::move(a);
  } else {
    j["aborted"] = nullptr;
  }
  // Intent mode: reconciles that moved a player's prediction, per second of the run (all players).
  j["prediction_corrections_per_s"] =
      r.elapsedSeconds > 0 ? num(static_cast<double>(c.predictionCorrections) / r.elapsedSeconds) : Json(0.0);
  j["connected_fraction"] =
      c.players > 0 ? num(static_cast<double>(c.connectedAtEnd) / static_cast<double>(c.players)) : Json(0.0);
  Json counts;
  counts["players"] = c.players;
  counts["started"] = c.started;
  counts["connected"] = c.connected;
  counts["connected_at_end"] = c.connectedAtEnd;
  counts["refused"] = c.refused;
  counts["timed_out"] = c.timedOut;
  counts["timed_out_after_connect"] = c.timedOutAfterConnect;
  counts["disconnected"] = c.disconnected;
  counts["failed"] = c.failed;
  counts["still_connecting"] = c.stillConnecting;
  counts["decode_failures"] = c.decodeFailures;
  counts["prediction_corrections"] = c.predictionCorrections;
  counts["snapshots"] = c.snapshots;
  counts["snapshot_parts"] = c.snapshotParts;
  counts["snapshots_abandoned"] = c.snapshotsAbandoned;
  counts["send_failures"] = c.sendFailures;
  counts["bytes_in"] = c.bytesIn;
  counts["bytes_out"] = c.bytesOut;
  counts["churned"] = c.churned;
  counts["entities_lost"] = c.entitiesLost;
  counts["entities_vanished"] = c.entitiesVanished;
  counts["entities_lost_joining"] = c.entitiesLostJoining;
  counts["entities_vanished_joining"] = c.entitiesVanishedJoining;
  j["counts"] = std::move(counts);
  j["why"] = Json{{"refused", c.refusedExample},
                  {"timed_out", c.timedOutExample},
                  {"disconnected", c.disconnectedExample},
                  {"failed", c.failedExample}};
  for (int s = 0; s < kSeriesCount; ++s) {
    const auto series = static_cast<Series>(s);
    j[seriesName(series)] = summaryJson(r.series[static_cast<std::size_t>(s)], eventSeries(series));
  }
  Json samples;
  for (client::SampleKind k : kKinds)
    samples[client::sampleKindName(k)] = c.samples[static_cast<std::size_t>(k)];
  j["samples"] = std::move(samples);
  j["impairment"] = Json{{"active", o.impairment.active()},
                         {"dropped_to_server", c.relayDroppedToServer},
                         {"dropped_to_client", c.relayDroppedToClient},
                         {"forwarded_to_server", c.relayForwardedToServer},
                         {"forwarded_to_client", c.relayForwardedToClient}};
  Json server;
  server["metrics_reachable"] = r.server.reachable;
  server["error"] = r.server.error;
  server["tick_p99_ms"] = num(r.server.tickP99Ms);
  server["tick_p99_since_server_start"] = r.server.tickSinceServerStart;
  server["late_ticks"] = num(r.server.lateTicks);
  server["clients_at_end"] = num(r.server.clientsAtEnd);
  server["tick_rate_hz"] = r.server.tickRateHz > 0 ? num(r.server.tickRateHz) : Json(nullptr);
  server["send_rate_hz"] = r.server.sendRateHz > 0 ? num(r.server.sendRateHz) : Json(nullptr);
  server["send_period_ms"] = r.server.sendRateHz > 0 ? num(1000.0 / r.server.sendRateHz) : Json(nullptr);
  j["server"] = std::move(server);
  // The tester's own CPU, to judge a run by: near a core per thread, the tester (not the server)
  // may be what the players felt (see tester_tick_lag_ms).
  j["tester"] =
      Json{{"cpu_s", num(r.testerCpuSeconds)},
           {"user_s", num(r.testerUserSeconds)},
           {"system_s", num(r.testerSystemSeconds)},
           {"cores", r.elapsedSeconds > 0 ? num(r.testerCpuSeconds / r.elapsedSeconds) : Json(nullptr)}};
  // Who decoded snapshots whole (--full-decode), and the figures that come from them alone.
  j["decode"] =
      Json{{"full_players", c.fullDecodePlayers},
           {"light_players", c.lightDecodePlayers},
           {"from_full_only", Json::array({"entities_in_view", "lost_entity_gap_ms", "counts.entities_lost",
                                           "counts.entities_vanished", "counts.entities_lost_joining",
                                           "counts.entities_vanished_joining"})}};
  Json thresholds;
  thresholds["max_tick_p99_ms"] = num(o.thresholds.maxTickP99Ms);
  thresholds["max_stall_ms"] = num(o.thresholds.maxStallMs);
  thresholds["max_snapshot_interval_p99_ms"] = num(o.thresholds.maxSnapshotIntervalP99Ms);
  thresholds["min_connected_fraction"] = num(o.thresholds.minConnectedFraction);
  Json expressions = Json::array();
  for (const ThresholdExpr& e : o.thresholds.expressions) expressions.push_back(e.text);
  thresholds["expressions"] = std::move(expressions);
  j["thresholds"] = std::move(thresholds);
  if (!withVerdict) return j;
  addVerdict(j, r.verdict);
  if (r.capacity) {
    Json capacity;
    capacity["step"] = r.capacity->step;
    capacity["highest_held"] = r.capacity->highestHeld;
    Json steps = Json::array();
    for (const CapacityStep& s : r.capacity->steps) {
      Json step;
      step["players"] = s.players;
      step["connected_at_end"] = s.connectedAtEnd;
      step["tick_p99_ms"] = num(s.tickP99Ms);
      step["snapshot_interval_p99_ms"] = num(p99Of(s.snapshotInterval));
      step["snapshot_jitter_p99_ms"] = num(p99Of(s.snapshotJitter));
      step["max_stall_ms"] = num(s.stall.max);
      step["interrupted"] = s.interrupted;
      addVerdict(step, s.verdict);
      steps.push_back(std::move(step));
    }
    capacity["steps"] = std::move(steps);
    j["capacity"] = std::move(capacity);
  }
  j["exit_code"] = exitCodeOf(r);
  return j;
}

Json reportSkeleton(const LoadOptions& o) {
  Report r;
  r.options = o;
  r.counts.players = o.players;
  if (o.findCapacity) r.capacity = CapacityResult{};
  return reportJsonValue(r, false);
}

std::string reportJson(const Report& r) { return reportJsonValue(r).dump(2) + "\n"; }

std::string reportTable(const Report& r) {
  const LoadOptions& o = r.options;
  const Counts& c = r.counts;
  std::string out;
  out += format(
      "steer-loadtest: %zu players (%s) against %s for %.1f s (ramp %.1f s), seed %llu, %llu thread(s)\n",
      o.players, patternName(o.pattern), o.server.c_str(), r.elapsedSeconds, r.rampSeconds,
      static_cast<unsigned long long>(o.seed), static_cast<unsigned long long>(r.threads));
  if (r.end == EndReason::kSignal) {
    out += format("interrupted by %s after %.1f s (held %.1f s of %.1f s)\n",
                  r.signal.empty() ? "a signal" : r.signal.c_str(), r.elapsedSeconds, r.heldSeconds,
                  o.durationSeconds);
  }
  if (r.aborted) {
    out += format("aborted at %.1f s (--abort-on-fail): %s\n", r.aborted->atSeconds,
                  r.aborted->check.failure.c_str());
  }
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
                                                 {kSnapshotTickInterval, "  in server ticks (ms)"},
                                                 {kSnapshotJitter, "  jitter (ms)"},
                                                 {kSnapshotHandledInterval, "  as handled (ms)"},
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
    out += "server (" + r.server.address + "): " +
           (r.server.sendRateHz > 0
                ? format("%.0f ticks/s, %.0f snapshots/s, ", r.server.tickRateHz, r.server.sendRateHz)
                : std::string()) +
           "tick p99 " +
           (r.server.tickP99Ms ? format("%.2f ms", *r.server.tickP99Ms) : std::string("unknown")) +
           (r.server.tickSinceServerStart ? " (since the server started)" : "") +
           (r.server.lateTicks ? format(", late ticks %.0f", *r.server.lateTicks) : std::string()) +
           (r.server.clientsAtEnd ? format(", clients %.0f", *r.server.clientsAtEnd) : std::string()) + "\n";
  } else {
    out += "server (" + r.server.address + "): metrics unreachable (" + r.server.error + ")\n";
  }
  out += format("tester: %.1f s of CPU (user %.1f s, system %.1f s) over %.1f s: %.2f cores\n",
                r.testerCpuSeconds, r.testerUserSeconds, r.testerSystemSeconds, r.elapsedSeconds,
                r.elapsedSeconds > 0 ? r.testerCpuSeconds / r.elapsedSeconds : 0.0);
  if (c.lightDecodePlayers == 0) {
    out += format("decode: every player decodes snapshots whole (--full-decode %s)\n",
                  fullDecodeText(o.fullDecode).c_str());
  } else {
    out += format(
        "decode: %llu players decode snapshots whole, %llu light (--full-decode %s): entities in view, lost "
        "entity gap and NPCs lost or vanished are from the %llu alone\n",
        static_cast<unsigned long long>(c.fullDecodePlayers),
        static_cast<unsigned long long>(c.lightDecodePlayers), fullDecodeText(o.fullDecode).c_str(),
        static_cast<unsigned long long>(c.fullDecodePlayers));
  }
  if (r.capacity) {
    out += format("\ncapacity, steps of %llu players:\n", static_cast<unsigned long long>(r.capacity->step));
    for (const CapacityStep& s : r.capacity->steps) {
      out += format("  %6llu players: %s", static_cast<unsigned long long>(s.players),
                    s.interrupted    ? "interrupted"
                    : s.verdict.pass ? "held"
                                     : "broke");
      for (const auto& f : s.verdict.failures) out += " | " + f;
      out += "\n";
    }
    out += format("highest count held: %llu\n", static_cast<unsigned long long>(r.capacity->highestHeld));
  }
  out += "\nthresholds:";
  if (r.verdict.checks.empty()) out += " none set";
  out += "\n";
  for (const Check& ch : r.verdict.checks) {
    const std::string label = ch.name == ch.expression ? ch.name : ch.name + " (" + ch.expression + ")";
    out += format("  %-50s value %-10s %s\n", label.c_str(), ch.value ? number(*ch.value).c_str() : "unknown",
                  ch.pass ? "pass" : "FAIL");
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
