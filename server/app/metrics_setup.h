// What /metrics says about this server before its first tick: the build's labels and the limits
// alerts compare against (max clients, the tick budget).
#pragma once

#include "app/options.h"
#include "net/server_metrics.h"

namespace steerd {

void describeServer(net::ServerMetrics& metrics, const Options& options);

}  // namespace steerd
