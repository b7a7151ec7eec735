// Position mode (steerd --player-input position) held to the world (issue 38): however many Inputs
// a client sends in a tick, its body goes no farther than max speed allows over the simulated time
// that passed (plus the bank, GameSession::kMaxBankSeconds); a position through or into a wall or
// a rock is refused and counted; and an honest client moving at max speed, one input a tick or in
// bursts, is never clamped or refused. On simulated time (sim_net.h).
#include <gtest/gtest.h>

#include "sim_net.h"

namespace steerd::net {
namespace {

// The default 200 m field (a deer at the middle) with a wall at x = 110 from y = 40 to 160, a rock
// of radius 2 at (60, 70) and a post of radius 0.3 at (40, 70); position mode, 30 Hz.
ServerSetup walledField() {
  ServerSetup s;
  s.geometry.walls.push_back(steer::makeWall({110, 40}, {110, 160}));
  s.geometry.obstacles.push_back({{60, 70}, 2.0f});
  s.geometry.obstacles.push_back({{40, 70}, 0.3f});
  s.session.playerInput = PlayerInputMode::kPosition;
  return s;
}

steer::Vec2 positionOf(const SimServer& s, AgentId body) {
  const std::uint32_t slot = s.world->slotOf(body);
  return {s.world->agents().px[slot], s.world->agents().py[slot]};
}

float maxSpeed(const SimServer& s) {
  return s.world->archetypes()[static_cast<std::size_t>(s.world->archetypeIndex("player"))].limits.maxSpeed;
}

void sendPosition(SimClient& c, std::uint32_t sequence, steer::Vec2 at, steer::Vec2 velocity = {}) {
  c.send(ClientSession::positionInput(sequence, at.x, at.y, velocity.x, velocity.y, 0));
}

// A connected client whose body has been put at `start` (its first input) and has stood there long
// enough for a full bank.
AgentId placedAt(SimServer& s, SimClient& c, steer::Vec2 start, std::uint32_t& sequence) {
  const auto a = c.connect();
  EXPECT_TRUE(a && a->has_accept());
  if (!a || !a->has_accept()) return 0;
  const std::uint64_t applied = s.metrics.inputsApplied.load();
  sendPosition(c, sequence++, start);
  for (int i = 0; i < 30; ++i) s.step();
  EXPECT_EQ(s.metrics.inputsApplied.load(), applied + 1);
  return a->accept().player_entity();
}

// The attack: 30 Inputs in each tick, each claiming 5 cm more to the east (45 m/s in all). Before,
// each Input got a full tick of reach (30 x 8 m/s x 1.25 = 300 m/s).
TEST(PositionReach, ThirtyInputsATickGetNoFurtherThanMaxSpeedOverTheTime) {
  SimServer s(walledField());
  SimClient c(s);
  std::uint32_t seq = 1;
  const steer::Vec2 start{20, 100};
  const AgentId body = placedAt(s, c, start, seq);
  const float speed = maxSpeed(s);
  const float slack = speed * static_cast<float>(GameSession::kMaxBankSeconds);  // the bank, beyond the tick
  float claimed = start.x;
  for (int tick = 1; tick <= 30; ++tick) {
    for (int i = 0; i < 30; ++i) sendPosition(c, seq++, {claimed += 0.05f, 100});
    s.step();
    const float moved = steer::distance(positionOf(s, body), start);
    // Every tick's elapsed time at max speed, plus the bank: never the 1.5 m a tick claimed.
    ASSERT_LE(moved, speed * static_cast<float>(tick) / 30.0f + slack + 1e-3f) << "after tick " << tick;
    // And no less than max speed either: the clamp moves the body as far as it may go.
    ASSERT_GE(moved, speed * static_cast<float>(tick) / 30.0f - 1e-3f) << "after tick " << tick;
  }
  // One second: 8 m, and the 2 m the bank held once. The claims came to 45 m.
  EXPECT_NEAR(steer::distance(positionOf(s, body), start), 10.0f, 1e-3f);
  EXPECT_EQ(positionOf(s, body).y, 100.0f) << "towards the claims, not elsewhere";
  // Every Input was taken, each as far as the bank let it; those it cut short counted (once the
  // bank is spent, at most six of a tick's thirty fit its 0.27 m).
  EXPECT_EQ(s.metrics.inputsApplied.load(), 1u + 30u * 30u);
  EXPECT_GE(s.metrics.inputsOverReach.load(), 28u * 24u);
  EXPECT_EQ(s.metrics.inputsBlocked.load(), 0u);
}

// A client silent for ten seconds banks a quarter of a second, not ten.
TEST(PositionReach, SilenceBanksAQuarterSecondNotMore) {
  SimServer s(walledField());
  SimClient c(s);
  std::uint32_t seq = 1;
  const steer::Vec2 start{20, 100};
  const AgentId body = placedAt(s, c, start, seq);
  wire::Packet keepAlive;
  keepAlive.mutable_input();  // no inputs: the client is heard, nothing moves
  for (int i = 0; i < 300; ++i) {
    if (i % 60 == 0) c.send(keepAlive);
    s.step();
  }
  sendPosition(c, seq++, {100, 100});  // 80 m away
  s.step();
  const float reach = maxSpeed(s) * static_cast<float>(1.0 / 30.0 + GameSession::kMaxBankSeconds);
  EXPECT_NEAR(steer::distance(positionOf(s, body), start), reach, 1e-3f);
  EXPECT_EQ(s.metrics.inputsOverReach.load(), 1u);
}

// The scene intent mode keeps bodies out of (movement::moveBlocked) holds position inputs too.
TEST(PositionReach, APositionThroughAWallOrIntoARockIsRefusedAndCounted) {
  SimServer s(walledField());
  SimClient c(s);
  std::uint32_t seq = 1;
  const steer::Vec2 start{109, 100};  // 1 m west of the wall: clear (radius 0.5)
  const AgentId body = placedAt(s, c, start, seq);
  // 2 m east, within reach, both ends clear: across the wall.
  sendPosition(c, seq++, {111, 100});
  s.step();
  EXPECT_EQ(s.metrics.inputsBlocked.load(), 1u);
  EXPECT_EQ(positionOf(s, body).x, start.x) << "it stays where it was";
  // Into the wall (overlapping it), without crossing.
  sendPosition(c, seq++, {109.8f, 100});
  s.step();
  EXPECT_EQ(s.metrics.inputsBlocked.load(), 2u);
  EXPECT_EQ(positionOf(s, body).x, start.x);
  // A legal move along the wall is taken.
  sendPosition(c, seq++, {109, 101});
  s.step();
  EXPECT_EQ(s.metrics.inputsApplied.load(), 2u);
  EXPECT_EQ(positionOf(s, body).y, 101.0f);
  EXPECT_EQ(s.metrics.inputsBlocked.load(), 2u);

  // Past the post (radius 0.3) in one 1.8 m step: both ends are clear of it, the centre's path
  // goes through it.
  SimClient d(s);
  std::uint32_t dseq = 1;
  const AgentId other = placedAt(s, d, {40, 69.1f}, dseq);
  sendPosition(d, dseq++, {40, 70.9f});
  s.step();
  EXPECT_EQ(s.metrics.inputsBlocked.load(), 3u);
  EXPECT_EQ(positionOf(s, other).y, 69.1f);
  // 5.2 m north over the rock (radius 2), from a clear spot south of it to one north: clamped to
  // the bank's 2.27 m first, which ends inside it.
  SimClient f(s);
  std::uint32_t fseq = 1;
  const AgentId third = placedAt(s, f, {60, 67.4f}, fseq);
  sendPosition(f, fseq++, {60, 72.6f});
  s.step();
  EXPECT_EQ(s.metrics.inputsBlocked.load(), 4u);
  EXPECT_EQ(s.metrics.inputsOverReach.load(), 1u);
  EXPECT_EQ(positionOf(s, third).y, 67.4f);
  // A first input into the rock is refused too: the teleport is to a free spot only.
  SimClient e(s);
  ASSERT_TRUE(e.connect());
  sendPosition(e, 1, {60.5f, 70});
  s.step();
  EXPECT_EQ(s.metrics.inputsBlocked.load(), 5u);
}

// An honest client at max speed: one input a tick along the wall, then in bursts (0, 2, 1, 3, 0,
// 0, 1, 1 a tick, as a jittery link delivers them: one a tick on average); another round the
// rock's edge. Nothing clamped, nothing refused, the body where the client says.
TEST(PositionReach, AClientAtMaxSpeedIsNeverClampedOrRefused) {
  SimServer s(walledField());
  SimClient c(s);
  std::uint32_t seq = 1;
  const float speed = maxSpeed(s);
  const float step = speed / 30.0f;  // one tick at max speed
  steer::Vec2 at{109.4f, 20};        // 0.6 m from the wall's line, south of its end
  const AgentId body = placedAt(s, c, at, seq);
  std::uint64_t applied = 1;
  // North along the wall for 3 s (past its end at y = 40), velocity reported at max speed.
  for (int i = 0; i < 90; ++i) {
    at.y += step;
    sendPosition(c, seq++, at, {0, speed});
    s.step();
    ++applied;
    ASSERT_EQ(positionOf(s, body).x, at.x);
    ASSERT_EQ(positionOf(s, body).y, at.y) << "input " << i;
  }
  // In bursts: the same speed over time, the inputs bunched.
  const int burst[] = {0, 2, 1, 3, 0, 0, 1, 1};
  for (int round = 0; round < 8; ++round) {
    for (const int n : burst) {
      for (int k = 0; k < n; ++k) {
        at.y += step;
        sendPosition(c, seq++, at, {0, speed});
        ++applied;
      }
      s.step();
    }
  }
  ASSERT_EQ(positionOf(s, body).y, at.y);
  // Round the rock's edge: a quarter circle 0.1 m outside its reach (2 + 0.5), 90 inputs.
  SimClient d(s);
  ASSERT_TRUE(d.connect());
  const steer::Vec2 rock{60, 70};
  const float r = 2.6f;
  std::uint32_t dseq = 1;
  steer::Vec2 p = rock + steer::Vec2{r, 0};
  sendPosition(d, dseq++, p);
  s.step();
  ++applied;
  const float turn = step / r;  // radians a tick at max speed
  for (int i = 1; i <= 60; ++i) {
    p = rock +
        steer::Vec2{r * std::cos(turn * static_cast<float>(i)), r * std::sin(turn * static_cast<float>(i))};
    sendPosition(d, dseq++, p);
    s.step();
    ++applied;
  }
  EXPECT_EQ(s.metrics.inputsApplied.load(), applied);
  EXPECT_EQ(s.metrics.inputsClamped.load(), 0u);
  EXPECT_EQ(s.metrics.inputsOverReach.load(), 0u);
  EXPECT_EQ(s.metrics.inputsBlocked.load(), 0u);
}

}  // namespace
}  // namespace steerd::net
