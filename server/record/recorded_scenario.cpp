#include "record/recorded_scenario.h"

#include <fstream>
#include <sstream>

#include "scenario/default_scenario.h"

namespace steerd::record {

bool readScenario(const std::string& nameOrPath, RecordedScenario& out, std::string& error) {
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
  return loadScenarioText(scenario.text, scenario.name, options, true);
}

}  // namespace steerd::record
