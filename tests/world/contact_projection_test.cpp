// Phase 3, the contact passes: overlapping bodies are pushed apart after they move, never into a
// wall, never moving a connected player, the same for any thread count.
#include "world/contact_projection.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "analysis/motion_quality.h"
#include "world/agent_eval.h"
#include "world/world.h"

namespace steerd {
namespace {

Archetype body(float radius = 0.5f) {
  Archetype a;
  a.name = "body";
  a.limits = {radius, 1.0f, 3.0f, 8.0f, 2.0f * steer::kPi};
  return a;
}

// Everyone walks to the same point: the jam that squeezes bodies into each other.
Archetype rusher() {
  Archetype a = body();
  a.name = "rusher";
  BehaviourSpec arrive;
  arrive.kind = BehaviourKind::kArriveAt;
  arrive.point = {50, 50};
  BehaviourSpec separation;
  separation.kind = BehaviourKind::kSeparation;
  a.behaviours = {arrive, separation};
  return a;
}

WorldConfig withPasses(int passes, unsigned threads = 1) {
  WorldConfig c;
  c.contactPasses = passes;
  c.threads = threads;
  c.chunkSize = 64;  // several chunks, so threads share the work
  return c;
}

float gap(const World& w, AgentId a, AgentId b) {
  const auto& s = w.agents();
  const std::uint32_t i = w.slotOf(a), j = w.slotOf(b);
  return std::hypot(s.px[i] - s.px[j], s.py[i] - s.py[j]);
}

StaticGeometry field() {
  StaticGeometry g;
  g.bounds = {0, 0, 100, 100};
  return g;
}

// A body grazing a wall's end (a box's corner) goes out radially from the end point, by its depth.
// Along the wall's normal by radius - side it was moved up to a whole radius in one tick, into
// whoever stood there (crowd-crossing's deepest overlaps, 0.27-0.40 r).
TEST(StaticContacts, AtAWallsEndTheBodyGoesOutRadiallyByItsDepth) {
  const steer::Wall wall = steer::makeWall({0, 0}, {10, 0});  // faces +y
  ASSERT_GT(wall.normal.y, 0.99f);
  const StaticGeometry::Near near{{}, {&wall, 1}};
  steer::Body before, next;
  before.position = {10.6f, 0.1f};
  next.position = {10.45f, 0.05f};  // 0.45 m from the end point: 0.05 m deep
  next.velocity = {-1.0f, 0.0f};
  EXPECT_NE(agent_internal::resolveStaticContacts(before, next, near, 0.5f), 0u);
  const steer::Vec2 end{10, 0};
  EXPECT_NEAR(steer::distance(next.position, end), 0.5f, 1e-4f);
  EXPECT_LT(steer::distance(next.position, {10.45f, 0.05f}), 0.06f);  // not 0.45 m up the normal
  const steer::Vec2 out = steer::normalizedOr(next.position - end, {});
  EXPECT_GE(steer::dot(next.velocity, out), -1e-5f);  // nothing left into the corner
}

TEST(StaticContacts, AlongAWallTheBodyGoesOutAlongItsNormal) {
  const steer::Wall wall = steer::makeWall({0, 0}, {10, 0});
  const StaticGeometry::Near near{{}, {&wall, 1}};
  steer::Body before, next;
  before.position = {5.0f, 0.6f};
  next.position = {5.2f, 0.3f};
  next.velocity = {1.0f, -2.0f};
  EXPECT_NE(agent_internal::resolveStaticContacts(before, next, near, 0.5f), 0u);
  EXPECT_NEAR(next.position.x, 5.2f, 1e-5f);
  EXPECT_NEAR(next.position.y, 0.5f, 1e-5f);
  EXPECT_NEAR(next.velocity.x, 1.0f, 1e-5f);  // it slides on
  EXPECT_NEAR(next.velocity.y, 0.0f, 1e-5f);
}

TEST(ContactProjection, TwoOverlappingBodiesEndTouching) {
  World w(field(), {body()}, withPasses(4));
  const AgentId a = w.spawn(0, {50, 50}), b = w.spawn(0, {50.5f, 50});  // 0.5 m deep: 1.0 r
  w.step();
  EXPECT_NEAR(gap(w, a, b), 1.0f, 0.05f);
}

TEST(ContactProjection, BodiesOnTheSameSpotSeparate) {
  World w(field(), {body()}, withPasses(4));
  const AgentId a = w.spawn(0, {50, 50}), b = w.spawn(0, {50, 50});
  for (int t = 0; t < 3; ++t) w.step();
  EXPECT_GT(gap(w, a, b), 0.9f);
}

TEST(ContactProjection, AJamStaysWithinATenthOfTheRadius) {
  auto deepest = [](int passes) {
    World w(field(), {rusher()}, withPasses(passes));
    for (int k = 0; k < 300; ++k) {
      w.spawn(0, {20.0f + static_cast<float>(k % 20) * 3.0f, 20.0f + static_cast<float>(k / 20) * 4.0f});
    }
    MotionQualityMonitor m(w.config().dt);
    for (int t = 0; t < 30 * 20; ++t) {
      w.step();
      if (t >= 30 * 5) m.observe(w);
    }
    return m.summary().maxOverlap;
  };
  const double with = deepest(4), without = deepest(0);
  std::printf("deepest overlap in the jam: %.3f r with 4 passes, %.3f r without\n", with, without);
  EXPECT_LT(with, 0.1) << "of the radius";
  EXPECT_GT(without, 2.0 * with);  // the passes are what holds it
}

TEST(ContactProjection, ANeighbourNeverPushesABodyIntoAWall) {
  StaticGeometry g = field();
  g.walls.push_back(steer::makeWall({60, 20}, {60, 80}));  // faces -x
  Archetype a = rusher();
  a.behaviours[0].point = {70, 50};  // beyond the wall: they pile up against it
  World w(g, {a}, withPasses(4));
  for (int k = 0; k < 60; ++k)
    w.spawn(0, {40.0f + static_cast<float>(k % 6) * 2.0f, 40.0f + static_cast<float>(k / 6) * 2.0f});
  MotionQualityMonitor m(w.config().dt);
  for (int t = 0; t < 30 * 15; ++t) {
    w.step();
    m.observe(w);
  }
  EXPECT_EQ(m.summary().insideObstacleMax, 0u);
  for (std::size_t s = 0; s < w.agentCount(); ++s) EXPECT_LE(w.agents().px[s], 60.0f - 0.5f + 1e-3f);
}

TEST(ContactProjection, AConnectedPlayerIsNeverMovedAndTheNpcTakesTheWholeCorrection) {
  World w(field(), {body()}, withPasses(4));
  const auto player = static_cast<ArchetypeIndex>(w.archetypeIndex("player"));
  const AgentId p = w.spawnExternal(player, {50, 50});
  const AgentId npc = w.spawn(0, {50.4f, 50});
  w.step();
  const std::uint32_t ps = w.slotOf(p);
  EXPECT_FLOAT_EQ(w.agents().px[ps], 50.0f);
  EXPECT_FLOAT_EQ(w.agents().py[ps], 50.0f);
  EXPECT_NEAR(gap(w, p, npc), 1.0f, 0.05f);  // both radii 0.5
}

TEST(ContactProjection, SameWorldForAnyThreadCount) {
  auto hash = [](unsigned threads) {
    World w(field(), {rusher()}, withPasses(3, threads));
    for (int k = 0; k < 400; ++k) {
      w.spawn(0, {10.0f + static_cast<float>(k % 20) * 4.0f, 10.0f + static_cast<float>(k / 20) * 4.0f});
    }
    for (int t = 0; t < 200; ++t) w.step();
    return w.stateHash();
  };
  const std::uint64_t one = hash(1);
  EXPECT_EQ(one, hash(2));
  EXPECT_EQ(one, hash(4));
}

}  // namespace
}  // namespace steerd
