// Separation, cohesion and alignment judged in whole worlds: each verdict is measured against the
// same world without the behaviour (the flock's spacing, spread and agreement), so it fails when
// the behaviour is taken out.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "world/world.h"

namespace steerd {
namespace {

BehaviourSpec only(BehaviourKind kind) {
  BehaviourSpec b;
  b.kind = kind;
  return b;
}

// 25 bodies, 5 x 5 with `spacing` m between them, each set moving along a direction drawn from a
// fixed stream at `speed`; `behaviours` (none: they coast). Stepped `ticks`.
std::unique_ptr<World> flock(std::vector<BehaviourSpec> behaviours, float spacing, float speed, int ticks) {
  StaticGeometry g;
  g.bounds = {0, 0, 200, 200};
  Archetype a;
  a.name = "flock";
  a.limits = {0.5f, 1.0f, 3.0f, 6.0f, 2.0f * steer::kPi};
  a.flock.radius = 30.0f;
  a.flock.fovDegrees = 360.0f;
  a.behaviours = std::move(behaviours);
  auto w = std::make_unique<World>(std::move(g), std::vector<Archetype>{a}, WorldConfig{});
  for (int i = 0; i < 25; ++i) {
    const float angle = static_cast<float>((i * 137) % 360) * steer::kPi / 180.0f;
    w->spawn(
        0,
        {100.0f + spacing * static_cast<float>(i % 5 - 2), 100.0f + spacing * static_cast<float>(i / 5 - 2)},
        {speed * std::cos(angle), speed * std::sin(angle)});
  }
  for (int t = 0; t < ticks; ++t) w->step();
  return w;
}

float closestPair(const World& w) {
  const AgentColumns& a = w.agents();
  float best = std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = i + 1; j < a.size(); ++j)
      best = std::min(best, std::hypot(a.px[i] - a.px[j], a.py[i] - a.py[j]));
  return best;
}

float meanDistanceToCentroid(const World& w) {
  const AgentColumns& a = w.agents();
  float cx = 0, cy = 0;
  for (std::size_t i = 0; i < a.size(); ++i) cx += a.px[i], cy += a.py[i];
  cx /= static_cast<float>(a.size());
  cy /= static_cast<float>(a.size());
  float sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += std::hypot(a.px[i] - cx, a.py[i] - cy);
  return sum / static_cast<float>(a.size());
}

// |mean of the unit velocities|: 1 when all go one way, near 0 when every way.
float agreement(const World& w) {
  const AgentColumns& a = w.agents();
  float sx = 0, sy = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const float v = std::hypot(a.vx[i], a.vy[i]);
    if (v > 0) sx += a.vx[i] / v, sy += a.vy[i] / v;
  }
  return std::hypot(sx, sy) / static_cast<float>(a.size());
}

TEST(FlockingWorld, SeparationWidensACloseCrowd) {
  // 1.2 m apart (bodies of 0.5 m radius, not touching: the world's overlap push leaves them be),
  // standing still.
  const auto with = flock({only(BehaviourKind::kSeparation)}, 1.2f, 0.0f, 90);
  const auto without = flock({}, 1.2f, 0.0f, 90);
  EXPECT_GT(closestPair(*with), 1.8f);
  EXPECT_LT(closestPair(*without), 1.3f);
}

TEST(FlockingWorld, CohesionGathersAScatteredFlock) {
  // 10 m apart, standing still: cohesion alone pulls them to their centroid.
  const auto with = flock({only(BehaviourKind::kCohesion)}, 10.0f, 0.0f, 150);
  const auto without = flock({}, 10.0f, 0.0f, 150);
  EXPECT_LT(meanDistanceToCentroid(*with), 0.5f * meanDistanceToCentroid(*without));
}

TEST(FlockingWorld, AlignmentBringsHeadingsIntoLine) {
  // 3 m apart, each going its own way at 2 m/s.
  const auto with = flock({only(BehaviourKind::kAlignment)}, 3.0f, 2.0f, 60);
  const auto without = flock({}, 3.0f, 2.0f, 60);
  EXPECT_GT(agreement(*with), 0.9f);
  EXPECT_LT(agreement(*without), 0.5f);
}

}  // namespace
}  // namespace steerd
