// The players of one run on a shared io_context with a few threads: started at the ramp rate,
// held, measured in windows (each second for progress, each step for --find-capacity), and
// stopped. Reading a window takes each player's lock briefly; the players keep running.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <asio.hpp>

#include "loadtest/options.h"
#include "loadtest/player.h"
#include "loadtest/report.h"

namespace steerd::loadtest {

// What the players measured since a mark (or since the start).
struct Window {
  std::array<std::vector<double>, kSeriesCount> values;
  std::size_t players = 0;  // started, less those churned out
  std::size_t churned = 0;  // left before the end and replaced (--churn-per-second)
  std::size_t connected = 0, connectedEver = 0, handshaking = 0;
  double kbpsIn = 0, kbpsOut = 0;         // mean over connected players, last full second
  std::uint64_t snapshotsSeen = 0;        // every player's complete snapshots newer than any before, ever
  double tickRateHz = 0, sendRateHz = 0;  // the server's (Accept), from any player that connected
};

class Fleet {
 public:
  Fleet(const LoadOptions& options, const asio::ip::udp::endpoint& server, std::vector<std::string> tokens);
  ~Fleet();  // leaves and stops whatever still runs

  // Creates and starts players up to `total` (players already there keep running).
  void spawn(std::size_t total);
  // Players created so far, those started in place of churned ones included.
  std::size_t size() const { return players_.size(); }
  // Players started by spawn(), not counting those in place of churned ones.
  std::size_t spawned() const { return spawned_; }
  // One player, chosen at random among those connected, leaves (says Disconnect) and a new one
  // starts in its place. Returns false when none is connected.
  bool churnOne();
  // Timed work of the main loop: frees the players that left by churn once their Disconnect had
  // time to pass their relay.
  void service();

  // A new mark at the current end of every player's series.
  using Marks = std::vector<SeriesMark>;
  Marks mark() const;
  // The values past `marks` (players after marks.size() from their start), of the series in
  // `which` only (the others are left empty); moves `marks` on when `advance`.
  Window window(Marks& marks, bool advance, const SeriesMask& which = kAllSeries) const;
  // True when every started player has ended (refused, timed out, ...) and none is connected.
  bool allEnded() const;

  // Says Disconnect for every player, stops the relays, then the threads. Idempotent.
  void stop();
  // Counts from every player's record (after stop(), or live).
  Counts counts() const;
  std::size_t threads() const { return threadCount_; }

 private:
  void waitFor(std::atomic<std::size_t>& remaining, std::chrono::milliseconds limit);
  void add(bool fullDecode);  // a new player, started

  LoadOptions options_;
  asio::ip::udp::endpoint server_;
  std::vector<std::string> tokens_;
  asio::io_context io_;
  std::unique_ptr<asio::executor_work_guard<asio::io_context::executor_type>> work_;
  std::vector<std::thread> threads_;
  std::size_t threadCount_ = 1;
  std::vector<std::unique_ptr<Player>> players_;
  std::size_t spawned_ = 0;  // players started by spawn() (not in place of churned ones)
  SplitMix64 churnRng_;
  struct Retiring {
    std::size_t index;
    std::chrono::steady_clock::time_point due;
  };
  std::vector<Retiring> retiring_;
  bool stopped_ = false;
};

}  // namespace steerd::loadtest
