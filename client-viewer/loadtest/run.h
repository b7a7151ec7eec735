// One steer-loadtest run, from parsed options to the exit code: set-up (server address, tokens,
// file limit, metrics), the ramp, progress lines, the hold or the capacity steps, the report.
#pragma once

#include "loadtest/options.h"

namespace steerd::loadtest {

int runLoadTest(const LoadOptions& options);

}  // namespace steerd::loadtest
