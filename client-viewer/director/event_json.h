// steer-director's output: one JSON object per line for each result and event of the control
// channel, {"event":"spawned","tick":"120","agent":42,...}: the event's kind in lower case under
// "event" ("result" for a command's result), then the message's fields in protobuf's JSON mapping
// (so 64-bit ticks are strings, as that mapping writes them).
#pragma once

#include <string>

#include "proto/wire.pb.h"

namespace steerd::director {

// "spawned", "state_changed", ... (EVENT_SPAWNED -> "spawned").
std::string eventKindName(control::EventKind kind);

// The line for one control message, without the newline.
std::string messageJson(const wire::ControlMessage& message);

}  // namespace steerd::director
