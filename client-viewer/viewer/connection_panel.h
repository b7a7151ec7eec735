// The connection's state in the window: "connecting to ..." while the handshake runs, and when it
// fails a clear message (server down, refused token, server shut down) with a Retry button (R).
#pragma once

#include "viewer/connection.h"

namespace steerd::viewer {

// Returns true when Retry was pressed.
bool drawConnectionPanel(const Connection& connection, float viewportWidth, float viewportHeight);

}  // namespace steerd::viewer
