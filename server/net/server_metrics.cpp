#include "net/server_metrics.h"

#include <fmt/format.h>
#include <cmath>
#include <utility>

namespace steerd::net {

namespace {

constexpr auto kRelaxed = std::memory_order_relaxed;

void counter(std::string& out, const char* name, const char* help, std::uint64_t v) {
  out += fmt::format("# HELP {} {}\n# TYPE {} counter\n{} {}\n", name, help, name, name, v);
}
void gauge(std::string& out, const char* name, const char* help, double v) {
  out += fmt::format("# HELP {} {}\n# TYPE {} gauge\n{} {}\n", name, help, name, name, v);
}

}  // namespace

Histogram::Histogram(std::vector<double> bounds)
    : bounds_(std::move(bounds)), buckets_(std::make_unique<Counter[]>(bounds_.size() + 1)) {}

void Histogram::observe(double value) {
  if (!std::isfinite(value)) return;  // a NaN would poison _sum for good
  std::size_t i = 0;
  while (i < bounds_.size() && value > bounds_[i]) ++i;
  buckets_[i].fetch_add(1, kRelaxed);
  count_.fetch_add(1, kRelaxed);
  double sum = sum_.load(kRelaxed);
  while (!sum_.compare_exchange_weak(sum, sum + value, kRelaxed)) {
  }
}

std::string Histogram::render(const char* name, const char* help) const {
  std::string out = fmt::format("# HELP {} {}\n# TYPE {} histogram\n", name, help, name);
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i < bounds_.size(); ++i) {
    cumulative += buckets_[i].load(kRelaxed);
    out += fmt::format("{}_bucket{{le=\"{}\"}} {}\n", name, bounds_[i], cumulative);
  }
  cumulative += buckets_[bounds_.size()].load(kRelaxed);
  out += fmt::format("{}_bucket{{le=\"+Inf\"}} {}\n", name, cumulative);
  out += fmt::format("{}_sum {}\n{}_count {}\n", name, sum_.load(kRelaxed), name, count_.load(kRelaxed));
  return out;
}

double ServerMetrics::secondsSinceTick(std::int64_t nowSteadyNs) const {
  const std::int64_t last = lastTickSteadyNs.load(kRelaxed);
  return last == 0 ? 0.0 : static_cast<double>(nowSteadyNs - last) / 1e9;
}

std::string ServerMetrics::notReadyReason(std::int64_t nowSteadyNs) const {
  if (awaitingMatch.load(kRelaxed)) return "waiting for allocation (Agones): players are refused until then";
  if (!accepting.load(kRelaxed)) return "not accepting players (starting or stopping)";
  const double age = secondsSinceTick(nowSteadyNs);
  if (age > stallSeconds) return fmt::format("stalled: no tick for {:.3f} s", age);
  const std::uint64_t max = maxClients.load(kRelaxed);
  if (max > 0 && clients.load(kRelaxed) >= max) return fmt::format("full: {} of {} clients", max, max);
  return {};
}

void ServerMetrics::setClientSummaries(std::vector<ClientSummary> s) {
  std::lock_guard lock(summariesMutex_);
  summaries_ = std::move(s);
}

std::vector<ClientSummary> ServerMetrics::clientSummaries() const {
  std::lock_guard lock(summariesMutex_);
  return summaries_;
}

std::string ServerMetrics::render(std::int64_t nowSteadyNs, const std::string& processText) const {
  std::string out;
  out += fmt::format(
      "# HELP steerd_build_info The running binary: version and compiler (value 1).\n"
      "# TYPE steerd_build_info gauge\nsteerd_build_info{{version=\"{}\",compiler=\"{}\"}} 1\n",
      build.version, build.compiler);
  gauge(out, "steerd_healthy", "1 while ticks keep completing (what /healthz answers), else 0.",
        healthy(nowSteadyNs) ? 1.0 : 0.0);
  gauge(out, "steerd_ready", "1 while accepting players (what /readyz answers), else 0.",
        notReadyReason(nowSteadyNs).empty() ? 1.0 : 0.0);
  out +=
      tickSeconds.render("steerd_tick_seconds",
                         "Duration of one simulation tick on the simulation thread (inputs, world step, and "
                         "the snapshots too with --snapshot-threads 0), seconds.");
  out +=
      snapshotSeconds.render("steerd_snapshot_build_seconds",
                             "Duration of one round of snapshots: building and queueing every due client's, "
                             "seconds (off the tick unless --snapshot-threads 0).");
  gauge(out, "steerd_tick_budget_seconds", "Time one tick may take at the tick rate (1 / rate), seconds.",
        tickBudgetSeconds.load(kRelaxed));
  counter(out, "steerd_ticks_total", "Simulation ticks run.", ticks.load(kRelaxed));
  counter(out, "steerd_late_ticks_total", "Ticks that started late or were skipped to catch up.",
          lateTicks.load(kRelaxed));
  gauge(out, "steerd_agents", "Bodies in the world (NPCs and players).",
        static_cast<double>(agents.load(kRelaxed)));
  gauge(out, "steerd_clients", "Connected clients.", static_cast<double>(clients.load(kRelaxed)));
  gauge(out, "steerd_max_clients", "Clients admitted at once (--max-clients).",
        static_cast<double>(maxClients.load(kRelaxed)));
  counter(out, "steerd_packets_in_total", "Datagrams received.", packetsIn.load(kRelaxed));
  counter(out, "steerd_packets_out_total", "Datagrams sent.", packetsOut.load(kRelaxed));
  counter(out, "steerd_bytes_in_total", "Bytes received (UDP payload).", bytesIn.load(kRelaxed));
  counter(out, "steerd_bytes_out_total", "Bytes sent (UDP payload).", bytesOut.load(kRelaxed));
  out +=
      "# HELP steerd_dropped_packets_total Datagrams dropped, by reason.\n"
      "# TYPE steerd_dropped_packets_total counter\n";
  for (std::size_t i = 1; i < drops.size(); ++i) {
    out += fmt::format("steerd_dropped_packets_total{{reason=\"{}\"}} {}\n",
                       wire::dropReasonName(static_cast<wire::DropReason>(i)), drops[i].load(kRelaxed));
  }
  counter(out, "steerd_connects_total", "Clients admitted.", connects.load(kRelaxed));
  counter(out, "steerd_disconnects_total", "Clients that left or were dropped.", disconnects.load(kRelaxed));
  counter(out, "steerd_client_timeouts_total", "Clients dropped for silence.", timeouts.load(kRelaxed));
  counter(out, "steerd_sessions_replaced_total",
          "Sessions taken over by a new connection: the same connect token's client id, or a new "
          "client (a new key) at the same address.",
          sessionsReplaced.load(kRelaxed));
  counter(out, "steerd_refusals_total",
          "Connection attempts refused (full, address full, bad token, bad key, shutting down).",
          refusals.load(kRelaxed));
  counter(out, "steerd_refusals_per_address_total",
          "Connection attempts refused because their address held --max-clients-per-address sessions "
          "(also in steerd_refusals_total).",
          refusalsPerAddress.load(kRelaxed));
  counter(out, "steerd_inputs_applied_total", "Player inputs applied.", inputsApplied.load(kRelaxed));
  counter(out, "steerd_inputs_skipped_total",
          "Intent inputs never received (lost on the way), passed over after waiting for them (at most 32 a "
          "gap).",
          inputsSkipped.load(kRelaxed));
  counter(out, "steerd_inputs_clamped_total", "Player inputs clamped to the speed limit.",
          inputsClamped.load(kRelaxed));
  counter(out, "steerd_inputs_over_reach_total",
          "Position inputs farther from the body than max speed allows over the time since (plus 0.25 s "
          "banked), however many inputs: moved only that far.",
          inputsOverReach.load(kRelaxed));
  counter(out, "steerd_inputs_blocked_total",
          "Position inputs refused: the move ends in an obstacle or a wall, or passes through one.",
          inputsBlocked.load(kRelaxed));
  counter(out, "steerd_snapshots_sent_total", "Snapshots sent (all parts).", snapshotsSent.load(kRelaxed));
  counter(out, "steerd_snapshot_rounds_deferred_total",
          "Ticks whose due snapshots waited for the next one: the last round was still being built.",
          snapshotRoundsDeferred.load(kRelaxed));
  counter(out, "steerd_snapshot_parts_total", "Snapshot datagrams sent.", snapshotParts.load(kRelaxed));
  counter(out, "steerd_snapshot_bytes_total", "Snapshot datagram bytes sent.", snapshotBytes.load(kRelaxed));
  counter(out, "steerd_snapshot_entities_total", "Entity updates sent in snapshots.",
          snapshotEntities.load(kRelaxed));
  counter(out, "steerd_scene_parts_total", "Static scene datagrams sent on request.",
          sceneParts.load(kRelaxed));
  counter(out, "steerd_scene_bytes_total", "Static scene datagram bytes sent on request.",
          sceneBytes.load(kRelaxed));
  counter(out, "steerd_scene_change_pages_total",
          "Pages of scene changes (doors, obstacles) sent on request.", sceneChangePages.load(kRelaxed));
  counter(out, "steerd_scene_change_bytes_total", "Bytes of scene change pages sent on request.",
          sceneChangeBytes.load(kRelaxed));
  counter(out, "steerd_debug_infos_total", "DebugInfo datagrams sent (--allow-debug).",
          debugInfos.load(kRelaxed));
  counter(out, "steerd_debug_bytes_total", "DebugInfo datagram bytes sent.", debugBytes.load(kRelaxed));
  counter(out, "steerd_commands_applied_total", "Control commands applied (result ok).",
          commandsApplied.load(kRelaxed));
  counter(out, "steerd_commands_rejected_total", "Control commands refused with an error result.",
          commandsRejected.load(kRelaxed));
  counter(out, "steerd_commands_deferred_total",
          "Control commands that waited past a tick boundary, their client's or the tick's work budget "
          "spent (each counted once).",
          commandsDeferred.load(kRelaxed));
  counter(out, "steerd_commands_queue_full_total",
          "Control commands refused because their client's queue held 2 s of its budget (also in "
          "steerd_commands_rejected_total).",
          commandsQueueFull.load(kRelaxed));
  counter(out, "steerd_control_events_total", "Events queued for control clients.",
          controlEvents.load(kRelaxed));
  counter(out, "steerd_control_events_dropped_total",
          "Events a control client missed (its rate limit or queue was full).",
          controlEventsDropped.load(kRelaxed));
  counter(out, "steerd_control_bytes_total", "ControlReply datagram bytes sent.",
          controlBytes.load(kRelaxed));
  counter(out, "steerd_control_resends_total", "Results and events sent again, not acknowledged in time.",
          controlResends.load(kRelaxed));
  out += clientRttSeconds.render(
      "steerd_client_rtt_seconds",
      "Each connected client's smoothed round-trip time, observed once a second per client, seconds.");
  out += clientLossRatio.render("steerd_client_loss_ratio",
                                "Each connected client's share of the snapshots sent to it in the last "
                                "second that it never acknowledged, observed once a second per client.");
  out += processText;
  return out;
}

}  // namespace steerd::net
