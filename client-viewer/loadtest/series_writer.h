// --out FILE: the run as a time series, one JSON object per line, once a second, each line
// flushed as it is written (an interrupted or killed run keeps every line written so far).
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "loadtest/fleet.h"
#include "loadtest/percentiles.h"
#include "loadtest/threshold.h"  // Json

namespace steerd::loadtest {

// One second of the run. The figures are over that second (its window), not the run so far.
struct SeriesLine {
  double elapsedSeconds = 0;  // since the first player started
  std::string phase;          // "ramp", "hold", or "step" (--find-capacity)
  std::size_t target = 0;     // players asked for (this step)
  std::size_t players = 0, connected = 0, connecting = 0, churned = 0;
  double snapshotsPerSecond = 0;  // complete snapshots newer than any before, every player together
  Summary snapshotInterval, snapshotJitter, rtt, tickLag;
  std::size_t stalls = 0;                 // stalls that ended in that second
  double kbpsIn = 0, kbpsOut = 0;         // per connected player
  std::optional<double> serverTickP99Ms;  // between this scrape of /metrics and the previous one
  std::optional<double> serverClients;
};

// The line for one second's window: `seconds` long (the time since the previous line), in which
// the players received `snapshots` new complete snapshots.
SeriesLine seriesLineOf(const Window& w, double elapsedSeconds, double seconds, std::uint64_t snapshots);
Json seriesLineJson(const SeriesLine& line);

class SeriesWriter {
 public:
  SeriesWriter() = default;
  SeriesWriter(const SeriesWriter&) = delete;
  SeriesWriter& operator=(const SeriesWriter&) = delete;
  ~SeriesWriter();

  // Creates or truncates `path`; false with `error` when it cannot.
  bool open(const std::string& path, std::string& error);
  bool isOpen() const { return file_ != nullptr; }
  // One line, flushed. False when the write failed (the disk is full, ...).
  bool write(const SeriesLine& line);
  void close();

 private:
  std::FILE* file_ = nullptr;
};

}  // namespace steerd::loadtest
