// A control client's flood recorded as the server records it (SessionRecorder on the ServerTick)
// replays with every tick equal: the recording holds the Control packets as they reached the
// session, and the replay's controller has the same budget, so the same commands wait for the
// same ticks and the same ones are refused for a full queue (docs/CONTROL.md, "Budget").
#include <gtest/gtest.h>

#include <filesystem>

#include "record/replay.h"
#include "session_fixture.h"

namespace steerd::record {
namespace {

// Ticks 5 to 8: four packets of 250 spawns (48 work units each: 8 a tick go, 480 fill the queue,
// the rest are refused), with a subscribe and goals for the first NPCs among them.
std::vector<net::NetEvent> floodScript(std::uint64_t tick, const World& world) {
  std::vector<net::NetEvent> events;
  if (tick == 1) events.push_back(join(2, true));
  if (tick >= 5 && tick <= 8) {
    const auto packet = static_cast<std::uint32_t>(tick - 5);
    std::vector<control::Command> commands;
    for (std::uint32_t i = 0; i < 250; ++i) {
      const std::uint32_t sequence = packet * 250 + i + 1;
      control::Command c;
      if (sequence == 1) {
        c.mutable_subscribe();
      } else if (i % 50 == 7) {
        const AgentColumns& a = world.agents();
        c = control::moveTo(a.id[i % a.size()], a.px[0], a.py[0], 2.0f);
      } else {
        c = control::spawnAt(world.archetypes().front().name, 40.0f + static_cast<float>(sequence % 150),
                             40.0f + static_cast<float>(sequence / 150 % 150));
      }
      c.set_sequence(sequence);
      commands.push_back(std::move(c));
    }
    events.push_back(control(2, packet, std::move(commands)));
  }
  return events;
}

TEST(ControlFloodReplay, DeferredAndRefusedCommandsReplayAtTheSameTicks) {
  const std::string path = tempPath("control_flood");
  RecordedScenario scenario;
  std::string error;
  ASSERT_TRUE(readScenario("default", scenario, error)) << error;
  ScenarioLoad load = loadRecordedScenario(scenario, ScenarioOptions(5, 2, 0));
  ASSERT_TRUE(load.world);
  World& world = *load.world;
  const std::size_t before = world.agentCount();
  net::SessionConfig config;
  config.playerInput = net::PlayerInputMode::kIntent;
  auto recorder = SessionRecorder::start(path, headerFor(scenario, 5, config), error);
  ASSERT_TRUE(recorder) << error;
  net::ServerMetrics metrics;
  FeedTransport transport;
  net::GameSession session(world, transport, metrics, config);
  net::ServerTick tick(world, session, transport, config.tickRate);
  tick.setObserver(recorder.get());
  constexpr std::uint64_t kTicks = 90;
  for (std::uint64_t t = 1; t <= kTicks; ++t) {
    transport.next = floodScript(t, world);
    tick.run(static_cast<std::int64_t>(t) * 33'333'333);
  }
  ASSERT_TRUE(recorder->finish()) << recorder->error();
  // The flood outlasted its four ticks, and filled its queue.
  EXPECT_GT(metrics.commandsDeferred.load(), 400u);
  EXPECT_GT(metrics.commandsQueueFull.load(), 0u);
  EXPECT_GE(metrics.commandsRejected.load(), metrics.commandsQueueFull.load());
  EXPECT_GT(world.agentCount() - before, 400u);
  EXPECT_LE(world.agentCount() - before, 8u * (kTicks - 4)) << "eight spawns a tick at most";

  for (const unsigned threads : {1u, 4u}) {
    const ReplayResult r = replayRecording({path, threads, {}});
    EXPECT_EQ(r.outcome, ReplayResult::Outcome::kEqual) << threads << " threads: " << r.summary;
    EXPECT_EQ(r.ticks, kTicks);
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace steerd::record
