#include "steering/context_steering.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <span>

namespace steer {
namespace {

constexpr float kTol = 1e-5f;
constexpr float kDiag = 0.70710678f;  // cos 45 degrees
constexpr float kDegree = kPi / 180.0f;

void expectVec(Vec2 actual, Vec2 expected, float tol = kTol) {
  EXPECT_NEAR(actual.x, expected.x, tol);
  EXPECT_NEAR(actual.y, expected.y, tol);
}

void expectMap(std::span<const float> actual, std::initializer_list<float> expected, float tol = kTol) {
  ASSERT_EQ(actual.size(), expected.size());
  std::size_t i = 0;
  for (float e : expected) {
    EXPECT_NEAR(actual[i], e, tol) << "slot " << i;
    ++i;
  }
}

void expectEmpty(const ContextChoice& c) {
  EXPECT_EQ(c.slot, -1);
  EXPECT_EQ(c.direction, Vec2{});
  EXPECT_EQ(c.strength, 0.0f);
}

void expectAllFiniteAndNonNegative(const ContextMap& map) {
  for (float v : map.interest()) {
    EXPECT_TRUE(std::isfinite(v));
    EXPECT_GE(v, 0.0f);
  }
  for (float v : map.danger()) {
    EXPECT_TRUE(std::isfinite(v));
    EXPECT_GE(v, 0.0f);
  }
}

const std::array<Vec2, 1> kTargetPlusX{Vec2{5, 0}};

// ---- the map --------------------------------------------------------------------------------

TEST(ContextMap, SlotsAreWorldDirectionsCounterClockwiseFromPlusX) {
  const ContextMap map(8);
  EXPECT_EQ(map.resolution(), 8);
  expectVec(map.direction(0), {1, 0});
  expectVec(map.direction(1), {kDiag, kDiag});
  expectVec(map.direction(2), {0, 1});
  expectVec(map.direction(4), {-1, 0});
  expectVec(map.direction(7), {kDiag, -kDiag});
  // Neighbours wrap.
  expectVec(map.direction(-1), map.direction(7));
  expectVec(map.direction(8), map.direction(0));
}

TEST(ContextMap, ResolutionIsClampedAndMapsStartZero) {
  EXPECT_EQ(ContextMap(0).resolution(), 1);
  EXPECT_EQ(ContextMap(-5).resolution(), 1);
  EXPECT_EQ(ContextMap(1000).resolution(), kMaxContextSlots);
  const ContextMap map(16);
  EXPECT_EQ(map.interest().size(), 16u);
  EXPECT_EQ(map.danger().size(), 16u);
  for (float v : map.interest()) EXPECT_EQ(v, 0.0f);
  for (float v : map.danger()) EXPECT_EQ(v, 0.0f);
}

TEST(ContextMap, ClearZeroesValuesAndKeepsDirections) {
  ContextMap map(8);
  writeChase(map, {0, 0}, kTargetPlusX);
  writeAvoid(map, {0, 0}, kTargetPlusX);
  map.clear();
  for (float v : map.interest()) EXPECT_EQ(v, 0.0f);
  for (float v : map.danger()) EXPECT_EQ(v, 0.0f);
  expectVec(map.direction(2), {0, 1});
}

// ---- writers --------------------------------------------------------------------------------

TEST(WriteChase, EightSlotsTargetAtPlusXNegativesClampedToZero) {
  ContextMap map(8);
  writeChase(map, {0, 0}, kTargetPlusX);
  expectMap(map.interest(), {1, kDiag, 0, 0, 0, 0, 0, kDiag});
  expectMap(map.danger(), {0, 0, 0, 0, 0, 0, 0, 0});
}

TEST(WriteChase, MaxOverTargetsKeepsStrongestPullPerSlot) {
  ContextMap map(8);
  const std::array targets{Vec2{3, 3}, Vec2{3, -3}};
  writeChase(map, {0, 0}, targets);
  expectMap(map.interest(), {kDiag, 1, kDiag, 0, 0, 0, kDiag, 1});
  EXPECT_EQ(chooseArgmax(map).slot, 1);
}

TEST(WriteChase, SumToCentreHeadsBetweenTargets) {
  ContextMap map(8);
  const std::array targets{Vec2{3, 3}, Vec2{3, -3}};
  writeChase(map, {0, 0}, targets, {0.0f, ChaseMode::kSumToCentre});
  // Slot 0: 0.707 + 0.707; slot 1: 1 + 0; slot 2: 0.707 - 0.707.
  expectMap(map.interest(), {2 * kDiag, 1, 0, 0, 0, 0, 0, 1});
  const ContextChoice c = chooseArgmax(map);
  EXPECT_EQ(c.slot, 0);
  EXPECT_NEAR(c.strength, 2 * kDiag, kTol);
}

TEST(WriteChase, TargetsBeyondMaxDistanceAreIgnored) {
  ContextMap map(8);
  const std::array targets{Vec2{20, 0}, Vec2{0, 3}};
  writeChase(map, {0, 0}, targets, {10.0f, ChaseMode::kMaxOverTargets});
  expectMap(map.interest(), {0, kDiag, 1, kDiag, 0, 0, 0, 0});
  ContextMap sum(8);
  writeChase(sum, {0, 0}, std::span<const Vec2>(targets).first(1), {10.0f, ChaseMode::kSumToCentre});
  expectMap(sum.interest(), {0, 0, 0, 0, 0, 0, 0, 0});
}

TEST(WriteChase, RelativeToBodyPosition) {
  ContextMap map(4);
  const std::array targets{Vec2{10, 7}};
  writeChase(map, {10, 2}, targets);
  expectMap(map.interest(), {0, 1, 0, 0});
}

TEST(WriteChase, WritingTwiceIsTheMergeNotASum) {
  ContextMap map(8);
  writeChase(map, {0, 0}, kTargetPlusX);
  writeChase(map, {0, 0}, kTargetPlusX);
  expectMap(map.interest(), {1, kDiag, 0, 0, 0, 0, 0, kDiag});
}

TEST(WriteChase, CoincidentTargetOrNoTargetsWritesNothing) {
  ContextMap map(8);
  const std::array onTop{Vec2{1, 1}};
  writeChase(map, {1, 1}, onTop);
  writeChase(map, {1, 1}, onTop, {0.0f, ChaseMode::kSumToCentre});
  writeChase(map, {1, 1}, std::span<const Vec2>{});
  expectMap(map.interest(), {0, 0, 0, 0, 0, 0, 0, 0});
  expectEmpty(chooseArgmax(map));
}

TEST(WriteAvoid, DangerTowardsThreat) {
  ContextMap map(8);
  writeAvoid(map, {0, 0}, kTargetPlusX);
  expectMap(map.danger(), {1, kDiag, 0, 0, 0, 0, 0, kDiag});
  expectMap(map.interest(), {0, 0, 0, 0, 0, 0, 0, 0});
}

TEST(WriteAvoid, ClosenessScalingAndRange) {
  ContextMap map(8);
  const std::array threats{Vec2{5, 0}, Vec2{0, -30}};
  writeAvoid(map, {0, 0}, threats, {10.0f, true});
  // 1 - 5 / 10 = 0.5; the threat at 30 is out of range.
  expectMap(map.danger(), {0.5f, 0.5f * kDiag, 0, 0, 0, 0, 0, 0.5f * kDiag});
  ContextMap unscaled(8);
  writeAvoid(unscaled, {0, 0}, threats, {10.0f, false});
  expectMap(unscaled.danger(), {1, kDiag, 0, 0, 0, 0, 0, kDiag});
  // Unlimited range: scaling has nothing to scale against and is ignored.
  ContextMap unlimited(8);
  writeAvoid(unlimited, {0, 0}, threats, {0.0f, true});
  expectMap(unlimited.danger(), {1, kDiag, 0, 0, 0, kDiag, 1, kDiag});
}

TEST(WriteAvoid, CoincidentThreatIsSkipped) {
  ContextMap map(8);
  const std::array onTop{Vec2{2, 2}};
  writeAvoid(map, {2, 2}, onTop, {5.0f, true});
  expectMap(map.danger(), {0, 0, 0, 0, 0, 0, 0, 0});
}

TEST(WriteDirectional, ForwardTimesPointEight) {
  ContextMap map(8);
  writeDirectional(map, {0, 2});
  expectMap(map.interest(), {0, 0.8f * kDiag, 0.8f, 0.8f * kDiag, 0, 0, 0, 0});
  const ContextChoice c = chooseArgmax(map);
  EXPECT_EQ(c.slot, 2);
  EXPECT_NEAR(c.strength, 0.8f, kTol);
}

TEST(WriteDirectional, ZeroForwardWritesNothing) {
  ContextMap map(8);
  writeDirectional(map, {0, 0});
  expectMap(map.interest(), {0, 0, 0, 0, 0, 0, 0, 0});
}

TEST(MergeContextMaps, PerSlotMaxForInterestAndDanger) {
  ContextMap chase(8);
  writeChase(chase, {0, 0}, kTargetPlusX);
  ContextMap wander(8);
  writeDirectional(wander, {0, 1});
  writeAvoid(wander, {0, 0}, std::array{Vec2{-3, 0}});
  ASSERT_TRUE(mergeContextMaps(chase, wander));
  expectMap(chase.interest(), {1, kDiag, 0.8f, 0.8f * kDiag, 0, 0, 0, kDiag});
  expectMap(chase.danger(), {0, 0, 0, kDiag, 1, kDiag, 0, 0});
}

TEST(MergeContextMaps, DifferentResolutionsRefuseAndLeaveTargetAlone) {
  ContextMap a(8);
  writeChase(a, {0, 0}, kTargetPlusX);
  ContextMap b(16);
  writeAvoid(b, {0, 0}, kTargetPlusX);
  EXPECT_FALSE(mergeContextMaps(a, b));
  expectMap(a.danger(), {0, 0, 0, 0, 0, 0, 0, 0});
}

// ---- seed 001's argmax chooser --------------------------------------------------------------

TEST(ChooseArgmax, TargetAtPlusXPicksSlotZero) {
  ContextMap map(8);
  writeChase(map, {0, 0}, kTargetPlusX);
  const ContextChoice c = chooseArgmax(map);
  EXPECT_EQ(c.slot, 0);
  expectVec(c.direction, {1, 0});
  EXPECT_NEAR(c.strength, 1.0f, kTol);
}

TEST(ChooseArgmax, DangerIsSubtractedFromInterest) {
  // Target at +x, threat at 45 degrees: interest - danger = slot 0: 1 - 0.707; slot 7: 0.707 - 0.
  ContextMap map(8);
  writeChase(map, {0, 0}, kTargetPlusX);
  writeAvoid(map, {0, 0}, std::array{Vec2{2, 2}});
  const ContextChoice c = chooseArgmax(map);
  EXPECT_EQ(c.slot, 7);
  expectVec(c.direction, {kDiag, -kDiag});
  EXPECT_NEAR(c.strength, kDiag, kTol);
}

TEST(ChooseArgmax, AllZeroOrAllDangerousMapsChooseNothing) {
  ContextMap map(8);
  expectEmpty(chooseArgmax(map));
  writeChase(map, {0, 0}, kTargetPlusX);
  writeAvoid(map, {0, 0}, kTargetPlusX);  // danger == interest everywhere
  expectEmpty(chooseArgmax(map));
}

// ---- Fray's masking chooser -----------------------------------------------------------------

TEST(ChooseMasked, NoDangerPicksBestInterest) {
  ContextMap map(8);
  writeChase(map, {0, 0}, kTargetPlusX);
  const ContextChoice c = chooseMasked(map);
  EXPECT_EQ(c.slot, 0);
  expectVec(c.direction, {1, 0});  // symmetric neighbours: no interpolation offset
  EXPECT_NEAR(c.strength, 1.0f, kTol);
}

TEST(ChooseMasked, ThreatAlongSlotZeroWithToleranceSteersToSlotOneOrSeven) {
  // danger = [1, .707, 0, 0, 0, 0, 0, .707]; tolerance 0.75 masks slot 0 only. Slots 1 and 7 tie
  // at 0.707; the first index wins.
  ContextMap map(8);
  writeChase(map, {0, 0}, kTargetPlusX);
  writeAvoid(map, {0, 0}, kTargetPlusX);
  MaskParams params;
  params.dangerTolerance = 0.75f;
  params.interpolation = ContextInterpolation::kNone;
  ContextChoice c = chooseMasked(map, params);
  EXPECT_EQ(c.slot, 1);
  expectVec(c.direction, {kDiag, kDiag});
  EXPECT_NEAR(c.strength, kDiag, kTol);
  // Parabolic: the masked slot 0 counts as 0 and slot 2 is 0 too, so no lean either way.
  params.interpolation = ContextInterpolation::kParabolic;
  c = chooseMasked(map, params);
  EXPECT_EQ(c.slot, 1);
  expectVec(c.direction, {kDiag, kDiag});
}

TEST(ChooseMasked, StrictMaskStopsRatherThanMoveIntoDanger) {
  // Same map, tolerance 0: slots 7, 0, 1 are masked and no open slot has any interest.
  ContextMap map(8);
  writeChase(map, {0, 0}, kTargetPlusX);
  writeAvoid(map, {0, 0}, kTargetPlusX);
  expectEmpty(chooseMasked(map));
}

TEST(ChooseMasked, MasksInsteadOfSubtracting) {
  // Target at +x, threat at 45 degrees (danger .707, 1, .707 on slots 0, 1, 2). Argmax would take
  // slot 7 as well, but through subtraction; masking takes slot 7 because 0 and 1 are closed.
  // Slots 3 and 7 sit at exactly 90 degrees to the threat (danger = rounding noise around 0):
  // the strict mask must still leave them open.
  ContextMap map(8);
  writeChase(map, {0, 0}, kTargetPlusX);
  writeAvoid(map, {0, 0}, std::array{Vec2{2, 2}});
  const ContextChoice c = chooseMasked(map);
  EXPECT_EQ(c.slot, 7);
  EXPECT_NEAR(c.strength, kDiag, kTol);
}

TEST(ChooseMasked, LowestDangerIsTheBaselineNotZero) {
  // Uniform danger everywhere masks nothing: the body is equally unsafe in every direction.
  ContextMap map(8);
  writeChase(map, {0, 0}, kTargetPlusX);
  for (float& d : map.danger()) d = 0.3f;
  EXPECT_EQ(chooseMasked(map).slot, 0);
}

TEST(ChooseMasked, ParabolicInterpolationRecoversTargetBetweenSlots) {
  // Target at 10 degrees: interest 0.985 (slot 0), 0.819 (slot 1), 0.574 (slot 7); the fitted
  // peak is at 0.212 slots = 9.6 degrees, between slot 0 and slot 1.
  ContextMap map(8);
  writeChase(map, {0, 0}, std::array{fromAngle(10.0f * kDegree) * 4.0f});
  const ContextChoice c = chooseMasked(map);
  EXPECT_EQ(c.slot, 0);
  const float angle = toAngle(c.direction);
  EXPECT_GT(angle, 0.0f);
  EXPECT_LT(angle, 45.0f * kDegree);
  EXPECT_NEAR(angle, 10.0f * kDegree, 1.0f * kDegree);
  EXPECT_NEAR(length(c.direction), 1.0f, kTol);
  // kNone snaps to the slot.
  MaskParams none;
  none.interpolation = ContextInterpolation::kNone;
  expectVec(chooseMasked(map, none).direction, {1, 0});
}

TEST(ChooseMasked, MaskedNeighbourPushesInterpolationAwayFromDanger) {
  // Target at +x; slot 7 alone is dangerous. Neighbours: masked slot 7 -> 0, slot 1 -> 0.707:
  // delta = 0.5 * 0.707 / (2 - 0.707) = 0.2735 slots = 12.3 degrees towards slot 1.
  ContextMap map(8);
  writeChase(map, {0, 0}, kTargetPlusX);
  map.danger()[7] = 1.0f;
  const ContextChoice c = chooseMasked(map);
  EXPECT_EQ(c.slot, 0);
  const float delta = 0.5f * kDiag / (2.0f - kDiag);
  EXPECT_NEAR(toAngle(c.direction), delta * 45.0f * kDegree, 1e-4f);
}

TEST(ChooseMasked, TiedNeighbourGivesExactlyHalfway) {
  ContextMap map(8);
  map.interest()[2] = 0.6f;
  map.interest()[3] = 0.6f;
  map.interest()[4] = 0.2f;
  const ContextChoice c = chooseMasked(map);
  EXPECT_EQ(c.slot, 2);
  EXPECT_NEAR(toAngle(c.direction), 2.5f * 45.0f * kDegree, 1e-5f);
}

TEST(ChooseMasked, AllZeroMapsChooseNothing) {
  ContextMap map(8);
  expectEmpty(chooseMasked(map));
  for (float& d : map.danger()) d = 1.0f;
  expectEmpty(chooseMasked(map));
}

// ---- resolutions ----------------------------------------------------------------------------

TEST(ContextResolution, TargetOnASlotIsChosenAtEveryResolution) {
  for (int n : {3, 12, 16, 32, 64}) {
    for (int k : {0, 1, n / 2, n - 1}) {
      ContextMap map(n);
      const Vec2 target = fromAngle(2.0f * kPi * static_cast<float>(k) / static_cast<float>(n)) * 7.0f;
      writeChase(map, {0, 0}, std::array{target});
      expectAllFiniteAndNonNegative(map);
      EXPECT_EQ(chooseArgmax(map).slot, k) << "n=" << n;
      const ContextChoice c = chooseMasked(map);
      EXPECT_EQ(c.slot, k) << "n=" << n;
      expectVec(c.direction, map.direction(k), 1e-4f);
    }
  }
}

TEST(ContextResolution, SixteenAndThirtyTwoSlotsInterpolateTowardsTheTarget) {
  for (int n : {16, 32}) {
    ContextMap map(n);
    const float targetAngle = 100.0f * kDegree;
    writeChase(map, {0, 0}, std::array{fromAngle(targetAngle) * 3.0f});
    const float slotWidth = 2.0f * kPi / static_cast<float>(n);
    const ContextChoice c = chooseMasked(map);
    // Parabolic interpolation on a cosine is much better than snapping (half a slot at worst).
    EXPECT_NEAR(toAngle(c.direction), targetAngle, 0.1f * slotWidth) << "n=" << n;
  }
}

TEST(ContextResolution, SixteenSlotsThreatMaskingSteersAround) {
  // Target at +x, threat at +x closer in, tolerance 0.95: only slot 0 (danger 1) is masked;
  // slots 1 and 15 tie at cos(22.5 degrees) = 0.924.
  ContextMap map(16);
  writeChase(map, {0, 0}, kTargetPlusX);
  writeAvoid(map, {0, 0}, std::array{Vec2{2, 0}});
  MaskParams params;
  params.dangerTolerance = 0.95f;
  const ContextChoice c = chooseMasked(map, params);
  EXPECT_EQ(c.slot, 1);
  EXPECT_NEAR(c.strength, std::cos(22.5f * kDegree), kTol);
  // Interpolation leans away from the masked slot 0, further round towards slot 2.
  EXPECT_GT(toAngle(c.direction), 22.5f * kDegree);
}

TEST(ContextResolution, ResolutionOneAndTwoStayFinite) {
  ContextMap one(1);
  writeChase(one, {0, 0}, std::array{Vec2{1, 1}});
  expectMap(one.interest(), {kDiag});
  ContextChoice c = chooseMasked(one);
  EXPECT_EQ(c.slot, 0);
  expectVec(c.direction, {1, 0});
  EXPECT_EQ(chooseArgmax(one).slot, 0);
  ContextMap behind(1);
  writeChase(behind, {0, 0}, std::array{Vec2{-1, 0}});
  expectEmpty(chooseMasked(behind));

  ContextMap two(2);
  writeChase(two, {0, 0}, std::array{Vec2{-1, 0.5f}});
  writeAvoid(two, {0, 0}, std::array{Vec2{1, 0}});
  expectAllFiniteAndNonNegative(two);
  c = chooseMasked(two);
  EXPECT_EQ(c.slot, 1);
  expectVec(c.direction, {-1, 0});
}

// ---- to a force -----------------------------------------------------------------------------

Body bodyWith(Vec2 v, float maxSpeed) {
  Body b;
  b.velocity = v;
  b.limits.maxSpeed = maxSpeed;
  return b;
}

TEST(ContextSteer, DesiredVelocityIsDirectionTimesStrengthTimesMaxSpeed) {
  const ContextChoice choice{{1, 0}, 0.5f, 0};
  const SteeringOutput s = contextSteer(bodyWith({0, 1}, 4.0f), choice);
  expectVec(s.linear, {2, -1});
  EXPECT_EQ(s.angular, 0.0f);
}

TEST(ContextSteer, StrengthIsClampedToOne) {
  // Sum-to-centre interest can exceed 1; it must not exceed maxSpeed.
  const ContextChoice choice{{0, 1}, 1.414f, 2};
  expectVec(contextSteer(bodyWith({}, 3.0f), choice).linear, {0, 3});
}

TEST(ContextSteer, EmptyChoiceBrakesOrDoesNothing) {
  EXPECT_EQ(contextSteer(bodyWith({}, 3.0f), ContextChoice{}), SteeringOutput{});
  expectVec(contextSteer(bodyWith({1, -2}, 3.0f), ContextChoice{}).linear, {-1, 2});
}

TEST(ContextSteer, ZeroMaxSpeedOrNaNStrengthStaysFinite) {
  const ContextChoice choice{{1, 0}, 1.0f, 0};
  expectVec(contextSteer(bodyWith({0.5f, 0}, 0.0f), choice).linear, {-0.5f, 0});
  const ContextChoice nanChoice{{1, 0}, std::numeric_limits<float>::quiet_NaN(), 0};
  const SteeringOutput s = contextSteer(bodyWith({}, 2.0f), nanChoice);
  EXPECT_TRUE(isFinite(s.linear));
  EXPECT_EQ(s.linear, Vec2{});
}

TEST(ContextSteer, EndToEndChaseAroundAThreat) {
  // 16 slots, target at +x, a threat dead ahead at half the distance with closeness scaling:
  // the force points forward and to one side, never straight into the threat, and is finite.
  ContextMap map(16);
  writeChase(map, {0, 0}, std::array{Vec2{10, 0}});
  writeAvoid(map, {0, 0}, std::array{Vec2{5, 0}}, {10.0f, true});
  MaskParams params;
  params.dangerTolerance = 0.4f;
  const ContextChoice c = chooseMasked(map, params);
  ASSERT_NE(c.slot, -1);
  EXPECT_NE(c.slot, 0);
  const SteeringOutput s = contextSteer(bodyWith({}, 2.0f), c);
  EXPECT_TRUE(isFinite(s.linear));
  EXPECT_GT(s.linear.x, 0.0f);
  EXPECT_GT(std::abs(s.linear.y), 0.1f);
}

TEST(WriteAvoidDisc, BlocksOnlyTheSlotsThatPointIntoTheDisc) {
  // 16 slots (22.5 degrees apart); a disc of radius 1 at distance 4 straight along +x: angular
  // half-width asin(1/4) = 14.5 degrees, widened by half a slot (11.25) = 25.7 degrees: slots 0,
  // 1 and 15 (0 and +/-22.5 degrees) are dangerous, slot 2 (45 degrees) is not.
  ContextMap map(16);
  writeAvoidDisc(map, {0, 0}, {4, 0}, 1.0f, 0.0f);
  EXPECT_FLOAT_EQ(map.danger()[0], 1.0f);
  EXPECT_FLOAT_EQ(map.danger()[1], 1.0f);
  EXPECT_FLOAT_EQ(map.danger()[15], 1.0f);
  EXPECT_FLOAT_EQ(map.danger()[2], 0.0f);
  EXPECT_FLOAT_EQ(map.danger()[8], 0.0f);
}

TEST(WriteAvoidDisc, ClosenessScalesWithTheGapAndFarDiscsAreIgnored) {
  ContextMap map(8);
  writeAvoidDisc(map, {0, 0}, {5, 0}, 1.0f, 8.0f);  // gap 4 of 8: closeness 0.5
  EXPECT_FLOAT_EQ(map.danger()[0], 0.5f);
  ContextMap far(8);
  writeAvoidDisc(far, {0, 0}, {20, 0}, 1.0f, 8.0f);  // gap 19 > 8
  for (float d : far.danger()) EXPECT_EQ(d, 0.0f);
}

TEST(WriteAvoidDisc, GoalBehindAnObstacleStillLeavesAWayRound) {
  // The target is straight behind a disc: the cosine lobe of writeAvoid masks every slot with
  // interest, so Fray's chooser stops; the disc form leaves the tangent slots open.
  ContextMap lobe(16), disc(16);
  const Vec2 target[1] = {{10, 0}};
  const Vec2 threat[1] = {{2, 0}};
  writeChase(lobe, {0, 0}, target);
  writeChase(disc, {0, 0}, target);
  writeAvoid(lobe, {0, 0}, threat);
  writeAvoidDisc(disc, {0, 0}, {2, 0}, 1.0f, 0.0f);
  EXPECT_EQ(chooseMasked(lobe).slot, -1);
  const ContextChoice c = chooseMasked(disc);
  ASSERT_GE(c.slot, 0);
  EXPECT_GT(c.strength, 0.0f);
  EXPECT_GT(c.direction.x, 0.0f);            // still heading towards the target...
  EXPECT_GT(std::abs(c.direction.y), 0.3f);  // ...but round the disc
}

TEST(WriteAvoidDisc, DegenerateInputsWriteNothingOrStayFinite) {
  ContextMap map(8);
  writeAvoidDisc(map, {1, 1}, {1, 1}, 1.0f, 5.0f);  // on top: no direction
  for (float d : map.danger()) EXPECT_EQ(d, 0.0f);
  writeAvoidDisc(map, {0, 0}, {0.5f, 0}, 1.0f, 5.0f);  // inside: the facing half
  EXPECT_FLOAT_EQ(map.danger()[0], 1.0f);
  EXPECT_EQ(map.danger()[4], 0.0f);
  writeAvoidDisc(map, {0, 0}, {3, 0}, -2.0f, 5.0f);  // negative radius counts as 0
  for (float d : map.danger()) EXPECT_TRUE(std::isfinite(d));
}

// ---- degenerate inputs for every writer and both choosers ------------------------------------

TEST(ContextWriters, NaNOrNegativeParamsNeverWriteNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // NaN max distance means unlimited (as <= 0 does): the far target and threat still count.
  ContextMap map(8);
  writeChase(map, {0, 0}, std::array{Vec2{1000, 0}}, {nan, ChaseMode::kMaxOverTargets});
  writeChase(map, {0, 0}, std::array{Vec2{1000, 0}}, {nan, ChaseMode::kSumToCentre});
  writeAvoid(map, {0, 0}, std::array{Vec2{0, -1000}}, {nan, true});
  expectAllFiniteAndNonNegative(map);
  expectMap(map.interest(), {1, kDiag, 0, 0, 0, 0, 0, kDiag});
  expectMap(map.danger(), {0, 0, 0, 0, 0, kDiag, 1, kDiag});
  // Directional with a NaN, negative or zero strength writes nothing (the map never goes negative).
  ContextMap dir(8);
  writeDirectional(dir, {1, 0}, {nan});
  writeDirectional(dir, {1, 0}, {-0.8f});
  writeDirectional(dir, {1, 0}, {0.0f});
  writeDirectional(dir, {nan, 0}, {});
  expectAllFiniteAndNonNegative(dir);
  // Disc with NaN distance or radius: nothing NaN.
  writeAvoidDisc(dir, {0, 0}, {3, 0}, nan, 5.0f);
  writeAvoidDisc(dir, {0, 0}, {3, 0}, 1.0f, nan);
  expectAllFiniteAndNonNegative(dir);
}

TEST(ContextChoosers, CoincidentEverythingAndZeroMaxSpeedStayFinite) {
  // Body, targets and threats all at one point: every writer skips, both choosers stop, and the
  // force for a body at rest with maxSpeed 0 is exactly zero.
  ContextMap map(16);
  const std::array here{Vec2{3, 3}};
  writeChase(map, {3, 3}, here);
  writeChase(map, {3, 3}, here, {0.0f, ChaseMode::kSumToCentre});
  writeAvoid(map, {3, 3}, here, {5.0f, true});
  writeAvoidDisc(map, {3, 3}, {3, 3}, 1.0f, 5.0f);
  writeDirectional(map, {0, 0});
  expectAllFiniteAndNonNegative(map);
  for (const ContextChoice& c :
       {chooseArgmax(map), chooseMasked(map), chooseMasked(map, {0.5f, ContextInterpolation::kNone})}) {
    expectEmpty(c);
    const SteeringOutput s = contextSteer(bodyWith({}, 0.0f), c);
    EXPECT_TRUE(std::isfinite(s.linear.x) && std::isfinite(s.linear.y) && std::isfinite(s.angular));
    EXPECT_EQ(s, SteeringOutput{});
  }
  // A real choice with maxSpeed 0 and a body at rest: zero force, not NaN.
  ContextMap chase(16);
  writeChase(chase, {0, 0}, kTargetPlusX);
  EXPECT_EQ(contextSteer(bodyWith({}, 0.0f), chooseMasked(chase)), SteeringOutput{});
  EXPECT_EQ(contextSteer(bodyWith({}, 0.0f), chooseArgmax(chase)), SteeringOutput{});
}

TEST(ChooseMasked, NaNToleranceIsStrictAndFlatInterestDoesNotInterpolate) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  ContextMap map(8);
  writeChase(map, {0, 0}, kTargetPlusX);
  writeAvoid(map, {0, 0}, std::array{Vec2{0, 5}});
  MaskParams params;
  params.dangerTolerance = nan;  // treated as 0: only the safest slots stay open
  const ContextChoice c = chooseMasked(map, params);
  EXPECT_TRUE(isFinite(c.direction));
  EXPECT_EQ(c.slot, 0);
  // Every slot equally interesting: curvature 0, no 0/0 in the parabola, slot 0's own direction.
  ContextMap flat(8);
  for (float& v : flat.interest()) v = 0.5f;
  const ContextChoice f = chooseMasked(flat);
  EXPECT_EQ(f.slot, 0);
  expectVec(f.direction, {1, 0});
  EXPECT_NEAR(f.strength, 0.5f, kTol);
}

}  // namespace
}  // namespace steer
