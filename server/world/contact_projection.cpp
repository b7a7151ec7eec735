#include "world/contact_projection.h"

#include <algorithm>
#include <cmath>

#include "world/agent_eval.h"

namespace steerd {

namespace {

using steer::Vec2;

bool external(const AgentColumns& a, std::uint32_t s) { return (a.memory(s).flags & kAgentExternal) != 0; }

// Two bodies on the same spot: a direction from their ids, the same whichever of them asks
// (negated for the other), so they separate instead of staying stacked.
Vec2 tieBreak(AgentId self, AgentId other) {
  const AgentId lo = std::min(self, other), hi = std::max(self, other);
  const float angle = static_cast<float>((lo * 2654435761u + hi * 40503u) % 6283u) * 0.001f;
  const Vec2 d = steer::fromAngle(angle);
  return self == lo ? d : -d;
}

// One pass for slots [begin, end): read positions from (inX, inY), write the corrected ones.
// Returns the longest correction it made.
float passChunk(const StepContext& ctx, AgentColumns& next, const float* inX, const float* inY, float* outX,
                float* outY, float reach, std::uint32_t begin, std::uint32_t end,
                std::uint8_t* contactFlags) {
  float longest = 0.0f;
  for (std::uint32_t i = begin; i < end; ++i) {
    const Vec2 p{inX[i], inY[i]};
    outX[i] = p.x;
    outY[i] = p.y;
    if (external(next, i)) continue;
    const float ri = next.radius[i];
    Vec2 push{};
    ctx.grid.forEachNear(p.x, p.y, ri + reach, [&](std::uint32_t j) {
      if (j == i) return;
      const float contact = ri + next.radius[j];
      const Vec2 d{p.x - inX[j], p.y - inY[j]};
      const float d2 = steer::lengthSq(d);
      if (d2 >= contact * contact) return;
      const float dist = std::sqrt(d2);
      const Vec2 n = dist > 1e-6f ? d / dist : tieBreak(next.id[i], next.id[j]);
      push += n * ((contact - dist) * (external(next, j) ? 1.0f : 0.5f));
    });
    if (push == Vec2{}) continue;
    push = steer::truncate(push, ri * 0.5f);
    steer::Body before;
    before.position = p;
    before.heading = {next.hx[i], next.hy[i]};
    steer::Body moved = before;
    moved.position = p + push;
    // Contacts are inelastic: the velocity into the neighbours goes, or the body walks straight
    // back in next tick and a jam keeps compressing.
    moved.velocity = agent_internal::withoutVelocityInto({next.vx[i], next.vy[i]}, push);
    // Out of any obstacle or wall the push pressed it into: a body is never traded into a wall
    // for a neighbour.
    if (agent_internal::resolveStaticContacts(before, moved,
                                              ctx.geometry.near(moved.position.x, moved.position.y), ri)) {
      contactFlags[i] |= kContactObstacle;
    }
    const Bounds& b = ctx.geometry.bounds;
    outX[i] = std::clamp(moved.position.x, b.minX, b.maxX);
    outY[i] = std::clamp(moved.position.y, b.minY, b.maxY);
    next.vx[i] = moved.velocity.x;  // only positions are read across bodies in a pass
    next.vy[i] = moved.velocity.y;
    longest = std::max(longest, steer::distance(p, {outX[i], outY[i]}));
  }
  return longest;
}

// The longest move of any body since the grid was built from ctx.in (same slots as `next`).
float longestMove(const StepContext& ctx, const AgentColumns& next, ThreadPool& pool, std::size_t chunkSize) {
  std::vector<float> perChunk((next.size() + chunkSize - 1) / chunkSize, 0.0f);
  pool.parallelFor(next.size(), chunkSize, [&](std::size_t begin, std::size_t end) {
    float m2 = 0.0f;
    for (std::size_t i = begin; i < end; ++i) {
      m2 = std::max(m2, steer::distanceSq({ctx.in.px[i], ctx.in.py[i]}, {next.px[i], next.py[i]}));
    }
    perChunk[begin / chunkSize] = std::sqrt(m2);
  });
  return *std::max_element(perChunk.begin(), perChunk.end());
}

}  // namespace

void projectContacts(const StepContext& ctx, int passes, AgentColumns& next, std::vector<float>& scratchX,
                     std::vector<float>& scratchY, ThreadPool& pool, std::size_t chunkSize,
                     std::uint8_t* contactFlags) {
  const std::size_t n = next.size();
  if (passes <= 0 || n == 0) return;
  float largestRadius = 0.0f;
  for (const float r : next.radius) largestRadius = std::max(largestRadius, r);
  // The grid holds bodies where they were at the start of the tick: a neighbour now within
  // reach of a body was within reach + its move of the cells searched. Maxima do not depend on
  // the order they are taken in, so the reach is the same for any thread count.
  float moved = longestMove(ctx, next, pool, chunkSize);
  scratchX.resize(n);
  scratchY.resize(n);
  std::vector<float> perChunk((n + chunkSize - 1) / chunkSize);
  for (int pass = 0; pass < passes; ++pass) {
    const float reach = largestRadius + moved;
    pool.parallelFor(n, chunkSize, [&](std::size_t begin, std::size_t end) {
      perChunk[begin / chunkSize] =
          passChunk(ctx, next, next.px.data(), next.py.data(), scratchX.data(), scratchY.data(), reach,
                    static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end), contactFlags);
    });
    next.px.swap(scratchX);
    next.py.swap(scratchY);
    const float longest = *std::max_element(perChunk.begin(), perChunk.end());
    if (longest == 0.0f) break;  // nothing overlapped
    moved += longest;
  }
}

}  // namespace steerd
