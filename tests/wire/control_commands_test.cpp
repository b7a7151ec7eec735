// The one-line control command builders (proto/control_commands.h): each sets its kind and every
// field it takes, and nothing else. Linked here with steerd_wire alone, as a client links them:
// no server library.
#include "proto/control_commands.h"

#include <gtest/gtest.h>

namespace steerd::control {
namespace {

TEST(ControlCommands, SpawnAtSetsArchetypePositionAndTags) {
  const Command c = spawnAt("boid", 12.5f, -3);
  ASSERT_EQ(c.kind_case(), Command::kSpawn);
  EXPECT_EQ(c.sequence(), 0u) << "the channel (or the embedder) numbers commands";
  EXPECT_EQ(c.spawn().archetype(), "boid");
  ASSERT_TRUE(c.spawn().has_position());
  EXPECT_FLOAT_EQ(c.spawn().position().x(), 12.5f);
  EXPECT_FLOAT_EQ(c.spawn().position().y(), -3);
  EXPECT_FALSE(c.spawn().has_heading());
  EXPECT_EQ(c.spawn().tags_size(), 0);
  const Command tagged = spawnAt("boid", 1, 2, {"wave", "east"});
  ASSERT_EQ(tagged.spawn().tags_size(), 2);
  EXPECT_EQ(tagged.spawn().tags(0), "wave");
  EXPECT_EQ(tagged.spawn().tags(1), "east");
}

TEST(ControlCommands, AgentCommandsNameTheirAgent) {
  EXPECT_EQ(despawnAgent(7).despawn().agent(), 7u);
  EXPECT_EQ(stopAgent(8).stop().agent(), 8u);
  EXPECT_EQ(releaseAgent(9).release().agent(), 9u);
  EXPECT_EQ(queryAgent(10).query().agent(), 10u);
  EXPECT_EQ(despawnAgent(7).kind_case(), Command::kDespawn);
  EXPECT_EQ(stopAgent(8).kind_case(), Command::kStop);
  EXPECT_EQ(releaseAgent(9).kind_case(), Command::kRelease);
  EXPECT_EQ(queryAgent(10).kind_case(), Command::kQuery);
}

TEST(ControlCommands, GoalsCarryTheirPointsRadiiAndRelease) {
  const MoveTo m = moveTo(3, 4, 5).move_to();
  EXPECT_EQ(m.agent(), 3u);
  EXPECT_FLOAT_EQ(m.position().x(), 4);
  EXPECT_FLOAT_EQ(m.position().y(), 5);
  EXPECT_EQ(m.radius(), 0.0f) << "0: the server's default";
  EXPECT_FALSE(m.release_on_arrival());
  const MoveTo released = moveTo(3, 4, 5, 2.5f, true).move_to();
  EXPECT_FLOAT_EQ(released.radius(), 2.5f);
  EXPECT_TRUE(released.release_on_arrival());

  const MoveToWaypoint w = moveToWaypoint(3, "home", 1.5f, true).move_to_waypoint();
  EXPECT_EQ(w.agent(), 3u);
  EXPECT_EQ(w.waypoint(), "home");
  EXPECT_FLOAT_EQ(w.radius(), 1.5f);
  EXPECT_TRUE(w.release_on_arrival());

  const FollowPath p = followPath(3, "line").follow_path();
  EXPECT_EQ(p.agent(), 3u);
  EXPECT_EQ(p.path(), "line");
  EXPECT_FALSE(p.release_on_arrival());

  const Follow f = followAgent(3, 4).follow();
  EXPECT_EQ(f.agent(), 3u);
  EXPECT_EQ(f.target(), 4u);
  EXPECT_FALSE(f.has_offset()) << "unset: the server's 2 m behind";

  const Guard g = guardAgent(3, 4, 6).guard();
  EXPECT_EQ(g.agent(), 3u);
  EXPECT_EQ(g.target(), 4u);
  EXPECT_FLOAT_EQ(g.radius(), 6);
}

TEST(ControlCommands, BrainWritesSignalsAndOrders) {
  const SetState s = setBrainState(5, "chase").set_state();
  EXPECT_EQ(s.agent(), 5u);
  EXPECT_EQ(s.state(), "chase");
  const SetStat st = setStat(5, "alert", 2.5f).set_stat();
  EXPECT_EQ(st.agent(), 5u);
  EXPECT_EQ(st.stat(), "alert");
  EXPECT_FLOAT_EQ(st.value(), 2.5f);
  EXPECT_TRUE(raiseSignal(5, "alarm").signal().raised());
  EXPECT_FALSE(raiseSignal(5, "alarm", false).signal().raised());
  EXPECT_EQ(raiseSignal(5, "alarm").signal().name(), "alarm");
  const Order o = orderFetch(5, 6, "herd").order();
  EXPECT_EQ(o.agent(), 5u);
  EXPECT_EQ(o.stray(), 6u);
  EXPECT_EQ(o.group(), "herd");
  EXPECT_EQ(orderFetch(5, 6).order().group(), "") << "empty: the stray's own archetype";
}

TEST(ControlCommands, SubscribeToEverythingIsStillASubscribe) {
  const Command all = subscribeTo();
  ASSERT_EQ(all.kind_case(), Command::kSubscribe) << "empty lists mean every kind, not no command";
  EXPECT_EQ(all.subscribe().kinds_size(), 0);
  EXPECT_EQ(all.subscribe().archetypes_size(), 0);
  const Subscribe some = subscribeTo({EVENT_SPAWNED, EVENT_CAUGHT}, {"guard"}).subscribe();
  ASSERT_EQ(some.kinds_size(), 2);
  EXPECT_EQ(some.kinds(0), EVENT_SPAWNED);
  EXPECT_EQ(some.kinds(1), EVENT_CAUGHT);
  ASSERT_EQ(some.archetypes_size(), 1);
  EXPECT_EQ(some.archetypes(0), "guard");
}

TEST(ControlCommands, EncodeTheSameBytesAsTheSettersByHand) {
  // What the clients built by hand before the builders: the same message on the wire.
  Command byHand;
  byHand.mutable_move_to()->set_agent(3);
  byHand.mutable_move_to()->mutable_position()->set_x(4);
  byHand.mutable_move_to()->mutable_position()->set_y(5);
  EXPECT_EQ(moveTo(3, 4, 5).SerializeAsString(), byHand.SerializeAsString());
  byHand.Clear();
  byHand.mutable_subscribe();
  EXPECT_EQ(subscribeTo().SerializeAsString(), byHand.SerializeAsString());
}

}  // namespace
}  // namespace steerd::control
