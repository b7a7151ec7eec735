// The interest grid finds exactly what a scan of every state finds, in the same (id) order.
#include "net/interest_grid.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace steerd::net {
namespace {

std::vector<wire::EntityState> randomStates(std::size_t n, float extent, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> pos(-extent / 2, extent / 2);
  std::vector<wire::EntityState> states(n);
  for (std::size_t i = 0; i < n; ++i) {
    states[i].id = static_cast<std::uint32_t>(i * 3 + 1);
    states[i].x = wire::quantizePosition(pos(rng));
    states[i].y = wire::quantizePosition(pos(rng));
  }
  return states;
}

// Written out here, not InterestGrid::scan: the test states what "within the radius" means.
std::vector<std::uint32_t> scan(const std::vector<wire::EntityState>& states, float cx, float cy, float r) {
  std::vector<std::uint32_t> ids;
  for (const auto& e : states) {
    const float dx = wire::positionMetres(e.x) - cx, dy = wire::positionMetres(e.y) - cy;
    if (dx * dx + dy * dy <= r * r) ids.push_back(e.id);
  }
  return ids;
}

std::vector<std::uint32_t> gathered(const InterestGrid& grid, const std::vector<wire::EntityState>& states,
                                    float cx, float cy, float r) {
  std::vector<std::uint64_t> marks;
  std::vector<wire::EntityState> out;
  grid.gather(states, cx, cy, r, marks, out);
  std::vector<std::uint32_t> ids;
  for (const auto& e : out) ids.push_back(e.id);
  return ids;
}

TEST(InterestGrid, FindsWhatAScanFindsInIdOrder) {
  for (const float radius : {0.5f, 10.0f, 100.0f, 5000.0f}) {
    const auto states = randomStates(3000, 1000.0f, 7);
    InterestGrid grid;
    grid.build(states, radius);
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> centre(-700.0f, 700.0f);  // some outside the states' extent
    for (int k = 0; k < 200; ++k) {
      const float cx = centre(rng), cy = centre(rng);
      ASSERT_EQ(gathered(grid, states, cx, cy, radius), scan(states, cx, cy, radius))
          << "radius " << radius << " centre " << cx << "," << cy;
    }
  }
}

TEST(InterestGrid, EmptyFarAndNonFiniteCentresGiveWhatAScanGives) {
  InterestGrid grid;
  const std::vector<wire::EntityState> none;
  grid.build(none, 50.0f);
  EXPECT_TRUE(gathered(grid, none, 0, 0, 50.0f).empty());

  const auto states = randomStates(500, 200.0f, 3);
  grid.build(states, 50.0f);
  const float inf = std::numeric_limits<float>::infinity(), nan = std::nanf("");
  for (const auto& [cx, cy] :
       std::vector<std::pair<float, float>>{{1e30f, 0}, {-1e30f, 1e30f}, {inf, 0}, {nan, 0}, {0, nan}}) {
    EXPECT_EQ(gathered(grid, states, cx, cy, 50.0f), scan(states, cx, cy, 50.0f)) << cx << "," << cy;
  }
  // A state whose position is far from the rest (the grid's cells widen to hold it).
  auto spread = states;
  spread.back().x = wire::quantizePosition(1e6f);
  grid.build(spread, 5.0f);
  EXPECT_EQ(gathered(grid, spread, 0, 0, 5.0f), scan(spread, 0, 0, 5.0f));
  EXPECT_EQ(gathered(grid, spread, 1e6f, 0, 5.0f), scan(spread, 1e6f, 0, 5.0f));
}

TEST(InterestGrid, StatesOtherThanTheGridsAreScannedNotMisread) {
  const auto states = randomStates(100, 100.0f, 5);
  InterestGrid grid;
  grid.build(states, 20.0f);
  const auto other = randomStates(3000, 100.0f, 6);  // indices past the grid's
  EXPECT_EQ(gathered(grid, other, 0, 0, 20.0f), scan(other, 0, 0, 20.0f));
  EXPECT_FALSE(scan(other, 0, 0, 20.0f).empty());
}

}  // namespace
}  // namespace steerd::net
