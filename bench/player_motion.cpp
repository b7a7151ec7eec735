// The server's cost of moving players from their inputs (intent mode): --players bodies on a
// scenario's scene (as clients get it, the way the game session builds it), each stepped once a
// tick by server/movement's stepPlayer with a wandering intent; mean and p99 ms per tick.
// scripts/bench.sh players runs it.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "movement/wire_collision.h"
#include "net/wire_scene.h"
#include "proto/scene_codec.h"
#include "scenario/scenario_file.h"

using namespace steerd;

int main(int argc, char** argv) {
  CLI::App app{"the cost of moving players from intents (server/movement)"};
  std::string scenario = "default";
  std::size_t players = 1000;
  int ticks = 900;
  app.add_option("--scenario", scenario, "Built-in name or file")->capture_default_str();
  app.add_option("--players", players, "Players stepped each tick")->capture_default_str();
  app.add_option("--ticks", ticks, "Ticks measured")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  ScenarioOptions o;
  ScenarioLoad load = openScenario(scenario, o);
  if (!load.world) {
    for (const auto& e : load.errors) std::fprintf(stderr, "%s\n", e.c_str());
    return 1;
  }
  const World& world = *load.world;
  // The scene as clients decode it: what the game session steps players against.
  const wire::EncodedScene encoded =
      wire::encodeScene(net::wireSceneOf(world.geometry()), wire::kMaxScenePartBytes);
  wire::SceneGeometry decoded;
  for (const auto& part : encoded.parts) (void)wire::decodeScenePart(part, decoded);
  const Bounds& b = world.geometry().bounds;
  const movement::CollisionScene scene = movement::collisionSceneOf(decoded, b.minX, b.minY, b.maxX, b.maxY);
  const steer::BodyLimits& limits =
      world.archetypes()[static_cast<std::size_t>(std::max(world.archetypeIndex("player"), 0))].limits;

  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<movement::PlayerState> state(players);
  std::vector<float> heading(players);
  for (std::size_t i = 0; i < players; ++i) {
    state[i].position = {b.minX + u(rng) * (b.maxX - b.minX), b.minY + u(rng) * (b.maxY - b.minY)};
    heading[i] = u(rng) * 6.2831853f;
  }
  std::vector<double> ms;
  for (int t = 0; t < ticks; ++t) {
    for (std::size_t i = 0; i < players; ++i) heading[i] += (u(rng) - 0.5f) * 0.4f;  // not timed
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < players; ++i)
      state[i] = movement::stepPlayer(state[i], {{std::cos(heading[i]), std::sin(heading[i])}, 1.0f / 30.0f},
                                      limits, scene);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  double mean = 0;
  for (double m : ms) mean += m;
  mean /= static_cast<double>(ms.size());
  std::printf("scenario %s (%zu obstacles, %zu walls), %zu players, one input each a tick, %d ticks\n",
              scenario.c_str(), scene.obstacles().size(), scene.walls().size(), players, ticks);
  std::printf("player movement: mean %.3f ms a tick, p99 %.3f ms, max %.3f ms (%.2f us a player)\n", mean,
              ms[ms.size() * 99 / 100], ms.back(),
              1000.0 * mean / static_cast<double>(std::max<std::size_t>(players, 1)));
  return 0;
}
