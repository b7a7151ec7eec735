#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "loadtest/percentiles.h"

namespace steerd::loadtest {
namespace {

TEST(PercentilesTest, NearestRankOfOneToHundred) {
  std::vector<double> v;
  for (int i = 100; i >= 1; --i) v.push_back(i);  // unsorted on purpose
  const Summary s = summarize(v);
  EXPECT_EQ(s.count, 100u);
  EXPECT_DOUBLE_EQ(s.mean, 50.5);
  EXPECT_DOUBLE_EQ(s.p50, 50.0);
  EXPECT_DOUBLE_EQ(s.p95, 95.0);
  EXPECT_DOUBLE_EQ(s.p99, 99.0);
  EXPECT_DOUBLE_EQ(s.max, 100.0);
}

TEST(PercentilesTest, NearestRankPicksAnObservedValue) {
  const std::vector<double> sorted{10, 20, 30, 40};
  EXPECT_DOUBLE_EQ(percentileOfSorted(sorted, 0), 10);
  EXPECT_DOUBLE_EQ(percentileOfSorted(sorted, 25), 10);  // rank ceil(1.0) = 1
  EXPECT_DOUBLE_EQ(percentileOfSorted(sorted, 25.1), 20);
  EXPECT_DOUBLE_EQ(percentileOfSorted(sorted, 50), 20);
  EXPECT_DOUBLE_EQ(percentileOfSorted(sorted, 75), 30);
  EXPECT_DOUBLE_EQ(percentileOfSorted(sorted, 99), 40);
  EXPECT_DOUBLE_EQ(percentileOfSorted(sorted, 100), 40);
  EXPECT_DOUBLE_EQ(percentileOfSorted(sorted, 250), 40);
  EXPECT_DOUBLE_EQ(percentileOfSorted(sorted, -3), 10);
}

TEST(PercentilesTest, SmallSamplesAndOutliers) {
  // Twenty values: p95 is the 19th, p99 the 20th (the outlier).
  std::vector<double> v(19, 50.0);
  v.push_back(900.0);
  const Summary s = summarize(v);
  EXPECT_DOUBLE_EQ(s.p50, 50.0);
  EXPECT_DOUBLE_EQ(s.p95, 50.0);
  EXPECT_DOUBLE_EQ(s.p99, 900.0);
  EXPECT_DOUBLE_EQ(s.max, 900.0);
}

TEST(PercentilesTest, EmptySingleAndNonFinite) {
  const Summary empty = summarize({});
  EXPECT_EQ(empty.count, 0u);
  EXPECT_DOUBLE_EQ(empty.p99, 0.0);
  EXPECT_DOUBLE_EQ(empty.max, 0.0);
  EXPECT_DOUBLE_EQ(percentileOfSorted({}, 50), 0.0);

  const Summary one = summarize({7.5});
  EXPECT_EQ(one.count, 1u);
  EXPECT_DOUBLE_EQ(one.p50, 7.5);
  EXPECT_DOUBLE_EQ(one.p99, 7.5);
  EXPECT_DOUBLE_EQ(one.max, 7.5);

  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const Summary mixed = summarize({nan, 1.0, inf, 3.0, -inf});
  EXPECT_EQ(mixed.count, 2u);
  EXPECT_DOUBLE_EQ(mixed.mean, 2.0);
  EXPECT_DOUBLE_EQ(mixed.max, 3.0);
}

}  // namespace
}  // namespace steerd::loadtest
