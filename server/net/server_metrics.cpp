#include "net/server_metrics.h"

#include <fmt/format.h>
#include <algorithm>

namespace steerd::net {

namespace {

constexpr auto kRelaxed = std::memory_order_relaxed;

void counter(std::string& out, const char* name, const char* help, std::uint64_t v) {
  out += fmt::format("# HELP {} {}\n# TYPE {} counter\n{} {}\n", name, help, name, name, v);
}
void gauge(std::string& out, const char* name, const char* help, double v) {
  out += fmt::format("# HELP {} {}\n# TYPE {} gauge\n{} {}\n", name, help, name, name, v);
}

double percentileOf(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto i = static_cast<std::size_t>(p / 100.0 * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

}  // namespace

void TickHistogram::observe(double ms) {
  std::size_t i = 0;
  while (i < kBoundsMs.size() && ms > kBoundsMs[i]) ++i;
  buckets_[i].fetch_add(1, kRelaxed);
  count_.fetch_add(1, kRelaxed);
  double sum = sumMs_.load(kRelaxed);
  while (!sumMs_.compare_exchange_weak(sum, sum + ms, kRelaxed)) {
  }
}

std::string TickHistogram::render(const char* name, const char* help) const {
  std::string out = fmt::format("# HELP {} {}\n# TYPE {} histogram\n", name, help, name);
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i < kBoundsMs.size(); ++i) {
    cumulative += buckets_[i].load(kRelaxed);
    out += fmt::format("{}_bucket{{le=\"{}\"}} {}\n", name, kBoundsMs[i] / 1000.0, cumulative);
  }
  cumulative += buckets_.back().load(kRelaxed);
  out += fmt::format("{}_bucket{{le=\"+Inf\"}} {}\n", name, cumulative);
  out += fmt::format("{}_sum {}\n{}_count {}\n", name, sumMs_.load(kRelaxed) / 1000.0, name,
                     count_.load(kRelaxed));
  return out;
}

void ServerMetrics::setClientSummaries(std::vector<ClientSummary> s) {
  std::lock_guard lock(summariesMutex_);
  summaries_ = std::move(s);
}

std::vector<ClientSummary> ServerMetrics::clientSummaries() const {
  std::lock_guard lock(summariesMutex_);
  return summaries_;
}

std::string ServerMetrics::render() const {
  std::string out;
  out += tickMs.render("steerd_tick_seconds",
                       "Duration of one simulation tick (inputs, world step, snapshots), seconds.");
  out += snapshotMs.render("steerd_snapshot_build_seconds",
                           "Time per tick spent building and queueing every client's snapshot, seconds.");
  counter(out, "steerd_ticks_total", "Simulation ticks run.", ticks.load(kRelaxed));
  counter(out, "steerd_late_ticks_total", "Ticks that started late or were skipped to catch up.",
          lateTicks.load(kRelaxed));
  gauge(out, "steerd_agents", "Bodies in the world (NPCs and players).",
        static_cast<double>(agents.load(kRelaxed)));
  gauge(out, "steerd_clients", "Connected clients.", static_cast<double>(clients.load(kRelaxed)));
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
          "Connection attempts refused (full, bad token, bad key, shutting down).", refusals.load(kRelaxed));
  counter(out, "steerd_inputs_applied_total", "Player inputs applied.", inputsApplied.load(kRelaxed));
  counter(out, "steerd_inputs_skipped_total",
          "Intent inputs never received (lost on the way), passed over after waiting for them.",
          inputsSkipped.load(kRelaxed));
  counter(out, "steerd_inputs_clamped_total", "Player inputs clamped to the speed limit.",
          inputsClamped.load(kRelaxed));
  counter(out, "steerd_snapshots_sent_total", "Snapshots sent (all parts).", snapshotsSent.load(kRelaxed));
  counter(out, "steerd_snapshot_parts_total", "Snapshot datagrams sent.", snapshotParts.load(kRelaxed));
  counter(out, "steerd_snapshot_bytes_total", "Snapshot datagram bytes sent.", snapshotBytes.load(kRelaxed));
  counter(out, "steerd_snapshot_entities_total", "Entity updates sent in snapshots.",
          snapshotEntities.load(kRelaxed));
  counter(out, "steerd_scene_parts_total", "Static scene datagrams sent on request.",
          sceneParts.load(kRelaxed));
  counter(out, "steerd_scene_bytes_total", "Static scene datagram bytes sent on request.",
          sceneBytes.load(kRelaxed));
  counter(out, "steerd_debug_infos_total", "DebugInfo datagrams sent (--allow-debug).",
          debugInfos.load(kRelaxed));
  counter(out, "steerd_debug_bytes_total", "DebugInfo datagram bytes sent.", debugBytes.load(kRelaxed));
  counter(out, "steerd_commands_applied_total", "Control commands applied (result ok).",
          commandsApplied.load(kRelaxed));
  counter(out, "steerd_commands_rejected_total", "Control commands refused with an error result.",
          commandsRejected.load(kRelaxed));
  counter(out, "steerd_control_events_total", "Events queued for control clients.",
          controlEvents.load(kRelaxed));
  counter(out, "steerd_control_events_dropped_total",
          "Events a control client missed (its rate limit or queue was full).",
          controlEventsDropped.load(kRelaxed));
  counter(out, "steerd_control_bytes_total", "ControlReply datagram bytes sent.",
          controlBytes.load(kRelaxed));
  counter(out, "steerd_control_resends_total", "Results and events sent again, not acknowledged in time.",
          controlResends.load(kRelaxed));
  const double entities = static_cast<double>(snapshotEntities.load(kRelaxed));
  gauge(out, "steerd_snapshot_bytes_per_entity", "Snapshot bytes sent per entity update, since start.",
        entities > 0 ? static_cast<double>(snapshotBytes.load(kRelaxed)) / entities : 0.0);
  const auto summaries = clientSummaries();
  std::vector<double> rtt, loss;
  for (const auto& s : summaries) {
    rtt.push_back(s.rttMs);
    loss.push_back(s.lossPercent);
  }
  out +=
      "# HELP steerd_client_rtt_ms Round-trip time over connected clients (summary).\n"
      "# TYPE steerd_client_rtt_ms summary\n";
  for (double q : {0.5, 0.99}) {
    out += fmt::format("steerd_client_rtt_ms{{quantile=\"{}\"}} {}\n", q, percentileOf(rtt, q * 100));
  }
  out += fmt::format("steerd_client_rtt_ms_count {}\n", rtt.size());
  out +=
      "# HELP steerd_client_loss_percent Packet loss seen from the server, over connected clients.\n"
      "# TYPE steerd_client_loss_percent summary\n";
  for (double q : {0.5, 0.99}) {
    out += fmt::format("steerd_client_loss_percent{{quantile=\"{}\"}} {}\n", q, percentileOf(loss, q * 100));
  }
  out += fmt::format("steerd_client_loss_percent_count {}\n", loss.size());
  return out;
}

}  // namespace steerd::net
