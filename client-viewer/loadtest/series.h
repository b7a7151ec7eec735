// The series each player measures: one value per event or per second (ms unless named otherwise).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace steerd::loadtest {

enum Series : std::uint8_t {
  kSnapshotInterval,      // per player, between arrivals of consecutive complete snapshots (each newer
                          // than any before), as the kernel stamped their last datagrams
  kSnapshotTickInterval,  // the same pairs in server time: tick difference / tick rate
  kSnapshotJitter,        // the same pairs: |arrival interval - server-time interval|
  kStall,                 // durations of interpolation stalls (Sample kind kStalled, held past extrapolation)
  kExtrapolation,         // per extrapolated sample: how far past the newest snapshot it was
  kRtt,                   // smoothed RTT, once a second
  kKbpsIn,                // kbit/s, once a second
  kKbpsOut,
  kEntities,         // entities in the interpolated view, once a second
  kConnect,          // connect() to Accept
  kTickLag,          // how late the player's own input tick ran (the tester's load, not the server's)
  kLostGap,          // how long each NPC lost from view while inside the interest area was out of it
  kPredictionError,  // metres: each Snapshot.own against the prediction for its input (intent mode)
  // The snapshot interval again, between the times the tester handled them rather than the
  // kernel's arrival stamps (kSnapshotInterval, where the platform stamps): the difference is
  // the tester's own lateness.
  kSnapshotHandledInterval,
  kSeriesCount,
};

// The report's key: "snapshot_interval_ms", ...
const char* seriesName(Series s);
std::optional<Series> seriesFromName(std::string_view name);
// Series of events that are bad when they happen (stalls, extrapolation, lost NPCs): none at all
// summarises as zeros (the longest stall was 0 ms). Any other series with no value is not
// measured: its summary's figures are null in the report.
bool eventSeries(Series s);

using SeriesMark = std::array<std::size_t, kSeriesCount>;
using SeriesMask = std::array<bool, kSeriesCount>;
constexpr SeriesMask kAllSeries = [] {
  SeriesMask m{};
  m.fill(true);
  return m;
}();

}  // namespace steerd::loadtest
