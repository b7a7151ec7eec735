#include "world/brain_think.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "steering/random.h"
#include "world/level_of_detail.h"

namespace steerd {

namespace {

using steer::Vec2;

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
  // An agent of `archetype` within `metres` in `state` of its brain (or inside it) and with
  // `signal` raised (-1: either test off): "a guard that is chasing", "a dog that barked".
  // This brain's signal `index` as the world's bit mask (0: not one of the world's).
  std::uint32_t signalMask(std::int32_t index) const {
    const std::int8_t bit = ctx.runtime[ctx.in.archetype[slot]].signalBit[static_cast<std::size_t>(index)];
    return bit < 0 ? 0u : 1u << bit;
  }
  bool nearMarked(std::int32_t archetype, float metres, std::int32_t state, std::int32_t signal) const {
    const AgentColumns& in = ctx.in;
    const std::uint32_t mask = signal >= 0 ? signalMask(signal) : 0u;
    if (signal >= 0 && mask == 0) return false;
    const Archetype& other = ctx.archetypes[static_cast<std::size_t>(archetype)];
    if (state >= 0 && !other.brain) return false;
    const Vec2 p{in.px[slot], in.py[slot]};
    bool found = false;
    ctx.grid.forEachNear(p.x, p.y, metres, [&](std::uint32_t j) {
      if (found || j == slot || in.archetype[j] != archetype) return;
      if (steer::distanceSq({in.px[j], in.py[j]}, p) > metres * metres) return;
      const std::uint8_t theirs = ctx.brainStates != nullptr ? ctx.brainStates[j] : in.memory(j).brainState;
      if (state >= 0 && !brain::withinState(*other.brain, theirs, state)) return;
      if (mask != 0 && (ctx.signalsOf(in.id[j]) & mask) == 0) return;
      found = true;
    });
    return found;
  }
  bool signal(std::int32_t index) const { return (ctx.signalsOf(ctx.in.id[slot]) & signalMask(index)) != 0; }
  bool doorOpen(std::int32_t index) const {
    return index >= 0 && index < 32 && ((ctx.doorsOpen >> index) & 1u) != 0;
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
    const AgentMemory& m = ctx.in.memory(slot);
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
  bool hasOrder() const { return ctx.groups != nullptr && ctx.groups->fetchOf(ctx.in.id[slot]) != nullptr; }
};

bool followsPath(const std::vector<BehaviourSpec>& set) {
  return std::any_of(set.begin(), set.end(),
                     [](const BehaviourSpec& s) { return behaviourRow(s.kind).has(kTraitWalksPath); });
}

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

void strayPairsOf(const brain::Brain& brain, std::vector<StrayPair>& out) {
  auto add = [&](std::int32_t member, std::int32_t group) {
    const StrayPair p{static_cast<ArchetypeIndex>(member), static_cast<ArchetypeIndex>(group)};
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  };
  for (const brain::ConditionNode& c : brain.conditions) {
    if (c.test == brain::Test::kGroupStrays || c.test == brain::Test::kClosestToStray) add(c.index, c.index2);
  }
  for (const brain::State& s : brain.states) {
    for (const brain::FetchOrder& o : s.orders) add(o.stray, o.group);
  }
}

void startBrain(const brain::Brain& brain, std::uint64_t tick, AgentMemory& memory, BrainMemory& m) {
  memory.brainState = static_cast<std::uint8_t>(brain.enterLeaf(brain.initial));
  m = BrainMemory{};
  m.enteredTick = tick;
  m.lastThinkTick = tick;
  for (std::size_t i = 0; i < brain.stats.size(); ++i) m.stats[i] = brain.stats[i].initial;
}

void thinkChunk(const StepContext& ctx, std::uint32_t begin, std::uint32_t end,
                std::vector<BrainMemory>& brainMemory, std::vector<OrderRequest>& requests) {
  for (std::uint32_t slot = begin; slot < end; ++slot) {
    const Archetype& arch = ctx.archetypes[ctx.in.archetype[slot]];
    if (!arch.brain || (ctx.in.memory(slot).flags & kAgentExternal)) continue;
    const brain::Brain& b = *arch.brain;
    const AgentId id = ctx.in.id[slot];
    // Staggered: not this agent's turn. Far from every player (level of detail L) it thinks 2^L
    // times less often.
    const std::uint8_t level = ctx.lodLevels != nullptr ? ctx.lodLevels[slot] & ~kLodWaits : 0;
    if ((ctx.tick + id) % (static_cast<std::uint64_t>(b.thinkEvery) << level) != 0) continue;
    BrainMemory& m = brainMemory[agentIndex(id)];
    const std::uint8_t current = ctx.in.memory(slot).brainState;

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
      ctx.in.memory(slot).brainState = static_cast<std::uint8_t>(next);
      m.enteredTick = ctx.tick;
      // Back to a path from a state that did not follow it (a rider back from a fetch): start at
      // the nearest waypoint, not the one it was heading for when it left.
      if (!followsPath(arch.behavioursIn(current))) ctx.in.memory(slot).pathIndex = -1;
    }
    // Orders: the outermost state's first, as transitions are checked.
    std::array<std::int32_t, brain::kMaxStates> chain{};
    std::size_t depth = 0;
    for (std::int32_t s = next; s >= 0 && depth < chain.size();
         s = b.states[static_cast<std::size_t>(s)].parent)
      chain[depth++] = s;
    while (depth > 0) {
      const std::int32_t s = chain[--depth];
      const auto& orders = b.states[static_cast<std::size_t>(s)].orders;
      for (std::size_t k = 0; k < orders.size(); ++k) {
        requests.push_back({id, &orders[k], static_cast<std::uint16_t>(s * brain::kMaxOrders + k)});
      }
    }
  }
}

namespace {

// The slot of a live agent in ctx.in, or -1.
std::int32_t slotOf(const StepContext& ctx, const std::vector<std::uint32_t>& slotOfId, AgentId id) {
  if (agentIndex(id) >= slotOfId.size()) return -1;
  const std::uint32_t s = slotOfId[agentIndex(id)];
  return s < ctx.in.size() && ctx.in.id[s] == id ? static_cast<std::int32_t>(s) : -1;
}

bool holdsOrder(const std::vector<HeldOrder>& held, AgentId id) {
  const auto it = std::lower_bound(held.begin(), held.end(), id,
                                   [](const HeldOrder& h, AgentId a) { return h.holder < a; });
  return it != held.end() && it->holder == id;
}

bool fetched(const std::vector<HeldOrder>& held, AgentId id) {
  return std::any_of(held.begin(), held.end(), [id](const HeldOrder& h) { return h.stray == id; });
}

}  // namespace

void endFetchOrders(const StepContext& ctx, const std::vector<std::uint32_t>& slotOfId,
                    std::vector<HeldOrder>& held, std::vector<PassedOver>& passedOver) {
  std::erase_if(passedOver, [&](const PassedOver& p) { return ctx.tick >= p.untilTick; });
  if (ctx.groups == nullptr) {
    held.clear();
    return;
  }
  const Groups& g = *ctx.groups;
  std::erase_if(held, [&](const HeldOrder& h) {
    const std::int32_t s = slotOf(ctx, slotOfId, h.stray);
    if (s < 0 || slotOf(ctx, slotOfId, h.holder) < 0 || g.count[h.group] == 0) return true;
    const Vec2 p{ctx.in.px[static_cast<std::size_t>(s)], ctx.in.py[static_cast<std::size_t>(s)]};
    if (steer::distance(p, g.centroid[h.group]) <= h.doneWithin) return true;
    if (h.giveUpTicks > 0 && ctx.tick >= h.givenTick + h.giveUpTicks) {
      passedOver.push_back({h.holder, h.stray, ctx.tick + h.giveUpTicks});
      return true;
    }
    return false;
  });
}

void giveFetchOrders(const StepContext& ctx, const std::vector<std::vector<OrderRequest>>& requests,
                     std::vector<HeldOrder>& held, const std::vector<PassedOver>& passedOver) {
  if (ctx.groups == nullptr) return;
  std::vector<OrderRequest> all;
  for (const auto& chunk : requests) all.insert(all.end(), chunk.begin(), chunk.end());
  if (all.empty()) return;
  // Chunks are in slot order; within one giver the requests keep their order (outer state first).
  std::stable_sort(all.begin(), all.end(),
                   [](const OrderRequest& a, const OrderRequest& b) { return a.from < b.from; });
  const Groups& g = *ctx.groups;
  const AgentColumns& in = ctx.in;
  // The slots of each archetype an order names, gathered once.
  std::vector<std::vector<std::uint32_t>> slotsOf(ctx.archetypes.size());
  std::vector<bool> gathered(ctx.archetypes.size(), false);
  auto members = [&](std::int32_t archetype) -> const std::vector<std::uint32_t>& {
    const auto a = static_cast<std::size_t>(archetype);
    if (!gathered[a]) {
      for (std::size_t s = 0; s < in.size(); ++s) {
        if (in.archetype[s] == a) slotsOf[a].push_back(static_cast<std::uint32_t>(s));
      }
      gathered[a] = true;
    }
    return slotsOf[a];
  };
  for (const OrderRequest& r : all) {
    const brain::FetchOrder& o = *r.order;
    if (g.count[static_cast<std::size_t>(o.group)] == 0) continue;
    const auto inForce = std::count_if(held.begin(), held.end(), [&](const HeldOrder& h) {
      return h.giver == r.from && h.entry == r.entry;
    });
    if (static_cast<std::uint64_t>(inForce) >= std::max<std::uint32_t>(o.atOnce, 1)) continue;
    const Vec2 home = g.centroid[static_cast<std::size_t>(o.group)];
    std::int32_t stray = -1;
    float farthest = o.metres;
    for (const std::uint32_t s : members(o.stray)) {
      if (fetched(held, in.id[s])) continue;
      const float d = steer::distance({in.px[s], in.py[s]}, home);
      if (d > farthest ||
          (d == farthest && stray >= 0 && in.id[s] < in.id[static_cast<std::size_t>(stray)])) {
        farthest = d;
        stray = static_cast<std::int32_t>(s);
      }
    }
    if (stray < 0) continue;
    const auto k = static_cast<std::size_t>(stray);
    const Vec2 at{in.px[k], in.py[k]};
    std::int32_t sent = -1;
    float nearest = std::numeric_limits<float>::infinity();
    const auto passedOverFor = [&](AgentId holder) {
      return std::any_of(passedOver.begin(), passedOver.end(),
                         [&](const PassedOver& p) { return p.holder == holder && p.stray == in.id[k]; });
    };
    for (const std::uint32_t s : members(o.to)) {
      if (s == k || (in.memory(s).flags & kAgentExternal) || holdsOrder(held, in.id[s]) ||
          passedOverFor(in.id[s]))
        continue;
      const float d = steer::distance({in.px[s], in.py[s]}, at);
      if (d < nearest || (d == nearest && sent >= 0 && in.id[s] < in.id[static_cast<std::size_t>(sent)])) {
        nearest = d;
        sent = static_cast<std::int32_t>(s);
      }
    }
    if (sent < 0) continue;
    // Whole ticks, at least one: a give-up time shorter than a tick still ends the order.
    const std::uint32_t giveUpTicks =
        o.giveUpAfter > 0.0f
            ? std::max<std::uint32_t>(
                  1, static_cast<std::uint32_t>(std::min(std::ceil(o.giveUpAfter / ctx.dt), 1e9f)))
            : 0u;
    const HeldOrder h{in.id[static_cast<std::size_t>(sent)],
                      in.id[k],
                      static_cast<ArchetypeIndex>(o.group),
                      o.metres * 0.5f,
                      r.from,
                      r.entry,
                      ctx.tick,
                      giveUpTicks};
    held.insert(std::lower_bound(held.begin(), held.end(), h.holder,
                                 [](const HeldOrder& x, AgentId id) { return x.holder < id; }),
                h);
  }
}

void publishFetchOrders(const std::vector<HeldOrder>& held, const std::vector<std::uint32_t>& slotOfId,
                        Groups& groups) {
  groups.fetches.clear();
  for (const HeldOrder& h : held) {
    groups.fetches.push_back({h.holder, static_cast<std::int32_t>(slotOfId[agentIndex(h.stray)]), h.group});
  }
}

}  // namespace steerd
