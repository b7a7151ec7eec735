#include "loadtest/series.h"

namespace steerd::loadtest {

const char* seriesName(Series s) {
  switch (s) {
    case kSnapshotInterval:
      return "snapshot_interval_ms";
    case kSnapshotTickInterval:
      return "snapshot_tick_interval_ms";
    case kSnapshotJitter:
      return "snapshot_jitter_ms";
    case kStall:
      return "stall_ms";
    case kExtrapolation:
      return "extrapolation_ms";
    case kRtt:
      return "rtt_ms";
    case kKbpsIn:
      return "kbps_in";
    case kKbpsOut:
      return "kbps_out";
    case kEntities:
      return "entities_in_view";
    case kConnect:
      return "connect_ms";
    case kTickLag:
      return "tester_tick_lag_ms";
    case kLostGap:
      return "lost_entity_gap_ms";
    case kPredictionError:
      return "prediction_error_m";
    case kSnapshotHandledInterval:
      return "snapshot_handled_interval_ms";
    case kSeriesCount:
      break;
  }
  return "unknown";
}

std::optional<Series> seriesFromName(std::string_view name) {
  for (int s = 0; s < kSeriesCount; ++s) {
    if (name == seriesName(static_cast<Series>(s))) return static_cast<Series>(s);
  }
  return std::nullopt;
}

bool eventSeries(Series s) { return s == kStall || s == kExtrapolation || s == kLostGap; }

}  // namespace steerd::loadtest
