// `steerd --headless`: run N ticks as fast as possible, no network.
#pragma once

#include <cstdio>

#include "app/options.h"

namespace steerd {

// Runs the scenario and prints (to `out`) the motion report when asked and, as the last line,
// `state_hash <16 hex digits>`. Returns the process exit code.
int runHeadless(const Options& options, std::FILE* out);

}  // namespace steerd
