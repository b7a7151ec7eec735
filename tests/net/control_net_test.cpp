// The control channel on the server over real UDP, packet by packet: who gets the role, what is
// dropped and counted, a command applied once however often its datagram comes, clients without a
// body.
#include <gtest/gtest.h>

#include "net/connect_token.h"
#include "udp_harness.h"

namespace steerd::net {
namespace {

wire::Packet controlWith(std::vector<control::Command> commands, std::uint32_t packet = 0) {
  wire::Packet p;
  for (auto& c : commands) *p.mutable_control()->add_commands() = std::move(c);
  p.mutable_control()->set_packet(packet);
  return p;
}

control::Command numbered(control::Command c, std::uint32_t sequence) {
  c.set_sequence(sequence);
  return c;
}

control::Command spawnDeer(float x) {
  control::Command c;
  c.mutable_spawn()->set_archetype("deer");
  c.mutable_spawn()->mutable_position()->set_x(x);
  c.mutable_spawn()->mutable_position()->set_y(50);
  return c;
}

// The result of command `sequence`, while the server ticks (this client never acknowledges, so
// earlier results come again every 200 ms: skipped).
std::optional<control::CommandResult> awaitResult(RawClient& c, Server& s, std::uint32_t sequence) {
  std::optional<control::CommandResult> got;
  s.stepUntil([&] {
    while (auto p = c.await1(wire::Packet::kControlReply)) {
      if (!p->has_control_reply()) continue;
      for (const auto& m : p->control_reply().messages()) {
        if (m.has_result() && m.result().sequence() == sequence) got = m.result();
      }
      if (got) return true;
    }
    return false;
  });
  return got;
}

TEST(ControlNet, WithoutTheRoleControlIsDroppedAndCounted) {
  Server s;
  RawClient c(s.endpoint->port());
  const auto a = c.connect(s);
  ASSERT_TRUE(a && a->has_accept());
  EXPECT_FALSE(a->accept().control_allowed());
  const std::size_t before = s.world->agentCount();
  c.send(controlWith({numbered(spawnDeer(10), 1)}));
  ASSERT_TRUE(s.stepUntil([&] { return s.drops(wire::DropReason::kControlNotAllowed) == 1; }));
  for (int i = 0; i < 5; ++i) s.step();
  EXPECT_EQ(s.world->agentCount(), before);
  EXPECT_EQ(s.metrics.commandsApplied.load(), 0u);
}

TEST(ControlNet, ACommandIsAppliedOnceHoweverOftenItsDatagramComes) {
  NetConfig config;
  config.allowControl = true;
  Server s(config);
  RawClient c(s.endpoint->port());
  const auto a = c.connect(s);
  ASSERT_TRUE(a && a->has_accept());
  EXPECT_TRUE(a->accept().control_allowed());
  const std::size_t before = s.world->agentCount();
  c.send(controlWith({numbered(spawnDeer(10), 1)}));
  const auto r = awaitResult(c, s, 1);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->sequence(), 1u);
  EXPECT_EQ(r->status(), control::STATUS_OK) << r->error();
  EXPECT_TRUE(s.world->isAlive(r->agent()));
  // The client did not hear the acknowledgement and sends it again (a new datagram, same command).
  c.send(controlWith({numbered(spawnDeer(10), 1)}, 1));
  c.send(controlWith({numbered(spawnDeer(10), 1)}, 2));
  for (int i = 0; i < 10; ++i) s.step();
  EXPECT_EQ(s.world->agentCount(), before + 1);
  EXPECT_EQ(s.metrics.commandsApplied.load(), 1u);
  // A bad command gets an error result, not a drop, and changes nothing.
  control::Command bad;
  bad.mutable_despawn()->set_agent(9999);
  c.send(controlWith({numbered(bad, 2)}, 3));
  const auto e = awaitResult(c, s, 2);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->sequence(), 2u);
  EXPECT_EQ(e->status(), control::STATUS_ERROR);
  EXPECT_EQ(e->error().rfind("despawn.agent: ", 0), 0u) << e->error();
  EXPECT_EQ(s.metrics.commandsRejected.load(), 1u);
}

TEST(ControlNet, CommandsOutOfOrderWaitForTheGap) {
  NetConfig config;
  config.allowControl = true;
  Server s(config);
  RawClient c(s.endpoint->port());
  ASSERT_TRUE(c.connect(s));
  const std::size_t before = s.world->agentCount();
  c.send(controlWith({numbered(spawnDeer(20), 2), numbered(spawnDeer(30), 3)}));
  for (int i = 0; i < 10; ++i) s.step();
  EXPECT_EQ(s.world->agentCount(), before) << "2 and 3 wait for 1";
  c.send(controlWith({numbered(spawnDeer(10), 1)}, 1));
  ASSERT_TRUE(s.stepUntil([&] { return s.metrics.commandsApplied.load() == 3; }));
  // In sequence order: the deer at x 10, 20, 30 got ascending ids.
  std::vector<float> xs;
  for (AgentId id = 0; id < before + 3 + 1; ++id) {
    if (s.world->isAlive(id) && id != s.deer && s.world->agents().archetype[s.world->slotOf(id)] == 0)
      xs.push_back(s.world->agents().px[s.world->slotOf(id)]);
  }
  ASSERT_EQ(xs.size(), 3u);
  EXPECT_LT(xs[0], xs[1]);
  EXPECT_LT(xs[1], xs[2]);
}

TEST(ControlNet, APacketWithTooManyCommandsIsDroppedAsBadCommand) {
  NetConfig config;
  config.allowControl = true;
  Server s(config);
  RawClient c(s.endpoint->port());
  ASSERT_TRUE(c.connect(s));
  std::vector<control::Command> many;
  for (std::uint32_t i = 1; i <= NetEndpoint::kMaxCommandsPerPacket + 1; ++i) {
    control::Command q;
    q.set_sequence(i);
    many.push_back(q);
  }
  c.send(controlWith(many));
  ASSERT_TRUE(s.stepUntil([&] { return s.drops(wire::DropReason::kBadCommand) == 1; }));
  EXPECT_EQ(s.metrics.commandsApplied.load() + s.metrics.commandsRejected.load(), 0u);
}

TEST(ControlNet, AControlTokenGrantsTheRoleAndAPlayerTokenDoesNot) {
  TokenKey key{};
  key[0] = 7;
  NetConfig config;
  config.tokenKey = key;
  Server s(config);
  const std::uint64_t far = 4'000'000'000ull;
  RawClient control(s.endpoint->port());
  const auto a = control.connect(s, issueToken(key, 1, far, wire::ROLE_CONTROL));
  ASSERT_TRUE(a && a->has_accept());
  EXPECT_TRUE(a->accept().control_allowed());
  RawClient player(s.endpoint->port());
  const auto b = player.connect(s, issueToken(key, 2, far, wire::ROLE_PLAYER));
  ASSERT_TRUE(b && b->has_accept());
  EXPECT_FALSE(b->accept().control_allowed());
  player.send(controlWith({numbered(spawnDeer(10), 1)}));
  ASSERT_TRUE(s.stepUntil([&] { return s.drops(wire::DropReason::kControlNotAllowed) == 1; }));
}

TEST(ControlNet, AClientWithoutABodyGetsNoPlayerAndItsInputsAreDropped) {
  NetConfig config;
  config.allowControl = true;
  Server s(config);
  RawClient c(s.endpoint->port());
  const std::size_t before = s.world->agentCount();
  const auto cookie = c.challenge(s);
  ASSERT_TRUE(cookie);
  wire::Packet resp;
  resp.mutable_connect_response()->set_cookie(*cookie);
  resp.mutable_connect_response()->set_no_body(true);
  resp.mutable_connect_response()->set_public_key(c.keys.publicKey);
  c.send(resp, wire::kMinConnectResponseBytes);
  const auto accept = c.await(s, wire::Packet::kAccept);
  ASSERT_TRUE(accept);
  EXPECT_EQ(accept->accept().player_entity(), GameSession::kNoBody);
  EXPECT_EQ(s.world->agentCount(), before);
  c.input(1, 10, 10);
  ASSERT_TRUE(s.stepUntil([&] { return s.drops(wire::DropReason::kBadInput) == 1; }));
  EXPECT_EQ(s.world->agentCount(), before);
  // It still gets snapshots (of the whole world).
  EXPECT_TRUE(c.await(s, wire::Packet::kSnapshot));
}

}  // namespace
}  // namespace steerd::net
