// The scenario as a recording keeps it: a file's text (the built-in default is one too), or a
// generated scenario's name (its code and the seed make it). Read once, so the world the server
// runs and the text the recording embeds are the same bytes.
#pragma once

#include <string>

#include "scenario/scenario_file.h"

namespace steerd::record {

struct RecordedScenario {
  std::string name;     // as given (--scenario): a built-in name or a path
  std::string text;     // a file's text, or the built-in default's
  std::string builtin;  // a generated scenario's name (text empty)
};

// Reads `nameOrPath` as openScenario() would; false with `error` set when the file cannot be read.
// A level file (.obj, .tmx, ...) becomes the text of the scenario steerd --level runs on it.
bool readScenario(const std::string& nameOrPath, RecordedScenario& out, std::string& error,
                  const ScenarioOptions& options = {});
// Builds the world from what was read.
ScenarioLoad loadRecordedScenario(const RecordedScenario& scenario, const ScenarioOptions& options);

}  // namespace steerd::record
