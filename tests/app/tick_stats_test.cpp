#include "app/tick_stats.h"

#include <gtest/gtest.h>

namespace steerd {
namespace {

TEST(TickStats, MeanAndNearestRankPercentile) {
  TickStats s;
  for (int i = 1; i <= 100; ++i) s.add(i);
  EXPECT_DOUBLE_EQ(s.mean(), 50.5);
  EXPECT_DOUBLE_EQ(s.percentile(99), 99.0);
  EXPECT_DOUBLE_EQ(s.percentile(100), 100.0);
  EXPECT_DOUBLE_EQ(s.percentile(0), 1.0);
}

TEST(TickStats, EmptyIsZeroNotNaN) {
  TickStats s;
  EXPECT_EQ(s.mean(), 0.0);
  EXPECT_EQ(s.percentile(99), 0.0);
}

}  // namespace
}  // namespace steerd
