// Record and replay in one process: a session on the default scenario with players joining,
// moving and leaving and a control client spawning and commanding an NPC, recorded as the server
// records it (SessionRecorder on the ServerTick), replays with every tick's hash equal for 1 and 4
// threads; an input changed in the recording (its checksums made good again) is reported at its
// tick with the parts and agents that differ; a recording cut anywhere replays up to its cut.
#include "record/replay.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "net/game_session.h"
#include "net/server_tick.h"
#include "record/recorded_scenario.h"
#include "record/recording_file.h"
#include "record/session_recorder.h"
#include "session_fixture.h"

namespace steerd::record {
namespace {

namespace fs = std::filesystem;

std::vector<std::uint8_t> readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
void writeAll(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// Rewrites a recording frame by frame through `edit` (frame index, frame), checksums made good.
void rewrite(const std::string& from, const std::string& to,
             const std::function<void(std::size_t, Frame&)>& edit) {
  std::string error;
  auto reader = RecordingReader::open(from, error);
  ASSERT_TRUE(reader) << error;
  std::vector<std::uint8_t> out = fileHeaderBytes();
  Frame f;
  for (std::size_t i = 0; reader->next(f) == RecordingReader::Status::kFrame; ++i) {
    edit(i, f);
    ASSERT_TRUE(appendFrame(f, out));
  }
  writeAll(to, out);
}

TEST(Replay, ALiveSessionReplaysWithEveryTickEqualForOneAndFourThreads) {
  const Recorded rec = recordSession("equal", 200);
  for (const unsigned threads : {1u, 4u}) {
    const ReplayResult r = replayRecording({rec.path, threads, {}});
    EXPECT_EQ(r.outcome, ReplayResult::Outcome::kEqual) << threads << " threads: " << r.summary;
    EXPECT_EQ(r.ticks, 200u);
    EXPECT_FALSE(r.cutShort);
    EXPECT_EQ(r.exitCode(), 0);
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(rec.hash));
    EXPECT_NE(r.summary.find(hash), std::string::npos) << r.summary;
  }
  fs::remove(rec.path);
}

// Whatever sends it (a crafted recording; never the network), a second join of a connected
// client is ignored: one body, one control link, one entry in the sending order.
TEST(Replay, ASessionIgnoresASecondJoinOfAConnectedClient) {
  RecordedScenario scenario;
  std::string error;
  ASSERT_TRUE(readScenario("default", scenario, error)) << error;
  ScenarioLoad load = loadRecordedScenario(scenario, ScenarioOptions(5, 1, 0));
  ASSERT_TRUE(load.world);
  World& world = *load.world;
  const std::size_t before = world.agentCount();
  net::ServerMetrics metrics;
  FeedTransport transport;
  net::GameSession session(world, transport, metrics, net::SessionConfig{});
  net::ServerTick tick(world, session, transport, 30.0);
  transport.next = {join(1), join(1), join(2, true), join(2, true)};
  tick.run(1);
  EXPECT_EQ(session.clientCount(), 2u);
  EXPECT_EQ(world.agentCount(), before + 1);  // one body for client 1; none for the control client
  transport.next = {control(2, 0, {}), leave(1), leave(2)};
  tick.run(2);
  EXPECT_EQ(session.clientCount(), 0u);
  EXPECT_EQ(world.agentCount(), before);
}

TEST(Replay, PositionInputsReplayToo) {
  const Recorded rec = recordSession("position", 120, net::PlayerInputMode::kPosition);
  const ReplayResult r = replayRecording({rec.path, 2, {}});
  EXPECT_EQ(r.outcome, ReplayResult::Outcome::kEqual) << r.summary;
  EXPECT_EQ(r.ticks, 120u);
  fs::remove(rec.path);
}

TEST(Replay, AChangedInputIsReportedAtItsTickWithWhatDiffers) {
  const Recorded rec = recordSession("tampered", 120);
  const std::string bad = tempPath("tampered_bad");
  // Frame 0 is the header; frame k is tick k. Player 1's input before tick 60 turns round.
  rewrite(rec.path, bad, [](std::size_t i, Frame& f) {
    if (i != 60 || !f.has_tick()) return;
    for (Event& e : *f.mutable_tick()->mutable_events()) {
      if (e.kind() == Event::INPUT && e.client_id() == 1)
        e.mutable_input()->mutable_inputs(0)->set_move_x(-1.0f);
    }
  });
  const ReplayResult r = replayRecording({bad, 1, {}});
  EXPECT_EQ(r.outcome, ReplayResult::Outcome::kDiffers) << r.summary;
  EXPECT_EQ(r.differingTick, 60u) << r.summary;
  EXPECT_EQ(r.ticks, 59u);
  EXPECT_EQ(r.exitCode(), 1);
  std::string details;
  for (const auto& d : r.details) details += d + "\n";
  EXPECT_NE(details.find("position"), std::string::npos) << details;
  EXPECT_NE(details.find("velocity"), std::string::npos) << details;
  EXPECT_NE(details.find("players that differ: "), std::string::npos) << details;  // named exactly
  fs::remove(bad);
  fs::remove(rec.path);
}

TEST(Replay, AChangedRecordedHashIsReportedAtItsTick) {
  const Recorded rec = recordSession("hash", 60);
  const std::string bad = tempPath("hash_bad");
  rewrite(rec.path, bad, [](std::size_t i, Frame& f) {
    if (i == 33) f.mutable_tick()->set_state_hash(f.tick().state_hash() ^ 1);
  });
  const ReplayResult r = replayRecording({bad, 2, {}});
  EXPECT_EQ(r.outcome, ReplayResult::Outcome::kDiffers) << r.summary;
  EXPECT_EQ(r.differingTick, 33u);
  fs::remove(bad);
  fs::remove(rec.path);
}

TEST(Replay, ARecordingCutAnywhereReplaysUpToItsCut) {
  // What a kill -9 leaves: the file up to some byte. Every whole tick before the cut replays.
  const Recorded rec = recordSession("cut", 90);
  const std::vector<std::uint8_t> good = readAll(rec.path);
  const std::string cut = tempPath("cut_short");
  std::uint64_t lastTicks = 0;
  for (const double share : {0.3, 0.55, 0.8, 0.999}) {
    const auto n = static_cast<std::size_t>(static_cast<double>(good.size()) * share);
    writeAll(cut, std::vector<std::uint8_t>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n)));
    const ReplayResult r = replayRecording({cut, 1, {}});
    EXPECT_EQ(r.outcome, ReplayResult::Outcome::kEqual) << share << ": " << r.summary;
    EXPECT_TRUE(r.cutShort);
    EXPECT_NE(r.summary.find("cut short"), std::string::npos) << r.summary;
    EXPECT_GE(r.ticks, lastTicks);  // more of the file, as many ticks or more
    lastTicks = r.ticks;
  }
  EXPECT_GE(lastTicks, 89u);
  fs::remove(cut);
  fs::remove(rec.path);
}

TEST(Replay, RecordingsThatCannotBeReplayedSayWhy) {
  const Recorded rec = recordSession("header", 5);
  const std::string bad = tempPath("header_bad");
  rewrite(rec.path, bad, [](std::size_t i, Frame& f) {
    if (i == 0) f.mutable_header()->set_scenario_text("archetypes { name: ");  // does not parse
  });
  ReplayResult r = replayRecording({bad, 1, {}});
  EXPECT_EQ(r.outcome, ReplayResult::Outcome::kUnreadable) << r.summary;
  EXPECT_EQ(r.exitCode(), 2);
  EXPECT_NE(r.summary.find("does not load"), std::string::npos) << r.summary;

  rewrite(rec.path, bad, [](std::size_t i, Frame& f) {
    if (i == 0) f.mutable_header()->set_tick_rate(std::nan(""));
  });
  r = replayRecording({bad, 1, {}});
  EXPECT_EQ(r.outcome, ReplayResult::Outcome::kUnreadable) << r.summary;

  rewrite(rec.path, bad, [](std::size_t i, Frame& f) {
    if (i == 2) f.mutable_tick()->mutable_events()->Add()->set_kind(static_cast<Event::Kind>(77));
  });
  r = replayRecording({bad, 1, {}});
  EXPECT_EQ(r.outcome, ReplayResult::Outcome::kDamaged) << r.summary;

  rewrite(rec.path, bad, [](std::size_t i, Frame& f) {
    if (f.has_end()) f.mutable_end()->set_ticks(i + 100);
  });
  r = replayRecording({bad, 1, {}});
  EXPECT_EQ(r.outcome, ReplayResult::Outcome::kDamaged) << r.summary;

  // A client that joins twice, and one with an id from the watchers' range: damage, not a crash.
  rewrite(rec.path, bad, [](std::size_t i, Frame& f) {
    if (i == 1) *f.mutable_tick()->add_events() = f.tick().events(0);  // JOIN of client 1, again
  });
  r = replayRecording({bad, 1, {}});
  EXPECT_EQ(r.outcome, ReplayResult::Outcome::kDamaged) << r.summary;
  EXPECT_NE(r.summary.find("joins twice"), std::string::npos) << r.summary;
  rewrite(rec.path, bad, [](std::size_t i, Frame& f) {
    if (i == 1) f.mutable_tick()->mutable_events(0)->set_client_id(ReplayTransport::kLiveClientBit | 5);
  });
  r = replayRecording({bad, 1, {}});
  EXPECT_EQ(r.outcome, ReplayResult::Outcome::kDamaged) << r.summary;
  EXPECT_NE(r.summary.find("out of range"), std::string::npos) << r.summary;
  // A header the command line would refuse: refused here too, naming the field.
  const std::vector<std::pair<std::function<void(Header&)>, std::string>> headers = {
      {[](Header& h) { h.set_tick_rate(1e-9); }, "tick rate"},
      {[](Header& h) { h.set_send_rate(500); }, "send rate"},
      {[](Header& h) { h.set_agents(1ull << 40); }, "agents"},
      {[](Header& h) { h.set_max_agents(0); }, "max agents"},
      {[](Header& h) { h.set_builtin_scenario("/etc/passwd"); }, "built-in scenario"},
      {[](Header& h) { h.clear_scenario_text(); }, "scenario: none"},
  };
  for (const auto& [change, field] : headers) {
    rewrite(rec.path, bad, [&change](std::size_t i, Frame& f) {
      if (i == 0) change(*f.mutable_header());
    });
    r = replayRecording({bad, 1, {}});
    EXPECT_EQ(r.outcome, ReplayResult::Outcome::kUnreadable) << field << ": " << r.summary;
    EXPECT_NE(r.summary.find(field), std::string::npos) << r.summary;
  }

  r = replayRecording({tempPath("no-such-recording"), 1, {}});
  EXPECT_EQ(r.outcome, ReplayResult::Outcome::kUnreadable);
  EXPECT_NE(r.summary.find("no such file"), std::string::npos) << r.summary;
  fs::remove(bad);
  fs::remove(rec.path);
}

}  // namespace
}  // namespace steerd::record

namespace steerd::record {
namespace {

// --serve: watchers join with no body whatever they ask, their moves and commands never reach the
// session, their ids cannot meet a recorded client's, and only what is theirs goes out to them.
TEST(Replay, WatchersChangeNothingAndGetOnlyTheirOwnDatagrams) {
  CollectingTransport live;
  ReplayTransport t(&live);
  net::NetEvent recordedJoin = join(1);
  t.next.push_back(recordedJoin);
  live.events.push_back(join(1, true));  // a watcher asking for the control role, as client 1
  net::NetEvent move = intent(1, 1, 1.0f, 0.0f);
  move.input.set_ack_snapshot(77);
  live.events.push_back(move);
  live.events.push_back(control(1, 0, {}));
  std::vector<net::NetEvent> out;
  t.takeEvents(out);
  ASSERT_EQ(out.size(), 3u);  // the control packet is gone
  EXPECT_EQ(out[2].kind, net::NetEvent::Kind::kInput);
  EXPECT_EQ(out[2].input.inputs_size(), 0);     // no moves
  EXPECT_EQ(out[2].input.ack_snapshot(), 77u);  // but its snapshot ack
  EXPECT_EQ(out[0].clientId, 1u);               // the recorded one, untouched
  EXPECT_FALSE(out[0].noBody);
  EXPECT_EQ(out[1].kind, net::NetEvent::Kind::kJoin);
  EXPECT_EQ(out[1].clientId, 1u | ReplayTransport::kLiveClientBit);
  EXPECT_TRUE(out[1].noBody);
  EXPECT_FALSE(out[1].controlRole);

  std::vector<net::OutDatagram> batch = {{1u, {1, 2, 3}}, {1u | ReplayTransport::kLiveClientBit, {4, 5}}};
  t.send(batch);
  EXPECT_TRUE(batch.empty());
  ASSERT_EQ(live.sent.size(), 1u);
  EXPECT_EQ(live.sent[0].clientId, 1u);
  EXPECT_EQ(live.sent[0].bytes, (std::vector<std::uint8_t>{4, 5}));
  EXPECT_TRUE(t.debugAllowed());
}

}  // namespace
}  // namespace steerd::record
