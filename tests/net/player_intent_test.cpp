// Intent inputs (steerd --player-input intent; issue 18): the client says where it wants to go and
// the server moves the body with the shared movement model, against the scene as clients have it.
// A player cannot walk through a wall, move faster than real time lets it, or send garbage that
// moves it. Real UDP on 127.0.0.1, the server stepped by the test.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>

#include "udp_harness.h"

namespace steerd::net {
namespace {

// A 200 m field with a wall at x = 110 from y = 40 to 160, in intent mode.
ServerSetup walledField() {
  ServerSetup s;
  s.geometry.walls.push_back(steer::makeWall({110, 40}, {110, 160}));
  s.session.playerInput = PlayerInputMode::kIntent;
  return s;
}

// One Input carrying intents `first`..`first + count - 1` (newest first), each `dt` long.
void sendIntents(RawClient& c, std::uint32_t first, int count, float mx, float my, float dt) {
  wire::Packet p;
  for (int k = count - 1; k >= 0; --k) {
    auto* i = p.mutable_input()->add_inputs();
    i->set_sequence(first + static_cast<std::uint32_t>(k));
    i->set_move_x(mx);
    i->set_move_y(my);
    i->set_dt(dt);
  }
  c.send(p);
}

steer::Vec2 positionOf(const Server& s, AgentId body) {
  const std::uint32_t slot = s.world->slotOf(body);
  return {s.world->agents().px[slot], s.world->agents().py[slot]};
}

float playerRadius(const Server& s) {
  return s.world->archetypes()[static_cast<std::size_t>(s.world->archetypeIndex("player"))].limits.radius;
}

TEST(PlayerIntent, WalkingIntoAWallStopsAtItAndSlidesAlongIt) {
  Server s(walledField());
  RawClient c(s.endpoint->port());
  const auto a = c.connect(s);
  ASSERT_TRUE(a);
  const AgentId body = a->accept().player_entity();
  const steer::Vec2 start = positionOf(s, body);
  ASSERT_LT(start.x, 105.0f);
  // The Accept says how the server takes input and what a client needs to predict its player.
  EXPECT_TRUE(a->accept().player_intents());
  EXPECT_EQ(a->accept().player_limits().radius(), playerRadius(s));
  const float limit = 110.0f - playerRadius(s);
  // Three seconds east and a little north, one intent a tick.
  for (std::uint32_t seq = 1; seq <= 90; ++seq) {
    sendIntents(c, seq, 1, 1.0f, 0.3f, 1.0f / 30.0f);
    ASSERT_TRUE(s.stepUntil([&] { return s.metrics.inputsApplied.load() >= seq; }));
    ASSERT_LE(positionOf(s, body).x, limit + 1e-3f) << "through the wall at input " << seq;
  }
  const steer::Vec2 end = positionOf(s, body);
  EXPECT_NEAR(end.x, limit, 1e-3f) << "it reached the wall";
  EXPECT_GT(end.y, start.y + 5.0f) << "and slid along it";
  // The model on the client's side, from the same start and the same intents, lands on the same
  // floats (the server steps with the scene as clients decode it).
  movement::PlayerState predicted{start, {}};
  const steer::BodyLimits& limits =
      s.world->archetypes()[static_cast<std::size_t>(s.world->archetypeIndex("player"))].limits;
  for (int k = 0; k < 90; ++k)
    predicted =
        movement::stepPlayer(predicted, {{1.0f, 0.3f}, 1.0f / 30.0f}, limits, s.session->collisionScene());
  EXPECT_EQ(predicted.position.x, end.x);
  EXPECT_EQ(predicted.position.y, end.y);
}

TEST(PlayerIntent, ASpeedHackGetsNoFurtherThanRealTimeAllows) {
  Server s(walledField());
  RawClient c(s.endpoint->port());
  const auto a = c.connect(s);
  ASSERT_TRUE(a);
  const AgentId body = a->accept().player_entity();
  const steer::Vec2 start = positionOf(s, body);
  // 20 s of westward intents at once: 200 steps of 0.1 s, 8 to an Input.
  for (std::uint32_t first = 1; first <= 200; first += 8) sendIntents(c, first, 8, -1.0f, 0.0f, 0.1f);
  ASSERT_TRUE(s.stepUntil([&] { return s.drops(wire::DropReason::kRateLimited) > 0; }));
  // Then one second of ticks.
  const std::uint64_t applied = s.metrics.inputsApplied.load();
  for (int t = 0; t < 30; ++t) s.step();
  const float speed =
      s.world->archetypes()[static_cast<std::size_t>(s.world->archetypeIndex("player"))].limits.maxSpeed;
  const float moved = start.x - positionOf(s, body).x;
  // No more than a second and a bit of time's worth (the ticks waiting for the drops, the bank).
  const double ticks = static_cast<double>(s.world->tick());
  EXPECT_LE(moved, speed * static_cast<float>(ticks / 30.0 + GameSession::kMaxBankSeconds) + 0.01f);
  // 30 ticks of time, plus at most the bank (kMaxBankSeconds and a tick): 12 steps of 0.1 s.
  EXPECT_LE(s.metrics.inputsApplied.load() - applied, 12u);
  EXPECT_GT(s.drops(wire::DropReason::kRateLimited), 0u);
}

TEST(PlayerIntent, BadIntentsAreDroppedAndMoveNothing) {
  Server s(walledField());
  RawClient c(s.endpoint->port());
  const auto a = c.connect(s);
  ASSERT_TRUE(a);
  const AgentId body = a->accept().player_entity();
  const steer::Vec2 start = positionOf(s, body);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  sendIntents(c, 1, 1, nan, 0.0f, 1.0f / 30.0f);
  sendIntents(c, 1, 1, 1.0f, 0.0f, 0.0f);
  sendIntents(c, 1, 1, 1.0f, 0.0f, 5.0f);  // a step of 5 s
  sendIntents(c, 1, 1, 1.0f, 0.0f, std::numeric_limits<float>::infinity());
  ASSERT_TRUE(s.stepUntil([&] { return s.drops(wire::DropReason::kBadInput) == 4; }));
  for (int t = 0; t < 10; ++t) s.step();
  EXPECT_EQ(positionOf(s, body).x, start.x);
  EXPECT_EQ(positionOf(s, body).y, start.y);
  EXPECT_EQ(s.metrics.inputsApplied.load(), 0u);
}

TEST(PlayerIntent, EachInputIsAppliedOnceAndAMissingOneIsPassedOverAfterAWait) {
  Server s(walledField());
  RawClient c(s.endpoint->port());
  ASSERT_TRUE(c.connect(s));
  sendIntents(c, 1, 1, 0.0f, 1.0f, 1.0f / 30.0f);
  ASSERT_TRUE(s.stepUntil([&] { return s.metrics.inputsApplied.load() == 1; }));
  // Input 1 again (a resend): nothing new.
  sendIntents(c, 1, 1, 0.0f, 1.0f, 1.0f / 30.0f);
  ASSERT_TRUE(s.stepUntil([&] { return s.drops(wire::DropReason::kStaleInput) == 1; }));
  // Input 3 without 2: waited for, then 2 is passed over and 3 applied.
  sendIntents(c, 3, 1, 0.0f, 1.0f, 1.0f / 30.0f);
  ASSERT_TRUE(s.stepUntil([&] { return s.metrics.inputsApplied.load() == 2; }));
  EXPECT_EQ(s.metrics.inputsSkipped.load(), 1u);
  // 2 arriving late is applied no more.
  sendIntents(c, 2, 1, 0.0f, 1.0f, 1.0f / 30.0f);
  ASSERT_TRUE(s.stepUntil([&] { return s.drops(wire::DropReason::kStaleInput) == 2; }));
  EXPECT_EQ(s.metrics.inputsApplied.load(), 2u);
}

TEST(PlayerIntent, SnapshotsCarryTheClientsOwnBodyExactWithTheLastInputApplied) {
  Server s(walledField());
  RawClient c(s.endpoint->port());
  const auto a = c.connect(s);
  ASSERT_TRUE(a);
  const AgentId body = a->accept().player_entity();
  for (std::uint32_t seq = 1; seq <= 5; ++seq) sendIntents(c, seq, 1, 0.6f, -0.8f, 1.0f / 30.0f);
  ASSERT_TRUE(s.stepUntil([&] { return s.metrics.inputsApplied.load() == 5; }));
  const steer::Vec2 there = positionOf(s, body);
  // The next snapshot's part 0: input 5 applied, the body exactly where the server has it.
  std::optional<wire::OwnPlayer> own;
  ASSERT_TRUE(s.stepUntil([&] {
    wire::Decoded d;
    while (c.receive(d)) {
      if (d.drop == wire::DropReason::kNone && d.packet.has_snapshot() && d.packet.snapshot().has_own() &&
          d.packet.snapshot().own().last_input() == 5)
        own = d.packet.snapshot().own();
    }
    return own.has_value();
  }));
  EXPECT_EQ(own->x(), there.x);
  EXPECT_EQ(own->y(), there.y);
}

TEST(PlayerIntent, PositionsInAnIntentAreIgnoredAndASequenceJumpBuysNoTime) {
  Server s(walledField());
  RawClient c(s.endpoint->port());
  const auto a = c.connect(s);
  ASSERT_TRUE(a);
  const AgentId body = a->accept().player_entity();
  const steer::Vec2 start = positionOf(s, body);
  // A teleport: position fields on the other side of the wall, with a still intent.
  wire::Packet p;
  auto* i = p.mutable_input()->add_inputs();
  i->set_sequence(1);
  i->set_x(180.0f);
  i->set_y(180.0f);
  i->set_dt(1.0f / 30.0f);
  c.send(p);
  ASSERT_TRUE(s.stepUntil([&] { return s.metrics.inputsApplied.load() == 1; }));
  EXPECT_EQ(positionOf(s, body).x, start.x);
  EXPECT_EQ(positionOf(s, body).y, start.y);
  // A jump of a billion in sequence: passed over after the wait, then one step's worth, no more;
  // and counted as a queue's worth of skipped inputs, not a billion.
  sendIntents(c, 1'000'000'000u, 1, 0.0f, -1.0f, 0.1f);
  ASSERT_TRUE(s.stepUntil([&] { return s.metrics.inputsApplied.load() == 2; }));
  EXPECT_EQ(s.metrics.inputsSkipped.load(), GameSession::kMaxPendingIntents);
  const float speed =
      s.world->archetypes()[static_cast<std::size_t>(s.world->archetypeIndex("player"))].limits.maxSpeed;
  EXPECT_LE(steer::distance(positionOf(s, body), start), speed * 0.1f + 1e-4f);
}

}  // namespace
}  // namespace steerd::net
