#include "steering/combiners.h"

#include <gtest/gtest.h>

#include <array>
#include <limits>
#include <span>
#include <type_traits>

namespace steer {
namespace {

constexpr float kTol = 1e-5f;

void expectVec(Vec2 actual, Vec2 expected, float tol = kTol) {
  EXPECT_NEAR(actual.x, expected.x, tol);
  EXPECT_NEAR(actual.y, expected.y, tol);
}

void expectFinite(const SteeringOutput& s) {
  EXPECT_TRUE(isFinite(s.linear)) << s.linear.x << ", " << s.linear.y;
  EXPECT_TRUE(isFinite(s.angular));
}

SteeringOutput force(float x, float y, float angular = 0.0f) { return {{x, y}, angular}; }

WeightedBehaviour wb(SteeringOutput out, float weight = 1.0f, int priority = 0, float probability = 1.0f) {
  return {out, weight, priority, probability};
}

constexpr CombineLimits kLimits{10.0f, 2.0f, kEpsilon};

// ---- weighted blend -------------------------------------------------------------------------

TEST(WeightedBlend, SumsWeightedOutputsUnderTheLimit) {
  const std::array bs{wb(force(1, 0, 0.5f), 2.0f), wb(force(0, 3), 0.5f)};
  const SteeringOutput s = weightedBlend(bs, kLimits);
  expectVec(s.linear, {2, 1.5f});
  EXPECT_NEAR(s.angular, 1.0f, kTol);
}

TEST(WeightedBlend, TruncatesToMaxForceKeepingDirection) {
  // Sum (12, 16), length 20 -> (6, 8).
  const std::array bs{wb(force(6, 8), 1.0f), wb(force(3, 4), 2.0f)};
  const SteeringOutput s = weightedBlend(bs, kLimits);
  expectVec(s.linear, {6, 8});
}

TEST(WeightedBlend, WeightsNeedNotSumToOne) {
  const std::array bs{wb(force(1, 0), 3.0f), wb(force(1, 0), 4.0f)};
  expectVec(weightedBlend(bs, kLimits).linear, {7, 0});
}

TEST(WeightedBlend, AngularIsClampedToMaxAngular) {
  const std::array bs{wb(force(0, 0, 3.0f)), wb(force(0, 0, 4.0f))};
  EXPECT_NEAR(weightedBlend(bs, kLimits).angular, 2.0f, kTol);
  const std::array neg{wb(force(0, 0, -5.0f))};
  EXPECT_NEAR(weightedBlend(neg, kLimits).angular, -2.0f, kTol);
}

TEST(WeightedBlend, EmptyOrZeroLimitsGiveZero) {
  EXPECT_EQ(weightedBlend(std::span<const WeightedBehaviour>{}, kLimits), SteeringOutput{});
  const std::array bs{wb(force(3, 4, 1.0f))};
  const SteeringOutput s = weightedBlend(bs, CombineLimits{0.0f, 0.0f, kEpsilon});
  expectFinite(s);
  EXPECT_EQ(s.linear, Vec2{});
  EXPECT_EQ(s.angular, 0.0f);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const SteeringOutput n = weightedBlend(bs, CombineLimits{nan, nan, kEpsilon});
  expectFinite(n);
}

TEST(WeightedBlend, ForceLimitsOfTakesMaxForceAndAngularAcceleration) {
  BodyLimits limits;
  limits.maxForce = 3.0f;
  limits.maxAngularAcceleration = 0.5f;
  const CombineLimits c = forceLimitsOf(limits);
  EXPECT_EQ(c.maxLinear, 3.0f);
  EXPECT_EQ(c.maxAngular, 0.5f);
}

// ---- priority -------------------------------------------------------------------------------

TEST(Prioritised, FirstNonZeroInPriorityOrderWins) {
  // Listed out of order on purpose: priority values decide, not array position.
  const std::array bs{wb(force(0, 5), 1.0f, 2), wb(force(0, 0), 1.0f, 0), wb(force(3, 0), 2.0f, 1)};
  const SteeringOutput s = prioritised(bs, kLimits);
  expectVec(s.linear, {6, 0});
}

TEST(Prioritised, EqualPrioritiesKeepInputOrder) {
  const std::array bs{wb(force(1, 0)), wb(force(0, 1))};
  expectVec(prioritised(bs, kLimits).linear, {1, 0});
}

TEST(Prioritised, AngularOnlyOutputCountsAsSomething) {
  const std::array bs{wb(force(0, 0, 0.5f), 1.0f, 0), wb(force(4, 0), 1.0f, 1)};
  const SteeringOutput s = prioritised(bs, kLimits);
  EXPECT_EQ(s.linear, Vec2{});
  EXPECT_NEAR(s.angular, 0.5f, kTol);
}

TEST(Prioritised, WinnerIsTruncatedAndZeroWeightTurnsABehaviourOff) {
  const std::array bs{wb(force(100, 0), 0.0f, 0), wb(force(0, 30), 1.0f, 1)};
  expectVec(prioritised(bs, kLimits).linear, {0, 10});
}

TEST(Prioritised, BelowEpsilonIsNothing) {
  const std::array bs{wb(force(1e-7f, 0)), wb(force(0, 0))};
  EXPECT_EQ(prioritised(bs, kLimits), SteeringOutput{});
  EXPECT_EQ(prioritised(std::span<const WeightedBehaviour>{}, kLimits), SteeringOutput{});
}

TEST(Prioritised, LazyStopsEvaluatingAfterTheWinner) {
  int calls[3] = {0, 0, 0};
  auto zero = [&] {
    ++calls[0];
    return SteeringOutput{};
  };
  auto avoid = [&] {
    ++calls[1];
    return force(0, 2);
  };
  auto wander = [&] {
    ++calls[2];
    return force(1, 0);
  };
  const std::array<LazyBehaviour, 3> bs{{{wander, 1.0f, 2}, {zero, 1.0f, 0}, {avoid, 1.5f, 1}}};
  expectVec(prioritised(bs, kLimits).linear, {0, 3});
  EXPECT_EQ(calls[0], 1);
  EXPECT_EQ(calls[1], 1);
  EXPECT_EQ(calls[2], 0);
}

// ---- Buckland's running sum -----------------------------------------------------------------

TEST(RunningSum, SixSixSixWithBudgetTenGivesSixPlusFour) {
  const std::array bs{wb(force(6, 0), 1.0f, 0), wb(force(6, 0), 1.0f, 1), wb(force(6, 0), 1.0f, 2)};
  const SteeringOutput s = runningSum(bs, kLimits);
  expectVec(s.linear, {10, 0});
}

TEST(RunningSum, SecondForceIsCutToFitAndThirdIgnored) {
  // The third points the other way: had it been added, the total would shrink below 10.
  const std::array bs{wb(force(6, 0), 1.0f, 0), wb(force(6, 0), 1.0f, 1), wb(force(-6, 0), 1.0f, 2)};
  expectVec(runningSum(bs, kLimits).linear, {10, 0});
}

TEST(RunningSum, BudgetIsSpentOnMagnitudesSoPerpendicularForcesEndBelowMax) {
  // 6 along x leaves 4; the second (6 along y) is cut to 4: (6, 4), |.| = 7.21 < 10.
  const std::array bs{wb(force(6, 0), 1.0f, 0), wb(force(0, 6), 1.0f, 1), wb(force(0, 6), 1.0f, 2)};
  const SteeringOutput s = runningSum(bs, kLimits);
  expectVec(s.linear, {6, 4});
  EXPECT_LE(length(s.linear), 10.0f);
}

TEST(RunningSum, WeightsApplyBeforeTheBudget) {
  // 2 * 3 = 6, then 0.5 * 6 = 3: total 9, under budget, all three reach it.
  const std::array bs{wb(force(3, 0), 2.0f, 0), wb(force(6, 0), 0.5f, 1), wb(force(0.5f, 0), 1.0f, 2)};
  expectVec(runningSum(bs, kLimits).linear, {9.5f, 0});
}

TEST(RunningSum, ExactFitStopsEvaluation) {
  int thirdCalls = 0;
  auto a = [] { return force(4, 0); };
  auto b = [] { return force(6, 0); };
  auto c = [&] {
    ++thirdCalls;
    return force(1, 0);
  };
  const std::array<LazyBehaviour, 3> bs{{{a, 1.0f, 0}, {b, 1.0f, 1}, {c, 1.0f, 2}}};
  expectVec(runningSum(bs, kLimits).linear, {10, 0});
  EXPECT_EQ(thirdCalls, 0);
}

TEST(RunningSum, LazyNeverEvaluatesPastTheBudget) {
  int calls[3] = {0, 0, 0};
  auto f0 = [&] {
    ++calls[0];
    return force(6, 0);
  };
  auto f1 = [&] {
    ++calls[1];
    return force(6, 0);
  };
  auto f2 = [&] {
    ++calls[2];
    return force(6, 0);
  };
  const std::array<LazyBehaviour, 3> bs{{{f0, 1.0f, 0}, {f1, 1.0f, 1}, {f2, 1.0f, 2}}};
  expectVec(runningSum(bs, kLimits).linear, {10, 0});
  EXPECT_EQ(calls[0], 1);
  EXPECT_EQ(calls[1], 1);
  EXPECT_EQ(calls[2], 0);
}

TEST(RunningSum, AngularRidesAlongAndIsClamped) {
  const std::array bs{wb(force(0, 0, 1.5f), 1.0f, 0), wb(force(0, 0, 1.5f), 1.0f, 1)};
  const SteeringOutput s = runningSum(bs, kLimits);
  EXPECT_EQ(s.linear, Vec2{});
  EXPECT_NEAR(s.angular, 2.0f, kTol);
}

TEST(RunningSum, DegenerateInputsGiveZeroNotNaN) {
  EXPECT_EQ(runningSum(std::span<const WeightedBehaviour>{}, kLimits), SteeringOutput{});
  const std::array zeros{wb(force(0, 0)), wb(force(0, 0), 0.0f)};
  EXPECT_EQ(runningSum(zeros, kLimits), SteeringOutput{});
  const std::array bs{wb(force(3, 4))};
  const SteeringOutput s = runningSum(bs, CombineLimits{0.0f, 0.0f, kEpsilon});
  expectFinite(s);
  EXPECT_EQ(s.linear, Vec2{});
  EXPECT_EQ(s.angular, 0.0f);
  expectFinite(runningSum(bs, CombineLimits{-5.0f, -1.0f, kEpsilon}));
}

// ---- prioritised dithering ------------------------------------------------------------------

TEST(Dithered, ProbabilityOneActsLikePriorityScaledByWeight) {
  Rng rng(1);
  const std::array bs{wb(force(0, 0), 1.0f, 0), wb(force(2, 0), 1.5f, 1), wb(force(0, 1), 1.0f, 2)};
  expectVec(dithered(bs, kLimits, rng).linear, {3, 0});
}

TEST(Dithered, WinnerIsScaledByWeightOverProbability) {
  const std::array bs{wb(force(1, 0), 2.0f, 0, 0.5f)};
  // Find a seed whose first draw is below 0.5 so the behaviour runs, without hard-coding one.
  std::uint64_t seed = 0;
  while (Rng(seed).uniform() >= 0.5f) ++seed;
  Rng passing(seed);
  expectVec(dithered(bs, kLimits, passing).linear, {4, 0});  // 1 * 2 / 0.5
}

TEST(Dithered, ProbabilityZeroIsNeverEvaluated) {
  int calls = 0;
  auto never = [&] {
    ++calls;
    return force(5, 0);
  };
  auto fallback = [] { return force(0, 1); };
  const std::array<LazyBehaviour, 2> bs{{{never, 1.0f, 0, 0.0f}, {fallback, 1.0f, 1, 1.0f}}};
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    Rng rng(seed);
    expectVec(dithered(bs, kLimits, rng).linear, {0, 1});
  }
  EXPECT_EQ(calls, 0);
}

TEST(Dithered, SkippedBehavioursAreNotComputedAndRateMatchesProbability) {
  int calls = 0;
  auto sometimes = [&] {
    ++calls;
    return force(1, 0);
  };
  auto fallback = [] { return force(0, 1); };
  const std::array<LazyBehaviour, 2> bs{{{sometimes, 1.0f, 0, 0.25f}, {fallback, 1.0f, 1, 1.0f}}};
  int wins = 0;
  constexpr int kTicks = 4000;
  for (int tick = 0; tick < kTicks; ++tick) {
    Rng rng = Rng::forAgent(99, 3, static_cast<std::uint64_t>(tick));
    const SteeringOutput s = dithered(bs, kLimits, rng);
    if (s.linear.x > 0.0f) {
      ++wins;
      expectVec(s.linear, {4, 0});  // 1 * 1 / 0.25
    } else {
      expectVec(s.linear, {0, 1});
    }
  }
  EXPECT_EQ(calls, wins);  // evaluated exactly on the ticks it won, never otherwise
  EXPECT_NEAR(static_cast<float>(wins) / kTicks, 0.25f, 0.03f);
}

TEST(Dithered, SameRngStreamSameResult) {
  const std::array bs{wb(force(1, 0), 1.0f, 0, 0.5f), wb(force(0, 1), 1.0f, 1, 0.5f),
                      wb(force(-1, 0), 1.0f, 2, 0.5f)};
  for (std::uint64_t tick = 0; tick < 50; ++tick) {
    Rng a = Rng::forAgent(1, 2, tick);
    Rng b = Rng::forAgent(1, 2, tick);
    EXPECT_EQ(dithered(bs, kLimits, a), dithered(bs, kLimits, b));
  }
}

TEST(Dithered, DegenerateInputsGiveZeroNotNaN) {
  Rng rng(3);
  EXPECT_EQ(dithered(std::span<const WeightedBehaviour>{}, kLimits, rng), SteeringOutput{});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::array bs{wb(force(1, 0), 1.0f, 0, nan), wb(force(1, 0), 1.0f, 0, -1.0f), wb(force(0, 0))};
  for (int i = 0; i < 20; ++i) EXPECT_EQ(dithered(bs, kLimits, rng), SteeringOutput{});
  const std::array big{wb(force(30, 40))};
  expectVec(dithered(big, kLimits, rng).linear, {6, 8});
  expectFinite(dithered(big, CombineLimits{0.0f, 0.0f, kEpsilon}, rng));
}

// ---- priority groups ------------------------------------------------------------------------

TEST(PriorityGroups, FirstGroupAboveEpsilonWinsBlendedInside) {
  // Group 0 blends to zero (two opposed avoidances cancel); group 1 blends (1,0)*2 + (0,1)*1.
  const std::array bs{wb(force(1, 0), 1.0f, 0), wb(force(-1, 0), 1.0f, 0), wb(force(1, 0), 2.0f, 1),
                      wb(force(0, 1), 1.0f, 1), wb(force(0, 9), 1.0f, 2)};
  expectVec(priorityGroups(bs, kLimits).linear, {2, 1});
}

TEST(PriorityGroups, GroupIsTruncatedAsABlend) {
  const std::array bs{wb(force(6, 0), 1.0f, 5), wb(force(0, 8), 1.0f, 5), wb(force(1, 0), 1.0f, 9)};
  expectVec(priorityGroups(bs, kLimits).linear, {6, 8});
  const std::array over{wb(force(12, 0), 1.0f, 5), wb(force(0, 16), 1.0f, 5)};
  expectVec(priorityGroups(over, kLimits).linear, {6, 8});
}

TEST(PriorityGroups, LaterGroupsAreNotEvaluated) {
  int calls[3] = {0, 0, 0};
  auto a = [&] {
    ++calls[0];
    return force(1, 0);
  };
  auto b = [&] {
    ++calls[1];
    return force(0, 1);
  };
  auto c = [&] {
    ++calls[2];
    return force(5, 5);
  };
  const std::array<LazyBehaviour, 3> bs{{{c, 1.0f, 1}, {a, 1.0f, 0}, {b, 1.0f, 0}}};
  expectVec(priorityGroups(bs, kLimits).linear, {1, 1});
  EXPECT_EQ(calls[0], 1);
  EXPECT_EQ(calls[1], 1);
  EXPECT_EQ(calls[2], 0);
}

TEST(PriorityGroups, NoGroupAboveEpsilonGivesZero) {
  const std::array bs{wb(force(1e-8f, 0), 1.0f, 0), wb(force(0, 0), 1.0f, 1)};
  EXPECT_EQ(priorityGroups(bs, kLimits), SteeringOutput{});
  EXPECT_EQ(priorityGroups(std::span<const WeightedBehaviour>{}, kLimits), SteeringOutput{});
  const std::array real{wb(force(3, 0))};
  expectFinite(priorityGroups(real, CombineLimits{0.0f, 0.0f, kEpsilon}));
}

TEST(PriorityGroups, NegativeAndExtremePrioritiesOrderCorrectly) {
  constexpr int kMin = std::numeric_limits<int>::min();
  constexpr int kMax = std::numeric_limits<int>::max();
  const std::array bs{wb(force(0, 1), 1.0f, kMax), wb(force(1, 0), 1.0f, kMin), wb(force(0, 0), 1.0f, -3)};
  expectVec(priorityGroups(bs, kLimits).linear, {1, 0});
  const std::array onlyMax{wb(force(0, 0), 1.0f, 0), wb(force(0, 2), 1.0f, kMax)};
  expectVec(priorityGroups(onlyMax, kLimits).linear, {0, 2});
  expectVec(prioritised(onlyMax, kLimits).linear, {0, 2});
}

TEST(LazyBehaviour, RefBindsNamedCallablesOnlySoItCannotDangle) {
  auto named = [] { return force(1, 0); };
  static_assert(std::is_constructible_v<BehaviourRef, decltype(named)&>);
  static_assert(std::is_constructible_v<BehaviourRef, const decltype(named)&>);
  static_assert(!std::is_constructible_v<BehaviourRef, decltype(named)>);  // a temporary
  static_assert(!std::is_constructible_v<BehaviourRef, int&>);             // not a behaviour
  int counter = 0;
  auto stateful = [&counter]() mutable {
    ++counter;
    return force(0, static_cast<float>(counter));
  };
  const BehaviourRef ref = stateful;
  const BehaviourRef copy = ref;
  expectVec(ref().linear, {0, 1});
  expectVec(copy().linear, {0, 2});  // the same callable, not a copy of it
}

TEST(LazyBehaviour, LazyAndPrecomputedAgree) {
  auto a = [] { return force(6, 0, 0.5f); };
  auto b = [] { return force(0, 6); };
  auto c = [] { return force(6, 6); };
  const std::array<LazyBehaviour, 3> lazy{{{a, 1.0f, 0}, {b, 0.5f, 1}, {c, 2.0f, 1}}};
  const std::array pre{wb(a(), 1.0f, 0), wb(b(), 0.5f, 1), wb(c(), 2.0f, 1)};
  EXPECT_EQ(weightedBlend(lazy, kLimits), weightedBlend(pre, kLimits));
  EXPECT_EQ(prioritised(lazy, kLimits), prioritised(pre, kLimits));
  EXPECT_EQ(runningSum(lazy, kLimits), runningSum(pre, kLimits));
  EXPECT_EQ(priorityGroups(lazy, kLimits), priorityGroups(pre, kLimits));
  Rng r1(5);
  Rng r2(5);
  EXPECT_EQ(dithered(lazy, kLimits, r1), dithered(pre, kLimits, r2));
}

// ---- degenerate limits and sets, every combiner -------------------------------------------------

TEST(Prioritised, DegenerateInputsGiveZeroNotNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::array bs{wb(force(3, 4, 1.0f))};
  for (const CombineLimits limits :
       {CombineLimits{0.0f, 0.0f, kEpsilon}, CombineLimits{-5.0f, -1.0f, kEpsilon},
        CombineLimits{nan, nan, kEpsilon}}) {
    const SteeringOutput s = prioritised(bs, limits);
    expectFinite(s);
    EXPECT_EQ(s.linear, Vec2{});
    EXPECT_EQ(s.angular, 0.0f);
  }
  // Every weight zero: nothing wins.
  const std::array off{wb(force(3, 4), 0.0f, 0), wb(force(0, 1, 1.0f), 0.0f, 1)};
  EXPECT_EQ(prioritised(off, kLimits), SteeringOutput{});
}

TEST(CombinersAll, EmptySetsZeroWeightsAndNaNLimitsNeverGiveNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::span<const WeightedBehaviour> none{};
  const std::array bs{wb(force(6, 8, 1.5f), 1.0f, 0), wb(force(-3, 0), 2.0f, 1)};
  const std::array zeroWeights{wb(force(6, 8, 1.5f), 0.0f, 0), wb(force(-3, 0), 0.0f, 1)};
  const CombineLimits nanLimits{nan, nan, kEpsilon};
  const CombineLimits zeroLimits{0.0f, 0.0f, kEpsilon};
  Rng rng(7);
  EXPECT_EQ(weightedBlend(none, kLimits), SteeringOutput{});
  EXPECT_EQ(prioritised(none, kLimits), SteeringOutput{});
  EXPECT_EQ(runningSum(none, kLimits), SteeringOutput{});
  EXPECT_EQ(dithered(none, kLimits, rng), SteeringOutput{});
  EXPECT_EQ(priorityGroups(none, kLimits), SteeringOutput{});
  EXPECT_EQ(weightedBlend(zeroWeights, kLimits), SteeringOutput{});
  EXPECT_EQ(runningSum(zeroWeights, kLimits), SteeringOutput{});
  EXPECT_EQ(dithered(zeroWeights, kLimits, rng), SteeringOutput{});
  EXPECT_EQ(priorityGroups(zeroWeights, kLimits), SteeringOutput{});
  for (const CombineLimits& limits : {nanLimits, zeroLimits}) {
    for (const SteeringOutput& s :
         {weightedBlend(bs, limits), prioritised(bs, limits), runningSum(bs, limits),
          dithered(bs, limits, rng), priorityGroups(bs, limits)}) {
      expectFinite(s);
      EXPECT_EQ(s.linear, Vec2{});
      EXPECT_EQ(s.angular, 0.0f);
    }
  }
}

TEST(Dithered, ProbabilityAboveOneAlwaysRunsAndScalesDown) {
  // p = 2: uniform() < 2 always; the winner is scaled by weight / p = 0.5.
  const std::array bs{wb(force(4, 0), 1.0f, 0, 2.0f)};
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    Rng rng(seed);
    expectVec(dithered(bs, kLimits, rng).linear, {2, 0});
  }
}

}  // namespace
}  // namespace steer
