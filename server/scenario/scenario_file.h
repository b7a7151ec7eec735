// Scenario files (protobuf text format, proto/scenario.proto): read, validate, build a World.
//
// Every problem is reported, not just the first: syntax errors as FILE:LINE:COL (from protobuf's
// text parser), semantic ones naming the field path and the value, e.g.
//   yard.txtpb: archetypes[1] ("pursuer").behaviours[2].target_archetype: no archetype named "boidz"
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "analysis/designer_report.h"
#include "scenario/scenario_level.h"
#include "world/scenarios.h"
#include "world/world.h"

namespace steerd {

struct ScenarioLoad {
  std::unique_ptr<World> world;       // null when there were errors, or when only checking
  std::vector<std::string> errors;    // empty when the file is valid
  std::vector<std::string> warnings;  // allowed, but likely not what was meant (ignored fields)
  std::vector<ReportRegion> regions;  // the file's regions and expectations, for the headless report
  std::vector<ReportExpectation> expectations;
  std::vector<ReportGate> gates;      // the file's gates, for the headless report
  std::string summary;                // one line: name, archetypes, agents, obstacles, walls, paths
  std::vector<Archetype> archetypes;  // as the file defines them, when it is valid (for live reload)
  // What a running world reads at start only (everything but archetypes and brains: geometry,
  // paths, spawn groups, navmesh, contact passes), serialized: live reload compares it to say
  // when an edit there will not take effect.
  std::string startOnly;
};

// `build` false: validate only (steerd --check-scenario). "default" is the compiled-in file.
ScenarioLoad loadScenarioFile(const std::string& path, const ScenarioOptions& options, bool build);
// The names openScenario() takes as built-ins: "default" (scenarios/default.txtpb, compiled in)
// and the generated ones (crowd).
std::vector<std::string> scenarioNames();
// A built-in scenario by name (default, crowd), or else a scenario file by path.
ScenarioLoad openScenario(const std::string& nameOrPath, const ScenarioOptions& options);

// The same for text already in memory; `displayName` prefixes the messages; a level { } path is
// relative to `baseDir` (the working directory when empty).
ScenarioLoad loadScenarioText(const std::string& text, const std::string& displayName,
                              const ScenarioOptions& options, bool build, const std::string& baseDir = {});

// A level file (.obj, .gltf, .glb, .tmx, .tmj) run as `steerd --level` does: walkers between
// random points (scenario_level.h). loadScenarioFile() does this with the defaults for a path
// with a level's extension.
ScenarioLoad loadLevelFile(const std::string& path, const LevelRunOptions& level,
                           const ScenarioOptions& options, bool build);
LevelRunOptions levelRunOptionsOf(const ScenarioOptions& options);
// The scenario text of a level file run directly (for a recording, which keeps a scenario's text).
std::string levelScenarioText(const std::string& path, const ScenarioOptions& options);

}  // namespace steerd
