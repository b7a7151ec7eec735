#include "world/scenarios.h"

#include <cmath>

#include "steering/random.h"

namespace steerd {

using steer::Vec2;

namespace {

// Scatters `count` non-overlapping circle obstacles inside `bounds` (keeping `margin` from the
// edges); deterministic from rng.
void scatterObstacles(StaticGeometry& g, steer::Rng& rng, int count, float minR, float maxR, float margin) {
  const Bounds& b = g.bounds;
  for (int tries = 0, placed = 0; placed < count && tries < count * 20; ++tries) {
    const float r = minR + (maxR - minR) * rng.uniform();
    const Vec2 c{b.minX + margin + (b.width() - 2 * margin) * rng.uniform(),
                 b.minY + margin + (b.height() - 2 * margin) * rng.uniform()};
    bool clear = true;
    for (const auto& o : g.obstacles) {
      if (steer::distance(o.center, c) < o.radius + r + 3.0f) {
        clear = false;
        break;
      }
    }
    if (!clear) continue;
    g.obstacles.push_back({c, r});
    ++placed;
  }
}

bool insideObstacle(const StaticGeometry& g, Vec2 p, float pad) {
  for (const auto& o : g.obstacles) {
    if (steer::distance(o.center, p) < o.radius + pad) return true;
  }
  return false;
}

Vec2 randomFreePoint(const StaticGeometry& g, steer::Rng& rng, Vec2 lo, Vec2 hi, float pad) {
  Vec2 p;
  for (int i = 0; i < 100; ++i) {
    p = {lo.x + (hi.x - lo.x) * rng.uniform(), lo.y + (hi.y - lo.y) * rng.uniform()};
    if (!insideObstacle(g, p, pad)) break;
  }
  return p;
}

Vec2 randomVelocity(steer::Rng& rng, float speed) {
  return steer::fromAngle(2 * steer::kPi * rng.uniform()) * speed;
}

BehaviourSpec spec(BehaviourKind kind, float weight, int priority) {
  BehaviourSpec s;
  s.kind = kind;
  s.weight = weight;
  s.priority = priority;
  return s;
}

}  // namespace

std::vector<std::string> builtinScenarioNames() { return {"default", "crowd"}; }

std::unique_ptr<World> makeScenario(std::string_view name, const ScenarioOptions& options) {
  if (name == "default") return makeDefaultScenario(options);
  if (name == "crowd") return makeCrowdScenario(options);
  return nullptr;
}

std::unique_ptr<World> makeDefaultScenario(const ScenarioOptions& options) {
  steer::Rng rng(steer::mix64(options.seed) ^ 0xdefa017ULL);
  StaticGeometry g;
  g.bounds = {0, 0, 240, 240};
  // A walled yard in the south-west corner: a concave corner for wall avoidance to handle.
  g.walls.push_back(steer::makeWall({20, 20}, {80, 20}));
  g.walls.push_back(steer::makeWall({20, 80}, {20, 20}));
  // The racers' track: a loop through the east half; its corners are kept clear of obstacles.
  const std::vector<Vec2> track = {{150, 40}, {215, 60}, {220, 140}, {200, 210}, {140, 200}, {130, 120}};
  // The path followers' patrol route around the middle.
  const std::vector<Vec2> patrol = {{60, 100}, {110, 100}, {110, 160}, {60, 160}};
  for (int placed = 0; placed < 28;) {
    StaticGeometry probe = g;
    scatterObstacles(probe, rng, 1, 2.0f, 6.0f, 10.0f);
    if (probe.obstacles.size() == g.obstacles.size()) break;
    const auto& o = probe.obstacles.back();
    bool clearOfRoutes = true;
    for (const auto* route : {&track, &patrol}) {
      for (const Vec2 p : *route)
        clearOfRoutes = clearOfRoutes && steer::distance(p, o.center) > o.radius + 8.0f;
    }
    if (clearOfRoutes) {
      g.obstacles.push_back(o);
      ++placed;
    }
  }
  g.paths.push_back({patrol, true});
  g.paths.push_back({track, true});

  std::vector<Archetype> arch(5);
  enum : ArchetypeIndex { kBoid, kPursuer, kHider, kPatrol, kRacer };
  arch[kBoid].name = "boid";
  arch[kBoid].limits = {0.5f, 1.0f, 6.0f, 14.0f, 2.0f * steer::kPi};
  arch[kBoid].flock = {5.0f, 270.0f};
  arch[kBoid].behaviours = {
      spec(BehaviourKind::kWallAvoidance, 6, 0), spec(BehaviourKind::kObstacleAvoidance, 4, 0),
      spec(BehaviourKind::kSeparation, 3, 1),    spec(BehaviourKind::kAlignment, 2, 2),
      spec(BehaviourKind::kCohesion, 1, 2),      spec(BehaviourKind::kWander, 1, 3)};

  arch[kPursuer].name = "pursuer";
  arch[kPursuer].limits = {0.8f, 1.0f, 7.0f, 16.0f, 1.5f * steer::kPi};
  BehaviourSpec pursue = spec(BehaviourKind::kPursueNearest, 1, 2);
  pursue.targetArchetype = kBoid;
  pursue.range = 60.0f;
  arch[kPursuer].behaviours = {
      spec(BehaviourKind::kWallAvoidance, 6, 0), spec(BehaviourKind::kObstacleAvoidance, 4, 0),
      spec(BehaviourKind::kSeparation, 2, 1), pursue, spec(BehaviourKind::kWander, 1, 3)};

  arch[kHider].name = "hider";
  arch[kHider].limits = {0.5f, 1.0f, 5.0f, 12.0f, 2.0f * steer::kPi};
  BehaviourSpec hide = spec(BehaviourKind::kHideFromNearest, 1, 2);
  hide.targetArchetype = kPursuer;
  hide.range = 40.0f;
  arch[kHider].behaviours = {
      spec(BehaviourKind::kWallAvoidance, 6, 0), spec(BehaviourKind::kObstacleAvoidance, 4, 0),
      spec(BehaviourKind::kSeparation, 2, 1), hide, spec(BehaviourKind::kWander, 0.5f, 3)};

  arch[kPatrol].name = "patrol";
  arch[kPatrol].limits = {0.6f, 1.0f, 4.0f, 10.0f, steer::kPi};
  BehaviourSpec follow = spec(BehaviourKind::kFollowPath, 1, 2);
  follow.pathIndex = 0;
  arch[kPatrol].behaviours = {spec(BehaviourKind::kObstacleAvoidance, 4, 0),
                              spec(BehaviourKind::kSeparation, 2, 1), follow};
  arch[kPatrol].pathSeekDistance = 3.0f;

  arch[kRacer].name = "racer";
  arch[kRacer].limits = {0.6f, 1.0f, 8.0f, 16.0f, 1.5f * steer::kPi};
  BehaviourSpec race = spec(BehaviourKind::kContextSeekWaypoints, 1, 1);
  race.pathIndex = 1;
  arch[kRacer].behaviours = {spec(BehaviourKind::kSeparation, 2, 0), race};
  arch[kRacer].pathSeekDistance = 6.0f;
  arch[kRacer].contextSlots = 16;

  WorldConfig config;
  config.seed = options.seed;
  config.threads = options.threads;
  auto world = std::make_unique<World>(std::move(g), std::move(arch), config);
  const StaticGeometry& geo = world->geometry();
  auto spawnIn = [&](ArchetypeIndex a, int count, Vec2 lo, Vec2 hi, float speed) {
    for (int i = 0; i < count; ++i) {
      world->spawn(a, randomFreePoint(geo, rng, lo, hi, 1.5f), randomVelocity(rng, speed));
    }
  };
  const std::size_t boids = options.agents > 0 ? options.agents : 300;
  spawnIn(kBoid, static_cast<int>(boids), {30, 30}, {210, 210}, 3.0f);
  spawnIn(kPursuer, 6, {100, 100}, {140, 140}, 2.0f);
  spawnIn(kHider, 20, {20, 150}, {100, 230}, 1.0f);
  spawnIn(kPatrol, 12, {55, 95}, {115, 165}, 1.0f);
  spawnIn(kRacer, 6, {140, 30}, {160, 50}, 1.0f);
  return world;
}

std::unique_ptr<World> makeCrowdScenario(const ScenarioOptions& options) {
  steer::Rng rng(steer::mix64(options.seed) ^ 0xc40dULL);
  const std::size_t agents = options.agents > 0 ? options.agents : 10000;
  // One agent per 25 m^2.
  const float side = std::sqrt(static_cast<float>(agents) * 25.0f);
  StaticGeometry g;
  g.bounds = {0, 0, side, side};
  // One obstacle per 2,500 m^2: enough that most agents meet one every few seconds.
  scatterObstacles(g, rng, static_cast<int>(side * side / 2500.0f), 1.5f, 4.0f, 4.0f);

  Archetype boid;
  boid.name = "crowd";
  boid.limits = {0.5f, 1.0f, 3.0f, 8.0f, 2.0f * steer::kPi};
  boid.flock = {4.0f, 270.0f};
  boid.obstacleMinDetectionLength = 3.0f;
  boid.behaviours = {spec(BehaviourKind::kObstacleAvoidance, 4, 0), spec(BehaviourKind::kSeparation, 2, 1),
                     spec(BehaviourKind::kAlignment, 1, 2), spec(BehaviourKind::kCohesion, 0.5f, 2),
                     spec(BehaviourKind::kWander, 1, 3)};

  WorldConfig config;
  config.seed = options.seed;
  config.threads = options.threads;
  auto world = std::make_unique<World>(std::move(g), std::vector<Archetype>{boid}, config);
  const StaticGeometry& geo = world->geometry();
  for (std::size_t i = 0; i < agents; ++i) {
    world->spawn(0, randomFreePoint(geo, rng, {1, 1}, {side - 1, side - 1}, 1.0f), randomVelocity(rng, 1.5f));
  }
  return world;
}

}  // namespace steerd
