// The metrics port's connection policy on simulated time: a request deadline that a trickle of
// bytes cannot extend, an idle timeout, and a cap that drops the oldest idle connection first.
#include "net/http_connection_table.h"

#include <gtest/gtest.h>

namespace steerd::net {
namespace {

constexpr std::int64_t kSecond = 1'000'000'000;

HttpLimits limits(std::size_t cap) {
  HttpLimits l;
  l.maxConnections = cap;
  l.requestDeadlineNs = 5 * kSecond;
  l.idleTimeoutNs = 30 * kSecond;
  return l;
}

TEST(HttpConnectionTable, ARequestIsClosedAtItsDeadlineHoweverItTrickles) {
  HttpConnectionTable t{limits(8)};
  EXPECT_FALSE(t.open(1, 0));
  t.requestStarted(1, 1 * kSecond);
  // More bytes of the same request do not move its deadline (requestStarted again is ignored).
  for (int s = 2; s < 6; ++s) {
    t.requestStarted(1, s * kSecond);
    EXPECT_TRUE(t.expired(s * kSecond).empty()) << s;
  }
  const auto closed = t.expired(6 * kSecond);
  ASSERT_EQ(closed.size(), 1u);
  EXPECT_EQ(closed[0].id, 1u);
  EXPECT_EQ(closed[0].why, HttpConnectionTable::Why::kDeadline);
  EXPECT_EQ(t.size(), 0u);
}

TEST(HttpConnectionTable, AnIdleConnectionLastsItsTimeoutFromItsLastAnswer) {
  HttpConnectionTable t{limits(8)};
  t.open(1, 0);
  t.requestStarted(1, 10 * kSecond);
  t.requestDone(1, 11 * kSecond);
  EXPECT_TRUE(t.expired(40 * kSecond).empty());
  const auto closed = t.expired(41 * kSecond);
  ASSERT_EQ(closed.size(), 1u);
  EXPECT_EQ(closed[0].why, HttpConnectionTable::Why::kIdle);
}

TEST(HttpConnectionTable, AtTheCapTheOldestIdleGoesFirstThenTheOldestRequest) {
  HttpConnectionTable t{limits(3)};
  t.open(1, 0);
  t.open(2, 1);
  t.open(3, 2);
  t.requestStarted(1, 3);  // 1 busy; 2 and 3 idle
  auto victim = t.open(4, 4);
  ASSERT_TRUE(victim);
  EXPECT_EQ(victim->id, 2u);
  EXPECT_EQ(victim->why, HttpConnectionTable::Why::kCap);
  t.requestStarted(3, 5);
  t.requestStarted(4, 6);  // all busy: 1 started first
  victim = t.open(5, 7);
  ASSERT_TRUE(victim);
  EXPECT_EQ(victim->id, 1u);
  EXPECT_EQ(t.size(), 3u);
}

TEST(HttpConnectionTable, AClosedConnectionIsForgotten) {
  HttpConnectionTable t{limits(1)};
  t.open(1, 0);
  t.close(1);
  EXPECT_FALSE(t.open(2, 1));  // room again: nothing to drop
  EXPECT_EQ(t.size(), 1u);
}

}  // namespace
}  // namespace steerd::net
