#include "client/traffic_meter.h"

#include <algorithm>

#include "proto/packet.h"

namespace steerd::client {

void LossWindow::add(std::uint16_t s) {
  if (!any_) {
    any_ = true;
    got_.reset();
    got_.set(s % kWindow);
    newest_ = s;
    span_ = 1;
    return;
  }
  if (wire::sequenceNewer(s, newest_)) {
    const auto d = static_cast<std::uint16_t>(s - newest_);
    if (d >= kWindow) {
      got_.reset();
    } else {
      for (std::uint16_t k = 1; k <= d; ++k) got_.reset(static_cast<std::uint16_t>(newest_ + k) % kWindow);
    }
    span_ = std::min<std::uint32_t>(kWindow, span_ + d);
    got_.set(s % kWindow);
    newest_ = s;
  } else if (static_cast<std::uint16_t>(newest_ - s) < span_) {
    got_.set(s % kWindow);
  }
}

double LossWindow::percent() const {
  if (span_ == 0) return 0.0;
  return 100.0 * static_cast<double>(span_ - std::min<std::size_t>(span_, got_.count())) / span_;
}

void RateWindow::update(TimePoint now, std::uint64_t bytesIn, std::uint64_t bytesOut,
                        std::uint64_t snapshots) {
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (elapsed < 1.0) return;
  kbpsIn_ = static_cast<double>(bytesIn - bytesIn_) * 8.0 / 1000.0 / elapsed;
  kbpsOut_ = static_cast<double>(bytesOut - bytesOut_) * 8.0 / 1000.0 / elapsed;
  snapshotsPerSecond_ = static_cast<double>(snapshots - snapshots_) / elapsed;
  start_ = now;
  bytesIn_ = bytesIn;
  bytesOut_ = bytesOut;
  snapshots_ = snapshots;
}

}  // namespace steerd::client
