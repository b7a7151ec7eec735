#include "viewer/replay_timeline.h"

#include <cmath>
#include <cstdio>

namespace steerd::viewer {

float nextReplaySpeed(float current, int direction) {
  constexpr int kCount = static_cast<int>(sizeof(kReplaySpeeds) / sizeof(kReplaySpeeds[0]));
  // The step nearest the current speed, then one along.
  int nearest = 0;
  for (int i = 1; i < kCount; ++i) {
    if (std::abs(std::log2(kReplaySpeeds[i] / current)) <
        std::abs(std::log2(kReplaySpeeds[nearest] / current)))
      nearest = i;
  }
  if (!(current > 0.0f) || !std::isfinite(current)) nearest = 3;  // 1x
  const int next = nearest + (direction > 0 ? 1 : direction < 0 ? -1 : 0);
  return kReplaySpeeds[next < 0 ? 0 : next >= kCount ? kCount - 1 : next];
}

std::string formatPlayTime(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0.0) seconds = 0.0;
  const auto tenths = static_cast<long long>(std::floor(seconds * 10.0 + 1e-6));
  const long long h = tenths / 36000, m = tenths / 600 % 60, s = tenths / 10 % 60, t = tenths % 10;
  char out[48];
  if (h > 0) {
    std::snprintf(out, sizeof(out), "%lld:%02lld:%02lld.%lld", h, m, s, t);
  } else {
    std::snprintf(out, sizeof(out), "%lld:%02lld.%lld", m, s, t);
  }
  return out;
}

std::string replayPosition(const wire::ReplayStatus& status, double tickRate) {
  const double rate = tickRate > 0.0 ? tickRate : 1.0;
  const auto since = [&](std::uint32_t tick) {
    return tick > status.first_tick() ? static_cast<double>(tick - status.first_tick()) / rate : 0.0;
  };
  return "tick " + std::to_string(status.tick()) + " of " + std::to_string(status.last_tick()) + " | " +
         formatPlayTime(since(status.tick())) + " of " + formatPlayTime(since(status.last_tick()));
}

bool ReplayScript::step(client::Client& client) {
  const std::optional<wire::ReplayStatus> status = client.replayStatus();
  if (!status) return false;
  if (!sent) {
    sent = true;
    if (pause) client.controlReplay(wire::REPLAY_PAUSE);
    if (seek) client.controlReplay(wire::REPLAY_SEEK, 1.0f, *seek);
  }
  if (client.replayControlsPending() > 0 || status->seeking()) return false;
  if (seek) {
    const std::uint32_t at = std::max(status->first_tick(), std::min(*seek, status->last_tick()));
    if (status->tick() < at) return false;
  }
  return !pause || status->paused();
}

}  // namespace steerd::viewer
