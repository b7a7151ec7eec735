// The replay bar (an ImGui window along the bottom), shown while the server is a served replay
// (steerd --replay FILE --serve): play/pause, step, the speed, and a timeline to drag; where the
// playback stands, and the replay's verdict once it has played to its end.
#pragma once

#include <cstdint>
#include <optional>

#include "client/client.h"

namespace steerd::viewer {

struct ReplayBarActions {
  std::optional<wire::ReplayAction> action;  // PLAY, PAUSE or STEP
  std::optional<float> speed;
  std::optional<std::uint32_t> seek;
};

// The timeline's handle while it is held: where it is dragged to (the seek goes when let go).
struct ReplayBarState {
  bool dragging = false;
  int dragTick = 0;
};

ReplayBarActions drawReplayBar(const wire::ReplayStatus& status, double tickRate, ReplayBarState& state,
                               float viewportWidth, float viewportHeight);

}  // namespace steerd::viewer
