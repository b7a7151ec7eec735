#include "record/recorded_scenario.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "scenario/default_scenario.h"

namespace steerd::record {

bool readScenario(const std::string& nameOrPath, RecordedScenario& out, std::string& error,
                  const ScenarioOptions& options) {
  out = RecordedScenario{};
  out.name = nameOrPath;
  for (const auto& name : builtinScenarioNames()) {  // generated ones; "default" is a file
    if (name == nameOrPath) {
      out.builtin = name;
      return true;
    }
  }
  if (nameOrPath == kDefaultScenarioName) {
    out.text = std::string(defaultScenarioText());
    return true;
  }
  if (levelKindOf(nameOrPath) != LevelKind::kNone) {
    out.text = levelScenarioText(nameOrPath, options);
    return true;
  }
  std::ifstream in(nameOrPath, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in || in.bad()) {
    error = nameOrPath + ": cannot read the file";
    return false;
  }
  out.text = text.str();
  return true;
}

ScenarioLoad loadRecordedScenario(const RecordedScenario& scenario, const ScenarioOptions& options) {
  if (!scenario.builtin.empty()) return openScenario(scenario.builtin, options);
  // A level { } path is relative to the scenario file.
  return loadScenarioText(scenario.text, scenario.name, options, true,
                          std::filesystem::path(scenario.name).parent_path().string());
}

}  // namespace steerd::record
