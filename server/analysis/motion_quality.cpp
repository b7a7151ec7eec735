#include "analysis/motion_quality.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "world/level_of_detail.h"

namespace steerd {

namespace {

// Per slot of `a`: 1 when the agent is within `radius` of a focus (all 1 when radius <= 0).
void markNearFocus(const AgentColumns& a, const std::vector<Archetype>& archetypes, float radius,
                   std::vector<std::uint8_t>& out) {
  out.assign(a.size(), radius > 0.0f ? 0 : 1);
  if (!(radius > 0.0f)) return;
  std::vector<std::pair<float, float>> focus;
  for (std::size_t s = 0; s < a.size(); ++s) {
    if (isLodFocus(archetypes[a.archetype[s]], a.memory(s))) focus.emplace_back(a.px[s], a.py[s]);
  }
  for (std::size_t s = 0; s < a.size(); ++s) {
    for (const auto& [x, y] : focus) {
      const float dx = a.px[s] - x, dy = a.py[s] - y;
      if (dx * dx + dy * dy < radius * radius) {
        out[s] = 1;
        break;
      }
    }
  }
}

}  // namespace

MotionQualityMonitor::MotionQualityMonitor(float dt, float nearFocus)
    : sampleEvery_(std::max(1, static_cast<int>(std::lround(1.0f / dt)))), window_(5), nearFocus_(nearFocus) {
  samplesX_.resize(window_ + 1);
  samplesY_.resize(window_ + 1);
  samplesGoal_.resize(window_ + 1);
}

void MotionQualityMonitor::observe(const World& world) {
  const AgentColumns& prev = world.sortedPrevious();  // state[n], same slot order as agents()
  const AgentColumns& now = world.agents();           // state[n+1]
  const auto& archetypes = world.archetypes();
  const SpatialGrid& grid = world.grid();
  const std::size_t n = now.size();
  ++q_.ticks;
  markNearFocus(prev, archetypes, nearFocus_, nearPrev_);
  markNearFocus(now, archetypes, nearFocus_, nearNow_);

  // Overlap, on state[n] with the grid that indexes it. Each pair once (j > i).
  float maxRadius = 0.0f;
  for (const auto& a : archetypes) maxRadius = std::max(maxRadius, a.limits.radius);
  for (std::uint32_t i = 0; i < prev.size(); ++i) {
    const float ri = archetypes[prev.archetype[i]].limits.radius;
    grid.forEachNear(prev.px[i], prev.py[i], ri + maxRadius, [&](std::uint32_t j) {
      if (j <= i || (!nearPrev_[i] && !nearPrev_[j])) return;
      const float rj = archetypes[prev.archetype[j]].limits.radius;
      const float d = std::hypot(prev.px[j] - prev.px[i], prev.py[j] - prev.py[i]);
      const float depth = ri + rj - d;
      if (depth <= 0.0f) return;
      const double frac = depth / std::min(ri, rj);
      ++q_.overlappingPairs;
      overlapSum_ += frac;
      q_.maxOverlap = std::max(q_.maxOverlap, frac);
    });
  }

  // Inside obstacles / walls, and heading jitter, on state[n+1].
  std::uint64_t inside = 0;
  const StaticGeometry& geo = world.geometry();
  for (std::size_t s = 0; s < n; ++s) {
    if (!nearNow_[s]) continue;
    const auto& lim = archetypes[now.archetype[s]].limits;
    const steer::Vec2 p{now.px[s], now.py[s]};
    bool in = false;
    for (const auto& o : geo.obstaclesNear(p.x, p.y)) {
      in = in || steer::distance(p, o.center) < o.radius + lim.radius * 0.99f;
    }
    for (const auto& w : geo.wallsNear(p.x, p.y)) {
      const steer::Vec2 seg = w.to - w.from;
      const float len2 = steer::lengthSq(seg);
      const float t = len2 > 0 ? std::clamp(steer::dot(p - w.from, seg) / len2, 0.0f, 1.0f) : 0.0f;
      in = in || steer::distance(p, w.from + seg * t) < lim.radius * 0.99f;
    }
    inside += in ? 1 : 0;
    if (s < prev.size()) {
      const float speedPrev = std::hypot(prev.vx[s], prev.vy[s]);
      const float speedNow = std::hypot(now.vx[s], now.vy[s]);
      if (speedPrev > 0.5f * lim.maxSpeed && speedNow > 0.5f * lim.maxSpeed) {
        const float c = std::clamp(prev.hx[s] * now.hx[s] + prev.hy[s] * now.hy[s], -1.0f, 1.0f);
        jitterSum_ += std::acos(c) * 180.0 / M_PI;
        ++jitterCount_;
      }
    }
  }
  q_.insideObstacleMax = std::max(q_.insideObstacleMax, inside);
  q_.insideObstacleFinal = inside;

  // Stuck: positions by agent index every second; compare with 5 s ago.
  if (world.tick() % sampleEvery_ == 0) {
    const std::size_t ring = samplesX_.size();
    auto& xs = samplesX_[samplesTaken_ % ring];
    auto& ys = samplesY_[samplesTaken_ % ring];
    auto& goalDistances = samplesGoal_[samplesTaken_ % ring];
    xs.assign(world.indexCapacity(), 0.0f);
    ys.assign(world.indexCapacity(), 0.0f);
    goalDistances.assign(world.indexCapacity(), 0.0f);
    for (std::size_t s = 0; s < n; ++s) {
      const std::uint32_t i = agentIndex(now.id[s]);
      xs[i] = now.px[s];
      ys[i] = now.py[s];
      goalDistances[i] = std::hypot(now.memory(s).goalX - now.px[s], now.memory(s).goalY - now.py[s]);
    }
    ++samplesTaken_;
    if (samplesTaken_ > static_cast<std::size_t>(window_)) {
      const auto& oldX = samplesX_[(samplesTaken_ - 1 - window_) % ring];
      const auto& oldY = samplesY_[(samplesTaken_ - 1 - window_) % ring];
      const auto& oldGoal = samplesGoal_[(samplesTaken_ - 1 - window_) % ring];
      std::uint64_t stuck = 0, withGoal = 0;
      for (std::size_t s = 0; s < n; ++s) {
        const std::uint32_t id = agentIndex(now.id[s]);
        if (!std::isfinite(now.memory(s).goalX) || id >= oldX.size() || !nearNow_[s]) continue;
        ++withGoal;
        const float toGoal = std::hypot(now.memory(s).goalX - now.px[s], now.memory(s).goalY - now.py[s]);
        const float moved = std::hypot(now.px[s] - oldX[id], now.py[s] - oldY[id]);
        // Far from its goal at both ends of the window: one that reached a goal and turned
        // back for the next is not stuck.
        if (toGoal > 10.0f && oldGoal[id] > 10.0f && moved < 1.0f) ++stuck;
      }
      q_.stuckMax = std::max(q_.stuckMax, stuck);
      q_.stuckFinal = stuck;
      q_.agentsWithGoal = withGoal;
    }
  }
}

MotionQuality MotionQualityMonitor::summary() const {
  MotionQuality q = q_;
  q.meanOverlap = q.overlappingPairs > 0 ? overlapSum_ / static_cast<double>(q.overlappingPairs) : 0.0;
  q.headingJitterDeg = jitterCount_ > 0 ? jitterSum_ / static_cast<double>(jitterCount_) : 0.0;
  return q;
}

std::string formatMotionQuality(const MotionQuality& q, const std::string& title) {
  char buf[768];
  std::snprintf(
      buf, sizeof buf,
      "%s ticks=%llu\n"
      "  overlap: %.2f overlapping pairs per tick, mean depth %.3f r, max depth %.3f r\n"
      "  inside obstacles or walls: max %llu agents on any tick, %llu at the end\n"
      "  heading jitter: %.3f deg per tick (agents above half max speed)\n"
      "  stuck (goal > 10 m now and 5 s ago, moved < 1 m): max %llu, at the end %llu of %llu with a goal\n",
      title.c_str(), static_cast<unsigned long long>(q.ticks),
      q.ticks ? static_cast<double>(q.overlappingPairs) / q.ticks : 0.0, q.meanOverlap, q.maxOverlap,
      static_cast<unsigned long long>(q.insideObstacleMax),
      static_cast<unsigned long long>(q.insideObstacleFinal), q.headingJitterDeg,
      static_cast<unsigned long long>(q.stuckMax), static_cast<unsigned long long>(q.stuckFinal),
      static_cast<unsigned long long>(q.agentsWithGoal));
  return buf;
}

std::string formatNavigationReport(const World& world, double seconds) {
  const NavigationStats& n = world.navigation()->stats();
  std::uint64_t off = 0;
  const auto& mesh = world.geometry().navMesh;
  const AgentColumns& a = world.agents();
  for (std::size_t i = 0; mesh && i < a.size(); ++i) {
    if (!mesh->nearest({a.px[i], a.py[i]}, a.radius[i] + 0.1f)) ++off;
  }
  char buf[384];
  std::snprintf(buf, sizeof buf,
                "navigation: goals reached %llu (%.2f per second), paths failed %llu, unreachable %llu, "
                "replans %llu\n"
                "  off the walkable area: %llu agents at the end\n",
                static_cast<unsigned long long>(n.goalsReached),
                seconds > 0.0 ? static_cast<double>(n.goalsReached) / seconds : 0.0,
                static_cast<unsigned long long>(n.failed), static_cast<unsigned long long>(n.unreachable),
                static_cast<unsigned long long>(n.replansBlocked + n.replansOffCourse),
                static_cast<unsigned long long>(off));
  return buf;
}

}  // namespace steerd
