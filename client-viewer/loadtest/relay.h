// A tiny UDP relay that puts one player's traffic through an Impairment in each direction. The
// player's Client sends to endpoint() (loopback); the relay forwards to the server from its own
// socket (which the server therefore sees as the player's address) and sends the answers back.
// Delayed datagrams wait in a queue ordered by due time, released by one timer; with jitter they
// may overtake each other, as on a real network.
//
// A relay runs on the strand it is given: call start() and stop() through it (asio::dispatch).
// counters() may be read from anywhere.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <queue>
#include <vector>

#include <asio.hpp>

#include "loadtest/impairment.h"

namespace steerd::loadtest {

struct RelayCounters {
  std::uint64_t forwarded[2] = {0, 0};  // by Direction
  std::uint64_t dropped[2] = {0, 0};
  std::uint64_t sendFailures = 0;
};

class ImpairedRelay : public std::enable_shared_from_this<ImpairedRelay> {
 public:
  using Executor = asio::strand<asio::io_context::executor_type>;
  using Clock = std::chrono::steady_clock;

  // Opens the relay's socket (bound to an ephemeral port); `error` says why not.
  static std::shared_ptr<ImpairedRelay> create(const Executor& executor,
                                               const asio::ip::udp::endpoint& server,
                                               const ImpairmentConfig& config, std::uint64_t seed,
                                               std::uint64_t player, std::error_code& error);

  // Where the client should send: the relay's port on the loopback address.
  asio::ip::udp::endpoint endpoint() const { return local_; }
  void start();
  void stop();  // closes the socket and forgets what was queued
  RelayCounters counters() const;
  const Executor& executor() const { return strand_; }

  ImpairedRelay(const Executor& executor, const asio::ip::udp::endpoint& server,
                const ImpairmentConfig& config, std::uint64_t seed, std::uint64_t player);

 private:
  struct Pending {
    Clock::time_point due;
    std::uint64_t order;
    Direction direction;
    std::vector<std::uint8_t> bytes;
    bool operator>(const Pending& o) const { return due != o.due ? due > o.due : order > o.order; }
  };

  void receive();
  void onDatagram(std::size_t n, Clock::time_point now);
  void deliver(Direction d, const std::uint8_t* data, std::size_t n);
  void armTimer();
  void onTimer();

  Executor strand_;
  asio::ip::udp::socket socket_;
  asio::steady_timer timer_;
  asio::ip::udp::endpoint server_, client_, from_, local_;
  bool haveClient_ = false, stopped_ = false, timerArmed_ = false;
  Clock::time_point timerDue_{};
  Impairment toServer_, toClient_;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<>> queue_;
  std::uint64_t order_ = 0;
  std::array<std::uint8_t, 2048> rx_{};
  std::atomic<std::uint64_t> forwarded_[2] = {0, 0}, dropped_[2] = {0, 0}, sendFailures_{0};
};

}  // namespace steerd::loadtest
