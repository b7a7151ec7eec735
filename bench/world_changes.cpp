// What a world that changes while it runs costs (issue 40): scripts/bench.sh changes.
//
//   1. A door's toggle against a navmesh build: the castle gate's level built cold (what a rebuild
//      would cost), then the door shut and opened 1,000 times (only its polygons' flags change),
//      and the tick right after a toggle (walls, buckets and replans) against a plain tick.
//   2. A barricade that carves, on crowd-crossing's 200 m level: how many tiles it rebuilds (a tile
//      a tick) and the tick while it does, against the whole mesh built cold.
//   3. Moving obstacles in a crowd: crowd-crossing's walkers with none, then with N circles (1 m,
//      2 m/s) the game moves every tick (MoveObstacle), in alternating rounds; mean ms per tick of each and
//      the ratio (median over the rounds). Beside it, what clients seeing them costs: the server's
//      change log and players' collision scene each tick, and the page a client one tick behind gets.
#include <google/protobuf/text_format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <utility>

#include "movement/wire_collision.h"
#include "net/wire_scene.h"
#include "proto/scenario.pb.h"
#include "scenario/scenario_file.h"
#include "scenario/scenario_nav.h"

namespace {

using namespace steerd;
using Clock = std::chrono::steady_clock;
constexpr float kCartSpeed = 2.0f;  // m/s

double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

// The scenario file's navmesh built cold (no cache): ms, or -1 with the reason on stderr.
double coldBuildMs(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  scenario::Scenario s;
  if (!google::protobuf::TextFormat::ParseFromString(text.str(), &s)) {
    std::fprintf(stderr, "%s: not a scenario\n", path.c_str());
    return -1.0;
  }
  const auto b = Clock::now();
  const NavLoad built = loadNavMesh(s, "");
  const double ms = msSince(b);
  if (!built.mesh) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), built.error.c_str());
    return -1.0;
  }
  return ms;
}

int doorToggle(const std::string& path, unsigned threads) {
  const double buildMs = coldBuildMs(path);
  if (buildMs < 0.0) return 1;
  ScenarioLoad load = loadScenarioFile(path, ScenarioOptions(1, threads, 0), true);
  if (!load.world || load.world->doors().empty()) {
    std::fprintf(stderr, "%s: no world with a door\n", path.c_str());
    return 1;
  }
  World& world = *load.world;
  nav::NavMesh& mesh = *world.geometry().navMesh;
  const std::uint8_t area = world.doors()[0].area;
  constexpr int kToggles = 1000;
  const auto t = Clock::now();
  for (int i = 0; i < kToggles; ++i) {
    mesh.setAreaPassable(area, false);
    mesh.setAreaPassable(area, true);
  }
  const double toggleUs = msSince(t) * 1000.0 / (2 * kToggles);
  for (int i = 0; i < 60; ++i) world.step();
  std::vector<double> plain, after;
  for (int i = 0; i < 40; ++i) {
    auto a = Clock::now();
    world.step();
    plain.push_back(msSince(a));
    world.applyChange(WorldChange::setDoor(0, (i % 2) == 1));
    a = Clock::now();
    world.step();
    after.push_back(msSince(a));
  }
  std::printf("door toggle (%s, %zu navmesh polygons, the door's %zu):\n", path.c_str(), mesh.polygonCount(),
              mesh.areaPolygonCount(area));
  std::printf("  navmesh build, cold          %9.1f ms\n", buildMs);
  std::printf("  a toggle (flags only)        %9.2f us\n", toggleUs);
  std::printf("  tick after a toggle (median) %9.3f ms   plain tick %.3f ms (%zu agents)\n", median(after),
              median(plain), world.agentCount());
  return 0;
}

// One carving barricade on a 200 m level: the tiles built again and what each tick carving costs,
// against the whole mesh built cold.
int carveCost(const std::string& path, unsigned threads) {
  const double buildMs = coldBuildMs(path);
  ScenarioLoad load = loadScenarioFile(path, ScenarioOptions(1, threads, 0), true);
  if (!load.world || buildMs < 0.0) return 1;
  World& world = *load.world;
  const Bounds& bounds = world.geometry().bounds;
  for (int i = 0; i < 60; ++i) world.step();
  std::vector<double> plain, carving;
  for (int i = 0; i < 20; ++i) {
    const auto a = Clock::now();
    world.step();
    plain.push_back(msSince(a));
  }
  WorldChange add = WorldChange::add(ObstacleShape{});
  add.obstacle.shape.center = {0.5f * (bounds.minX + bounds.maxX) + 3.0f,
                               0.5f * (bounds.minY + bounds.maxY) + 3.0f};
  add.obstacle.shape.halfSize = {2.0f, 1.0f};
  add.obstacle.carve = true;
  world.applyChange(add);
  const std::size_t tiles = world.tilesWaiting();
  while (world.tilesWaiting() > 0) {
    const auto a = Clock::now();
    world.step();
    carving.push_back(msSince(a));
  }
  const nav::NavMeshTiles& layout = world.geometry().navMesh->layout();
  std::printf("a carving barricade (%s, %d x %d tiles of %.0f m, %zu agents):\n", path.c_str(), layout.tilesX,
              layout.tilesY, layout.tileWidth, world.agentCount());
  std::printf("  navmesh build, cold          %9.1f ms\n", buildMs);
  std::printf("  tiles built again            %9zu (a tile a tick)\n", tiles);
  std::printf("  tick while carving (median)  %9.3f ms   plain tick %.3f ms\n", median(carving),
              median(plain));
  return 0;
}

// What clients seeing the obstacles costs the server each tick (GameSession::followScene's work:
// the change log, the players' collision scene), and the page a client one version behind gets.
class SceneFollow {
 public:
  explicit SceneFollow(const World& world)
      : base_(net::wireSceneOf(world)), bounds_(world.geometry().bounds) {}
  void afterTick(const World& world) {
    const auto start = Clock::now();
    const auto version = static_cast<std::uint32_t>(world.sceneVersion());
    wire::recordScene(log_, version, net::doorStatesOf(world), net::sceneObstaclesOf(world));
    auto shared = std::make_shared<const wire::SceneChangeLog>(log_);  // as handed to the network
    wire::SceneLive live{log_.doorOpen, {}};
    for (const auto& e : log_.obstacles) live.obstacles.push_back(e.obstacle);
    const movement::CollisionScene players = movement::collisionSceneOf(
        wire::currentScene(base_, live), bounds_.minX, bounds_.minY, bounds_.maxX, bounds_.maxY);
    serverMs_ += msSince(start);
    const auto pageStart = Clock::now();
    std::uint32_t after = 0;
    do {
      const wire::SceneChanges page =
          wire::encodeSceneChanges(*shared, version - 1, after, wire::kMaxScenePartBytes);
      bytes_ += wire::kHeaderBytes + 3 + page.ByteSizeLong() + wire::kSealOverheadBytes;
      ++pages_;
      after = page.through();
    } while (after != 0);
    pageMs_ += msSince(pageStart);
    ++ticks_;
    roundMs_ += msSince(start);
  }
  double takeRoundMs() { return std::exchange(roundMs_, 0.0); }
  void print() const {
    if (ticks_ == 0) return;
    const double n = static_cast<double>(ticks_);
    std::printf("  clients see them: the change log and the players' collision scene %.3f ms/tick;\n",
                serverMs_ / n);
    std::printf("    a client one tick behind gets %.1f page(s), %.0f bytes sealed, %.3f ms to cut\n",
                static_cast<double>(pages_) / n, static_cast<double>(bytes_) / n, pageMs_ / n);
  }

 private:
  wire::SceneGeometry base_;
  Bounds bounds_;
  wire::SceneChangeLog log_;
  double serverMs_ = 0.0, pageMs_ = 0.0, roundMs_ = 0.0;
  std::size_t bytes_ = 0, pages_ = 0, ticks_ = 0;
};

int movingObstacles(const std::string& path, unsigned threads, int count, int rounds, int ticks, bool still) {
  ScenarioLoad load = loadScenarioFile(path, ScenarioOptions(1, threads, 0), true);
  if (!load.world) {
    for (const auto& e : load.errors) std::fprintf(stderr, "%s\n", e.c_str());
    return 1;
  }
  World& world = *load.world;
  const Bounds& b = world.geometry().bounds;
  for (int i = 0; i < 90; ++i) world.step();
  std::vector<std::uint32_t> ids;
  std::vector<double> none, with, ratio;
  SceneFollow follow(world);
  const auto replans = [&] {
    const NavigationStats& n = world.navigation()->stats();
    return n.replansBlocked + n.replansOffCourse;
  };
  std::uint64_t replansNone = 0, replansWith = 0;
  for (int r = 0; r < rounds; ++r) {
    std::uint64_t before = replans();
    auto a = Clock::now();
    for (int i = 0; i < ticks; ++i) world.step();
    none.push_back(msSince(a) / ticks);
    replansNone += replans() - before;
    // Carts on circles round the world's middle at 2 m/s, moved by the game every tick.
    const auto place = [&](int k, int tick, float& x, float& y) {
      const float phase = 6.2831853f * static_cast<float>(k) / static_cast<float>(count);
      const float radius =
          0.15f * std::min(b.width(), b.height()) * (1.0f + static_cast<float>(k % 5) * 0.5f);
      const float angle = phase + kCartSpeed * static_cast<float>(tick) * world.config().dt / radius;
      x = 0.5f * (b.minX + b.maxX) + radius * std::cos(angle);
      y = 0.5f * (b.minY + b.maxY) + radius * std::sin(angle);
    };
    for (int k = 0; k < count; ++k) {
      WorldChange add = WorldChange::add(ObstacleShape{});
      place(k, 0, add.obstacle.shape.center.x, add.obstacle.shape.center.y);
      add.obstacle.shape.radius = 1.0f;
      ids.push_back(world.applyChange(add));
    }
    before = replans();
    a = Clock::now();
    for (int i = 0; i < ticks; ++i) {
      for (int k = 0; k < count && !still; ++k) {
        steer::Vec2 to;
        place(k, i + 1, to.x, to.y);
        world.applyChange(WorldChange::move(ids[static_cast<std::size_t>(k)], to, 0.0f));
      }
      world.step();
      if (!still) follow.afterTick(world);
    }
    with.push_back((msSince(a) - follow.takeRoundMs()) / ticks);
    replansWith += replans() - before;
    ratio.push_back(with.back() / none.back());
    for (const std::uint32_t id : ids) world.applyChange(WorldChange::remove(id));
    ids.clear();
  }
  std::printf("moving obstacles (%s, %zu agents, %u threads, %d rounds of %d ticks):\n", path.c_str(),
              world.agentCount(), threads, rounds, ticks);
  std::printf("  no obstacles                 %9.3f ms/tick (median)\n", median(none));
  std::printf("  %3d %s         %9.3f ms/tick (median)\n", count,
              still ? "standing still" : "moved every tick", median(with));
  std::printf("  ratio (median of rounds)     %9.3f\n", median(ratio));
  std::printf("  replans (blocked, off course) %8.1f a tick without, %.1f with\n",
              static_cast<double>(replansNone) / (rounds * ticks),
              static_cast<double>(replansWith) / (rounds * ticks));
  if (!still) follow.print();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"What doors and moving obstacles cost: a toggle against a rebuild, obstacles against none"};
  std::string doorScenario = "scenarios/castle-gate.txtpb", crowd = "scenarios/crowd-crossing.txtpb";
  unsigned threads = 2;
  int obstacles = 100, rounds = 3, ticks = 150;
  app.add_option("--door-scenario", doorScenario, "A scenario with a door")->capture_default_str();
  app.add_option("--crowd", crowd, "The crowd the obstacles move through")->capture_default_str();
  app.add_option("--obstacles", obstacles, "Moving obstacles")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  app.add_option("--rounds", rounds, "Alternating rounds")->capture_default_str()->check(CLI::Range(1, 100));
  app.add_option("--ticks", ticks, "Ticks a round")->capture_default_str()->check(CLI::Range(1, 100000));
  app.add_option("--threads", threads, "Simulation threads")->capture_default_str();
  bool still = false;
  app.add_flag("--still", still, "The obstacles added but never moved: what they cost the steering alone");
  std::string part = "all";
  app.add_option("--part", part, "Which measurement")
      ->capture_default_str()
      ->check(CLI::IsMember({"all", "doors", "carve", "moving"}));
  CLI11_PARSE(app, argc, argv);
  if (part == "all" || part == "doors") {
    if (const int rc = doorToggle(doorScenario, threads); rc != 0) return rc;
  }
  if (part == "all" || part == "carve") {
    if (const int rc = carveCost(crowd, threads); rc != 0) return rc;
  }
  if (part == "all" || part == "moving")
    return movingObstacles(crowd, threads, obstacles, rounds, ticks, still);
  return 0;
}
