// steerd --replay FILE: re-runs a recording headless, as fast as it goes, and checks the world
// after every tick against the recorded digest. The first tick that differs is reported with what
// differs (which parts of the state, which agents) and the replay stops there.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "net/game_session.h"
#include "net/server_metrics.h"
#include "net/server_tick.h"
#include "net/session_transport.h"
#include "record/recording_file.h"
#include "world/scenarios.h"

namespace steerd::record {

struct ReplayOptions {
  std::string path;
  unsigned threads = 1;
  std::string navCacheDir;      // as the server's --nav-cache
  float interestRadius = 0.0f;  // --serve: what watchers see (m; 0: everything)
  // --serve: a snapshot after every tick (the recording's send rate otherwise), so a step shows
  // and a slowed playback stays smooth. Snapshots never change the world.
  bool snapshotEveryTick = false;
  double clientKbps = 256.0;  // --serve: each watcher's snapshot byte budget (steerd --client-kbps)
  // --max-clients: recorded clients connected at once (each costs the replay memory). A recording
  // that has more, or more than its own header's max_clients, is refused at that tick.
  std::size_t maxClients = 256;
};

struct ReplayResult {
  enum class Outcome {
    kEqual,       // every tick's state hash equal (cut short or not: see cutShort)
    kDiffers,     // a tick's state differs from the recording's
    kDamaged,     // the file fails its checks at some frame
    kUnreadable,  // not a recording, another version, or its scenario does not load
    kRefused,     // asks for more than a replay allows (clients at once): said at its tick
  };
  Outcome outcome = Outcome::kUnreadable;
  std::uint64_t ticks = 0;          // ticks replayed and found equal
  std::uint64_t differingTick = 0;  // kDiffers: the first tick that differs
  bool cutShort = false;            // the file has no End frame (the server was killed)
  std::uint64_t joins = 0, leaves = 0, inputs = 0, controls = 0;  // events replayed, by kind
  std::vector<std::string> details;                               // what differs, or why it could not go on
  std::string summary;                                            // one line
  int exitCode() const {
    if (outcome == Outcome::kEqual) return 0;
    return outcome == Outcome::kUnreadable || outcome == Outcome::kRefused ? 2 : 1;
  }
};

// The session's network, played back: each tick's recorded events go in (`next`), and what the
// session sends to recorded clients goes nowhere. With `live` (steerd --replay --serve), the
// clients connected to it join as watchers: no body, their moves and commands dropped, their ids
// moved to kLiveClientBit and up, and what the session sends them goes out through `live`. Their
// ReplayControl packets are kept apart for the playback (takeControls), never given the session.
class ReplayTransport final : public net::SessionTransport {
 public:
  static constexpr std::uint32_t kLiveClientBit = 0x40000000u;
  explicit ReplayTransport(net::SessionTransport* live = nullptr);
  std::vector<net::NetEvent> next;
  void takeEvents(std::vector<net::NetEvent>& out) override;
  void send(std::vector<net::OutDatagram>& batch) override;
  void publishTick(std::uint32_t tick, std::int64_t steadyNs, double tickRate) override;
  void setScene(const std::vector<wire::Scene>& parts) override;
  bool debugAllowed() const override;

  // The watchers' ReplayControl packets since the last call (live ids), appended to `out`.
  void takeControls(std::vector<net::NetEvent>& out);
  // The watchers connected now (live ids), and joining them to this transport's session as if
  // they had just connected (a replay rebuilt from its start).
  const std::vector<std::uint32_t>& watchers() const { return watchers_; }
  void rejoin(const std::vector<std::uint32_t>& watchers);
  // Muted: nothing goes to watchers (a seek plays ahead unseen), and what they send waits.
  void setMuted(bool muted) { muted_ = muted; }
  // Pongs tell clients the tick rate times this (a playback at another speed).
  void setRateScale(double scale) { rateScale_ = scale; }

 private:
  void pullLive();
  net::SessionTransport* live_;
  std::vector<net::NetEvent> liveEvents_;  // pulled, not yet given the session
  std::vector<net::NetEvent> controls_;
  std::vector<net::NetEvent> scratch_;
  std::vector<net::OutDatagram> liveOut_;
  std::vector<std::uint32_t> watchers_;
  bool muted_ = false;
  double rateScale_ = 1.0;
};

// A recording played tick by tick: its world, its session, the check of every tick. The world is
// checked where the recorder hashed it, right after the step (a TickObserver on the same tick):
// what the session does after that (goals arriving) is the next tick's.
class Replayer final : public net::TickObserver {
 public:
  // Reads the header and builds the world; null with `result` saying why (kUnreadable). The
  // session counts into `metrics` when given (--serve's /metrics), else into its own.
  static std::unique_ptr<Replayer> open(const ReplayOptions& options, net::SessionTransport* live,
                                        ReplayResult& result, net::ServerMetrics* metrics = nullptr);
  // Plays the next recorded tick at `steadyNs` (made-up or real) and checks it; false once the
  // recording is over or a tick differs (result() says which).
  bool next(std::int64_t steadyNs);
  const ReplayResult& result() const { return result_; }
  World& world() { return *world_; }
  net::GameSession& session() { return *session_; }
  ReplayTransport& transport() { return transport_; }
  bool over() const { return done_; }
  const Header& header() const { return header_; }
  double tickRate() const { return header_.tick_rate(); }

 private:
  explicit Replayer(net::SessionTransport* live) : transport_(live) {}
  bool finish(ReplayResult::Outcome outcome, std::string summary);
  bool damaged(std::string what);
  bool refused(std::uint64_t tick, std::string what);
  // A recorded join that would make more clients at once than the replay admits: why, else empty.
  std::string tooManyClients(std::uint32_t id) const;
  void afterStep(const World& world, const std::vector<net::NetEvent>& events) override;
  std::unique_ptr<RecordingReader> reader_;
  Header header_;
  ScenarioOptions scenarioOptions_;
  std::unique_ptr<World> world_;
  net::ServerMetrics ownMetrics_;
  ReplayTransport transport_;
  std::unique_ptr<net::GameSession> session_;
  std::unique_ptr<net::ServerTick> tick_;
  ReplayResult result_;
  std::uint64_t lastHash_ = 0;
  const Tick* checking_ = nullptr;        // the recorded tick the step in progress is checked against
  std::vector<std::string> differences_;  // what differs, found in afterStep
  std::unordered_set<std::uint32_t> recordedClients_;  // joined and not left
  std::string path_;
  std::size_t maxClients_ = 0;          // --max-clients
  std::uint64_t headerMaxClients_ = 0;  // the recording server's (0: not stated)
  bool done_ = false;
  std::chrono::steady_clock::time_point started_;
};

ReplayResult replayRecording(const ReplayOptions& options);

}  // namespace steerd::record
