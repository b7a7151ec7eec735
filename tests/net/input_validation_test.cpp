#include "net/input_validation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace steerd::net {
namespace {

wire::PlayerInput at(float x, float y, float vx = 0, float vy = 0) {
  wire::PlayerInput in;
  in.set_x(x);
  in.set_y(y);
  in.set_vx(vx);
  in.set_vy(vy);
  return in;
}

InputLimits limits() {
  InputLimits l;
  l.bounds = {0, 0, 100, 100};
  l.maxSpeed = 8.0f;
  l.tolerance = 1.25f;
  return l;
}

TEST(InputValidation, AcceptsAnOrdinaryStep) {
  const auto v = validateInput(at(50.2f, 50, 6, 0), {50, 50}, 8.0f / 30, limits());
  EXPECT_EQ(v.verdict, InputVerdict::kAccepted);
  EXPECT_FLOAT_EQ(v.position.x, 50.2f);
  EXPECT_FLOAT_EQ(v.velocity.x, 6.0f);
}

TEST(InputValidation, RejectsNonFiniteAndOutOfBounds) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (const auto& in :
       {at(nan, 1), at(1, inf), at(1, 1, nan, 0), at(1, 1, 0, -inf), at(-1, 50), at(50, 100.5f)}) {
    EXPECT_EQ(validateInput(in, {50, 50}, 8.0f, limits()).verdict, InputVerdict::kRejected);
  }
}

TEST(InputValidation, ClampsSpeedAndJumps) {
  // 100 m/s claimed: clamped to the archetype's 8 m/s; a velocity is no move, so no over-reach.
  auto v = validateInput(at(50, 50, 100, 0), {50, 50}, 8.0f / 30, limits());
  EXPECT_EQ(v.verdict, InputVerdict::kClamped);
  EXPECT_FLOAT_EQ(v.velocity.x, 8.0f);
  EXPECT_FALSE(v.overReach);
  // A 30 m jump with a tick's reach at 8 m/s: moved only that far, towards the claim.
  v = validateInput(at(80, 50), {50, 50}, 8.0f / 30, limits());
  EXPECT_EQ(v.verdict, InputVerdict::kClamped);
  EXPECT_TRUE(v.overReach);
  EXPECT_NEAR(v.position.x, 50 + 8.0f / 30, 1e-4);
  EXPECT_FLOAT_EQ(v.position.y, 50.0f);
  // The same jump with 32 m of reach is fine.
  v = validateInput(at(80, 50), {50, 50}, 32.0f, limits());
  EXPECT_EQ(v.verdict, InputVerdict::kAccepted);
  EXPECT_FALSE(v.overReach);
}

// No reach (a spent budget), or a NaN one: the body stays where it was, whatever is claimed.
TEST(InputValidation, NoReachMeansNoMove) {
  for (const float reach : {0.0f, -1.0f, std::numeric_limits<float>::quiet_NaN()}) {
    const auto v = validateInput(at(51, 50), {50, 50}, reach, limits());
    EXPECT_EQ(v.verdict, InputVerdict::kClamped);
    EXPECT_TRUE(v.overReach);
    EXPECT_EQ(v.position.x, 50.0f);
    EXPECT_EQ(v.position.y, 50.0f);
  }
}

}  // namespace
}  // namespace steerd::net
