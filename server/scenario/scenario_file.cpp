// A scenario file's load: parse (FILE:LINE:COL errors), refuse unknown enum numbers, fold in a
// level, check (scenario_validate.h), tile for --agents, build the navmesh and check the file
// against it, then build (scenario_build.h).
#include "scenario/scenario_file.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "proto/scenario.pb.h"
#include "scenario/default_scenario.h"
#include "scenario/scenario_brains.h"
#include "scenario/scenario_build.h"
#include "scenario/scenario_changes.h"
#include "scenario/scenario_check.h"
#include "scenario/scenario_enums.h"
#include "scenario/scenario_hints.h"
#include "scenario/scenario_nav.h"
#include "scenario/scenario_tile.h"
#include "scenario/scenario_validate.h"

namespace steerd {

namespace {

namespace pb = steerd::scenario;
using namespace scenario_check;

class ParseErrors : public google::protobuf::io::ErrorCollector {
 public:
  ParseErrors(std::string file, std::vector<std::string>& out) : file_(std::move(file)), out_(out) {}
  void AddError(int line, google::protobuf::io::ColumnNumber column, const std::string& message) override {
    out_.push_back(file_ + ":" + std::to_string(line + 1) + ":" + std::to_string(column + 1) + ": " +
                   message + scenario_hints::hintFor(message));
  }

 private:
  std::string file_;
  std::vector<std::string>& out_;
};

// The file's regions, gates and expectations, for the headless report.
void copyReportParts(const pb::Scenario& scenario, ScenarioLoad& result) {
  for (const auto& r : scenario.regions()) {
    ReportRegion region{r.name(), {}};
    for (const auto& p : r.points()) region.points.push_back(vec(p));
    result.regions.push_back(std::move(region));
  }
  for (const auto& g : scenario.gates())
    result.gates.push_back({g.name(), vec(g.from()), vec(g.to()),
                            g.near_radius() > 0.0f ? g.near_radius() : ReportGate{}.nearRadius});
  for (const auto& e : scenario.expect())
    result.expectations.push_back({e.region(), e.archetype(), e.at_least(), e.after_seconds()});
}

// --agents: the file repeated in `tiles` copies, when it can be and fits the limits; false when
// it cannot (the errors say why).
bool tileForAgents(pb::Scenario& scenario, std::uint32_t tiles, std::uint64_t agents,
                   const ScenarioOptions& options, const ScenarioLoad& result, Checker& checker) {
  checkTileable(scenario, checker);
  const float side = std::ceil(std::sqrt(static_cast<float>(tiles))) *
                     std::max(scenario.bounds().max().x() - scenario.bounds().min().x(),
                              scenario.bounds().max().y() - scenario.bounds().min().y());
  if (agents * tiles > kMaxAgents || side > kMaxWorldSide) {
    checker.error("--agents", std::to_string(options.agents) + " agents need " + std::to_string(tiles) +
                                  " copies of this world, more than the limits (" +
                                  std::to_string(kMaxAgents) + " agents, " + num(kMaxWorldSide) +
                                  " m on a side)");
  }
  if (!result.errors.empty()) return false;
  tileScenario(scenario, tiles);
  return true;
}

std::string summaryOf(const pb::Scenario& scenario, std::uint64_t agents, std::uint32_t tiles,
                      const std::string& levelNote) {
  std::string summary =
      "scenario " + quoted(scenario.name()) + ": " + std::to_string(scenario.archetypes_size()) +
      " archetypes, " + std::to_string(agents) + " agents, " + std::to_string(scenario.obstacles_size()) +
      " obstacles, " + std::to_string(scenario.walls_size()) + " walls, " +
      std::to_string(scenario.boxes_size()) + " boxes, " + std::to_string(scenario.paths_size()) + " paths";
  if (tiles > 1) summary += " (" + std::to_string(tiles) + " copies of the file's world, for --agents)";
  if (!levelNote.empty()) summary += "; " + levelNote;
  return summary;
}

// Everything after the parse: the level, the checks, the navmesh, the world.
// `where`: the text parser's field locations, for errors with the file's line:col (none for a
// generated scenario).
ScenarioLoad loadScenarioProto(pb::Scenario scenario, const std::string& displayName,
                               const std::string& baseDir, const ScenarioOptions& options, bool wantWorld,
                               const google::protobuf::TextFormat::ParseInfoTree* where = nullptr) {
  ScenarioLoad result;
  // Numbers no enum value names (`kind: 99` parses: proto3's enums are open) are refused first:
  // everything after reads the enums as their values.
  if (checkEnumValues(scenario, displayName, where, result.errors) > 0) return result;
  LevelData level;
  if (!applyLevel(scenario, baseDir, level, result.errors)) return result;
  result.warnings = level.warnings;
  Checker checker(displayName, result.errors, &result.warnings);
  validateScenario(scenario, checker);
  if (!result.errors.empty()) return result;
  copyReportParts(scenario, result);
  std::uint64_t agents = 0;
  for (const auto& g : scenario.spawns()) agents += g.count();
  const std::uint32_t tiles = scenario.has_level() ? 1 : tilesFor(options.agents, agents);
  if (tiles > 1) {
    if (!tileForAgents(scenario, tiles, agents, options, result, checker)) return result;
    agents *= tiles;
  }
  result.summary = summaryOf(scenario, agents, tiles, level.note);
  NavBuilt built;
  if (scenario.has_navmesh()) {
    NavLoad load = loadNavMesh(scenario, options.navCacheDir, level.mesh.get());
    if (!load.warning.empty()) result.warnings.push_back(displayName + ": " + load.warning);
    if (!load.error.empty()) {
      result.errors.push_back(displayName + ": navmesh: " + load.error);
      return result;
    }
    checkAgainstNavMesh(scenario, *load.mesh, checker);
    checkDoorsAgainstNavMesh(scenario, *load.mesh, checker);
    if (!result.errors.empty()) return result;
    result.summary += "; " + load.note;
    built = {std::move(load.mesh), std::move(load.input), std::move(load.outline)};
  }
  const Names names = namesOf(scenario);
  {
    pb::Scenario rest = scenario;
    rest.clear_archetypes();
    rest.clear_brains();
    rest.clear_name();
    result.startOnly = rest.SerializeAsString();
  }
  result.archetypes = archetypesOf(scenario, names);
  attachBrains(scenario, names, result.archetypes);
  if (wantWorld)
    result.world =
        buildWorld(scenario, names, result.archetypes, options, std::move(built), level.spreadGroups);
  return result;
}

}  // namespace

ScenarioLoad loadScenarioText(const std::string& text, const std::string& displayName,
                              const ScenarioOptions& options, bool wantWorld, const std::string& baseDir) {
  ScenarioLoad result;
  pb::Scenario scenario;
  ParseErrors parseErrors(displayName, result.errors);
  google::protobuf::TextFormat::Parser parser;
  parser.RecordErrorsTo(&parseErrors);
  google::protobuf::TextFormat::ParseInfoTree where;
  parser.WriteLocationsTo(&where);
  if (!parser.ParseFromString(text, &scenario)) {
    // The parser finds a missing '}' only at the end of the file: say where the block opened.
    for (const scenario_hints::Position& at : scenario_hints::unclosedBraces(text)) {
      result.errors.push_back(displayName + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) +
                              ": this '{' is never closed");
    }
    if (result.errors.empty()) result.errors.push_back(displayName + ": not a valid scenario");
    return result;
  }
  return loadScenarioProto(std::move(scenario), displayName, baseDir, options, wantWorld, &where);
}

LevelRunOptions levelRunOptionsOf(const ScenarioOptions& o) {
  LevelRunOptions level;
  if (o.agents > 0) level.agents = o.agents;
  level.scale = o.levelScale;
  level.upAxis = o.levelUp;
  level.walkable = o.levelWalkable;
  level.blocking = o.levelBlocking;
  level.metresPerTile = o.levelMetresPerTile;
  return level;
}

std::string levelScenarioText(const std::string& path, const ScenarioOptions& options) {
  std::string text;
  google::protobuf::TextFormat::PrintToString(levelScenario(path, levelRunOptionsOf(options)), &text);
  return "# steerd --level " + path + "\n" + text;
}

ScenarioLoad loadLevelFile(const std::string& path, const LevelRunOptions& level,
                           const ScenarioOptions& options, bool wantWorld) {
  return loadScenarioProto(levelScenario(path, level), path, {}, options, wantWorld);
}

std::vector<std::string> scenarioNames() {
  std::vector<std::string> names{kDefaultScenarioName};
  for (auto& n : builtinScenarioNames()) names.push_back(std::move(n));
  return names;
}

ScenarioLoad openScenario(const std::string& nameOrPath, const ScenarioOptions& options) {
  for (const auto& name : builtinScenarioNames()) {  // generated ones; "default" is a file
    if (name == nameOrPath) {
      ScenarioLoad result;
      result.world = makeScenario(name, options);
      result.summary = "built-in scenario " + quoted(name);
      return result;
    }
  }
  return loadScenarioFile(nameOrPath, options, true);
}

ScenarioLoad loadScenarioFile(const std::string& path, const ScenarioOptions& options, bool wantWorld) {
  if (path == kDefaultScenarioName) {
    return loadScenarioText(std::string(defaultScenarioText()), "default (built-in)", options, wantWorld);
  }
  if (levelKindOf(path) != LevelKind::kNone)  // a level file itself: run it as steerd --level would
    return loadLevelFile(path, levelRunOptionsOf(options), options, wantWorld);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ScenarioLoad result;
    result.errors.push_back(path + ": cannot open the file");
    return result;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    ScenarioLoad result;
    result.errors.push_back(path + ": cannot read the file");
    return result;
  }
  return loadScenarioText(text.str(), path, options, wantWorld,
                          std::filesystem::path(path).parent_path().string());
}

}  // namespace steerd
