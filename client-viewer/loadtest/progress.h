// The progress line printed on stderr each second.
#pragma once

#include <optional>
#include <string>

#include "loadtest/fleet.h"

namespace steerd::loadtest {

struct ProgressInfo {
  double elapsedSeconds = 0;
  std::size_t target = 0;  // players asked for (this step)
  std::optional<double> tickP99Ms;
  std::optional<double> serverClients;
};

std::string progressLine(const Window& w, const ProgressInfo& info);

}  // namespace steerd::loadtest
