// Velocity estimates between snapshots: an entity moving steadily gets its velocity; one that
// just appeared gets none.
#include <gtest/gtest.h>

#include "viewer/entity_motion.h"

namespace steerd::viewer {
namespace {

TEST(MotionEstimator, SteadyMotionGivesItsVelocity) {
  client::InterpolationBuffer buffer;
  // 30 Hz ticks, a snapshot every 3 ticks; entity 1 moves +0.1 m x, -0.05 m y per tick.
  for (std::uint32_t tick = 100; tick <= 130; tick += 3) {
    const float t = static_cast<float>(tick - 100);
    const client::EntityView e{1, 0, 0.1f * t, 5.0f - 0.05f * t, 0.0f};
    buffer.push(tick, std::span(&e, 1), true);
  }
  // Entity 2 appears only in the last snapshot.
  const client::EntityView pair[2] = {{1, 0, 3.0f, 3.5f, 0.0f}, {2, 1, 0.0f, 0.0f, 0.0f}};
  buffer.push(130, pair, true);

  client::Sample now;
  buffer.sample(129.0, now);
  ASSERT_EQ(now.entities.size(), 1u);  // entity 2 is not shown before its tick
  std::vector<EntityMotion> motion;
  MotionEstimator estimator;
  estimator.estimate(buffer, now, 3.0, 30.0, motion);
  ASSERT_EQ(motion.size(), 1u);
  EXPECT_TRUE(motion[0].known);
  EXPECT_NEAR(motion[0].velocity.x, 3.0f, 1e-3f);  // 0.1 m/tick * 30
  EXPECT_NEAR(motion[0].velocity.y, -1.5f, 1e-3f);

  buffer.sample(130.0, now);
  ASSERT_EQ(now.entities.size(), 2u);
  estimator.estimate(buffer, now, 3.0, 30.0, motion);
  ASSERT_EQ(motion.size(), 2u);
  EXPECT_TRUE(motion[0].known);
  EXPECT_FALSE(motion[1].known);
}

TEST(MotionEstimator, NoSpanOrTickRateMeansUnknown) {
  client::InterpolationBuffer buffer;
  const client::EntityView e{1, 0, 0.0f, 0.0f, 0.0f};
  buffer.push(10, std::span(&e, 1), true);
  client::Sample now;
  buffer.sample(10.0, now);
  std::vector<EntityMotion> motion;
  MotionEstimator estimator;
  estimator.estimate(buffer, now, 0.0, 30.0, motion);
  ASSERT_EQ(motion.size(), 1u);
  EXPECT_FALSE(motion[0].known);
  estimator.estimate(buffer, now, 3.0, -1.0, motion);
  EXPECT_FALSE(motion[0].known);
}

}  // namespace
}  // namespace steerd::viewer
