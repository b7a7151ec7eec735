#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "client/interpolation.h"

namespace steerd::client {
namespace {

constexpr double kPi = std::numbers::pi;

EntityView ev(std::uint32_t id, float x, float y, float heading = 0.0f, std::uint32_t archetype = 0) {
  return EntityView{id, archetype, x, y, heading, 0.0f};
}

const EntityView* findId(const Sample& s, std::uint32_t id) {
  for (const EntityView& e : s.entities) {
    if (e.id == id) return &e;
  }
  return nullptr;
}

// Angular distance, so that pi and -pi compare equal.
double angleGap(double a, double b) { return std::abs(std::remainder(a - b, 2 * kPi)); }

TEST(InterpolationTest, EmptyBufferGivesNoEntities) {
  InterpolationBuffer buf;
  Sample s;
  buf.sample(10.0, s);
  EXPECT_EQ(s.kind, SampleKind::kEmpty);
  EXPECT_TRUE(s.entities.empty());
}

// What an animation reads: each entity's velocity and turn rate between the snapshots it is drawn
// from, per tick; the same while extrapolated, and none once held or with one snapshot only.
TEST(InterpolationTest, MotionIsTheChangeBetweenTheSnapshotsDrawnFrom) {
  InterpolationBuffer buf;
  ASSERT_TRUE(buf.push(10, std::vector<EntityView>{ev(1, 0.0f, 0.0f, 3.0f), ev(2, 5.0f, 5.0f)}, true));
  ASSERT_TRUE(buf.push(12, std::vector<EntityView>{ev(1, 2.0f, -1.0f, -3.0f), ev(3, 1.0f, 1.0f)}, true));
  Sample s;
  buf.sample(11.0, s);
  ASSERT_EQ(s.kind, SampleKind::kInterpolated);
  ASSERT_EQ(s.motion.size(), s.entities.size());
  ASSERT_EQ(s.entities[0].id, 1u);
  EXPECT_FLOAT_EQ(s.motion[0].vx, 1.0f);  // 2 m over 2 ticks
  EXPECT_FLOAT_EQ(s.motion[0].vy, -0.5f);
  // 3 to -3 rad is a turn of 2 pi - 6 counter-clockwise (the short way, through pi).
  EXPECT_NEAR(s.motion[0].turnRate, (2 * kPi - 6.0) / 2.0, 1e-6);
  EXPECT_EQ(s.motion[1].vx, 0.0f);  // id 2: leaving, drawn from one snapshot
  buf.sample(13.0, s);
  ASSERT_EQ(s.kind, SampleKind::kExtrapolated);
  ASSERT_EQ(s.motion.size(), s.entities.size());
  EXPECT_FLOAT_EQ(s.motion[0].vx, 1.0f);
  buf.sample(100.0, s);
  ASSERT_EQ(s.kind, SampleKind::kStalled);
  EXPECT_EQ(s.motion[0].vx, 0.0f);
}

TEST(InterpolationTest, MidpointIsExact) {
  InterpolationBuffer buf;
  const std::vector<EntityView> a{ev(1, 0.0f, 0.0f, 0.0f, 3), ev(2, 10.0f, 20.0f, 1.0f)};
  const std::vector<EntityView> b{ev(1, 2.0f, 4.0f, 0.5f, 3), ev(2, 12.0f, 18.0f, 1.5f)};
  ASSERT_TRUE(buf.push(10, a, true));
  ASSERT_TRUE(buf.push(12, b, true));

  Sample s;
  buf.sample(11.0, s);
  EXPECT_EQ(s.kind, SampleKind::kInterpolated);
  EXPECT_EQ(s.fromTick, 10u);
  EXPECT_EQ(s.toTick, 12u);
  ASSERT_EQ(s.entities.size(), 2u);
  EXPECT_EQ(s.entities[0].id, 1u);
  EXPECT_EQ(s.entities[0].archetype, 3u);
  EXPECT_FLOAT_EQ(s.entities[0].x, 1.0f);
  EXPECT_FLOAT_EQ(s.entities[0].y, 2.0f);
  EXPECT_FLOAT_EQ(s.entities[0].heading, 0.25f);
  EXPECT_FLOAT_EQ(s.entities[1].x, 11.0f);
  EXPECT_FLOAT_EQ(s.entities[1].y, 19.0f);
  EXPECT_FLOAT_EQ(s.entities[1].heading, 1.25f);

  buf.sample(11.5, s);
  EXPECT_FLOAT_EQ(s.entities[0].x, 1.5f);
  EXPECT_FLOAT_EQ(s.entities[0].y, 3.0f);

  // Exactly on a snapshot: its values.
  buf.sample(10.0, s);
  EXPECT_EQ(s.kind, SampleKind::kInterpolated);
  EXPECT_FLOAT_EQ(s.entities[1].x, 10.0f);
  buf.sample(12.0, s);
  EXPECT_EQ(s.kind, SampleKind::kInterpolated);
  EXPECT_FLOAT_EQ(s.entities[1].x, 12.0f);
}

TEST(InterpolationTest, HeadingTakesTheShortArcAcrossThePiWrap) {
  InterpolationBuffer buf;
  const std::vector<EntityView> a{ev(1, 0, 0, 3.0f), ev(2, 0, 0, -3.0f), ev(3, 0, 0, 0.1f)};
  const std::vector<EntityView> b{ev(1, 0, 0, -3.0f), ev(2, 0, 0, 3.0f), ev(3, 0, 0, -0.1f)};
  buf.push(20, a, true);
  buf.push(22, b, true);
  Sample s;
  buf.sample(21.0, s);
  ASSERT_EQ(s.entities.size(), 3u);
  // 3.0 -> -3.0 goes through pi (0.283 rad), not through 0 (6 rad).
  EXPECT_LT(angleGap(s.entities[0].heading, kPi), 1e-5);
  EXPECT_LT(angleGap(s.entities[1].heading, kPi), 1e-5);
  EXPECT_NEAR(s.entities[2].heading, 0.0f, 1e-6);
  buf.sample(20.5, s);
  EXPECT_NEAR(s.entities[0].heading, 3.0 + (2 * kPi - 6.0) / 4, 1e-5);
  EXPECT_NEAR(s.entities[1].heading, -3.0 - (2 * kPi - 6.0) / 4, 1e-5);
  for (const EntityView& e : s.entities) {
    EXPECT_GT(e.heading, -kPi - 1e-6);
    EXPECT_LE(e.heading, kPi + 1e-6);
  }
}

TEST(InterpolationTest, WrapAngleAndLerpAngle) {
  EXPECT_NEAR(wrapAngle(2 * kPi + 0.5), 0.5, 1e-6);
  EXPECT_NEAR(wrapAngle(-2 * kPi - 0.5), -0.5, 1e-6);
  EXPECT_NEAR(wrapAngle(-kPi), kPi, 1e-6);  // (-pi, pi]
  EXPECT_EQ(wrapAngle(std::nan("")), 0.0f);
  EXPECT_LT(angleGap(lerpAngle(-3.0f, 3.0f, 0.5), kPi), 1e-5);
  EXPECT_NEAR(lerpAngle(0.0f, 1.0f, 0.25), 0.25, 1e-6);
}

TEST(InterpolationTest, ExtrapolatesWithVelocityUpToTheBoundThenHolds) {
  InterpolationBuffer buf(InterpolationBuffer::Options{32, 7.5});
  buf.push(10, std::vector<EntityView>{ev(1, 0.0f, 10.0f, 0.0f)}, true);
  buf.push(12, std::vector<EntityView>{ev(1, 2.0f, 10.0f, 0.2f)}, true);  // 1 m and 0.1 rad per tick

  Sample s;
  buf.sample(15.0, s);
  EXPECT_EQ(s.kind, SampleKind::kExtrapolated);
  EXPECT_DOUBLE_EQ(s.aheadTicks, 3.0);
  ASSERT_EQ(s.entities.size(), 1u);
  EXPECT_FLOAT_EQ(s.entities[0].x, 5.0f);
  EXPECT_FLOAT_EQ(s.entities[0].y, 10.0f);
  EXPECT_NEAR(s.entities[0].heading, 0.5f, 1e-6);

  buf.sample(19.5, s);  // exactly at the bound
  EXPECT_EQ(s.kind, SampleKind::kExtrapolated);
  EXPECT_FLOAT_EQ(s.entities[0].x, 9.5f);

  buf.sample(30.0, s);  // past it: held where the bound left it
  EXPECT_EQ(s.kind, SampleKind::kStalled);
  EXPECT_FLOAT_EQ(s.entities[0].x, 9.5f);
  EXPECT_NEAR(s.entities[0].heading, 0.95f, 1e-6);
  buf.sample(1000.0, s);
  EXPECT_EQ(s.kind, SampleKind::kStalled);
  EXPECT_FLOAT_EQ(s.entities[0].x, 9.5f);

  buf.setMaxExtrapolationTicks(0.0);
  buf.sample(13.0, s);
  EXPECT_EQ(s.kind, SampleKind::kStalled);
  EXPECT_FLOAT_EQ(s.entities[0].x, 2.0f);
}

TEST(InterpolationTest, SingleSnapshotHoldsWithoutVelocity) {
  InterpolationBuffer buf;
  buf.push(10, std::vector<EntityView>{ev(1, 3.0f, 4.0f)}, true);
  Sample s;
  buf.sample(12.0, s);
  EXPECT_EQ(s.kind, SampleKind::kExtrapolated);
  ASSERT_EQ(s.entities.size(), 1u);
  EXPECT_FLOAT_EQ(s.entities[0].x, 3.0f);
  buf.sample(5.0, s);
  EXPECT_EQ(s.kind, SampleKind::kBehind);
  ASSERT_EQ(s.entities.size(), 1u);
  EXPECT_FLOAT_EQ(s.entities[0].y, 4.0f);
}

TEST(InterpolationTest, EntitiesEnterAndLeave) {
  InterpolationBuffer buf;
  buf.push(10, std::vector<EntityView>{ev(1, 1.0f, 1.0f), ev(2, 0.0f, 0.0f)}, true);
  buf.push(12, std::vector<EntityView>{ev(2, 2.0f, 0.0f), ev(3, 7.0f, 7.0f)}, true);
  Sample s;
  buf.sample(11.0, s);
  ASSERT_EQ(s.entities.size(), 2u);
  // Leaving: shown as of the older snapshot.
  ASSERT_NE(findId(s, 1), nullptr);
  EXPECT_FLOAT_EQ(findId(s, 1)->x, 1.0f);
  EXPECT_FLOAT_EQ(findId(s, 2)->x, 1.0f);
  // Entering: not before its snapshot.
  EXPECT_EQ(findId(s, 3), nullptr);
  buf.sample(12.0, s);
  ASSERT_EQ(s.entities.size(), 2u);
  EXPECT_EQ(findId(s, 1), nullptr);
  ASSERT_NE(findId(s, 3), nullptr);
  EXPECT_FLOAT_EQ(findId(s, 3)->x, 7.0f);
}

TEST(InterpolationTest, IncompleteSnapshotsDoNotHideEntities) {
  InterpolationBuffer buf;
  buf.push(10, std::vector<EntityView>{ev(1, 0.0f, 0.0f), ev(2, 0.0f, 0.0f)}, true);
  // Tick 12 lost the part that held entity 2: it is unknown there, not gone.
  buf.push(12, std::vector<EntityView>{ev(1, 2.0f, 0.0f)}, false);
  buf.push(14, std::vector<EntityView>{ev(1, 4.0f, 0.0f), ev(2, 8.0f, 0.0f)}, true);
  Sample s;
  buf.sample(11.0, s);  // between 10 and the incomplete 12: entity 2 runs from 10 to 14
  ASSERT_EQ(s.entities.size(), 2u);
  EXPECT_FLOAT_EQ(findId(s, 1)->x, 1.0f);
  EXPECT_FLOAT_EQ(findId(s, 2)->x, 2.0f);
  buf.sample(13.0, s);  // between the incomplete 12 and 14: entity 2 from 10
  ASSERT_EQ(s.entities.size(), 2u);
  EXPECT_FLOAT_EQ(findId(s, 1)->x, 3.0f);
  EXPECT_FLOAT_EQ(findId(s, 2)->x, 6.0f);

  // Past an incomplete newest snapshot, entities missing from it still extrapolate from theirs.
  buf.push(16, std::vector<EntityView>{ev(1, 6.0f, 0.0f)}, false);
  buf.sample(17.0, s);
  EXPECT_EQ(s.kind, SampleKind::kExtrapolated);
  ASSERT_EQ(s.entities.size(), 2u);
  EXPECT_FLOAT_EQ(findId(s, 1)->x, 7.0f);
  EXPECT_FLOAT_EQ(findId(s, 2)->x, 8.0f + 3.0f * 2.0f);  // from 14 at 2 m/tick (10 -> 14)
}

TEST(InterpolationTest, PartsMergeIntoTheirTickAndTheWholeReplacesThem) {
  InterpolationBuffer buf;
  EXPECT_TRUE(buf.push(20, std::vector<EntityView>{ev(5, 5.0f, 0.0f)}, false));
  EXPECT_TRUE(buf.push(20, std::vector<EntityView>{ev(1, 1.0f, 0.0f), ev(3, 3.0f, 0.0f)}, false));
  EXPECT_EQ(buf.depth(), 1u);
  Sample s;
  buf.sample(20.0, s);
  ASSERT_EQ(s.entities.size(), 3u);
  EXPECT_EQ(s.entities[0].id, 1u);
  EXPECT_EQ(s.entities[1].id, 3u);
  EXPECT_EQ(s.entities[2].id, 5u);

  EXPECT_TRUE(buf.push(20, std::vector<EntityView>{ev(1, 1.5f, 0.0f), ev(2, 2.0f, 0.0f)}, true));
  buf.sample(20.0, s);
  ASSERT_EQ(s.entities.size(), 2u);
  EXPECT_FLOAT_EQ(s.entities[0].x, 1.5f);
  EXPECT_EQ(s.entities[1].id, 2u);
  // A late part of a tick held whole changes nothing.
  EXPECT_FALSE(buf.push(20, std::vector<EntityView>{ev(9, 9.0f, 0.0f)}, false));
  buf.sample(20.0, s);
  EXPECT_EQ(s.entities.size(), 2u);
}

TEST(InterpolationTest, BoundedToItsCapacity) {
  InterpolationBuffer buf(InterpolationBuffer::Options{32, 7.5});
  for (std::uint32_t t = 1; t <= 40; ++t) buf.push(t, std::vector<EntityView>{ev(1, float(t), 0.0f)}, true);
  EXPECT_EQ(buf.depth(), 32u);
  EXPECT_EQ(buf.oldestTick(), 9u);
  EXPECT_EQ(buf.newestTick(), 40u);
  EXPECT_FALSE(buf.push(3, std::vector<EntityView>{ev(1, 0.0f, 0.0f)}, true));  // older than all held
  EXPECT_TRUE(buf.push(41, std::vector<EntityView>{ev(1, 41.0f, 0.0f)}, true));
  EXPECT_EQ(buf.depth(), 32u);
  EXPECT_EQ(buf.oldestTick(), 10u);
  EXPECT_EQ(buf.depthAhead(38.5), 3u);
  // Out-of-order arrival lands in order.
  InterpolationBuffer ooo;
  ooo.push(14, std::vector<EntityView>{ev(1, 14.0f, 0.0f)}, true);
  ooo.push(10, std::vector<EntityView>{ev(1, 10.0f, 0.0f)}, true);
  Sample s;
  ooo.sample(12.0, s);
  EXPECT_EQ(s.kind, SampleKind::kInterpolated);
  EXPECT_FLOAT_EQ(s.entities[0].x, 12.0f);
}

}  // namespace
}  // namespace steerd::client
