#include "steering/path_following.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "steering/locomotion.h"

namespace steer {
namespace {

Body bodyAt(Vec2 p, Vec2 v = {}) {
  Body b;
  b.position = p;
  b.velocity = v;
  b.limits.maxSpeed = 2.0f;
  b.limits.maxForce = 6.0f;
  return b;
}

constexpr std::array<Vec2, 3> kOpen{{{0, 0}, {10, 0}, {10, 10}}};
constexpr std::array<Vec2, 4> kSquare{{{0, 0}, {10, 0}, {10, 10}, {0, 10}}};

void expectSame(const SteeringOutput& a, const SteeringOutput& b) {
  EXPECT_NEAR(a.linear.x, b.linear.x, 1e-5f);
  EXPECT_NEAR(a.linear.y, b.linear.y, 1e-5f);
}

TEST(ClosestWaypointIndex, AnswersTheEndOfTheClosestSegment) {
  const PathView open{kOpen, false};
  EXPECT_EQ(closestWaypointIndex(open, {5, 1}), 1);   // beside the first segment
  EXPECT_EQ(closestWaypointIndex(open, {11, 5}), 2);  // beside the second
  EXPECT_EQ(closestWaypointIndex(open, {2, -3}), 1);  // below the first
  EXPECT_EQ(closestWaypointIndex(open, {10, 0}), 1);  // on a corner: that waypoint
}

TEST(ClosestWaypointIndex, BeforeTheStartOfAnOpenPathAnswersTheStart) {
  EXPECT_EQ(closestWaypointIndex({kOpen, false}, {-3, 1}), 0);
}

TEST(ClosestWaypointIndex, LoopedPathIncludesTheClosingSegment) {
  const PathView looped{kSquare, true};
  EXPECT_EQ(closestWaypointIndex(looped, {-1, 6}), 0);            // beside (0,10) -> (0,0)
  EXPECT_EQ(closestWaypointIndex({kSquare, false}, {-1, 6}), 3);  // open: (0,10) is the nearest
}

TEST(ClosestWaypointIndex, DegeneratePaths) {
  EXPECT_EQ(closestWaypointIndex({}, {1, 1}), 0);
  const std::array<Vec2, 1> one{{{4, 4}}};
  EXPECT_EQ(closestWaypointIndex({one, true}, {1, 1}), 0);
  const std::array<Vec2, 3> dup{{{0, 0}, {0, 0}, {5, 0}}};
  EXPECT_EQ(closestWaypointIndex({dup, false}, {2, 1}), 2);
  EXPECT_EQ(closestWaypointIndex({dup, false}, {-1, 0}), 0);
}

TEST(FollowPath, SeeksTheCurrentWaypoint) {
  const Body b = bodyAt({0, -3});
  const PathFollowResult r = followPath(b, {kOpen, false}, 1);
  EXPECT_EQ(r.index, 1);
  expectSame(r.steering, seek(b, {10, 0}));
}

TEST(FollowPath, AdvancesWithinSeekDistance) {
  const Body b = bodyAt({9.5f, 0.2f});
  const PathFollowResult r = followPath(b, {kSquare, false}, 1, {.seekDistance = 1.0f});
  EXPECT_EQ(r.index, 2);
  expectSame(r.steering, seek(b, {10, 10}));
  // Just outside the seek distance: no advance.
  EXPECT_EQ(followPath(bodyAt({8.9f, 0}), {kSquare, false}, 1, {.seekDistance = 1.0f}).index, 1);
}

TEST(FollowPath, SkipsSeveralDenseWaypointsInOneCall) {
  const std::array<Vec2, 5> dense{{{0, 0}, {0.2f, 0}, {0.4f, 0}, {0.6f, 0}, {5, 0}}};
  const PathFollowResult r = followPath(bodyAt({0.3f, 0}), {dense, false}, 0, {.seekDistance = 0.5f});
  EXPECT_EQ(r.index, 4);
}

TEST(FollowPath, LoopedPathWrapsToTheFirstWaypoint) {
  const Body b = bodyAt({0.3f, 9.8f});
  const PathFollowResult r = followPath(b, {kSquare, true}, 3);
  EXPECT_EQ(r.index, 0);
  expectSame(r.steering, seek(b, {0, 0}));
}

TEST(FollowPath, ArrivesAtTheLastWaypointOfAnOpenPath) {
  const Body b = bodyAt({10, 4}, {0, 1});
  const PathFollowResult r = followPath(b, {kOpen, false}, 2, {.deceleration = kDecelerationNormal});
  EXPECT_EQ(r.index, 2);
  expectSame(r.steering, arrive(b, {10, 10}, {.deceleration = kDecelerationNormal}));
  // Within seek distance of the end it stays on the end and keeps arriving (brakes on it).
  const Body there = bodyAt({10, 10}, {0.5f, 0});
  const PathFollowResult end = followPath(there, {kOpen, false}, 2);
  EXPECT_EQ(end.index, 2);
  EXPECT_EQ(end.steering.linear, (Vec2{-0.5f, 0}));
}

TEST(FollowPath, OutOfRangeIndexIsClamped) {
  const Body b = bodyAt({0, -5});
  EXPECT_EQ(followPath(b, {kSquare, true}, 99).index, 3);
  EXPECT_EQ(followPath(b, {kSquare, true}, -7).index, 0);
}

TEST(FollowPath, EmptyPathGivesNoOutput) {
  const PathFollowResult r = followPath(bodyAt({1, 1}, {1, 0}), {}, 3);
  EXPECT_EQ(r.steering, SteeringOutput{});
  EXPECT_EQ(r.index, 0);
}

TEST(FollowPath, OnePointPathArrivesEvenWhenLooped) {
  const std::array<Vec2, 1> one{{{4, 0}}};
  const Body b = bodyAt({});
  for (bool looped : {false, true}) {
    const PathFollowResult r = followPath(b, {one, looped}, 5);
    EXPECT_EQ(r.index, 0);
    expectSame(r.steering, arrive(b, {4, 0}));
  }
}

TEST(FollowPath, ZeroLengthPathsStayFinite) {
  // Every point in one place, looped and open, body on it: terminates, finite, brakes.
  const std::array<Vec2, 3> same{{{2, 2}, {2, 2}, {2, 2}}};
  for (bool looped : {false, true}) {
    const PathFollowResult r = followPath(bodyAt({2, 2}, {1, 1}), {same, looped}, 0);
    EXPECT_TRUE(isFinite(r.steering.linear));
    EXPECT_GE(r.index, 0);
    EXPECT_LT(r.index, 3);
    EXPECT_EQ(r.steering.linear, (Vec2{-1, -1}));
  }
  // Zero seek distance never advances.
  EXPECT_EQ(followPath(bodyAt({2, 2}), {same, true}, 1, {.seekDistance = 0.0f}).index, 1);
}

TEST(FollowPath, BodyGoesRoundALoopInOrder) {
  const PathView loop{kSquare, true};
  Body b = bodyAt({-2, -2});
  int index = closestWaypointIndex(loop, b.position);
  std::vector<int> visited{index};
  for (int i = 0; i < 2000; ++i) {
    const PathFollowResult r = followPath(b, loop, index, {.seekDistance = 1.0f});
    if (r.index != index) visited.push_back(r.index);
    index = r.index;
    b = integrateDynamic(b, r.steering.linear, 0.05f);
  }
  ASSERT_GE(visited.size(), 6u);
  for (std::size_t i = 1; i < visited.size(); ++i) EXPECT_EQ(visited[i], (visited[i - 1] + 1) % 4);
}

TEST(FollowPath, OpenPathEndsAtRestOnTheLastWaypoint) {
  const PathView open{kOpen, false};
  Body b = bodyAt({-1, 1});
  int index = closestWaypointIndex(open, b.position);
  for (int i = 0; i < 1200; ++i) {
    const PathFollowResult r = followPath(b, open, index);
    index = r.index;
    b = integrateDynamic(b, r.steering.linear, 0.05f);
  }
  EXPECT_EQ(index, 2);
  EXPECT_LT(distance(b.position, {10, 10}), 0.05f);
  EXPECT_LT(length(b.velocity), 0.05f);
}

TEST(FollowPath, ZeroMaxSpeedOnlyBrakesAndAtRestGivesZero) {
  for (bool looped : {false, true}) {
    Body b = bodyAt({0, -3}, {1, 0});
    b.limits.maxSpeed = 0.0f;
    const PathFollowResult r = followPath(b, {kSquare, looped}, 1);
    EXPECT_TRUE(std::isfinite(r.steering.linear.x) && std::isfinite(r.steering.linear.y) &&
                std::isfinite(r.steering.angular));
    EXPECT_EQ(r.steering.linear, (Vec2{-1, 0}));
    b.velocity = {};
    EXPECT_EQ(followPath(b, {kSquare, looped}, 1).steering, SteeringOutput{});
  }
}

TEST(FollowPath, OnTheLastWaypointAtRestGivesZero) {
  // Coincident with the end of an open path, zero velocity: arrive's d = 0 case, exactly zero.
  const PathFollowResult r = followPath(bodyAt({10, 10}), {kOpen, false}, 2);
  EXPECT_EQ(r.index, 2);
  EXPECT_EQ(r.steering, SteeringOutput{});
  // Coincident with a middle waypoint: advances past it; the next one is the last, so arrive.
  const PathFollowResult mid = followPath(bodyAt({10, 0}), {kOpen, false}, 1);
  EXPECT_EQ(mid.index, 2);
  expectSame(mid.steering, arrive(bodyAt({10, 0}), {10, 10}, {.deceleration = kDecelerationNormal}));
  // On a looped path the waypoint after it is sought instead.
  const PathFollowResult loop = followPath(bodyAt({10, 0}), {kSquare, true}, 1);
  EXPECT_EQ(loop.index, 2);
  expectSame(loop.steering, seek(bodyAt({10, 0}), {10, 10}));
}

// Path smoothing (look-ahead): the ghost is lookAhead further along the path than the body's
// projection on its segment, round corners; the body seeks it.
TEST(FollowPathLookAhead, SteersAtAGhostAheadAlongThePathRoundTheCorner) {
  // On the first side of the square at (7, 0.5), current waypoint (10, 0): the projection is
  // (7, 0); 3 m to the corner, then 1 m up the next side.
  const Body b = bodyAt({7, 0.5f}, {1, 0});
  const PathLookAheadResult r = followPathLookAhead(b, {kSquare, true}, 1, 4.0f);
  EXPECT_EQ(r.index, 1);
  EXPECT_NEAR(r.ghost.x, 10.0f, 1e-5f);
  EXPECT_NEAR(r.ghost.y, 1.0f, 1e-5f);
  expectSame(r.steering, seek(b, r.ghost));
  // Past the corner's line (projection beyond the segment's end) the index moves on.
  const PathLookAheadResult past = followPathLookAhead(bodyAt({10.5f, 0.2f}), {kSquare, true}, 1, 4.0f);
  EXPECT_EQ(past.index, 2);
  EXPECT_NEAR(past.ghost.x, 10.0f, 1e-5f);
  EXPECT_NEAR(past.ghost.y, 4.2f, 1e-5f);
}

TEST(FollowPathLookAhead, ArrivesAtTheEndOfAnOpenPathAndWithoutLookAheadIsBuckland) {
  // 2 m before the end of the open path, ghost 4 m ahead: it stops at the last waypoint, arrive.
  const Body b = bodyAt({10, 8});
  const PathLookAheadResult r = followPathLookAhead(b, {kOpen, false}, 2, 4.0f);
  EXPECT_EQ(r.ghost, (Vec2{10, 10}));
  expectSame(r.steering, arrive(b, {10, 10}, {.deceleration = kDecelerationNormal}));
  // Look-ahead 0 (or NaN) is followPath itself.
  for (float off : {0.0f, -1.0f, std::numeric_limits<float>::quiet_NaN()}) {
    const Body c = bodyAt({3, 1}, {1, 0});
    const PathLookAheadResult same = followPathLookAhead(c, {kSquare, true}, 1, off);
    const PathFollowResult buckland = followPath(c, {kSquare, true}, 1);
    EXPECT_EQ(same.index, buckland.index);
    expectSame(same.steering, buckland.steering);
  }
}

TEST(FollowPathLookAhead, HostilePathsGiveFiniteOutput) {
  // Repeated points, a path folded back on itself, a huge look-ahead: finite, index in range.
  const std::array<Vec2, 5> folded{{{0, 0}, {0, 0}, {5, 0}, {0, 0}, {5, 0}}};
  for (bool looped : {false, true}) {
    for (float ahead : {0.5f, 1e30f}) {
      for (int index : {-4, 0, 2, 99}) {
        const PathLookAheadResult r =
            followPathLookAhead(bodyAt({2, 3}, {1, 1}), {folded, looped}, index, ahead);
        EXPECT_TRUE(std::isfinite(r.steering.linear.x) && std::isfinite(r.steering.linear.y));
        EXPECT_TRUE(std::isfinite(r.ghost.x) && std::isfinite(r.ghost.y));
        EXPECT_GE(r.index, 0);
        EXPECT_LT(r.index, 5);
      }
    }
  }
}

}  // namespace
}  // namespace steer
