#include "loadtest/series_writer.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

namespace steerd::loadtest {

namespace {

std::string sixDigits(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// A number to 6 significant digits (the series hold floats; more digits would be noise), or null
// when not finite.
Json num(double v) { return std::isfinite(v) ? Json(std::stod(sixDigits(v))) : Json(nullptr); }
Json num(std::optional<double> v) { return v ? num(*v) : Json(nullptr); }

Json brief(const Summary& s) {
  Json j;
  j["count"] = static_cast<std::uint64_t>(s.count);
  j["p50"] = s.count ? num(s.p50) : Json(nullptr);
  j["p99"] = s.count ? num(s.p99) : Json(nullptr);
  j["max"] = s.count ? num(s.max) : Json(nullptr);
  return j;
}

}  // namespace

SeriesLine seriesLineOf(const Window& w, double elapsedSeconds, double seconds, std::uint64_t snapshots) {
  SeriesLine l;
  l.elapsedSeconds = elapsedSeconds;
  l.players = w.players;
  l.connected = w.connected;
  l.connecting = w.handshaking;
  l.churned = w.churned;
  l.snapshotsPerSecond = seconds > 0 ? static_cast<double>(snapshots) / seconds : 0.0;
  l.snapshotInterval = summarize(w.values[kSnapshotInterval]);
  l.snapshotJitter = summarize(w.values[kSnapshotJitter]);
  l.rtt = summarize(w.values[kRtt]);
  l.tickLag = summarize(w.values[kTickLag]);
  l.stalls = w.values[kStall].size();
  l.kbpsIn = w.kbpsIn;
  l.kbpsOut = w.kbpsOut;
  return l;
}

Json seriesLineJson(const SeriesLine& l) {
  Json j;
  j["elapsed_s"] = num(l.elapsedSeconds);
  j["phase"] = l.phase;
  j["target"] = static_cast<std::uint64_t>(l.target);
  j["players"] = static_cast<std::uint64_t>(l.players);
  j["connected"] = static_cast<std::uint64_t>(l.connected);
  j["connecting"] = static_cast<std::uint64_t>(l.connecting);
  j["churned"] = static_cast<std::uint64_t>(l.churned);
  j["snapshots_per_s"] = num(l.snapshotsPerSecond);
  j["snapshot_interval_ms"] = brief(l.snapshotInterval);
  j["snapshot_jitter_ms"] = brief(l.snapshotJitter);
  j["rtt_ms"] = brief(l.rtt);
  j["stalls"] = static_cast<std::uint64_t>(l.stalls);
  j["kbps_in"] = num(l.kbpsIn);
  j["kbps_out"] = num(l.kbpsOut);
  j["tester_tick_lag_p99_ms"] = l.tickLag.count ? num(l.tickLag.p99) : Json(nullptr);
  j["server"] = Json{{"tick_p99_ms", num(l.serverTickP99Ms)}, {"clients", num(l.serverClients)}};
  return j;
}

SeriesWriter::~SeriesWriter() { close(); }

bool SeriesWriter::open(const std::string& path, std::string& error) {
  close();
  file_ = std::fopen(path.c_str(), "w");
  if (file_ == nullptr) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

bool SeriesWriter::write(const SeriesLine& line) {
  if (file_ == nullptr) return false;
  const std::string text = seriesLineJson(line).dump() + "\n";
  const bool ok = std::fwrite(text.data(), 1, text.size(), file_) == text.size();
  return std::fflush(file_) == 0 && ok;
}

void SeriesWriter::close() {
  if (file_ != nullptr) std::fclose(file_);
  file_ = nullptr;
}

}  // namespace steerd::loadtest
