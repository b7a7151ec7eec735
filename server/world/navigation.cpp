#include "world/navigation.h"

#include <algorithm>
#include <cmath>

#include "steering/random.h"
#include "world/agent_update.h"
#include "world/directive.h"
#include "world/static_geometry.h"
#include "world/thread_pool.h"

namespace steerd {

namespace {

using steer::Vec2;

constexpr float kProgressStep = 0.25f;     // m the distance to the corner must shrink to count as progress
constexpr float kBlockedSeconds = 3.0f;    // without progress: replan
constexpr std::uint8_t kMaxReplans = 3;    // then give up on the goal (random and path goals)
constexpr float kOffCourse = 3.0f;         // m from the corridor's current leg: replan
constexpr float kRetrySeconds = 1.0f;      // after a failed request
constexpr float kSidestep = 2.0f;          // m aside when blocked
constexpr std::size_t kPrefetchAhead = 4;  // agents
constexpr float kCornerTouched = 0.25f;    // m: a corner this near is reached, next in sight or not

// The last waypoint of a path that does not loop: there is no next goal, the agent stays.
bool atEndOfOpenPath(const StepContext& ctx, std::uint32_t slot, const NavAgent& a,
                     const BehaviourSpec& spec) {
  if (spec.navGoal != NavGoal::kPath) return false;
  const std::int32_t p = spec.pathIndex >= 0 ? spec.pathIndex : ctx.in.memory(slot).assignedPath;
  if (p < 0 || static_cast<std::size_t>(p) >= ctx.geometry.paths.size()) return false;
  const Path& path = ctx.geometry.paths[static_cast<std::size_t>(p)];
  return !path.looped && a.waypoint + 1 >= static_cast<std::int32_t>(path.points.size());
}

}  // namespace

bool pastCorner(Vec2 before, Vec2 corner, Vec2 next, Vec2 position) {
  const Vec2 off = position - corner;
  return steer::dot(off, corner - before) > 0.0f && steer::dot(off, next - corner) > 0.0f &&
         steer::lengthSq(off) < kPastCornerWithin * kPastCornerWithin;
}

Navigation::Navigation(std::shared_ptr<const nav::NavMesh> mesh, nav::PlannerSettings settings)
    : mesh_(std::move(mesh)), planner_(*mesh_, settings) {}

const BehaviourSpec* Navigation::navigateSpec(std::span<const BehaviourSpec> set) {
  for (const BehaviourSpec& b : set) {
    if (b.kind == BehaviourKind::kNavigate) return &b;
  }
  return nullptr;
}

std::size_t Navigation::replanCrossing(Vec2 a, Vec2 b) {
  std::size_t asked = 0;
  for (NavAgent& n : agents_) {
    if (!n.hasGoal || n.replanNow) continue;
    if (n.waiting) {  // its search may have gone through the door: plan once more when it ends
      n.replanNow = true;
      ++asked;
      continue;
    }
    Vec2 from = n.position;
    bool crosses = false;
    for (std::size_t i = n.corner; i < n.corners.size() && !crosses; ++i) {
      crosses = steer::properlyCross(from, n.corners[i], a, b);
      from = n.corners[i];
    }
    if (!crosses) continue;
    n.replanNow = true;
    ++asked;
  }
  return asked;
}

std::size_t Navigation::replanAll() {
  std::size_t asked = 0;
  for (NavAgent& n : agents_) {
    if (!n.hasGoal || n.replanNow) continue;
    n.replanNow = true;
    ++asked;
  }
  return asked;
}

void Navigation::forget(std::uint32_t id) {
  if (id >= agents_.size()) return;
  planner_.cancel(id);
  agents_[id] = NavAgent{};
}

// Phase a, one agent: reads its state[n], writes only its own NavAgent.
void Navigation::advance(const StepContext& ctx, std::uint32_t slot, NavAgent& a,
                         const BehaviourSpec& spec) const {
  const Vec2 pos{ctx.in.px[slot], ctx.in.py[slot]};
  a.position = pos;
  a.need = NavAgent::kNothing;
  const std::uint32_t tick = static_cast<std::uint32_t>(ctx.tick);
  if (spec.navGoal == NavGoal::kPoint && a.hasGoal && !(a.goal == spec.point))
    a.hasGoal = false;  // retargeted (live reload)
  if (!a.hasGoal) {
    if (tick >= a.retryTick) a.need = NavAgent::kGoal;
    return;
  }
  const float arriveWithin = spec.range;
  if (steer::distance(pos, a.goal) <= arriveWithin) {
    if (!a.arrived) ++a.goalsReached;
    if (spec.navGoal == NavGoal::kPoint || atEndOfOpenPath(ctx, slot, a, spec)) {
      a.arrived = true;  // stay (the steering arrives); a push away brings it back below
    } else {
      a.need = NavAgent::kGoal;
      a.arrived = true;
    }
    return;
  }
  if (a.arrived && steer::distance(pos, a.goal) > 2.0f * arriveWithin + 1.0f) {
    a.arrived = false;
    a.need = NavAgent::kPath;
    return;
  }
  if (a.arrived || a.waiting) return;
  if (a.replanNow) {
    a.need = NavAgent::kPath;
    return;
  }
  if (a.corners.empty()) {
    if (tick >= a.retryTick) a.need = NavAgent::kPath;
    return;
  }
  const Archetype& arch = ctx.archetypes[ctx.in.archetype[slot]];
  const float reach = std::max(arch.pathSeekDistance, arch.limits.radius);
  const std::size_t last = a.corners.size() - 1;
  const auto past = [&](std::size_t c) {
    return pastCorner(c > 0 ? a.corners[c - 1] : a.start, a.corners[c], a.corners[c + 1], pos);
  };
  // Within reach of a corner counts only once the next one is in sight (or the corner is all but
  // touched): a walker 0.7 m short of a door's jamb, its reach 1 m, otherwise heads straight for
  // the far side through the jamb and is pinned against the wall beside the door. Doorway, seeds
  // 1-6: the longest wait near the door 12.1-14.8 s instead of 12.3-16.3 s.
  const auto reached = [&](std::size_t c) {
    const float d = steer::distance(pos, a.corners[c]);
    if (d >= reach) return false;
    return d < kCornerTouched || !sightBlocked(ctx.geometry, pos, a.corners[c + 1]);
  };
  while (a.corner < last && (reached(a.corner) || past(a.corner))) {
    ++a.corner;
    a.bestDistance = std::numeric_limits<float>::infinity();
    a.progressTick = tick;
    a.replans = 0;
  }
  const Vec2 corner = a.corners[a.corner];
  const float d = steer::distance(pos, corner);
  if (a.corner == last && !a.complete && d < reach) {  // the end of a corridor cut short: the rest
    a.need = NavAgent::kPath;
    return;
  }
  if (d < a.bestDistance - kProgressStep) {
    a.bestDistance = d;
    a.progressTick = tick;
  } else if (static_cast<float>(tick - a.progressTick) * ctx.dt > kBlockedSeconds) {
    if (a.replans == 0) {
      // First time blocked on this leg: step aside (half the agents to each side, by id), then on
      // to the corner; replanning at once would give the same path into the same jam. Measured
      // in crowd-crossing: 57-65 stuck at the end of a minute instead of 68-69 (docs/PERFORMANCE.md).
      const Vec2 ahead = steer::normalizedOr(corner - pos, {ctx.in.hx[slot], ctx.in.hy[slot]});
      const Vec2 side = (ctx.in.id[slot] & 1u) ? Vec2{ahead.y, -ahead.x} : Vec2{-ahead.y, ahead.x};
      a.corners.insert(a.corners.begin() + a.corner, pos + side * kSidestep + ahead * (0.5f * kSidestep));
      a.progressTick = tick;
      a.bestDistance = std::numeric_limits<float>::infinity();
      a.replans = 1;
      return;
    }
    a.need =
        (a.replans >= kMaxReplans && spec.navGoal != NavGoal::kPoint) ? NavAgent::kGoal : NavAgent::kPath;
    return;
  }
  const Vec2 legStart = a.corner > 0 ? a.corners[a.corner - 1] : a.start;
  if (steer::distanceToSegment(pos, legStart, corner) > kOffCourse) a.need = NavAgent::kPath;
}

bool Navigation::chooseGoal(const StepContext& ctx, std::uint32_t id, NavAgent& a, const BehaviourSpec& spec,
                            std::int32_t assignedPath) {
  switch (spec.navGoal) {
    case NavGoal::kPoint:
      a.goal = spec.point;
      return true;
    case NavGoal::kPath: {
      const std::int32_t p = spec.pathIndex >= 0 ? spec.pathIndex : assignedPath;
      if (p < 0 || static_cast<std::size_t>(p) >= ctx.geometry.paths.size()) return false;
      const Path& path = ctx.geometry.paths[static_cast<std::size_t>(p)];
      if (path.points.empty()) return false;
      const std::int32_t n = static_cast<std::int32_t>(path.points.size());
      if (a.waypoint < 0) {
        a.waypoint = 0;
      } else if (path.looped) {
        a.waypoint = (a.waypoint + 1) % n;
      } else {
        a.waypoint = std::min(a.waypoint + 1, n - 1);
      }
      a.goal = path.points[static_cast<std::size_t>(a.waypoint)];
      return true;
    }
    case NavGoal::kRandom: {
      // Deterministic: the agent's id and how many goals it has drawn pick the stream (a goal
      // given up on is followed by a different one, not drawn again).
      steer::Rng rng = steer::Rng::forAgent(ctx.seed ^ 0x6e61766d657368ULL, id, a.goalDraws++);
      const Bounds& b = ctx.geometry.bounds;
      const nav::NavPoint on =
          mesh_->randomReachablePoint(a.position, {b.minX, b.minY}, {b.maxX, b.maxY}, rng);
      if (on) a.goal = on.position;
      return static_cast<bool>(on);
    }
  }
  return false;
}

void Navigation::publish(std::uint32_t id, std::uint32_t slot) {
  if (slot >= steer_.size()) return;  // not alive
  const NavAgent& a = agents_[id];
  NavSteer& out = steer_[slot];
  if (specOfId_[id] == nullptr || !a.hasGoal) {
    out = {};
    return;
  }
  out.goal = a.goal;
  if (a.arrived || a.corners.empty()) {
    out.point = a.goal;
    out.mode = NavSteer::kArrive;
    return;
  }
  const std::size_t i = std::min<std::size_t>(a.corner, a.corners.size() - 1);
  out.point = a.corners[i];
  out.mode = i + 1 == a.corners.size() && a.complete ? NavSteer::kArrive : NavSteer::kSeek;
}

void Navigation::update(const StepContext& ctx, std::span<const std::uint32_t> slotOfId, ThreadPool& pool,
                        std::size_t chunkSize) {
  const std::size_t idCount = slotOfId.size();
  if (agents_.size() < idCount) agents_.resize(idCount);
  specOfId_.assign(idCount, nullptr);
  assignedPathOfId_.resize(idCount);
  steer_.resize(ctx.in.size());
  const std::uint32_t tick = static_cast<std::uint32_t>(ctx.tick);

  // a. per agent, in parallel. In id order: NavAgents are read in memory order, and the state
  // columns (a few floats per agent, already in cache) by slot.
  pool.parallelFor(idCount, chunkSize, [&](std::size_t begin, std::size_t end) {
    for (std::size_t id = begin; id < end; ++id) {
      const std::uint32_t s = slotOfId[id];
      if (s >= ctx.in.size()) continue;  // not alive (a departed agent's index, free)
      // The corridors are separate heap blocks: ask for a later agent's current corner now, so
      // its cache miss overlaps this agent's work.
      if (id + kPrefetchAhead < end && slotOfId[id + kPrefetchAhead] < ctx.in.size()) {
        const NavAgent& later = agents_[id + kPrefetchAhead];
        if (later.corner < later.corners.size()) __builtin_prefetch(&later.corners[later.corner]);
      }
      const AgentMemory& m = ctx.in.memory(s);
      NavAgent& a = agents_[id];
      const BehaviourSpec* spec = (m.flags & kAgentExternal) ? nullptr : activeNavigateSpec(ctx, s);
      specOfId_[id] = spec;
      assignedPathOfId_[id] = m.assignedPath;
      if (spec == nullptr) {
        if (a.hasGoal) {  // its brain turned navigation off: drop the corridor (the request goes in b)
          a.hasGoal = false;
          a.corners.clear();
          a.arrived = false;
        }
        a.need = NavAgent::kNothing;
        steer_[s] = {};
        continue;
      }
      advance(ctx, s, a, *spec);
      publish(static_cast<std::uint32_t>(id), s);
    }
  });

  // b. goals and requests, in id order
  std::uint64_t reached = 0;
  for (std::uint32_t id = 0; id < idCount; ++id) {
    if (slotOfId[id] >= ctx.in.size()) continue;  // free: forget() left nothing to do or count
    NavAgent& a = agents_[id];
    reached += a.goalsReached;
    const BehaviourSpec* spec = specOfId_[id];
    if (spec == nullptr) {
      if (a.waiting) {
        planner_.cancel(id);
        a.waiting = false;
      }
      continue;
    }
    if (a.need == NavAgent::kNothing) continue;
    if (a.need == NavAgent::kGoal) {
      if (a.hasGoal && !a.arrived) ++stats_.replansBlocked;  // gave up on it
      a.arrived = false;
      a.replans = 0;
      a.hasGoal = chooseGoal(ctx, id, a, *spec, assignedPathOfId_[id]);
      if (!a.hasGoal) {
        a.retryTick = tick + static_cast<std::uint32_t>(kRetrySeconds / ctx.dt);
        publish(id, slotOfId[id]);
        continue;
      }
    } else if (a.replanNow) {
      ++stats_.replansWorldChange;
      a.replans = 0;
    } else if (!a.corners.empty()) {
      const bool blocked = static_cast<float>(tick - a.progressTick) * ctx.dt > kBlockedSeconds;
      ++(blocked ? stats_.replansBlocked : stats_.replansOffCourse);
      ++a.replans;
    }
    planner_.request(id, a.position, a.goal);
    a.replanNow = false;
    a.waiting = true;
    a.start = a.position;
    a.progressTick = tick;
    a.bestDistance = std::numeric_limits<float>::infinity();
    publish(id, slotOfId[id]);
  }

  // c. the planner's budget
  results_.clear();
  planner_.serve(results_);
  for (const nav::PathResult& r : results_) {
    NavAgent& a = agents_[r.agent];
    if (!a.waiting) continue;  // no longer navigating
    a.waiting = false;
    if (!r.found || r.partial) ++a.pathFailures;
    if (!r.found) {
      ++stats_.failed;
      a.corners.clear();
      a.retryTick = tick + static_cast<std::uint32_t>(kRetrySeconds / ctx.dt);
      if (specOfId_[r.agent] && specOfId_[r.agent]->navGoal == NavGoal::kRandom) a.hasGoal = false;
      publish(r.agent, slotOfId[r.agent]);
      continue;
    }
    if (r.partial) ++stats_.unreachable;
    a.corners = r.corners;
    a.corner = 0;
    a.complete = r.complete;
    a.progressTick = tick;
    a.bestDistance = std::numeric_limits<float>::infinity();
    // A random goal that cannot be reached is swapped for another once the partial path ends.
    if (r.partial && specOfId_[r.agent] && specOfId_[r.agent]->navGoal == NavGoal::kRandom)
      a.goal = r.corners.back();
    publish(r.agent, slotOfId[r.agent]);
  }
  stats_.goalsReached = reached;
  stats_.planner = planner_.stats();
}

}  // namespace steerd
