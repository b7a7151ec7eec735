// A client library in intent mode (steerd --player-input intent): it sends its moves as intents,
// hears its own player's exact state with the last input applied (Snapshot.own), and the shared
// model, stepped from the first state with the same intents, lands on the server's floats to the
// bit, into and round a rock. The server is stepped on the test's thread (tests/net/udp_harness.h);
// the client is the real library.
#include <gtest/gtest.h>

#include "../net/udp_harness.h"
#include "client/client.h"
#include "movement/player_motion.h"

namespace steerd::net {
namespace {

TEST(OwnPlayer, TheSharedModelPredictsTheServersPlayerToTheBit) {
  ServerSetup setup;
  setup.geometry.obstacles.push_back({{108, 101}, 4.0f});
  setup.session.playerInput = PlayerInputMode::kIntent;
  Server s(setup);
  asio::io_context io;
  client::ClientOptions o;
  o.server = udp::endpoint(asio::ip::make_address("127.0.0.1"), s.endpoint->port());
  o.interpolate = false;
  o.fetchScene = false;
  client::Client c(io, o);
  ASSERT_TRUE(c.connect());
  auto pump = [&] {
    io.restart();
    io.poll();
    c.update(client::Clock::now());
  };
  ASSERT_TRUE(s.stepUntil([&] {
    pump();
    return c.ownPlayer().has_value();
  }));
  ASSERT_TRUE(c.server().playerIntents);
  const client::OwnPlayerState start = *c.ownPlayer();
  ASSERT_EQ(start.lastInput, 0u);
  // East, into the rock, and on: every input the library sends is the same intent.
  c.setMove(1.0f, 0.1f);
  ASSERT_TRUE(s.stepUntil([&] {
    pump();
    return c.ownPlayer()->lastInput >= 60;
  }));
  c.setMove(0.0f, 0.0f);  // later inputs stand still (not compared)
  const client::OwnPlayerState heard = *c.ownPlayer();
  const client::ServerInfo::PlayerLimits& pl = c.server().playerLimits;
  steer::BodyLimits limits;
  limits.radius = pl.radius;
  limits.mass = pl.mass;
  limits.maxSpeed = pl.maxSpeed;
  limits.maxForce = pl.maxForce;
  limits.maxTurnRate = pl.maxTurnRate;
  movement::PlayerState predicted{{start.x, start.y}, {start.vx, start.vy}};
  const float dt = static_cast<float>(1.0 / o.inputRateHz);
  for (std::uint32_t k = 0; k < heard.lastInput; ++k)
    predicted = movement::stepPlayer(predicted, {{1.0f, 0.1f}, dt}, limits, s.session->collisionScene());
  EXPECT_EQ(predicted.position.x, heard.x);
  EXPECT_EQ(predicted.position.y, heard.y);
  EXPECT_EQ(predicted.velocity.x, heard.vx);
  EXPECT_EQ(predicted.velocity.y, heard.vy);
  EXPECT_GT(heard.x, start.x + 2.0f) << "it moved";
  EXPECT_GE(steer::distance({heard.x, heard.y}, {108, 101}), 4.0f + pl.radius - 1e-4f) << "not into the rock";
}

}  // namespace
}  // namespace steerd::net
