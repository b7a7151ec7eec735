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

namespace {

// The run as asked for: the flags, and the threads and metrics address they came to.
Json configJson(const Report& r) {
  const LoadOptions& o = r.options;
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
  return config;
}

Json abortedJson(const Abort& a) {
  Json j;
  j["at_s"] = num(a.atSeconds);
  j["name"] = a.check.name;
  j["expression"] = a.check.expression;
  j["limit"] = num(a.check.limit);
  j["value"] = num(a.check.value);
  j["failure"] = a.check.failure;
  return j;
}

Json countsJson(const Counts& c) {
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
  return counts;
}

Json samplesJson(const Counts& c) {
  Json samples;
  for (client::SampleKind k : kKinds)
    samples[client::sampleKindName(k)] = c.samples[static_cast<std::size_t>(k)];
  return samples;
}

Json serverJson(const ServerView& v) {
  Json server;
  server["metrics_reachable"] = v.reachable;
  server["error"] = v.error;
  server["tick_p99_ms"] = num(v.tickP99Ms);
  server["tick_p99_since_server_start"] = v.tickSinceServerStart;
  server["late_ticks"] = num(v.lateTicks);
  server["clients_at_end"] = num(v.clientsAtEnd);
  server["tick_rate_hz"] = v.tickRateHz > 0 ? num(v.tickRateHz) : Json(nullptr);
  server["send_rate_hz"] = v.sendRateHz > 0 ? num(v.sendRateHz) : Json(nullptr);
  server["send_period_ms"] = v.sendRateHz > 0 ? num(1000.0 / v.sendRateHz) : Json(nullptr);
  return server;
}

// The tester's own CPU, to judge a run by: near a core per thread, the tester (not the server)
// may be what the players felt (see tester_tick_lag_ms).
Json testerJson(const Report& r) {
  return Json{{"cpu_s", num(r.testerCpuSeconds)},
              {"user_s", num(r.testerUserSeconds)},
              {"system_s", num(r.testerSystemSeconds)},
              {"cores", r.elapsedSeconds > 0 ? num(r.testerCpuSeconds / r.elapsedSeconds) : Json(nullptr)}};
}

// Who decoded snapshots whole (--full-decode), and the figures that come from them alone.
Json decodeJson(const Counts& c) {
  return Json{
      {"full_players", c.fullDecodePlayers},
      {"light_players", c.lightDecodePlayers},
      {"from_full_only", Json::array({"entities_in_view", "lost_entity_gap_ms", "counts.entities_lost",
                                      "counts.entities_vanished", "counts.entities_lost_joining",
                                      "counts.entities_vanished_joining"})}};
}

Json thresholdsJson(const Thresholds& t) {
  Json thresholds;
  thresholds["max_tick_p99_ms"] = num(t.maxTickP99Ms);
  thresholds["max_stall_ms"] = num(t.maxStallMs);
  thresholds["max_snapshot_interval_p99_ms"] = num(t.maxSnapshotIntervalP99Ms);
  thresholds["min_connected_fraction"] = num(t.minConnectedFraction);
  Json expressions = Json::array();
  for (const ThresholdExpr& e : t.expressions) expressions.push_back(e.text);
  thresholds["expressions"] = std::move(expressions);
  return thresholds;
}

Json capacityStepJson(const CapacityStep& s) {
  Json step;
  step["players"] = s.players;
  step["connected_at_end"] = s.connectedAtEnd;
  step["tick_p99_ms"] = num(s.tickP99Ms);
  step["snapshot_interval_p99_ms"] = num(p99Of(s.snapshotInterval));
  step["snapshot_jitter_p99_ms"] = num(p99Of(s.snapshotJitter));
  step["max_stall_ms"] = num(s.stall.max);
  step["interrupted"] = s.interrupted;
  addVerdict(step, s.verdict);
  return step;
}

Json capacityJson(const CapacityResult& result) {
  Json capacity;
  capacity["step"] = result.step;
  capacity["highest_held"] = result.highestHeld;
  Json steps = Json::array();
  for (const CapacityStep& s : result.steps) steps.push_back(capacityStepJson(s));
  capacity["steps"] = std::move(steps);
  return capacity;
}

// How the run went: its times, how it ended, and the fractions the thresholds read most.
void addRunJson(Json& j, const Report& r) {
  const Counts& c = r.counts;
  j["elapsed_s"] = num(r.elapsedSeconds);
  j["ramp_s"] = num(r.rampSeconds);
  j["held_s"] = num(r.heldSeconds);
  j["interrupted"] = r.end == EndReason::kSignal;
  j["signal"] = r.signal.empty() ? Json(nullptr) : Json(r.signal);
  j["end"] = endReasonName(r.end);
  j["aborted"] = r.aborted ? abortedJson(*r.aborted) : Json(nullptr);
  // Intent mode: reconciles that moved a player's prediction, per second of the run (all players).
  j["prediction_corrections_per_s"] =
      r.elapsedSeconds > 0 ? num(static_cast<double>(c.predictionCorrections) / r.elapsedSeconds) : Json(0.0);
  j["connected_fraction"] =
      c.players > 0 ? num(static_cast<double>(c.connectedAtEnd) / static_cast<double>(c.players)) : Json(0.0);
}

// What the players felt: the counts, why players were lost, and a summary per series.
void addPlayersJson(Json& j, const Report& r) {
  const Counts& c = r.counts;
  j["counts"] = countsJson(c);
  j["why"] = Json{{"refused", c.refusedExample},
                  {"timed_out", c.timedOutExample},
                  {"disconnected", c.disconnectedExample},
                  {"failed", c.failedExample}};
  for (int s = 0; s < kSeriesCount; ++s) {
    const auto series = static_cast<Series>(s);
    j[seriesName(series)] = summaryJson(r.series[static_cast<std::size_t>(s)], eventSeries(series));
  }
  j["samples"] = samplesJson(c);
  j["impairment"] = Json{{"active", r.options.impairment.active()},
                         {"dropped_to_server", c.relayDroppedToServer},
                         {"dropped_to_client", c.relayDroppedToClient},
                         {"forwarded_to_server", c.relayForwardedToServer},
                         {"forwarded_to_client", c.relayForwardedToClient}};
}

}  // namespace

// The keys are written in a fixed order (Json is ordered): each helper adds its part in turn.
Json reportJsonValue(const Report& r, bool withVerdict) {
  Json j;
  j["schema"] = "steer-loadtest/1";
  j["config"] = configJson(r);
  addRunJson(j, r);
  addPlayersJson(j, r);
  j["server"] = serverJson(r.server);
  j["tester"] = testerJson(r);
  j["decode"] = decodeJson(r.counts);
  j["thresholds"] = thresholdsJson(r.options.thresholds);
  if (!withVerdict) return j;
  addVerdict(j, r.verdict);
  if (r.capacity) j["capacity"] = capacityJson(*r.capacity);
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

namespace {

// For printf's %llu: std::uint64_t is not unsigned long long everywhere.
unsigned long long ull(std::uint64_t n) { return static_cast<unsigned long long>(n); }

// What was run, and what made it unusual: an early end, churn, a simulated network.
std::string tableHeading(const Report& r) {
  const LoadOptions& o = r.options;
  std::string out = format(
      "steer-loadtest: %zu players (%s) against %s for %.1f s (ramp %.1f s), seed %llu, %llu thread(s)\n",
      o.players, patternName(o.pattern), o.server.c_str(), r.elapsedSeconds, r.rampSeconds, ull(o.seed),
      ull(r.threads));
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
  return out;
}

// One row per series: count and percentiles.
std::string seriesTable(const Report& r) {
  std::string out = format("%-28s %9s %9s %9s %9s %9s\n", "measure", "count", "p50", "p95", "p99", "max");
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
  return out;
}

// How the players fared, with an example of why for each way of losing one.
std::string playerLines(const Counts& c) {
  std::string out = format(
      "players %llu: connected %llu, at end %llu, refused %llu, timed out %llu (%llu after connecting), "
      "disconnected %llu, failed %llu, still connecting %llu\n",
      ull(c.players), ull(c.connected), ull(c.connectedAtEnd), ull(c.refused), ull(c.timedOut),
      ull(c.timedOutAfterConnect), ull(c.disconnected), ull(c.failed), ull(c.stillConnecting));
  if (c.churned > 0) out += format("  churned (left early and replaced) %llu\n", ull(c.churned));
  const std::pair<const std::string*, const char*> whys[] = {{&c.refusedExample, "refused"},
                                                             {&c.timedOutExample, "timed out"},
                                                             {&c.disconnectedExample, "disconnected"},
                                                             {&c.failedExample, "failed"}};
  for (const auto& [why, label] : whys) {
    if (!why->empty()) out += format("  %s, e.g.: %s\n", label, why->c_str());
  }
  return out;
}

// What the players received: snapshots, the interpolated view's samples, NPCs lost from view,
// and what the simulated network dropped.
std::string receivedLines(const Report& r) {
  const Counts& c = r.counts;
  std::uint64_t samples = 0;
  for (auto n : c.samples) samples += n;
  auto pct = [&](client::SampleKind k) {
    return samples ? 100.0 * static_cast<double>(c.samples[static_cast<std::size_t>(k)]) /
                         static_cast<double>(samples)
                   : 0.0;
  };
  std::string out =
      format("snapshots %llu (parts %llu, abandoned %llu), decode failures %llu, send failures %llu\n",
             ull(c.snapshots), ull(c.snapshotParts), ull(c.snapshotsAbandoned), ull(c.decodeFailures),
             ull(c.sendFailures));
  out += format(
      "samples %llu: interpolated %.2f%%, extrapolated %.2f%%, stalled %.2f%%, behind %.2f%%, empty %.2f%%\n",
      ull(samples), pct(client::SampleKind::kInterpolated), pct(client::SampleKind::kExtrapolated),
      pct(client::SampleKind::kStalled), pct(client::SampleKind::kBehind), pct(client::SampleKind::kEmpty));
  out += format(
      "view: NPCs gone while well inside the interest area: lost %llu (seen again), vanished %llu (not "
      "seen again within 5 s: despawned, or lost for good); of them in a player's first 2 s: %llu, %llu\n",
      ull(c.entitiesLost), ull(c.entitiesVanished), ull(c.entitiesLostJoining),
      ull(c.entitiesVanishedJoining));
  if (r.options.impairment.active()) {
    out += format("simulated drops: %llu to the server, %llu to the clients\n", ull(c.relayDroppedToServer),
                  ull(c.relayDroppedToClient));
  }
  return out;
}

// The server's side from /metrics, or why it could not be read.
std::string serverLine(const ServerView& v) {
  if (!v.reachable) return "server (" + v.address + "): metrics unreachable (" + v.error + ")\n";
  return "server (" + v.address + "): " +
         (v.sendRateHz > 0 ? format("%.0f ticks/s, %.0f snapshots/s, ", v.tickRateHz, v.sendRateHz)
                           : std::string()) +
         "tick p99 " + (v.tickP99Ms ? format("%.2f ms", *v.tickP99Ms) : std::string("unknown")) +
         (v.tickSinceServerStart ? " (since the server started)" : "") +
         (v.lateTicks ? format(", late ticks %.0f", *v.lateTicks) : std::string()) +
         (v.clientsAtEnd ? format(", clients %.0f", *v.clientsAtEnd) : std::string()) + "\n";
}

// The tester's CPU, and which players decoded snapshots whole (the figures that come from them).
std::string testerLines(const Report& r) {
  const Counts& c = r.counts;
  const std::string fullDecode = fullDecodeText(r.options.fullDecode);
  std::string out = format("tester: %.1f s of CPU (user %.1f s, system %.1f s) over %.1f s: %.2f cores\n",
                           r.testerCpuSeconds, r.testerUserSeconds, r.testerSystemSeconds, r.elapsedSeconds,
                           r.elapsedSeconds > 0 ? r.testerCpuSeconds / r.elapsedSeconds : 0.0);
  if (c.lightDecodePlayers == 0) {
    out += format("decode: every player decodes snapshots whole (--full-decode %s)\n", fullDecode.c_str());
  } else {
    out += format(
        "decode: %llu players decode snapshots whole, %llu light (--full-decode %s): entities in view, lost "
        "entity gap and NPCs lost or vanished are from the %llu alone\n",
        ull(c.fullDecodePlayers), ull(c.lightDecodePlayers), fullDecode.c_str(), ull(c.fullDecodePlayers));
  }
  return out;
}

// --find-capacity: each step held, broke or was interrupted.
std::string capacityLines(const CapacityResult& capacity) {
  std::string out = format("\ncapacity, steps of %llu players:\n", ull(capacity.step));
  for (const CapacityStep& s : capacity.steps) {
    out += format("  %6llu players: %s", ull(s.players),
                  s.interrupted    ? "interrupted"
                  : s.verdict.pass ? "held"
                                   : "broke");
    for (const auto& f : s.verdict.failures) out += " | " + f;
    out += "\n";
  }
  out += format("highest count held: %llu\n", ull(capacity.highestHeld));
  return out;
}

// Each check with its value, then the verdict.
std::string verdictLines(const Report& r) {
  std::string out = "\nthresholds:";
  if (r.verdict.checks.empty()) out += " none set";
  out += "\n";
  for (const Check& ch : r.verdict.checks) {
    const std::string label = ch.name == ch.expression ? ch.name : ch.name + " (" + ch.expression + ")";
    out += format("  %-50s value %-10s %s\n", label.c_str(), ch.value ? number(*ch.value).c_str() : "unknown",
                  ch.pass ? "pass" : "FAIL");
  }
  if (r.capacity) {
    out += format("verdict: %s (highest count held %llu)\n", exitCodeOf(r) == 0 ? "PASS" : "FAIL",
                  ull(r.capacity->highestHeld));
  } else {
    out += std::string("verdict: ") + (r.verdict.pass ? "PASS" : "FAIL");
    for (const auto& f : r.verdict.failures) out += " | " + f;
    out += "\n";
  }
  return out;
}

}  // namespace

std::string reportTable(const Report& r) {
  std::string out = tableHeading(r);
  out += "\n";
  out += seriesTable(r);
  out += "\n";
  out += playerLines(r.counts);
  out += receivedLines(r);
  out += serverLine(r.server);
  out += testerLines(r);
  if (r.capacity) out += capacityLines(*r.capacity);
  out += verdictLines(r);
  return out;
}

}  // namespace steerd::loadtest
