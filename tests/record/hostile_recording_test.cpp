// Recordings an attacker writes (issue 38): a 110 KB file of 20,000 JOINs in one tick made
// `steerd --replay` take 14.5 GB (60,000 got it OOM-killed). A replay admits no more clients at
// once than --max-clients and the recording's own header allow, refused at the tick that asks
// (exit 2, naming the file), builds no snapshots when nobody watches, and takes ticks in order,
// a few reloads each, so a file's cost is bounded whatever it holds.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "record/recording_file.h"
#include "record/replay.h"
#include "record/replay_playback.h"
#include "session_fixture.h"

namespace steerd::record {
namespace {

namespace fs = std::filesystem;

Header crowdHeader() {
  Header h;
  h.set_scenario_name("crowd");
  h.set_builtin_scenario("crowd");
  h.set_seed(1);
  h.set_agents(50);
  h.set_tick_rate(30);
  h.set_send_rate(20);
  h.set_max_agents(1000);
  h.set_player_intents(true);
  return h;
}

// A recording of `header` and these ticks, as a hostile writer makes it (checksums good).
std::string writeRecording(const std::string& name, const Header& header, const std::vector<Tick>& ticks) {
  const std::string path = tempPath(name);
  std::string error;
  auto writer = RecordingWriter::create(path, error);
  EXPECT_TRUE(writer) << error;
  Frame frame;
  *frame.mutable_header() = header;
  EXPECT_TRUE(writer->write(frame));
  for (const Tick& t : ticks) {
    *frame.mutable_tick() = t;
    EXPECT_TRUE(writer->write(frame)) << writer->error();
  }
  EXPECT_TRUE(writer->close());
  return path;
}

Tick joins(std::uint64_t tick, std::uint32_t first, std::uint32_t count) {
  Tick t;
  t.set_tick(tick);
  for (std::uint32_t id = first; id < first + count; ++id) {
    Event* e = t.add_events();
    e->set_kind(Event::JOIN);
    e->set_client_id(id);
  }
  return t;
}

struct ChildRun {
  int exitCode = -1;
  long maxRssKb = 0;
  double seconds = 0.0;
  std::string summary;
};

// replayRecording in a child process held to `memoryLimit` bytes of address space: its exit code,
// its peak resident memory and its summary. A replay that allocates past the limit dies instead of
// taking the machine's memory.
ChildRun replayInChild(const ReplayOptions& options, rlim_t memoryLimit) {
  int pipeFds[2];
  EXPECT_EQ(::pipe(pipeFds), 0);
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(pipeFds[0]);
    const rlimit limit{memoryLimit, memoryLimit};
    ::setrlimit(RLIMIT_AS, &limit);
    const ReplayResult r = replayRecording(options);
    const ssize_t written = ::write(pipeFds[1], r.summary.data(), r.summary.size());
    ::_exit(written < 0 ? 99 : r.exitCode());
  }
  ::close(pipeFds[1]);
  ChildRun run;
  char buffer[4096];
  for (ssize_t n; (n = ::read(pipeFds[0], buffer, sizeof buffer)) > 0;) run.summary.append(buffer, n);
  ::close(pipeFds[0]);
  int status = 0;
  rusage usage{};
  EXPECT_EQ(::wait4(pid, &status, 0, &usage), pid);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.maxRssKb = usage.ru_maxrss;
  return run;
}

constexpr rlim_t kOneGiB = rlim_t{1} << 30;

TEST(HostileRecording, TwentyThousandJoinsInOneTickAreRefusedAtThatTickInBoundedMemory) {
  const std::string path = writeRecording("joins20000", crowdHeader(), {joins(1, 1, 20'000)});
  EXPECT_LT(fs::file_size(path), 120'000u);
  ReplayOptions options;
  options.path = path;
  const ChildRun run = replayInChild(options, kOneGiB);
  EXPECT_EQ(run.exitCode, 2) << run.summary;
  EXPECT_NE(run.summary.find("replay: " + path + ": refused at tick 1: client 257 joins, making 257 clients"),
            std::string::npos)
      << run.summary;
  EXPECT_NE(run.summary.find("--max-clients 256"), std::string::npos) << run.summary;
  EXPECT_LT(run.seconds, 1.0);
  EXPECT_LT(run.maxRssKb, 200 * 1024) << "peak " << run.maxRssKb << " KB";
  fs::remove(path);
}

// With the clients allowed (--max-clients 100000), a headless replay still holds no client's view
// of the world: nobody receives its snapshots, so none are built. 4,000 clients took 700 MB when
// each built its view (about 36 bytes per agent per client).
TEST(HostileRecording, AHeadlessReplayBuildsNoClientViews) {
  const std::string path = writeRecording("joins4000", crowdHeader(), {joins(1, 1, 4'000)});
  ReplayOptions options;
  options.path = path;
  options.maxClients = 100'000;
  const ChildRun run = replayInChild(options, kOneGiB);
  EXPECT_EQ(run.exitCode, 1) << run.summary;  // the made-up hash differs, after the tick ran
  EXPECT_NE(run.summary.find("tick 1 differs"), std::string::npos) << run.summary;
  EXPECT_LT(run.maxRssKb, 200 * 1024) << "peak " << run.maxRssKb << " KB";
  fs::remove(path);
}

TEST(HostileRecording, AHeaderThatStatesItsServersMaxClientsIsHeldToIt) {
  Header header = crowdHeader();
  header.set_max_clients(4);
  // Four clients, one leaves, one more joins: never more than four at once, as a server admits.
  Tick first = joins(1, 1, 4);
  Event* leave = first.add_events();
  leave->set_kind(Event::LEAVE);
  leave->set_client_id(2);
  *first.add_events() = joins(1, 5, 1).events(0);
  std::string path = writeRecording("maxclients-ok", header, {first});
  ReplayResult r = replayRecording({path, 1, {}});
  EXPECT_NE(r.outcome, ReplayResult::Outcome::kRefused) << r.summary;
  fs::remove(path);
  // A fifth at once: not what that server wrote, whatever --max-clients allows.
  path = writeRecording("maxclients-over", header, {joins(1, 1, 5)});
  ReplayOptions options;
  options.path = path;
  options.maxClients = 1000;
  r = replayRecording(options);
  EXPECT_EQ(r.outcome, ReplayResult::Outcome::kRefused) << r.summary;
  EXPECT_EQ(r.exitCode(), 2);
  EXPECT_NE(r.summary.find("refused at tick 1: client 5 joins, making 5 clients connected at once, more than "
                           "the 4 its server admitted"),
            std::string::npos)
      << r.summary;
  // Its server admitted 1000, this replay 256: the flag that replays it is named.
  header.set_max_clients(1000);
  fs::remove(path);
  path = writeRecording("maxclients-flag", header, {joins(1, 1, 300)});
  r = replayRecording({path, 1, {}});
  EXPECT_EQ(r.outcome, ReplayResult::Outcome::kRefused) << r.summary;
  EXPECT_NE(r.summary.find("replay it with --max-clients 1000"), std::string::npos) << r.summary;
  fs::remove(path);
  // More than any server admits: the header is refused before anything is built.
  header.set_max_clients(kMaxClientsLimit + 1);
  path = writeRecording("maxclients-header", header, {});
  r = replayRecording({path, 1, {}});
  EXPECT_EQ(r.outcome, ReplayResult::Outcome::kUnreadable) << r.summary;
  EXPECT_NE(r.summary.find("max clients 100001"), std::string::npos) << r.summary;
  fs::remove(path);
}

TEST(HostileRecording, TicksOutOfOrderAndFloodsOfReloadsAreDamage) {
  Tick jump;
  jump.set_tick(1'000'000'000'000ull);
  std::string path = writeRecording("jump", crowdHeader(), {jump});
  ReplayResult r = replayRecording({path, 1, {}});
  EXPECT_EQ(r.outcome, ReplayResult::Outcome::kDamaged) << r.summary;
  EXPECT_NE(r.summary.find("is for tick 1000000000000, but the replay's next tick is 1"), std::string::npos)
      << r.summary;
  fs::remove(path);

  Tick reloads;
  reloads.set_tick(1);
  for (int i = 0; i <= kMaxReloadsPerTick; ++i) reloads.add_reload_text("name: \"x\"");
  path = writeRecording("reloads", crowdHeader(), {reloads});
  r = replayRecording({path, 1, {}});
  EXPECT_EQ(r.outcome, ReplayResult::Outcome::kDamaged) << r.summary;
  EXPECT_NE(r.summary.find("9 reloads (at most 8)"), std::string::npos) << r.summary;
  fs::remove(path);
}

// What differs is said briefly however many players a crafted tick lists.
TEST(HostileRecording, AHundredThousandPlayerHashesAreNamedSixteenAtATime) {
  Tick t;
  t.set_tick(1);
  for (std::uint64_t id = 1; id <= 100'000; ++id) t.add_player_hashes(id << 32 | 7);
  const std::string path = writeRecording("players", crowdHeader(), {t});
  const ReplayResult r = replayRecording({path, 1, {}});
  EXPECT_EQ(r.outcome, ReplayResult::Outcome::kDiffers) << r.summary;
  std::string players;
  for (const std::string& d : r.details) {
    if (d.rfind("players that differ: ", 0) == 0) players = d;
  }
  EXPECT_LT(players.size(), 600u) << players.substr(0, 200);
  EXPECT_NE(players.find("and 99984 more"), std::string::npos) << players.substr(0, 600);
  fs::remove(path);
}

// --serve's timeline ends where the ticks stop following each other (where a replay stops), not
// at a hostile tick number.
TEST(HostileRecording, AServedTimelineEndsAtTheFirstTickOutOfSequence) {
  Tick a, b, far;
  a.set_tick(1);
  b.set_tick(2);
  far.set_tick(1ull << 62);
  const std::string path = writeRecording("timeline", crowdHeader(), {a, b, far});
  CollectingTransport live;
  ReplayResult opened;
  ReplayOptions options;
  options.path = path;
  auto playback = ReplayPlayback::open(options, live, opened, nullptr);
  ASSERT_TRUE(playback) << opened.summary;
  EXPECT_EQ(playback->firstTick(), 0u);
  EXPECT_EQ(playback->lastTick(), 2u);
  fs::remove(path);
}

}  // namespace
}  // namespace steerd::record
