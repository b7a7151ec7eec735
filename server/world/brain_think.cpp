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
  // The straying member of `member` farther than `metres` from the centroid of `group`, or -1.
  std::int32_t stray(std::int32_t member, std::int32_t group, float metres) const {
    if (ctx.groups == nullptr) return -1;
    const std::int32_t p =
        ctx.groups->find(static_cast<ArchetypeIndex>(member), static_cast<ArchetypeIndex>(group));
    if (p < 0 || ctx.groups->strayDistance[static_cast<std::size_t>(p)] <= metres) return -1;
    return ctx.groups->straySlot[static_cast<std::size_t>(p)];
  }
  bool groupStrays(std::int32_t member, std::int32_t group, float metres) const {
    return stray(member, group, metres) >= 0;
  }
  // No agent of my archetype is nearer to the stray than I am (ties: the lower id goes).
  bool closestToStray(std::int32_t member, std::int32_t group, float metres) const {
    const std::int32_t s = stray(member, group, metres);
    if (s < 0) return false;
    const AgentColumns& in = ctx.in;
    const Vec2 target{in.px[static_cast<std::size_t>(s)], in.py[static_cast<std::size_t>(s)]};
    const Vec2 self{in.px[slot], in.py[slot]};
    const float mine = steer::distance(self, target);
    bool closest = true;
    ctx.grid.forEachNear(target.x, target.y, mine, [&](std::uint32_t j) {
      if (j == slot || in.archetype[j] != in.archetype[slot]) return;
      const float d = steer::distance({in.px[j], in.py[j]}, target);
      if (d < mine || (d == mine && in.id[j] < in.id[slot])) closest = false;
    });
    return closest;
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

void strayPairsOf(const brain::Brain& brain, std::vector<StrayPair>& out) {
  for (const brain::ConditionNode& c : brain.conditions) {
    if (c.test != brain::Test::kGroupStrays && c.test != brain::Test::kClosestToStray) continue;
    const StrayPair p{static_cast<ArchetypeIndex>(c.index), static_cast<ArchetypeIndex>(c.index2)};
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  }
}

void startBrain(const brain::Brain& brain, std::uint64_t tick, AgentMemory& memory, BrainMemory& m) {
  memory.brainState = static_cast<std::uint8_t>(brain.enterLeaf(brain.initial));
  m = BrainMemory{};
  m.enteredTick = tick;
  m.lastThinkTick = tick;
  for (std::size_t i = 0; i < brain.stats.size(); ++i) m.stats[i] = brain.stats[i].initial;
}

void thinkChunk(const StepContext& ctx, std::uint32_t begin, std::uint32_t end, AgentMemory* memoryOut,
                std::vector<BrainMemory>& brainMemory) {
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

    Queries q{ctx, slot, arch, b, m, {}, steer::Rng::forAgent(ctx.seed ^ 0xb7a1'5eedULL, id, ctx.tick)};
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
