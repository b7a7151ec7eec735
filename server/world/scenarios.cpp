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
    const float d = steer::distanceToSegment(q, w.from, w.to);
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
  const std::size_t n = std::max<std::size_t>(count, 1);
  // Square cells when the box has an area; a box of no width or height is a line (or a point),
  // and the points go along it (w / cell would be 0 / 0 there).
  int columns = w > 0.0f ? static_cast<int>(std::min<std::size_t>(n, 1 << 30)) : 1;
  if (w > 0.0f && h > 0.0f) {
    const float cell = std::sqrt(w * h / static_cast<float>(n));
    columns = std::clamp(static_cast<int>(std::min(w / cell, static_cast<float>(columns))), 1, columns);
  }
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

std::vector<std::string> builtinScenarioNames() { return {"crowd"}; }

std::unique_ptr<World> makeScenario(std::string_view name, const ScenarioOptions& options) {
  if (name == "crowd") return makeCrowdScenario(options);
  return nullptr;
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
