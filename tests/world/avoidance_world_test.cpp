// Obstacle and wall avoidance judged in whole worlds, each against the same world without it: the
// verdict (bodies pushed out of obstacles and walls by the contact step, which catches what
// avoidance missed) must change when the behaviour is taken out, or the test could not see it.
#include <gtest/gtest.h>

#include "world/world.h"

namespace steerd {
namespace {

// Twenty seekers in a column at x = 10 heading for (190, 100), through `geometry`. Returns the
// ticks x agents the contact step pushed a body out of an obstacle or a wall, over 40 s.
std::uint64_t contactsSeekingThrough(StaticGeometry geometry, const std::vector<BehaviourSpec>& avoidance) {
  geometry.bounds = {0, 0, 200, 200};
  Archetype a;
  a.name = "seeker";
  a.limits = {0.5f, 1.0f, 4.0f, 8.0f, 2.0f * steer::kPi};
  BehaviourSpec seek;
  seek.kind = BehaviourKind::kSeek;
  seek.atPoint = true;
  seek.point = {190, 100};
  seek.weight = 1.0f;
  a.behaviours = avoidance;
  a.behaviours.push_back(seek);
  World w(std::move(geometry), {a}, WorldConfig{});
  for (int i = 0; i < 20; ++i) w.spawn(0, {10.0f, 80.0f + 2.0f * static_cast<float>(i)}, {4.0f, 0.0f});
  std::uint64_t contacts = 0;
  for (int t = 0; t < 30 * 40; ++t) {
    w.step();
    contacts += w.lastTickCounters().obstacleContacts;
  }
  return contacts;
}

BehaviourSpec avoid(BehaviourKind kind, float weight) {
  BehaviourSpec b;
  b.kind = kind;
  b.weight = weight;
  return b;
}

TEST(AvoidanceWorld, ObstacleAvoidanceKeepsSeekersOffAFieldOfPosts) {
  StaticGeometry posts;  // a grid of 2 m posts across the way, 10 m apart
  for (int x = 60; x <= 140; x += 10)
    for (int y = 60; y <= 140; y += 10)
      posts.obstacles.push_back(
          {{static_cast<float>(x) + (y % 20 == 0 ? 5.0f : 0.0f), static_cast<float>(y)}, 2.0f});
  const std::uint64_t with = contactsSeekingThrough(posts, {avoid(BehaviourKind::kObstacleAvoidance, 10.0f)});
  const std::uint64_t without = contactsSeekingThrough(posts, {});
  EXPECT_GT(without, 20u) << "the field must be in the way, or avoidance has nothing to show";
  EXPECT_LT(with * 10, without) << "with " << with << ", without " << without;
}

TEST(AvoidanceWorld, WallAvoidanceKeepsSeekersOffAWallAcrossTheirWay) {
  StaticGeometry wall;  // across the way, facing the seekers (west)
  wall.walls.push_back(steer::makeWall({100, 50}, {100, 150}));
  const std::uint64_t with = contactsSeekingThrough(wall, {avoid(BehaviourKind::kWallAvoidance, 10.0f)});
  const std::uint64_t without = contactsSeekingThrough(wall, {});
  EXPECT_GT(without, 1000u) << "pressed against the wall for most of the run";
  EXPECT_LT(with * 10, without) << "with " << with << ", without " << without;
}

}  // namespace
}  // namespace steerd
