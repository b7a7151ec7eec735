// Tests' way to get a built-in world by name: "default" is a scenario file compiled into the
// binary, so it comes through the scenario loader like any file (and a load error fails the test).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "scenario/scenario_file.h"

namespace steerd {

inline std::unique_ptr<World> loadScenario(const std::string& name, const ScenarioOptions& options) {
  ScenarioLoad load = openScenario(name, options);
  for (const auto& e : load.errors) ADD_FAILURE() << e;
  return std::move(load.world);
}

}  // namespace steerd
