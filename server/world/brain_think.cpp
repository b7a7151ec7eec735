#include "world/brain_think.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "steering/hide.h"
#include "steering/random.h"

namespace steerd {

namespace {

using steer::Vec2;

bool segmentsCross(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const float d1 = steer::cross(b - a, c - a), d2 = steer::cross(b - a, d - a);
  const float d3 = steer::cross(d - c, a - c), d4 = steer::cross(d - c, b - c);
  return ((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0));
}

// The queries a brain's conditions ask (brain::evaluate), for one agent at one think.
struct Queries {
  const StepContext& ctx;
  std::uint32_t slot;
  const Archetype& arch;
  const brain::Brain& brain;
  const GroupSpread& groups;
  BrainMemory& memory;
  std::array<bool, brain::kMaxSenses> seeing{};
  steer::Rng rng;

  bool near(std::int32_t archetype, float metres) {
    return nearestOfArchetype(ctx, slot, static_cast<ArchetypeIndex>(archetype), metres) >= 0;
  }
  bool sees(std::int32_t sense) const { return seeing[static_cast<std::size_t>(sense)]; }
  float secondsSinceSeen(std::int32_t sense) const {
    const std::uint64_t seen = memory.lastSeen[static_cast<std::size_t>(sense)];
    if (seen == 0) return std::numeric_limits<float>::infinity();
    return static_cast<float>(ctx.tick - (seen - 1)) * ctx.dt;
  }
  float secondsInState() const { return static_cast<float>(ctx.tick - memory.enteredTick) * ctx.dt; }
  float stat(std::int32_t i) const { return memory.stats[static_cast<std::size_t>(i)]; }
  float roll() { return rng.uniform(); }
  float thinkSeconds() const { return static_cast<float>(brain.thinkEvery) * ctx.dt; }
  bool groupStrays(std::int32_t archetype, float metres) const {
    return groups.farthest[static_cast<std::size_t>(archetype)] > metres;
  }
  bool pathFinished() const {
    const AgentMemory& m = ctx.in.memory[slot];
    for (const BehaviourSpec& s : arch.behavioursIn(m.brainState)) {
      if (s.kind != BehaviourKind::kFollowPath) continue;
      const std::int32_t p = s.pathIndex >= 0 ? s.pathIndex : m.assignedPath;
      if (p < 0 || static_cast<std::size_t>(p) >= ctx.geometry.paths.size()) return false;
      const Path& path = ctx.geometry.paths[static_cast<std::size_t>(p)];
      if (path.looped || path.points.empty()) return false;
      const Vec2 pos{ctx.in.px[slot], ctx.in.py[slot]};
      return m.pathIndex == static_cast<std::int32_t>(path.points.size() - 1) &&
             steer::distance(pos, path.points.back()) <= arch.pathSeekDistance;
    }
    return false;
  }
};

bool senses(const StepContext& ctx, std::uint32_t self, const brain::Sense& sense) {
  const AgentColumns& in = ctx.in;
  const Vec2 p{in.px[self], in.py[self]};
  const Vec2 heading{in.hx[self], in.hy[self]};
  bool seen = false;
  ctx.grid.forEachNear(p.x, p.y, sense.range, [&](std::uint32_t j) {
    if (seen || j == self || in.archetype[j] != sense.archetype) return;
    const Vec2 q{in.px[j], in.py[j]};
    const Vec2 d = q - p;
    const float dist = steer::length(d);
    if (dist > sense.range) return;
    if (sense.cosHalfFov > -1.0f && dist > 0.0f && steer::dot(heading, d / dist) < sense.cosHalfFov) return;
    seen = !sightBlocked(ctx.geometry, p, q);
  });
  return seen;
}

}  // namespace

bool sightBlocked(const StaticGeometry& geometry, Vec2 from, Vec2 to) {
  const Vec2 mid = (from + to) * 0.5f;
  const float reach = steer::distance(from, to) * 0.5f;
  std::array<steer::CircleObstacle, 64> nearby;
  const std::size_t n = geometry.obstaclesInRange(mid.x, mid.y, reach, nearby);
  if (steer::lineOfSightBlocked(
          from, to, std::span<const steer::CircleObstacle>(nearby.data(), std::min(n, nearby.size())))) {
    return true;
  }
  for (const steer::Wall& w : geometry.walls) {
    if (segmentsCross(from, to, w.from, w.to)) return true;
  }
  return false;
}

GroupSpread measureGroups(const AgentColumns& sorted, std::size_t archetypes) {
  GroupSpread g;
  g.farthest.assign(archetypes, 0.0f);
  std::vector<double> sx(archetypes, 0.0), sy(archetypes, 0.0);
  std::vector<std::size_t> count(archetypes, 0);
  for (std::size_t s = 0; s < sorted.size(); ++s) {
    sx[sorted.archetype[s]] += sorted.px[s];
    sy[sorted.archetype[s]] += sorted.py[s];
    ++count[sorted.archetype[s]];
  }
  for (std::size_t s = 0; s < sorted.size(); ++s) {
    const std::size_t a = sorted.archetype[s];
    const double cx = sx[a] / static_cast<double>(count[a]), cy = sy[a] / static_cast<double>(count[a]);
    const float d = static_cast<float>(std::hypot(sorted.px[s] - cx, sorted.py[s] - cy));
    g.farthest[a] = std::max(g.farthest[a], d);
  }
  return g;
}

void startBrain(const brain::Brain& brain, std::uint64_t tick, AgentMemory& memory, BrainMemory& m) {
  memory.brainState = static_cast<std::uint8_t>(brain.enterLeaf(brain.initial));
  m = BrainMemory{};
  m.enteredTick = tick;
  m.lastThinkTick = tick;
  for (std::size_t i = 0; i < brain.stats.size(); ++i) m.stats[i] = brain.stats[i].initial;
}

void thinkChunk(const StepContext& ctx, const GroupSpread& groups, std::uint32_t begin, std::uint32_t end,
                AgentMemory* memoryOut, std::vector<BrainMemory>& brainMemory) {
  for (std::uint32_t slot = begin; slot < end; ++slot) {
    const Archetype& arch = ctx.archetypes[ctx.in.archetype[slot]];
    if (!arch.brain || (ctx.in.memory[slot].flags & kAgentExternal)) continue;
    const brain::Brain& b = *arch.brain;
    const AgentId id = ctx.in.id[slot];
    if ((ctx.tick + id) % b.thinkEvery != 0) continue;  // staggered: not this agent's turn
    BrainMemory& m = brainMemory[id];
    const std::uint8_t current = ctx.in.memory[slot].brainState;

    // Stats move at the current state's rates since the last think.
    const float elapsed = static_cast<float>(ctx.tick - m.lastThinkTick) * ctx.dt;
    for (std::size_t i = 0; i < b.stats.size(); ++i) {
      const float rate = b.states[current].statRates[i];
      m.stats[i] = std::clamp(m.stats[i] + rate * elapsed, b.stats[i].min, b.stats[i].max);
    }
    m.lastThinkTick = ctx.tick;

    Queries q{ctx,    slot, arch, b,
              groups, m,    {},   steer::Rng::forAgent(ctx.seed ^ 0xb7a1'5eedULL, id, ctx.tick)};
    for (std::size_t s = 0; s < b.senses.size(); ++s) {
      q.seeing[s] = senses(ctx, slot, b.senses[s]);
      if (q.seeing[s]) m.lastSeen[s] = ctx.tick + 1;
    }
    const std::int32_t next = brain::nextState(b, current, q);
    if (next != current) {
      memoryOut[slot].brainState = static_cast<std::uint8_t>(next);
      m.enteredTick = ctx.tick;
    }
  }
}

}  // namespace steerd
