#include "app/fixed_timestep.h"

#include <gtest/gtest.h>

#include <limits>

namespace steerd {
namespace {

TEST(FixedTimestep, RunsOneTickPerPeriod) {
  FixedTimestep f(0.1, 5);
  EXPECT_EQ(f.advance(0.05).ticks, 0);
  const auto p = f.advance(0.06);
  EXPECT_EQ(p.ticks, 1);
  EXPECT_EQ(p.late, 0u);
  EXPECT_NEAR(f.untilNextTick(), 0.09, 1e-9);
}

TEST(FixedTimestep, CatchesUpWithLateTicks) {
  FixedTimestep f(0.1, 5);
  const auto p = f.advance(0.35);
  EXPECT_EQ(p.ticks, 3);
  EXPECT_EQ(p.late, 2u);
  EXPECT_EQ(p.dropped, 0u);
}

TEST(FixedTimestep, DropsBacklogBeyondMaxCatchUpInsteadOfSpiralling) {
  FixedTimestep f(0.1, 5);
  const auto p = f.advance(2.0);  // a 2 s stall: 20 ticks due
  EXPECT_EQ(p.ticks, 5);
  EXPECT_EQ(p.dropped, 15u);
  // The next wake-up is back to normal: the backlog is gone.
  EXPECT_EQ(f.advance(0.1).ticks, 1);
}

TEST(FixedTimestep, NegativeOrNaNElapsedCountsAsZero) {
  FixedTimestep f(0.1, 5);
  EXPECT_EQ(f.advance(-1.0).ticks, 0);
  EXPECT_EQ(f.advance(std::numeric_limits<double>::quiet_NaN()).ticks, 0);
  EXPECT_EQ(f.advance(0.1).ticks, 1);
}

}  // namespace
}  // namespace steerd
