// The operator panel's model: clicks and buttons become control::Commands (through a fake sender
// standing in for Client::sendCommand), results and events become one log line each.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "viewer/operator_model.h"

namespace steerd::viewer {
namespace {

// Records what the model sends and numbers it as the client does (from 1); `refuse` makes the
// next sends fail (0) as sendCommand does when not connected or too many wait.
struct FakeClient {
  std::vector<control::Command> sent;
  bool refuse = false;

  OperatorModel::Sender sender() {
    return [this](control::Command c) -> std::uint32_t {
      if (refuse) return 0;
      c.set_sequence(static_cast<std::uint32_t>(sent.size() + 1));
      sent.push_back(std::move(c));
      return sent.back().sequence();
    };
  }
};

const std::vector<std::string> kArchetypes = {"boid", "player", "pursuer", "hider"};

wire::ControlMessage ok(std::uint32_t sequence, std::uint32_t agent) {
  wire::ControlMessage m;
  m.mutable_result()->set_sequence(sequence);
  m.mutable_result()->set_status(control::STATUS_OK);
  m.mutable_result()->set_agent(agent);
  return m;
}

wire::ControlMessage refused(std::uint32_t sequence, const std::string& why) {
  wire::ControlMessage m;
  m.mutable_result()->set_sequence(sequence);
  m.mutable_result()->set_status(control::STATUS_ERROR);
  m.mutable_result()->set_error(why);
  return m;
}

wire::ControlMessage event(control::EventKind kind, std::uint32_t agent, const std::string& archetype,
                           float x = 0.0f, float y = 0.0f) {
  wire::ControlMessage m;
  control::Event* e = m.mutable_event();
  e->set_kind(kind);
  e->set_agent(agent);
  e->set_archetype(archetype);
  e->mutable_position()->set_x(x);
  e->mutable_position()->set_y(y);
  return m;
}

std::vector<std::string> texts(const OperatorModel& model) {
  std::vector<std::string> out;
  for (const OperatorLine& l : model.lines()) out.push_back(l.text);
  return out;
}

TEST(OperatorModel, DisabledWithoutTheControlRoleAndSendsNothing) {
  FakeClient client;
  OperatorModel model(client.sender());
  EXPECT_FALSE(model.enabled());
  model.connected(false, kArchetypes);
  EXPECT_FALSE(model.enabled());
  model.setMode(ClickMode::kSpawn);
  EXPECT_FALSE(model.click({10.0f, 20.0f}, std::nullopt));  // the click stays the viewer's
  EXPECT_TRUE(client.sent.empty());
}

TEST(OperatorModel, ConnectingWithControlSubscribesToTheQuietEventKinds) {
  FakeClient client;
  OperatorModel model(client.sender());
  model.connected(true, kArchetypes);
  ASSERT_TRUE(model.enabled());
  ASSERT_EQ(client.sent.size(), 1u);
  ASSERT_TRUE(client.sent[0].has_subscribe());
  const auto& kinds = client.sent[0].subscribe().kinds();
  ASSERT_EQ(kinds.size(), 6);
  EXPECT_EQ(kinds[0], control::EVENT_SPAWNED);
  EXPECT_EQ(kinds[2], control::EVENT_ARRIVED);
  EXPECT_TRUE(client.sent[0].subscribe().archetypes().empty());
  model.receive(ok(1, 0));
  EXPECT_EQ(texts(model),
            std::vector<std::string>{
                "listening for spawned, despawned, arrived, target lost, path failed, caught events"});
  EXPECT_EQ(model.pending(), 0u);

  // Every kind: a subscription with no kinds; and back.
  model.setAllEvents(true);
  ASSERT_EQ(client.sent.size(), 2u);
  EXPECT_TRUE(client.sent[1].has_subscribe());
  EXPECT_TRUE(client.sent[1].subscribe().kinds().empty());
  model.receive(ok(2, 0));
  EXPECT_EQ(model.lines().back().text, "listening for every event");
  model.setAllEvents(true);  // no change: nothing sent
  EXPECT_EQ(client.sent.size(), 2u);
  model.setAllEvents(false);
  ASSERT_EQ(client.sent.size(), 3u);
  EXPECT_EQ(client.sent[2].subscribe().kinds().size(), 6);
}

TEST(OperatorModel, ArchetypesLeavePlayersOutAndKeepTheChoiceAcrossReconnects) {
  FakeClient client;
  OperatorModel model(client.sender());
  model.connected(true, kArchetypes);
  EXPECT_EQ(model.archetypes(), (std::vector<std::string>{"boid", "pursuer", "hider"}));
  EXPECT_EQ(model.archetypeName(), "boid");
  EXPECT_TRUE(model.selectArchetype("hider"));
  EXPECT_FALSE(model.selectArchetype("player"));
  EXPECT_FALSE(model.selectArchetype("dragon"));
  EXPECT_EQ(model.archetypeName(), "hider");
  model.setArchetype(7);  // out of range: ignored
  EXPECT_EQ(model.archetype(), 2);
  model.connected(true, {"player", "hider", "boid"});
  EXPECT_EQ(model.archetypeName(), "hider");
  model.connected(true, {"player"});
  EXPECT_EQ(model.archetype(), -1);
  EXPECT_EQ(model.archetypeName(), "");
  EXPECT_EQ(spawnableArchetypes({"player", "sheep", "dog"}), (std::vector<std::string>{"sheep", "dog"}));
}

TEST(OperatorModel, SpawnModeTurnsAClickIntoASpawnOfTheChosenArchetype) {
  FakeClient client;
  OperatorModel model(client.sender());
  model.connected(true, kArchetypes);
  model.receive(ok(1, 0));
  ASSERT_TRUE(model.selectArchetype("pursuer"));
  EXPECT_FALSE(model.click({120.0f, 80.0f}, std::nullopt));  // select mode: not ours
  model.setMode(ClickMode::kSpawn);
  EXPECT_TRUE(model.click({120.0f, 80.0f}, 12u));
  ASSERT_EQ(client.sent.size(), 2u);
  const control::Command& c = client.sent[1];
  ASSERT_TRUE(c.has_spawn());
  EXPECT_EQ(c.spawn().archetype(), "pursuer");
  EXPECT_FLOAT_EQ(c.spawn().position().x(), 120.0f);
  EXPECT_FLOAT_EQ(c.spawn().position().y(), 80.0f);
  EXPECT_FALSE(c.spawn().has_heading());
  EXPECT_EQ(model.pending(), 1u);
  EXPECT_EQ(model.mode(), ClickMode::kSpawn);  // stays until the person leaves it

  // The server emits the spawned event while applying the command, so it comes just before the
  // result: the result's line replaces it.
  model.receive(event(control::EVENT_SPAWNED, 344, "pursuer", 120.0f, 80.0f));
  model.receive(ok(2, 344));
  EXPECT_EQ(model.pending(), 0u);
  EXPECT_EQ(model.lines().back().text, "spawned pursuer #344 at (120.0, 80.0)");
  EXPECT_EQ(model.lines().back().kind, OperatorLine::Kind::kResult);
  EXPECT_EQ(model.lines().size(), 2u);  // the subscription's and the spawn's
  EXPECT_EQ(model.takeSpawned(), 344u);
  EXPECT_EQ(model.takeSpawned(), std::nullopt);  // once

  // Someone else's spawn stays a line of its own.
  model.receive(event(control::EVENT_SPAWNED, 345, "boid", 12.0f, 40.5f));
  EXPECT_EQ(model.lines().back().text, "boid #345 spawned at (12.0, 40.5)");
  EXPECT_EQ(model.lines().back().kind, OperatorLine::Kind::kEvent);
}

TEST(OperatorModel, RefusedCommandsShowTheServersReason) {
  FakeClient client;
  OperatorModel model(client.sender());
  model.connected(true, kArchetypes);
  model.spawn("boid", {25.0f, 197.0f});
  model.receive(refused(2, "spawn.position: inside an obstacle"));
  EXPECT_EQ(model.lines().back().text, "error: spawn.position: inside an obstacle");
  EXPECT_EQ(model.lines().back().kind, OperatorLine::Kind::kError);
  EXPECT_EQ(model.errors(), 1u);
  EXPECT_EQ(model.takeSpawned(), std::nullopt);
  EXPECT_EQ(model.pending(), 1u);  // the subscription's result is still to come

  // A command the client would not take: said at once, nothing pending.
  client.refuse = true;
  model.despawn(3);
  EXPECT_EQ(model.lines().back().kind, OperatorLine::Kind::kError);
  EXPECT_NE(model.lines().back().text.find("not sent"), std::string::npos);
  EXPECT_EQ(model.pending(), 1u);
  EXPECT_EQ(model.errors(), 2u);
}

TEST(OperatorModel, SendModeMovesTheSelectionToTheClick) {
  FakeClient client;
  OperatorModel model(client.sender());
  model.connected(true, kArchetypes);
  model.setMode(ClickMode::kMoveTo);
  // Nothing selected: a line says so, nothing is sent.
  EXPECT_TRUE(model.click({60.0f, 40.0f}, std::nullopt));
  EXPECT_EQ(client.sent.size(), 1u);
  EXPECT_EQ(model.lines().back().kind, OperatorLine::Kind::kError);

  EXPECT_TRUE(model.click({60.0f, 40.0f}, 12u));
  ASSERT_EQ(client.sent.size(), 2u);
  const control::Command& c = client.sent[1];
  ASSERT_TRUE(c.has_move_to());
  EXPECT_EQ(c.move_to().agent(), 12u);
  EXPECT_FLOAT_EQ(c.move_to().position().x(), 60.0f);
  EXPECT_FLOAT_EQ(c.move_to().position().y(), 40.0f);
  EXPECT_FALSE(c.move_to().release_on_arrival());
  EXPECT_EQ(c.move_to().radius(), 0.0f);  // the server's default
  model.receive(ok(2, 12));
  EXPECT_EQ(model.lines().back().text, "#12 moving to (60.0, 40.0)");

  model.setReleaseOnArrival(true);
  EXPECT_TRUE(model.click({61.0f, 41.0f}, 12u));
  EXPECT_TRUE(client.sent[2].move_to().release_on_arrival());
  model.receive(ok(3, 12));
  EXPECT_EQ(model.lines().back().text, "#12 moving to (61.0, 41.0), then its own way");
  model.receive(event(control::EVENT_ARRIVED, 12, "pursuer", 60.8f, 41.2f));
  EXPECT_EQ(model.lines().back().text, "pursuer #12 arrived at (60.8, 41.2)");

  // A scripted click names its mode (--operator-send): the panel's own mode stays as it was.
  model.setMode(ClickMode::kSelect);
  EXPECT_TRUE(model.click({70.0f, 30.0f}, 12u, ClickMode::kMoveTo));
  ASSERT_EQ(client.sent.size(), 4u);
  EXPECT_TRUE(client.sent[3].has_move_to());
  EXPECT_EQ(model.mode(), ClickMode::kSelect);
  EXPECT_FALSE(model.click({70.0f, 30.0f}, 12u, ClickMode::kSelect));
}

TEST(OperatorModel, DespawnReportsTheAgentToDropFromTheSelection) {
  FakeClient client;
  OperatorModel model(client.sender());
  model.connected(true, kArchetypes);
  model.despawn(7);
  ASSERT_EQ(client.sent.size(), 2u);
  ASSERT_TRUE(client.sent[1].has_despawn());
  EXPECT_EQ(client.sent[1].despawn().agent(), 7u);
  model.receive(event(control::EVENT_DESPAWNED, 7, "boid"));
  model.receive(ok(2, 7));
  EXPECT_EQ(model.lines().back().text, "despawned #7");
  EXPECT_EQ(model.lines().size(), 1u);  // its echo gone
  EXPECT_EQ(model.takeDespawned(), std::vector<std::uint32_t>{7});
  EXPECT_TRUE(model.takeDespawned().empty());
  model.despawn(9);
  model.receive(refused(3, "despawn.agent: no live agent 9"));
  EXPECT_TRUE(model.takeDespawned().empty());
}

TEST(OperatorModel, EveryEventKindHasALine) {
  control::Event e;
  e.set_agent(12);
  e.set_archetype("guard");
  e.set_kind(control::EVENT_STATE_CHANGED);
  e.set_from("patrol");
  e.set_to("chase");
  EXPECT_EQ(describeEvent(e), "guard #12: patrol -> chase");
  e.set_kind(control::EVENT_DESPAWNED);
  EXPECT_EQ(describeEvent(e), "guard #12 despawned");
  e.set_kind(control::EVENT_SIGHTED);
  e.set_sense("eyes");
  EXPECT_EQ(describeEvent(e), "guard #12 sees someone (eyes)");
  e.set_kind(control::EVENT_LOST_SIGHT);
  EXPECT_EQ(describeEvent(e), "guard #12 lost sight (eyes)");
  e.set_kind(control::EVENT_CAUGHT);
  e.set_other(20);
  EXPECT_EQ(describeEvent(e), "guard #12 caught #20");
  e.set_kind(control::EVENT_TARGET_LOST);
  EXPECT_EQ(describeEvent(e), "guard #12 lost its target #20");
  e.set_kind(control::EVENT_PATH_FAILED);
  EXPECT_EQ(describeEvent(e), "guard #12 found no path to its goal");
  control::Event overflow;
  overflow.set_kind(control::EVENT_OVERFLOW);
  overflow.set_count(120);
  EXPECT_EQ(describeEvent(overflow), "missed 120 events (the server's rate limit)");
  control::Event odd;
  odd.set_kind(static_cast<control::EventKind>(99));
  odd.set_agent(3);
  EXPECT_EQ(describeEvent(odd), "unknown event about #3");
  EXPECT_EQ(eventKindLabel(control::EVENT_PATH_FAILED), "path failed");
}

TEST(OperatorModel, AResultForAnUnknownCommandStillGetsALine) {
  control::CommandResult r;
  r.set_sequence(9);
  r.set_status(control::STATUS_OK);
  EXPECT_EQ(describeResult(nullptr, r), "ok: command 9");
  r.set_status(control::STATUS_ERROR);
  EXPECT_EQ(describeResult(nullptr, r), "error: refused");
}

TEST(OperatorModel, TheLogKeepsTheNewestLines) {
  FakeClient client;
  OperatorModel model(client.sender());
  model.connected(true, kArchetypes);
  for (std::uint32_t i = 0; i < OperatorModel::kMaxLines + 10; ++i) {
    model.receive(event(control::EVENT_ARRIVED, i, "boid"));
  }
  EXPECT_EQ(model.lines().size(), OperatorModel::kMaxLines);
  EXPECT_EQ(model.lines().front().agent, 10u);
  EXPECT_EQ(model.lines().back().agent, OperatorModel::kMaxLines + 9);
}

TEST(OperatorModel, AReconnectForgetsCommandsInFlight) {
  FakeClient client;
  OperatorModel model(client.sender());
  model.connected(true, kArchetypes);
  model.spawn("boid", {1.0f, 1.0f});
  EXPECT_EQ(model.pending(), 2u);
  model.setMode(ClickMode::kSpawn);
  model.connected(false, kArchetypes);
  EXPECT_EQ(model.pending(), 0u);
  EXPECT_EQ(model.mode(), ClickMode::kSelect);
  EXPECT_FALSE(model.enabled());
}

}  // namespace
}  // namespace steerd::viewer
