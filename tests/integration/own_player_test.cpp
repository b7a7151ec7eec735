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

// Issue 18's bar: a player walked into a wall, along it and round a rock; with no loss the client's
// prediction agrees with the server at every input the server reports (Snapshot.own), within a
// centimetre (here: exactly), and the server never has the body inside the geometry.
TEST(OwnPlayer, ThePredictionAgreesWithTheServerAtEveryAcknowledgedInput) {
  ServerSetup setup;
  setup.geometry.walls.push_back(steer::makeWall({106, 60}, {106, 140}));
  setup.geometry.obstacles.push_back({{104, 112}, 1.5f});
  setup.session.playerInput = PlayerInputMode::kIntent;
  Server s(setup);
  asio::io_context io;
  client::ClientOptions o;
  o.server = udp::endpoint(asio::ip::make_address("127.0.0.1"), s.endpoint->port());
  o.interpolate = false;
  o.fetchScene = true;
  client::Client c(io, o);
  ASSERT_TRUE(c.connect());
  auto pump = [&] {
    io.restart();
    io.poll();
    c.update(client::Clock::now());
  };
  ASSERT_TRUE(s.stepUntil([&] {
    pump();
    return c.sceneComplete() && c.predictedPlayer().has_value();
  }));
  const AgentId body = c.server().playerEntity;
  const float radius = c.server().playerLimits.radius;
  // East into the wall, then north along it into the rock, then west round it.
  const struct {
    float mx, my;
    std::uint32_t until;
  } legs[] = {{1.0f, 0.0f, 40}, {0.2f, 1.0f, 90}, {-1.0f, 0.3f, 120}};
  std::uint32_t sent = 0;
  for (const auto& leg : legs) {
    c.setMove(leg.mx, leg.my);
    ASSERT_TRUE(s.stepUntil([&] {
      pump();
      const std::uint32_t slot = s.world->slotOf(body);
      const steer::Vec2 at{s.world->agents().px[slot], s.world->agents().py[slot]};
      // Against the scene as sent (1/64 m): what the server and the client collide with.
      const movement::Circle& rock = s.session->collisionScene().obstacles().at(0);
      const movement::Segment& wall = s.session->collisionScene().walls().at(0);
      EXPECT_LE(at.x, wall.from.x - radius + 1e-4f) << "the server's body is never in the wall";
      EXPECT_GE(steer::distance(at, rock.centre), rock.radius + radius - 1e-4f) << "nor in the rock";
      sent = c.ownPlayer() ? c.ownPlayer()->lastInput : 0;
      return sent >= leg.until;
    }));
  }
  const client::ClientStats st = c.stats();
  EXPECT_GE(st.predictionSamples, 60u);
  EXPECT_LE(st.predictionErrorMaxM, 0.01) << "within 1 cm at every acknowledged input";
  EXPECT_EQ(st.predictionErrorMaxM, 0.0) << "the same model on the same scene: the same floats";
}

}  // namespace
}  // namespace steerd::net
