// The world's SIMD neighbour scan must give the sums the steering library's flocking formulas
// are made of: checked against a brute-force pass with steer::separation / alignment / cohesion.
#include "world/neighbour_scan.h"

#include <gtest/gtest.h>

#include <vector>

#include "steering/flocking.h"
#include "steering/neighbours.h"
#include "steering/random.h"

namespace steerd {
namespace {

struct Field {
  AgentColumns sorted;
  SpatialGrid grid;
};

Field randomField(std::uint64_t seed, std::size_t n, float side, float cell) {
  steer::Rng rng(seed);
  AgentColumns a;
  a.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    a.px[i] = side * rng.uniform();
    a.py[i] = side * rng.uniform();
    const steer::Vec2 h = steer::fromAngle(2 * steer::kPi * rng.uniform());
    a.hx[i] = h.x;
    a.hy[i] = h.y;
    a.radius[i] = 0.5f;
    a.id[i] = static_cast<AgentId>(i);
  }
  Field f;
  f.grid.configure({0, 0, side, side}, cell);
  std::vector<std::uint32_t> slotOf(n);
  f.grid.rebuild(a, f.sorted, slotOf);
  return f;
}

TEST(NeighbourScan, MatchesTheLibrarysFlockingFormulasOnRandomAgents) {
  const float radius = 4.0f;
  const float cosHalfFov = steer::cosHalfFovFromDegrees(270.0f);
  Field f = randomField(42, 600, 60.0f, radius);
  const AgentColumns& s = f.sorted;
  const std::size_t n = s.size();
  NeighbourQuery q;
  q.radius = radius;
  q.cosHalfFov = cosHalfFov;
  q.selfRadius = 0.5f;
  int withNeighbours = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    steer::Body self;
    self.position = {s.px[i], s.py[i]};
    self.heading = {s.hx[i], s.hy[i]};
    self.limits.maxSpeed = 3.0f;
    std::vector<steer::Kinematic> all, inFov;
    for (std::uint32_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const steer::Kinematic k{{s.px[j], s.py[j]}, {}, {s.hx[j], s.hy[j]}, 0.5f};
      if (steer::distance(self.position, k.position) >= radius) continue;
      all.push_back(k);
      if (steer::inNeighbourhood(self, k, radius, cosHalfFov)) inFov.push_back(k);
    }
    const NeighbourSums sums = scanNeighbours(s, f.grid, i, q);
    ASSERT_EQ(sums.count, static_cast<float>(all.size())) << "slot " << i;
    ASSERT_EQ(sums.fovCount, static_cast<float>(inFov.size())) << "slot " << i;
    const steer::SteeringOutput sep = steer::separation(self, all);
    EXPECT_NEAR(sums.sepX, sep.linear.x, 1e-3f * (1 + std::abs(sep.linear.x)));
    EXPECT_NEAR(sums.sepY, sep.linear.y, 1e-3f * (1 + std::abs(sep.linear.y)));
    if (!inFov.empty()) {
      ++withNeighbours;
      const float k = sums.fovCount;
      const steer::SteeringOutput align = steer::alignment(self, inFov);
      EXPECT_NEAR(sums.headingX / k - self.heading.x, align.linear.x, 1e-4f);
      EXPECT_NEAR(sums.headingY / k - self.heading.y, align.linear.y, 1e-4f);
      const steer::SteeringOutput coh = steer::cohesion(self, inFov);
      const steer::SteeringOutput viaSums =
          steer::seek(self, self.position + steer::Vec2{sums.offsetX, sums.offsetY} / k);
      EXPECT_NEAR(viaSums.linear.x, coh.linear.x, 1e-3f);
      EXPECT_NEAR(viaSums.linear.y, coh.linear.y, 1e-3f);
    }
  }
  EXPECT_GT(withNeighbours, 100);  // the field is dense enough to test something
}

// Two agents of radius 0.5 heading +x at (x0, y) and (x1, y), sorted into a 20 m grid of 4 m cells.
struct Pair {
  AgentColumns sorted;
  SpatialGrid grid;
  std::vector<std::uint32_t> slotOf = std::vector<std::uint32_t>(2);
};

Pair pairAt(float x0, float x1, float y) {
  AgentColumns a;
  a.resize(2);
  a.px = {x0, x1};
  a.py = {y, y};
  a.hx = {1.0f, 1.0f};
  a.hy = {0.0f, 0.0f};
  a.radius = {0.5f, 0.5f};
  a.id = {0, 1};
  Pair p;
  p.grid.configure({0, 0, 20, 20}, 4);
  p.grid.rebuild(a, p.sorted, p.slotOf);
  return p;
}

TEST(NeighbourScan, OverlapPushSeparatesATouchingPairHalfEach) {
  const Pair p = pairAt(10.0f, 10.6f, 10.0f);
  NeighbourQuery q;
  q.radius = 4;
  q.selfRadius = 0.5f;
  const NeighbourSums left = scanNeighbours(p.sorted, p.grid, p.slotOf[0], q);
  // Overlap 1.0 - 0.6 = 0.4: each pushes itself 0.2 away from the other.
  EXPECT_NEAR(left.pushX, -0.2f, 1e-4f);
  EXPECT_NEAR(left.pushY, 0.0f, 1e-6f);
}

TEST(NeighbourScan, AloneOrCoincidentGivesZeroSumsNotNaN) {
  const Pair p = pairAt(5.0f, 5.0f, 5.0f);
  const NeighbourSums sums = scanNeighbours(p.sorted, p.grid, 0, NeighbourQuery{});
  EXPECT_EQ(sums.count, 0.0f);
  EXPECT_EQ(sums.sepX, 0.0f);
  EXPECT_EQ(sums.pushX, 0.0f);
}

}  // namespace
}  // namespace steerd
