#include "app/metrics_setup.h"

#include "app/build_info.h"

namespace steerd {

void describeServer(net::ServerMetrics& metrics, const Options& options) {
  const BuildInfo build = buildInfo();
  metrics.build = {build.version, build.compiler};
  metrics.maxClients.store(options.maxClients, std::memory_order_relaxed);
  metrics.tickBudgetSeconds.store(1.0 / options.tickRate, std::memory_order_relaxed);
}

}  // namespace steerd
