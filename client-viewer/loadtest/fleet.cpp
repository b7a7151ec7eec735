#include "loadtest/fleet.h"

#include <algorithm>
#include <atomic>

namespace steerd::loadtest {

Fleet::Fleet(const LoadOptions& options, const asio::ip::udp::endpoint& server,
             std::vector<std::string> tokens)
    : options_(options),
      server_(server),
      tokens_(std::move(tokens)),
      io_(static_cast<int>(std::max(1u, options.threads))),
      work_(std::make_unique<asio::executor_work_guard<asio::io_context::executor_type>>(io_.get_executor())),
      threadCount_(std::max(1u, options.threads)),
      churnRng_(mixSeed(options.seed, 11, 0)) {
  players_.reserve(options.players);
  for (std::size_t i = 0; i < threadCount_; ++i) threads_.emplace_back([this] { io_.run(); });
}

Fleet::~Fleet() {
  stop();
  players_.clear();  // closes the clients' sockets: their pending receives end
  io_.restart();
  io_.poll();  // run the aborted handlers while the io_context is whole
}

void Fleet::spawn(std::size_t total) {
  total = std::min(total, options_.players);
  while (spawned_ < total && !stopped_) {
    add(options_.decodesFully(spawned_));
    ++spawned_;
  }
}

void Fleet::add(bool fullDecode) {
  PlayerSettings s;
  s.fullDecode = fullDecode;
  s.index = players_.size();
  s.server = server_;
  if (!tokens_.empty()) s.token = tokens_[s.index % tokens_.size()];
  s.pattern = options_.pattern;
  s.seed = options_.seed;
  s.impairment = options_.impairment;
  s.viewRateHz = options_.viewRateHz;
  players_.push_back(std::make_unique<Player>(io_, s));
  players_.back()->start();
}

bool Fleet::churnOne() {
  if (stopped_ || players_.empty()) return false;
  auto connected = [&](std::size_t i) {
    for (const Retiring& r : retiring_) {
      if (r.index == i) return false;  // already leaving
    }
    bool yes = false;
    players_[i]->read(
        [&](const PlayerRecord& r) { yes = !r.churned && r.state == client::ClientState::kConnected; });
    return yes;
  };
  // A random player; when it is not connected, the next one that is.
  const std::size_t n = players_.size();
  const std::size_t first = static_cast<std::size_t>(churnRng_.uniform() * static_cast<double>(n)) % n;
  std::size_t pick = n;
  for (std::size_t k = 0; k < n && pick == n; ++k) {
    if (connected((first + k) % n)) pick = (first + k) % n;
  }
  if (pick == n) return false;
  players_[pick]->leave([] {}, true);
  // As in stop(): the relay holds the Disconnect as long as the simulated latency.
  const double ms = options_.impairment.active()
                        ? options_.impairment.latencyMs + options_.impairment.jitterMs + 50.0
                        : 50.0;
  retiring_.push_back({pick, std::chrono::steady_clock::now() +
                                 std::chrono::milliseconds(static_cast<long>(std::min(ms, 2000.0)))});
  add(players_[pick]->fullDecode());  // in its place: as many players decode fully as before
  return true;
}

void Fleet::service() {
  const auto now = std::chrono::steady_clock::now();
  std::erase_if(retiring_, [&](const Retiring& r) {
    if (r.due > now) return false;
    players_[r.index]->retire();
    return true;
  });
}

Fleet::Marks Fleet::mark() const {
  Marks marks(players_.size());
  for (std::size_t i = 0; i < players_.size(); ++i) {
    players_[i]->read([&](const PlayerRecord& r) {
      for (std::size_t s = 0; s < kSeriesCount; ++s) marks[i][s] = r.series[s].size();
    });
  }
  return marks;
}

Window Fleet::window(Marks& marks, bool advance, const SeriesMask& which) const {
  Window w;
  if (advance && marks.size() < players_.size()) marks.resize(players_.size(), SeriesMark{});
  for (std::size_t i = 0; i < players_.size(); ++i) {
    players_[i]->read([&](const PlayerRecord& r) {
      const SeriesMark from = i < marks.size() ? marks[i] : SeriesMark{};
      for (std::size_t s = 0; s < kSeriesCount; ++s) {
        const auto& v = r.series[s];
        if (which[s]) {
          for (std::size_t k = std::min(from[s], v.size()); k < v.size(); ++k) w.values[s].push_back(v[k]);
        }
        if (advance) marks[i][s] = v.size();
      }
      w.snapshotsSeen += r.snapshotsSeen;
      if (r.tickRateHz > 0) w.tickRateHz = r.tickRateHz;
      if (r.sendRateHz > 0) w.sendRateHz = r.sendRateHz;
      if (r.started && !r.churned) ++w.players;
      if (r.churned) ++w.churned;
      if (r.everConnected) ++w.connectedEver;
      if (r.state == client::ClientState::kAwaitingChallenge ||
          r.state == client::ClientState::kAwaitingAccept) {
        ++w.handshaking;
      }
      if (r.state == client::ClientState::kConnected) {
        ++w.connected;
        w.kbpsIn += r.kbpsIn;
        w.kbpsOut += r.kbpsOut;
      }
    });
  }
  if (w.connected > 0) {
    w.kbpsIn /= static_cast<double>(w.connected);
    w.kbpsOut /= static_cast<double>(w.connected);
  }
  return w;
}

bool Fleet::allEnded() const {
  for (const auto& p : players_) {
    bool ended = false;
    p->read([&](const PlayerRecord& r) {
      ended = r.state == client::ClientState::kRefused || r.state == client::ClientState::kTimedOut ||
              r.state == client::ClientState::kDisconnected || r.state == client::ClientState::kFailed;
    });
    if (!ended) return false;
  }
  return !players_.empty();
}

void Fleet::waitFor(std::atomic<std::size_t>& remaining, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (remaining.load() > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

void Fleet::stop() {
  if (stopped_) return;
  stopped_ = true;
  // Shared with the handlers, which may (after a timeout here) still run later.
  auto left = std::make_shared<std::atomic<std::size_t>>(players_.size());
  for (auto& p : players_) p->leave([left] { left->fetch_sub(1); });
  waitFor(*left, std::chrono::seconds(10));
  if (options_.impairment.active()) {
    // Let the relays pass the Disconnects on (they hold them as long as the simulated latency).
    const double ms = options_.impairment.latencyMs + options_.impairment.jitterMs + 50.0;
    std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<long>(std::min(ms, 2000.0))));
  }
  auto closed = std::make_shared<std::atomic<std::size_t>>(players_.size());
  for (auto& p : players_) p->close([closed] { closed->fetch_sub(1); });
  waitFor(*closed, std::chrono::seconds(10));
  work_.reset();
  io_.stop();
  for (auto& t : threads_) t.join();
  threads_.clear();
}

Counts Fleet::counts() const {
  Counts c;
  c.players = options_.players;
  for (const auto& p : players_) {
    p->read([&](const PlayerRecord& r) {
      if (r.started) ++c.started;
      if (r.started && !r.churned) ++(r.fullDecode ? c.fullDecodePlayers : c.lightDecodePlayers);
      if (r.everConnected) ++c.connected;
      if (r.left) ++c.connectedAtEnd;
      if (r.churned) ++c.churned;
      switch (r.state) {
        case client::ClientState::kRefused:
          ++c.refused;
          if (c.refusedExample.empty()) c.refusedExample = r.message;
          break;
        case client::ClientState::kTimedOut:
          ++c.timedOut;
          if (r.everConnected) ++c.timedOutAfterConnect;
          if (c.timedOutExample.empty()) c.timedOutExample = r.message;
          break;
        case client::ClientState::kDisconnected:
          if (!r.left && !r.churned) {
            ++c.disconnected;
            if (c.disconnectedExample.empty()) c.disconnectedExample = r.message;
          }
          break;
        case client::ClientState::kFailed:
          ++c.failed;
          if (c.failedExample.empty()) c.failedExample = r.message;
          break;
        case client::ClientState::kAwaitingChallenge:
        case client::ClientState::kAwaitingAccept:
          ++c.stillConnecting;
          break;
        default:
          break;
      }
      c.decodeFailures += r.decodeFailures;
      c.predictionCorrections += r.predictionCorrections;
      c.snapshots += r.snapshots;
      c.snapshotParts += r.snapshotParts;
      c.snapshotsAbandoned += r.snapshotsAbandoned;
      c.sendFailures += r.sendFailures;
      c.bytesIn += r.bytesIn;
      c.bytesOut += r.bytesOut;
      c.relayDroppedToServer += r.relay.dropped[0];
      c.relayDroppedToClient += r.relay.dropped[1];
      c.relayForwardedToServer += r.relay.forwarded[0];
      c.relayForwardedToClient += r.relay.forwarded[1];
      for (std::size_t k = 0; k < c.samples.size(); ++k) c.samples[k] += r.sampleKinds[k];
      c.entitiesLost += r.viewLoss.lost;
      c.entitiesVanished += r.viewLoss.vanished;
      c.entitiesLostJoining += r.viewLoss.lostJoining;
      c.entitiesVanishedJoining += r.viewLoss.vanishedJoining;
    });
  }
  return c;
}

}  // namespace steerd::loadtest
