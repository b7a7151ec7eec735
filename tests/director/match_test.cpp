// steer-director's match script against a fake channel: what it sends for the opening, for a
// player that joins, on its query's answer, and when the player leaves.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "director/match.h"

namespace steerd::director {
namespace {

struct Rig {
  std::vector<control::Command> sent;
  Match match{{.archetype = "guard", .opening = 2, .wave = 3, .ring = 10.0f, .chaseSeconds = 5.0},
              {0, 0, 100, 100},
              [this](control::Command c) {
                c.set_sequence(static_cast<std::uint32_t>(sent.size() + 1));
                sent.push_back(c);
                return c.sequence();
              }};
  void answer(std::uint32_t sequence, std::uint32_t agent, bool ok = true) {
    wire::ControlMessage m;
    m.mutable_result()->set_sequence(sequence);
    m.mutable_result()->set_agent(agent);
    m.mutable_result()->set_status(ok ? control::STATUS_OK : control::STATUS_ERROR);
    match.onMessage(m);
  }
  void event(control::EventKind kind, std::uint32_t agent, const std::string& archetype, float x = 0,
             float y = 0) {
    wire::ControlMessage m;
    m.mutable_event()->set_kind(kind);
    m.mutable_event()->set_agent(agent);
    m.mutable_event()->set_archetype(archetype);
    m.mutable_event()->mutable_position()->set_x(x);
    m.mutable_event()->mutable_position()->set_y(y);
    match.onMessage(m);
  }
};

TEST(Match, OpensWithASubscriptionAndAWaveInTheMiddle) {
  Rig r;
  r.match.start(0.0);
  ASSERT_EQ(r.sent.size(), 3u);
  EXPECT_TRUE(r.sent[0].has_subscribe());
  EXPECT_EQ(r.sent[0].subscribe().kinds_size(), 0) << "every kind";
  for (int i = 1; i < 3; ++i) {
    ASSERT_TRUE(r.sent[i].has_spawn());
    EXPECT_EQ(r.sent[i].spawn().archetype(), "guard");
    EXPECT_NEAR(std::hypot(r.sent[i].spawn().position().x() - 50, r.sent[i].spawn().position().y() - 50),
                10.0, 1e-3);
  }
}

TEST(Match, APlayerGetsAWaveThatChasesItAndGoesWhenItLeaves) {
  Rig r;
  r.match.start(0.0);
  r.event(control::EVENT_SPAWNED, 40, "player", 1, 99);  // near a corner: the ring is kept inside
  ASSERT_EQ(r.sent.size(), 6u);
  for (std::size_t i = 3; i < 6; ++i) {
    ASSERT_TRUE(r.sent[i].has_spawn());
    EXPECT_GE(r.sent[i].spawn().position().x(), 3.0f);
    EXPECT_LE(r.sent[i].spawn().position().y(), 97.0f);
  }
  r.answer(4, 100);
  r.answer(5, 101);
  r.answer(6, 0, false);  // refused: that one is not there
  EXPECT_EQ(r.match.waveAgents(), 2u);
  EXPECT_EQ(r.match.errors(), 1u);
  r.match.update(4.9);
  EXPECT_EQ(r.sent.size(), 6u) << "not yet";
  r.match.update(5.0);
  ASSERT_EQ(r.sent.size(), 7u);
  ASSERT_TRUE(r.sent[6].has_query());
  EXPECT_EQ(r.sent[6].query().agent(), 40u);
  wire::ControlMessage info;
  info.mutable_result()->set_sequence(7);
  info.mutable_result()->mutable_info()->mutable_position()->set_x(30);
  info.mutable_result()->mutable_info()->mutable_position()->set_y(70);
  r.match.onMessage(info);
  ASSERT_EQ(r.sent.size(), 9u);
  for (std::size_t i = 7; i < 9; ++i) {
    ASSERT_TRUE(r.sent[i].has_move_to());
    EXPECT_FLOAT_EQ(r.sent[i].move_to().position().x(), 30);
    EXPECT_TRUE(r.sent[i].move_to().release_on_arrival());
  }
  r.event(control::EVENT_DESPAWNED, 40, "player");
  ASSERT_EQ(r.sent.size(), 11u);
  EXPECT_TRUE(r.sent[9].has_despawn());
  EXPECT_EQ(r.sent[9].despawn().agent(), 100u);
  EXPECT_EQ(r.sent[10].despawn().agent(), 101u);
  EXPECT_EQ(r.match.players(), 0u);
}

TEST(Match, OtherArchetypesAndUnknownResultsAreIgnored) {
  Rig r;
  r.match.start(0.0);
  r.event(control::EVENT_SPAWNED, 41, "guard");
  r.answer(99, 5);
  EXPECT_EQ(r.sent.size(), 3u);
  EXPECT_EQ(r.match.players(), 0u);
}

}  // namespace
}  // namespace steerd::director
