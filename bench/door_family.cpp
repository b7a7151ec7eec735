// Doors in general (issue 41): a family of generated door layouts, each two 30 m x 30 m rooms with
// one door in the wall between them (1.5 to 3 m wide, the wall 0.5 to 2 m thick, 100 to 300
// walkers, half starting in each room, every one on a looped navmesh route from a point of its room
// to a point of the other, so each leg crosses the door). Per layout: crossings a second per metre
// of door width over the run, and the longest any walker stayed within 5 m of the door; the bars
// are 0.75 and 15 s. scripts/bench.sh doors.
//
// The walkers are scenarios/doorway.txtpb's (the project's tuned door crowd), so what this family
// measures is how that tuning holds for doors of other shapes.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "analysis/gate_meter.h"
#include "scenario/scenario_file.h"

namespace steerd {
namespace {

struct Layout {
  int index = 0;
  float width = 2.0f;      // m, the opening
  float thickness = 1.0f;  // m, the wall
  int walkers = 200;
  float doorY = 15.0f;  // the opening's middle
  std::uint64_t seed = 1;
};

constexpr float kRoom = 30.0f;  // each room's side, m
constexpr float kNearRadius = 5.0f;
constexpr double kFlowBar = 0.75;  // crossings a second per metre
constexpr double kWaitBar = 15.0;  // s

Layout layoutOf(int index, std::uint64_t familySeed) {
  std::mt19937_64 rng(familySeed * 1000003ull + static_cast<std::uint64_t>(index));
  std::uniform_real_distribution<float> width(1.5f, 3.0f), thickness(0.5f, 2.0f), door(8.0f, kRoom - 8.0f);
  std::uniform_int_distribution<int> walkers(100, 300);
  Layout l;
  l.index = index;
  l.width = width(rng);
  l.thickness = thickness(rng);
  l.walkers = walkers(rng);
  l.doorY = door(rng);
  l.seed = static_cast<std::uint64_t>(index) + 1;
  return l;
}

std::string fmt(float v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3f", static_cast<double>(v));
  return b;
}

std::string point(float x, float y) { return "{ x: " + fmt(x) + " y: " + fmt(y) + " }"; }

// The walkers of scenarios/doorway.txtpb, one archetype per direction.
std::string walker(const std::string& name) {
  return "archetypes {\n  name: \"" + name +
         "\"\n"
         "  limits { radius: 0.5 mass: 1 max_speed: 3.5 max_force: 30 max_turn_rate_deg: 540 }\n"
         "  combiner: WEIGHTED_TRUNCATED_RUNNING_SUM\n  flock_radius: 1.2\n  path_seek_distance: 1.0\n"
         "  heading_blend: 0.3\n  obstacle_detection_length: 2.5\n  wall_feeler_length: 2.0\n"
         "  behaviours { kind: WALL_AVOIDANCE weight: 2 priority: 0 }\n"
         "  behaviours { kind: OBSTACLE_AVOIDANCE weight: 2 priority: 1 }\n"
         "  behaviours { kind: COLLISION_AVOIDANCE weight: 2 priority: 2 range: 4 }\n"
         "  behaviours { kind: SEPARATION weight: 4 priority: 2 }\n"
         "  behaviours { kind: NAVIGATE weight: 1 priority: 3 range: 3 }\n}\n";
}

std::string scenarioOf(const Layout& l) {
  const float wallX = kRoom + l.thickness * 0.5f, east = kRoom + l.thickness;
  const float low = l.doorY - l.width * 0.5f, high = l.doorY + l.width * 0.5f;
  std::string s = "name: \"door-" + std::to_string(l.index) + "\"\n";
  s += "bounds { min " + point(0, 0) + " max " + point(east + kRoom, kRoom) + " }\n";
  s += "boxes { center " + point(wallX, low * 0.5f) + " half_size " + point(l.thickness * 0.5f, low * 0.5f) +
       " }\n";
  s += "boxes { center " + point(wallX, (high + kRoom) * 0.5f) + " half_size " +
       point(l.thickness * 0.5f, (kRoom - high) * 0.5f) + " }\n";
  // Four points a room, one route each way between each pair of rows.
  const float rows[4] = {5, 12, 18, 25};
  for (int r = 0; r < 4; ++r) {
    s += "waypoints { name: \"w" + std::to_string(r) + "\" position " + point(8, rows[r]) + " }\n";
    s += "waypoints { name: \"e" + std::to_string(r) + "\" position " + point(east + kRoom - 8, rows[r]) +
         " }\n";
  }
  for (int r = 0; r < 4; ++r) {
    const std::string next = std::to_string((r + 1) % 4), here = std::to_string(r);
    s += "paths { name: \"east_" + here + "\" waypoints: [\"w" + here + "\", \"e" + next +
         "\"] looped: true }\n";
    s += "paths { name: \"west_" + here + "\" waypoints: [\"e" + here + "\", \"w" + next +
         "\"] looped: true }\n";
  }
  s += "navmesh { agent_radius: 0.5 cell_size: 0.2 }\n";
  s += walker("eastbound") + walker("westbound");
  for (int r = 0; r < 4; ++r) {
    const int each = l.walkers / 8 + (r < (l.walkers % 8) / 2 ? 1 : 0);
    const float y0 = 1.0f + 7.0f * static_cast<float>(r), y1 = y0 + 6.0f;
    s += "spawns { archetype: \"eastbound\" count: " + std::to_string(each) + " min " + point(2, y0) +
         " max " + point(kRoom - 6, y1) + " path: \"east_" + std::to_string(r) + "\" }\n";
    s += "spawns { archetype: \"westbound\" count: " + std::to_string(each) + " min " + point(east + 6, y0) +
         " max " + point(east + kRoom - 2, y1) + " path: \"west_" + std::to_string(r) + "\" }\n";
  }
  s += "contact_passes: 3\n";
  return s;
}

struct Outcome {
  bool ok = false;
  std::string error;
  std::size_t agents = 0;
  double perMetre = 0.0, longestWait = 0.0;
  std::uint64_t fromLeft = 0, fromRight = 0;
};

// Every `from` in `text` replaced by `to` (the --replace experiments).
std::string replaced(std::string text, const std::vector<std::pair<std::string, std::string>>& edits) {
  for (const auto& [from, to] : edits) {
    for (auto at = text.find(from); !from.empty() && at != std::string::npos;
         at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  }
  return text;
}

Outcome run(const Layout& l, double seconds, unsigned threads,
            const std::vector<std::pair<std::string, std::string>>& edits) {
  Outcome out;
  ScenarioLoad load =
      loadScenarioText(replaced(scenarioOf(l), edits), "door-family", {l.seed, threads, 0}, true);
  if (!load.world) {
    out.error = load.errors.empty() ? "no world" : load.errors[0];
    return out;
  }
  World& world = *load.world;
  const float wallX = kRoom + l.thickness * 0.5f;
  GateMeter gate(
      {{"door", {wallX, l.doorY - l.width * 0.5f}, {wallX, l.doorY + l.width * 0.5f}, kNearRadius}},
      world.config().dt);
  const auto ticks = static_cast<long>(seconds / world.config().dt);
  for (long t = 0; t < ticks; ++t) {
    world.step();
    gate.observe(world);
  }
  const GateFigures& f = gate.figures()[0];
  out.ok = true;
  out.agents = world.agentCount();
  out.perMetre = f.throughputPerSecond() / l.width;
  out.longestWait = f.longestNearSeconds;
  out.fromLeft = f.fromLeft;
  out.fromRight = f.fromRight;
  return out;
}

}  // namespace
}  // namespace steerd

int main(int argc, char** argv) {
  using namespace steerd;
  CLI::App app{"Flow through a family of generated doors: crossings a second per metre and the longest wait"};
  int layouts = 20;
  double seconds = 120.0;
  unsigned threads = 2;
  std::uint64_t familySeed = 1;
  bool print = false;
  app.add_option("--layouts", layouts, "Layouts in the family")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  app.add_option("--seconds", seconds, "Simulated seconds a layout")
      ->capture_default_str()
      ->check(CLI::Range(1.0, 3600.0));
  app.add_option("--threads", threads, "Simulation threads")->capture_default_str();
  app.add_option("--family-seed", familySeed, "Which family")->capture_default_str();
  app.add_flag("--print-scenario", print, "Print the first layout's scenario text and exit");
  std::vector<std::string> replaceArgs;
  app.add_option("--replace", replaceArgs,
                 "FROM=>TO: a change to every layout's text, to try a tuning (repeatable)");
  CLI11_PARSE(app, argc, argv);
  std::vector<std::pair<std::string, std::string>> edits;
  for (const std::string& r : replaceArgs) {
    const auto at = r.find("=>");
    if (at == std::string::npos) {
      std::fprintf(stderr, "--replace %s: FROM=>TO\n", r.c_str());
      return 2;
    }
    edits.emplace_back(r.substr(0, at), r.substr(at + 2));
  }
  if (print) {
    std::fputs(replaced(scenarioOf(layoutOf(0, familySeed)), edits).c_str(), stdout);
    return 0;
  }
  std::printf(
      "door family %llu: %d layouts, %.0f s each (bars: >= %.2f crossings/s per metre, <= %.0f s "
      "held within %.0f m)\n",
      static_cast<unsigned long long>(familySeed), layouts, seconds, kFlowBar, kWaitBar,
      static_cast<double>(kNearRadius));
  std::printf("%6s %7s %7s %7s %7s %12s %9s %9s  %s\n", "layout", "width", "wall", "walkers", "door y",
              "per s per m", "wait s", "each way", "verdict");
  double worstFlow = 1e9, worstWait = 0.0;
  int failed = 0;
  for (int i = 0; i < layouts; ++i) {
    const Layout l = layoutOf(i, familySeed);
    const Outcome o = run(l, seconds, threads, edits);
    if (!o.ok) {
      std::printf("%6d  %s\n", i, o.error.c_str());
      ++failed;
      continue;
    }
    const bool pass = o.perMetre >= kFlowBar && o.longestWait <= kWaitBar;
    failed += pass ? 0 : 1;
    worstFlow = std::min(worstFlow, o.perMetre);
    worstWait = std::max(worstWait, o.longestWait);
    std::printf("%6d %6.2fm %6.2fm %7zu %7.1f %12.3f %9.1f %4llu/%-4llu  %s\n", i,
                static_cast<double>(l.width), static_cast<double>(l.thickness), o.agents,
                static_cast<double>(l.doorY), o.perMetre, o.longestWait,
                static_cast<unsigned long long>(o.fromLeft), static_cast<unsigned long long>(o.fromRight),
                pass ? "ok" : "FAIL");
    std::fflush(stdout);
  }
  std::printf("worst: %.3f crossings/s per metre, %.1f s held; %d of %d layouts under a bar\n", worstFlow,
              worstWait, failed, layouts);
  return 0;
}
