// The shipped scenarios with schedules (castle-gate, market-cart), run as the server runs them with
// a control client opening and shutting the door and driving an obstacle of its own, record and
// replay with every tick equal, for 1 and 4 threads: scheduled changes come from the scenario text
// in the recording, and the control commands from its Control packets.
#include <gtest/gtest.h>

#include <filesystem>

#include "record/replay.h"
#include "session_fixture.h"

namespace steerd::record {
namespace {

// Client 2 (control) joins at tick 1 and, by tick: shuts the door (castle) at 60 and opens it at
// 150; adds a box at 20 (obstacle 1: the market's cart comes at 2 s, tick 60), moves it every
// tick from 21 to 80, removes it at 90; a barricade that carves (obstacle 2) from 30 to 120; an L
// that carves (obstacle 3) from 40 to 130.
std::vector<net::NetEvent> changesScript(std::uint64_t tick, bool hasDoor, std::uint32_t& sequence) {
  std::vector<net::NetEvent> events;
  if (tick == 1) events.push_back(join(2, true));
  std::vector<control::Command> commands;
  if (hasDoor && tick == 60) commands.push_back(control::setDoor("gate", false));
  if (hasDoor && tick == 150) commands.push_back(control::setDoor("gate", true));
  if (tick == 20) commands.push_back(control::addBoxObstacle(30.0f, 25.0f, 1.0f, 0.5f, 10.0f));
  if (tick > 20 && tick <= 80)
    commands.push_back(control::moveObstacle(1, 30.0f + 0.1f * static_cast<float>(tick - 20), 25.0f));
  if (tick == 90) commands.push_back(control::removeObstacle(1));
  // A barricade that carves (obstacle 2), standing from tick 30 to 120.
  if (tick == 30)
    commands.push_back(
        control::addBoxObstacle(hasDoor ? 90.0f : 35.0f, hasDoor ? 60.0f : 5.0f, 2.0f, 1.0f, 0.0f, true));
  if (tick == 120) commands.push_back(control::removeObstacle(2));
  // An L-shaped polygon that carves (obstacle 3), turned 30 degrees, from tick 40 to 130.
  if (tick == 40)
    commands.push_back(control::addPolygonObstacle(hasDoor ? 70.0f : 20.0f, hasDoor ? 40.0f : 20.0f,
                                                   {{-3, -3}, {3, -3}, {3, -1}, {-1, -1}, {-1, 3}, {-3, 3}},
                                                   30.0f, true));
  if (tick == 130) commands.push_back(control::removeObstacle(3));
  if (!commands.empty()) {
    for (auto& c : commands) c.set_sequence(++sequence);
    events.push_back(control(2, static_cast<std::uint32_t>(tick), std::move(commands)));
  }
  return events;
}

class WorldChangesReplay : public testing::TestWithParam<const char*> {};

TEST_P(WorldChangesReplay, ARecordingReplaysEqual) {
  const std::string name = GetParam();
  const std::string path = tempPath("world_changes_" + name);
  RecordedScenario scenario;
  std::string error;
  ASSERT_TRUE(readScenario(std::string(STEERD_SCENARIOS_DIR) + "/" + name + ".txtpb", scenario, error))
      << error;
  ScenarioLoad load = loadRecordedScenario(scenario, ScenarioOptions(7, 2, 0));
  ASSERT_TRUE(load.world);
  World& world = *load.world;
  net::SessionConfig config;
  config.playerInput = net::PlayerInputMode::kIntent;
  auto recorder = SessionRecorder::start(path, headerFor(scenario, 7, config), error);
  ASSERT_TRUE(recorder) << error;
  net::ServerMetrics metrics;
  FeedTransport transport;
  net::GameSession session(world, transport, metrics, config);
  net::ServerTick tick(world, session, transport, config.tickRate);
  tick.setObserver(recorder.get());
  const bool hasDoor = !world.doors().empty();
  std::uint32_t sequence = 0;
  constexpr std::uint64_t kTicks = 200;
  for (std::uint64_t t = 1; t <= kTicks; ++t) {
    transport.next = changesScript(t, hasDoor, sequence);
    tick.run(static_cast<std::int64_t>(t) * 33'333'333);
  }
  ASSERT_TRUE(recorder->finish()) << recorder->error();
  EXPECT_EQ(metrics.commandsRejected.load(), 0u);
  EXPECT_GE(world.sceneVersion(), 60u) << "the box moved every tick from 21 to 80";
  if (hasDoor) {
    EXPECT_EQ(world.doorFigures()[0].toggles, 2u);
  }
  EXPECT_GT(world.tilesCarved(), 1u) << "the barricade's tiles, added and taken away";
  for (const unsigned threads : {1u, 4u}) {
    const ReplayResult r = replayRecording({path, threads, {}});
    EXPECT_EQ(r.outcome, ReplayResult::Outcome::kEqual) << threads << " threads: " << r.summary;
    EXPECT_EQ(r.ticks, kTicks);
  }
  std::filesystem::remove(path);
}

INSTANTIATE_TEST_SUITE_P(Shipped, WorldChangesReplay, testing::Values("castle-gate", "market-cart"));

}  // namespace
}  // namespace steerd::record
