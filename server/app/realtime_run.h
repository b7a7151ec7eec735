// The server's real-time loop: fixed-timestep ticks on an Asio timer, a status line per interval,
// clean stop on SIGINT/SIGTERM.
#pragma once

#include "app/options.h"

namespace steerd {

int runRealtime(const Options& options);

}  // namespace steerd
