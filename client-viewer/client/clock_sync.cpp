#include "client/clock_sync.h"

#include <algorithm>
#include <cmath>

namespace steerd::client {

ClockSync::ClockSync(const Options& options) : options_(options) {}

void ClockSync::setTickRate(double ticksPerSecond) {
  if (std::isfinite(ticksPerSecond) && ticksPerSecond > 0.0) tickRate_ = ticksPerSecond;
}

double ClockSync::offsetAt(TimePoint now) const {
  const double elapsedTicks = std::max(0.0, seconds(now) - seconds(adjustedAt_)) * tickRate_;
  const double room = options_.slewFraction * elapsedTicks;
  return offset_ + std::clamp(target_ - offset_, -room, room);
}

void ClockSync::snapTo(double offset, TimePoint now) {
  offset_ = target_ = offset;
  adjustedAt_ = now;
}

void ClockSync::seed(std::uint32_t serverTick, TimePoint now, std::chrono::duration<double> rttGuess) {
  if (tickRate_ <= 0.0) return;
  if (!hasEstimate_) epoch_ = now;
  const double halfRtt = std::isfinite(rttGuess.count()) ? std::clamp(rttGuess.count(), 0.0, 10.0) / 2 : 0.0;
  const double tickNow = static_cast<double>(serverTick) + halfRtt * tickRate_;
  snapTo(tickNow - seconds(now) * tickRate_, now);
  hasEstimate_ = true;
}

void ClockSync::rebase(double tickNow, TimePoint now, double ticksPerSecond) {
  setTickRate(ticksPerSecond);
  if (tickRate_ <= 0.0 || !std::isfinite(tickNow)) return;
  if (!hasEstimate_) epoch_ = now;
  snapTo(tickNow - seconds(now) * tickRate_, now);
  hasEstimate_ = true;
}

bool ClockSync::onPong(TimePoint sent, TimePoint received, std::uint32_t serverTick, float tickPhase) {
  if (tickRate_ <= 0.0 || !std::isfinite(tickPhase) || received < sent) return false;
  const double rtt = std::chrono::duration<double>(received - sent).count();
  if (rtt > 60.0) return false;
  const double sampleMs = rtt * 1000.0;
  lastRttMs_ = sampleMs;
  if (pongs_ == 0) {
    rttMs_ = sampleMs;
    jitterMs_ = sampleMs / 2;  // RFC 6298's first RTTVAR
  } else {
    jitterMs_ += options_.jitterGain * (std::abs(sampleMs - rttMs_) - jitterMs_);
    rttMs_ += options_.rttGain * (sampleMs - rttMs_);
  }
  ++pongs_;

  if (!hasEstimate_) epoch_ = received;
  const double phase = std::clamp(static_cast<double>(tickPhase), 0.0, 1.0);
  const double tickAtReceive = static_cast<double>(serverTick) + phase + rtt / 2 * tickRate_;
  const double raw = tickAtReceive - seconds(received) * tickRate_;
  const double current = hasEstimate_ ? offsetAt(received) : raw;
  if (!synced_ || !hasEstimate_ || std::abs(raw - current) > options_.snapTicks) {
    if (synced_) ++snaps_;
    snapTo(raw, received);
  } else {
    offset_ = current;
    adjustedAt_ = std::max(adjustedAt_, received);
    target_ += options_.offsetGain * (raw - target_);
  }
  hasEstimate_ = true;
  synced_ = true;
  return true;
}

double ClockSync::serverTickAt(TimePoint now) const {
  if (!hasEstimate_) return 0.0;
  return offsetAt(now) + seconds(now) * tickRate_;
}

}  // namespace steerd::client
