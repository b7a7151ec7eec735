// A world that changes while clients watch, end to end on made-up time: the server's world shuts
// a door and adds, moves and removes obstacles; the client library (fetchScene) hears the scene's
// version in snapshots, fetches the changes and ends with exactly the server's doors and
// obstacles, with datagrams lost or not. Players collide with what changed, on both sides.
#include <gtest/gtest.h>

#include "movement/wire_collision.h"
#include "net/wire_scene.h"
#include "sim_link.h"

namespace steerd {
namespace {

using test::SimLink;

net::ServerSetup withGate() {
  net::ServerSetup setup;
  setup.geometry.doors.push_back(Door{"gate", {90, 120}, {110, 120}, 1.0f, true, 0});
  return setup;
}

client::ClientOptions fetching() {
  client::ClientOptions o = SimLink::options();
  o.fetchScene = true;
  return o;
}

// The client holds what the server's world has: the version, each door's state, each obstacle.
bool agrees(SimLink& link) {
  World& world = *link.server.world;
  return link.client.sceneVersion() == world.sceneVersion() &&
         link.client.sceneChanges().doorOpen == net::doorStatesOf(world) &&
         link.client.sceneChanges().obstacles == net::sceneObstaclesOf(world);
}

void changeAndFollow(SimLink& link) {
  World& world = *link.server.world;
  ASSERT_TRUE(link.stepUntil([&] { return link.client.sceneComplete(); }));
  ASSERT_EQ(link.client.staticScene().doors.size(), 1u);
  EXPECT_EQ(link.client.staticScene().doors[0].name, "gate");
  EXPECT_TRUE(link.client.scene().doors[0].open);
  EXPECT_EQ(link.client.sceneVersion(), 0u);
  const std::size_t staticWalls = link.client.staticScene().walls.size();

  world.applyChange(WorldChange::setDoor(0, false));
  const std::uint32_t boxId =
      world.applyChange(WorldChange::add(ObstacleShape{{50, 50}, 0.0f, {2, 1}, 30.0f, {}}));
  const std::uint32_t circleId =
      world.applyChange(WorldChange::add(ObstacleShape{{150, 50}, 1.5f, {}, 0.0f, {}}));
  ASSERT_TRUE(link.stepUntil([&] { return world.sceneVersion() > 0 && agrees(link); }));
  EXPECT_FALSE(link.client.scene().doors[0].open);
  EXPECT_EQ(link.client.scene().walls.size(), staticWalls + 8) << "the shut gate's four walls and the box's";
  EXPECT_EQ(link.client.scene().obstacles.size(), link.client.staticScene().obstacles.size() + 1);

  // A box driven every tick for a second: the client follows it to where it stops.
  for (int t = 0; t < 30; ++t) {
    world.applyChange(
        WorldChange::move(boxId, {50.0f + static_cast<float>(t), 50.0f}, 30.0f + static_cast<float>(t)));
    link.step();
  }
  world.applyChange(WorldChange::remove(circleId));
  world.applyChange(WorldChange::setDoor(0, true));
  ASSERT_TRUE(link.stepUntil([&] { return agrees(link); }));
  EXPECT_TRUE(link.client.scene().doors[0].open);
  ASSERT_EQ(link.client.sceneChanges().obstacles.size(), 1u);
  EXPECT_FLOAT_EQ(link.client.sceneChanges().obstacles[0].centre.x, 79.0f);
  EXPECT_EQ(link.client.scene().walls.size(), staticWalls + 4);
  EXPECT_EQ(link.client.stats(link.clientNow()).sceneChangesMalformed, 0u);
}

TEST(SceneChangesSim, AClientHoldsTheServersDoorsAndObstaclesAsTheyChange) {
  SimLink link(withGate(), {}, fetching());
  ASSERT_TRUE(link.client.connect(link.clientNow()));
  changeAndFollow(link);
  EXPECT_GT(link.server.metrics.sceneChangePages.load(), 0u);
}

TEST(SceneChangesSim, EveryThirdServerDatagramLostTheClientStillCatchesUp) {
  SimLink link(
      withGate(), [](std::uint64_t n) { return n % 3 == 2; }, fetching());
  ASSERT_TRUE(link.client.connect(link.clientNow()));
  ASSERT_TRUE(link.stepUntil([&] { return link.client.connected(); }));
  changeAndFollow(link);
}

TEST(SceneChangesSim, AWorldThatNeverChangesSendsNoVersionAndNoPages) {
  SimLink link(withGate(), {}, fetching());
  ASSERT_TRUE(link.client.connect(link.clientNow()));
  ASSERT_TRUE(link.stepUntil([&] { return link.client.sceneComplete(); }));
  for (int t = 0; t < 60; ++t) link.step();
  EXPECT_EQ(link.client.stats(link.clientNow()).sceneChangeRequests, 0u);
  EXPECT_EQ(link.server.metrics.sceneChangePages.load(), 0u);
}

// The server steps players against the shut gate, and a client predicting its player has the same
// walls once it has heard of the change.
TEST(SceneChangesSim, PlayersCollideWithAShutDoorOnTheServerAndInTheClientsScene) {
  SimLink link(withGate(), {}, fetching());
  ASSERT_TRUE(link.client.connect(link.clientNow()));
  ASSERT_TRUE(link.stepUntil([&] { return link.client.sceneComplete(); }));
  const auto blocked = [](const movement::CollisionScene& scene) {
    return movement::moveBlocked({100, 118}, {100, 122}, 0.5f, scene);
  };
  EXPECT_FALSE(blocked(link.server.session->collisionScene()));
  link.server.world->applyChange(WorldChange::setDoor(0, false));
  ASSERT_TRUE(link.stepUntil([&] { return agrees(link); }));
  EXPECT_TRUE(blocked(link.server.session->collisionScene()));
  EXPECT_TRUE(blocked(movement::collisionSceneOf(link.client.scene(), 0, 0, 200, 200)));
  link.server.world->applyChange(WorldChange::setDoor(0, true));
  ASSERT_TRUE(link.stepUntil([&] { return agrees(link); }));
  EXPECT_FALSE(blocked(link.server.session->collisionScene()));
}

}  // namespace
}  // namespace steerd
