// What the replay bar shows and asks for, without ImGui: the playback's time as text, the speed
// steps, and the scripted controls of a screenshot run (--replay-seek, --replay-pause).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "client/client.h"

namespace steerd::viewer {

// The speeds the bar offers, slowest first (the server takes 0.125 to 8).
inline constexpr float kReplaySpeeds[] = {0.125f, 0.25f, 0.5f, 1.0f, 2.0f, 4.0f, 8.0f};

// The next speed step up (direction > 0) or down from `current`, held at the ends.
float nextReplaySpeed(float current, int direction);
// Seconds of play as "m:ss.s" (hours as "h:mm:ss.s"); negative or non-finite as "0:00.0".
std::string formatPlayTime(double seconds);
// "tick 312 of 900 | 0:10.4 of 0:30.0": where the playback stands.
std::string replayPosition(const wire::ReplayStatus& status, double tickRate);

// --replay-seek / --replay-pause: sent once, when the first ReplayStatus comes; done (for a
// screenshot) once the playback stands where they asked.
struct ReplayScript {
  std::optional<std::uint32_t> seek;
  bool pause = false;
  bool sent = false;
  bool wanted() const { return seek.has_value() || pause; }
  // Sends what is still to send through `client`; true once the status shows it done.
  bool step(client::Client& client);
};

}  // namespace steerd::viewer
