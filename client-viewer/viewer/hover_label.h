// The label by the NPC under the pointer: its id and archetype and, when the server allows debug
// (Accept.debug_allowed), its brain state from the debug stream's hover part (DebugInfo.hover).
#pragma once

#include <cstdint>
#include <string>

#include "proto/wire.pb.h"

namespace steerd::viewer {

// "12 deer", then on a second line the brain state as the server names it ("combat/flee") or
// "no brain". The second line needs debugAllowed and a `hover` about this id that found it; until
// one comes (or without debug) the label is the first line alone.
std::string hoverLabelText(std::uint32_t id, const std::string& archetype, bool debugAllowed,
                           const wire::DebugHover* hover);

}  // namespace steerd::viewer
