#include "world/scenarios.h"

#include <algorithm>
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

BehaviourSpec spec(BehaviourKind kind, float weight, int priority) {
  BehaviourSpec s;
  s.kind = kind;
  s.weight = weight;
  s.priority = priority;
  return s;
}

}  // namespace

// `g` must be indexed (a World's geometry is): only the obstacles near p are looked at.
bool insideObstacle(const StaticGeometry& g, Vec2 p, float pad) {
  for (const auto& o : g.obstaclesNear(p.x, p.y)) {
    if (steer::distance(o.center, p) < o.radius + pad) return true;
  }
  return false;
}

namespace {

float distanceToSegment(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 ab = b - a;
  const float len2 = steer::dot(ab, ab);
  const float t = len2 > 0.0f ? std::clamp(steer::dot(p - a, ab) / len2, 0.0f, 1.0f) : 0.0f;
  return steer::distance(p, a + ab * t);
}

bool freeSpot(const StaticGeometry& g, Vec2 q, float pad) {
  const Bounds& b = g.bounds;
  if (q.x < b.minX + pad || q.x > b.maxX - pad || q.y < b.minY + pad || q.y > b.maxY - pad) return false;
  if (insideObstacle(g, q, pad)) return false;
  // Clear of every wall, and on the front of the nearest one-sided wall: bodies keep to a wall's
  // left, so behind it is inside a building (or outside a pen). A two-sided fence (stored as two
  // walls back to back) has no behind.
  const steer::Wall* nearest = nullptr;
  float nearestDistance = 0.0f;
  for (std::size_t i = 0; i < g.walls.size(); ++i) {
    const steer::Wall& w = g.walls[i];
    const float d = distanceToSegment(q, w.from, w.to);
    if (d < pad) return false;
    const bool twin = (i > 0 && g.walls[i - 1].from == w.to && g.walls[i - 1].to == w.from) ||
                      (i + 1 < g.walls.size() && g.walls[i + 1].from == w.to && g.walls[i + 1].to == w.from);
    if (!twin && (nearest == nullptr || d < nearestDistance)) {
      nearest = &w;
      nearestDistance = d;
    }
  }
  return nearest == nullptr || steer::dot(q - nearest->from, nearest->normal) >= 0.0f;
}

}  // namespace

Vec2 freeSpotNear(const StaticGeometry& g, Vec2 p, float pad) {
  if (freeSpot(g, p, pad)) return p;
  const float reach = std::max(g.bounds.maxX - g.bounds.minX, g.bounds.maxY - g.bounds.minY);
  for (float r = 1.0f; r <= reach; r += 1.0f) {
    const int steps = std::max(8, static_cast<int>(2.0f * steer::kPi * r));
    for (int k = 0; k < steps; ++k) {
      const float a = 2.0f * steer::kPi * static_cast<float>(k) / static_cast<float>(steps);
      const Vec2 q{p.x + r * std::cos(a), p.y + r * std::sin(a)};
      if (freeSpot(g, q, pad)) return q;
    }
  }
  return p;
}

// `count` spawn points in the box [lo, hi]: one per cell of a lattice sized to fit them, jittered
// inside its cell, so bodies start apart (random points overlap, and a crowd that starts
// overlapping shows up as overlap in the motion report). Points inside obstacles are re-drawn
// a few times within their cell.
std::vector<Vec2> latticePoints(const StaticGeometry& g, steer::Rng& rng, std::size_t count, Vec2 lo, Vec2 hi,
                                float pad) {
  const float w = hi.x - lo.x, h = hi.y - lo.y;
  const float cell = std::sqrt(w * h / static_cast<float>(std::max<std::size_t>(count, 1)));
  const int columns = std::max(1, static_cast<int>(w / cell));
  const int rows = std::max(1, static_cast<int>((count + columns - 1) / columns));
  const float cw = w / columns, ch = h / rows;
  std::vector<Vec2> points;
  points.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const float x0 = lo.x + static_cast<float>(i % columns) * cw,
                y0 = lo.y + static_cast<float>(i / columns) * ch;
    Vec2 p;
    for (int tries = 0; tries < 8; ++tries) {
      // Jitter within the middle 60 % of the cell: neighbours stay at least 40 % of a cell apart.
      p = {x0 + cw * (0.2f + 0.6f * rng.uniform()), y0 + ch * (0.2f + 0.6f * rng.uniform())};
      if (!insideObstacle(g, p, pad)) break;
    }
    points.push_back(p);
  }
  return points;
}

Vec2 randomVelocity(steer::Rng& rng, float speed) {
  return steer::fromAngle(2 * steer::kPi * rng.uniform()) * speed;
}

std::vector<std::string> builtinScenarioNames() { return {"default", "crowd"}; }

std::unique_ptr<World> makeScenario(std::string_view name, const ScenarioOptions& options) {
  if (name == "default") return makeDefaultScenario(options);
  if (name == "crowd") return makeCrowdScenario(options);
  return nullptr;
}

namespace {

// One 240 m district of the default scenario: its geometry (walls, obstacles, two paths) added
// to `g` at `origin`. Returns the indices of its patrol route and race track.
struct District {
  Vec2 origin;
  std::int32_t patrolPath = -1;
  std::int32_t trackPath = -1;
};

constexpr float kDistrictSize = 240.0f;
constexpr int kAgentsPerDistrict = 344;  // 300 boids, 6 pursuers, 20 hiders, 12 patrols, 6 racers

District addDistrict(StaticGeometry& g, steer::Rng& rng, Vec2 origin) {
  auto at = [&](float x, float y) { return origin + Vec2{x, y}; };
  // A walled yard in the south-west corner: a concave corner for wall avoidance to handle.
  // Walls are one-sided, so each fence is two walls back to back.
  for (auto [a, b] : {std::pair{at(20, 20), at(80, 20)}, std::pair{at(20, 80), at(20, 20)}}) {
    g.walls.push_back(steer::makeWall(a, b));
    g.walls.push_back(steer::makeWall(b, a));
  }
  // The racers' track: a loop through the east half; the path followers' patrol round the middle.
  std::vector<Vec2> track, patrol;
  for (Vec2 p : {Vec2{150, 40}, {215, 60}, {220, 140}, {200, 210}, {140, 200}, {130, 120}})
    track.push_back(at(p.x, p.y));
  for (Vec2 p : {Vec2{60, 100}, {110, 100}, {110, 160}, {60, 160}}) patrol.push_back(at(p.x, p.y));
  // Obstacles, kept clear of the routes' waypoints and of each other.
  StaticGeometry local;
  local.bounds = {origin.x, origin.y, origin.x + kDistrictSize, origin.y + kDistrictSize};
  for (int placed = 0, tries = 0; placed < 28 && tries < 400; ++tries) {
    const std::size_t before = local.obstacles.size();
    scatterObstacles(local, rng, 1, 2.0f, 6.0f, 10.0f);
    if (local.obstacles.size() == before) continue;
    const auto o = local.obstacles.back();
    bool clear = true;
    // No wedge between an obstacle and a wall that a body could be squeezed into.
    for (const auto& w : g.walls) {
      const float t = std::clamp(
          steer::dot(o.center - w.from, w.to - w.from) / steer::lengthSq(w.to - w.from), 0.0f, 1.0f);
      clear = clear && steer::distance(w.from + (w.to - w.from) * t, o.center) > o.radius + 3.0f;
    }
    // Routes stay open: no obstacle within 6 m of a leg (they may stand beside it).
    for (const auto* route : {&track, &patrol}) {
      for (std::size_t k = 0; k < route->size(); ++k) {
        const Vec2 a = (*route)[k], b = (*route)[(k + 1) % route->size()];
        const float t = std::clamp(steer::dot(o.center - a, b - a) / steer::lengthSq(b - a), 0.0f, 1.0f);
        clear = clear && steer::distance(a + (b - a) * t, o.center) > o.radius + 6.0f;
      }
    }
    if (clear) {
      ++placed;
    } else {
      local.obstacles.pop_back();
    }
  }
  g.obstacles.insert(g.obstacles.end(), local.obstacles.begin(), local.obstacles.end());
  District d{origin, static_cast<std::int32_t>(g.paths.size()),
             static_cast<std::int32_t>(g.paths.size() + 1)};
  g.paths.push_back({patrol, true});
  g.paths.push_back({track, true});
  return d;
}

}  // namespace

std::unique_ptr<World> makeDefaultScenario(const ScenarioOptions& options) {
  steer::Rng rng(steer::mix64(options.seed) ^ 0xdefa017ULL);
  // --agents asks for about that many agents in all: the district is tiled to hold them.
  const std::size_t districts =
      options.agents > 0
          ? std::max<std::size_t>(1, (options.agents + kAgentsPerDistrict / 2) / kAgentsPerDistrict)
          : 1;
  const int columns = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(districts))));
  const int rows = static_cast<int>((districts + columns - 1) / columns);
  StaticGeometry g;
  g.bounds = {0, 0, columns * kDistrictSize, rows * kDistrictSize};
  std::vector<District> placed;
  for (std::size_t k = 0; k < districts; ++k) {
    const Vec2 origin{static_cast<float>(k % columns) * kDistrictSize,
                      static_cast<float>(k / columns) * kDistrictSize};
    placed.push_back(addDistrict(g, rng, origin));
  }

  std::vector<Archetype> arch(6);
  enum : ArchetypeIndex { kBoid, kPursuer, kHider, kPatrol, kRacer, kPlayer };
  arch[kPlayer] = playerArchetype();
  arch[kBoid].name = "boid";
  arch[kBoid].limits = {0.5f, 1.0f, 6.0f, 14.0f, 2.0f * steer::kPi};
  arch[kBoid].flock = {5.0f, 270.0f};
  // Boids scatter from a pursuer that comes within 12 m (evade: flee its predicted position).
  BehaviourSpec scatter = spec(BehaviourKind::kEvadeNearest, 2, 1);
  scatter.targetArchetype = kPursuer;
  scatter.range = 12.0f;
  // ...and from a connected player the same way.
  BehaviourSpec scatterFromPlayer = scatter;
  scatterFromPlayer.targetArchetype = kPlayer;
  arch[kBoid].behaviours = {spec(BehaviourKind::kWallAvoidance, 6, 0),
                            spec(BehaviourKind::kObstacleAvoidance, 4, 0),
                            scatterFromPlayer,
                            scatter,
                            spec(BehaviourKind::kSeparation, 3, 1),
                            spec(BehaviourKind::kAlignment, 2, 2),
                            spec(BehaviourKind::kCohesion, 1, 2),
                            spec(BehaviourKind::kWander, 1, 3)};

  arch[kPursuer].name = "pursuer";
  arch[kPursuer].limits = {0.8f, 1.0f, 7.0f, 16.0f, 1.5f * steer::kPi};
  BehaviourSpec pursue = spec(BehaviourKind::kPursueNearest, 1, 2);
  pursue.targetArchetype = kBoid;
  pursue.range = 60.0f;
  // A connected player within 30 m comes first: the running sum spends its force budget on it.
  BehaviourSpec pursuePlayer = spec(BehaviourKind::kPursueNearest, 1.5f, 2);
  pursuePlayer.targetArchetype = kPlayer;
  pursuePlayer.range = 30.0f;
  arch[kPursuer].behaviours = {spec(BehaviourKind::kWallAvoidance, 6, 0),
                               spec(BehaviourKind::kObstacleAvoidance, 4, 0),
                               spec(BehaviourKind::kSeparation, 2, 1),
                               pursuePlayer,
                               pursue,
                               spec(BehaviourKind::kWander, 1, 3)};

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
  follow.pathIndex = -1;  // each patrol follows its own district's route
  arch[kPatrol].behaviours = {spec(BehaviourKind::kObstacleAvoidance, 4, 0),
                              spec(BehaviourKind::kSeparation, 2, 1), follow};
  arch[kPatrol].pathSeekDistance = 3.0f;

  arch[kRacer].name = "racer";
  arch[kRacer].limits = {0.6f, 1.0f, 8.0f, 16.0f, 1.5f * steer::kPi};
  BehaviourSpec race = spec(BehaviourKind::kContextSeekWaypoints, 1, 1);
  race.pathIndex = -1;  // each racer laps its own district's track
  arch[kRacer].behaviours = {spec(BehaviourKind::kSeparation, 2, 0), race};
  arch[kRacer].pathSeekDistance = 6.0f;
  arch[kRacer].contextSlots = 32;

  WorldConfig config;
  config.seed = options.seed;
  config.threads = options.threads;
  auto world = std::make_unique<World>(std::move(g), std::move(arch), config);
  const StaticGeometry& geo = world->geometry();
  for (const District& d : placed) {
    // Groups spawn on their own lattices, which may cross: a point too close to one already taken
    // in this district is moved (deterministically) until it is clear, so no two bodies start
    // on top of each other.
    std::vector<Vec2> taken;
    auto clearOfOthers = [&](Vec2 p) {
      for (const Vec2 q : taken) {
        if (steer::distanceSq(p, q) < 2.0f * 2.0f) return false;
      }
      return true;
    };
    auto spawnIn = [&](ArchetypeIndex a, int count, Vec2 lo, Vec2 hi, float speed, std::int32_t path = -1) {
      for (Vec2 p :
           latticePoints(geo, rng, static_cast<std::size_t>(count), d.origin + lo, d.origin + hi, 1.5f)) {
        for (int tries = 0; tries < 16 && (!clearOfOthers(p) || insideObstacle(geo, p, 1.5f)); ++tries) {
          p += steer::fromAngle(2.0f * steer::kPi * rng.uniform()) * 2.5f;
        }
        taken.push_back(p);
        world->spawn(a, p, randomVelocity(rng, speed), path);
      }
    };
    spawnIn(kBoid, 300, {30, 30}, {210, 210}, 3.0f);
    spawnIn(kPursuer, 6, {100, 100}, {140, 140}, 2.0f);
    spawnIn(kHider, 20, {20, 150}, {100, 230}, 1.0f);
    spawnIn(kPatrol, 12, {55, 95}, {115, 165}, 1.0f, d.patrolPath);
    spawnIn(kRacer, 6, {140, 30}, {160, 50}, 1.0f, d.trackPath);
  }
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
  for (const Vec2 p : latticePoints(geo, rng, agents, {1, 1}, {side - 1, side - 1}, 1.0f)) {
    world->spawn(0, p, randomVelocity(rng, 1.5f));
  }
  return world;
}

}  // namespace steerd
