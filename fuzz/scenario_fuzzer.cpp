// libFuzzer target for scenario files (the text parser and every check): any text must load as a
// valid file or give errors, never crash, hang or take unbounded memory. A file that passes is
// then built when it is small (at most 200 agents, no navmesh: a navmesh build is bounded but
// seconds long) and stepped a few ticks, so what the checks let through is what the world can run.
// Built with clang by scripts/fuzz.sh; seeds are the shipped scenarios.
#include <google/protobuf/stubs/logging.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "scenario/scenario_file.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  google::protobuf::SetLogHandler(nullptr);  // the parser logs what it also reports
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const steerd::ScenarioLoad checked = steerd::loadScenarioText(text, "fuzz.txtpb", {1, 1, 0}, false);
  if (!checked.errors.empty()) return 0;
  if (text.find("navmesh") != std::string::npos) return 0;
  // Counted as the file says (a tiled or huge file is skipped: its check is what is fuzzed).
  std::size_t agents = 0;
  for (std::size_t at = text.find("count:"); at != std::string::npos; at = text.find("count:", at + 1)) {
    agents += static_cast<std::size_t>(std::strtoul(text.c_str() + at + 6, nullptr, 10));
    if (agents > 200) return 0;
  }
  const steerd::ScenarioLoad built = steerd::loadScenarioText(text, "fuzz.txtpb", {1, 1, 0}, true);
  if (built.world == nullptr) __builtin_trap();  // checked fine, so it must build
  for (int i = 0; i < 3; ++i) built.world->step();
  return 0;
}
