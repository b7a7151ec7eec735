#include "control/command_cost.h"

#include <algorithm>
#include <limits>

namespace steerd::control {

std::uint32_t workUnitsOf(const Command& command, std::size_t agents) {
  switch (command.kind_case()) {
    case Command::kSpawn:
      return kSpawnUnits;
    case Command::kSubscribe: {
      const std::size_t units = 1 + agents / kAgentsPerSubscribeUnit;
      return static_cast<std::uint32_t>(
          std::min<std::size_t>(units, std::numeric_limits<std::uint32_t>::max()));
    }
    default:
      return kPlainCommandUnits;
  }
}

}  // namespace steerd::control
