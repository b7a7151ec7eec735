#include "loadtest/relay.h"

namespace steerd::loadtest {

using udp = asio::ip::udp;

std::shared_ptr<ImpairedRelay> ImpairedRelay::create(const Executor& executor, const udp::endpoint& server,
                                                     const ImpairmentConfig& config, std::uint64_t seed,
                                                     std::uint64_t player, std::error_code& error) {
  auto relay = std::make_shared<ImpairedRelay>(executor, server, config, seed, player);
  relay->socket_.open(server.protocol(), error);
  if (!error) relay->socket_.bind(udp::endpoint(server.protocol(), 0), error);
  if (!error) relay->socket_.non_blocking(true, error);
  if (!error) {
    const auto port = relay->socket_.local_endpoint(error).port();
    const auto loopback = server.address().is_v6() ? asio::ip::address(asio::ip::address_v6::loopback())
                                                   : asio::ip::address(asio::ip::address_v4::loopback());
    relay->local_ = udp::endpoint(loopback, port);
  }
  if (error) return nullptr;
  return relay;
}

ImpairedRelay::ImpairedRelay(const Executor& executor, const udp::endpoint& server,
                             const ImpairmentConfig& config, std::uint64_t seed, std::uint64_t player)
    : strand_(executor),
      socket_(executor),
      timer_(executor),
      server_(server),
      toServer_(config, seed, player, Direction::kToServer),
      toClient_(config, seed, player, Direction::kToClient) {}

RelayCounters ImpairedRelay::counters() const {
  RelayCounters c;
  for (std::size_t i = 0; i < 2; ++i) {
    c.forwarded[i] = forwarded_[i].load(std::memory_order_relaxed);
    c.dropped[i] = dropped_[i].load(std::memory_order_relaxed);
  }
  c.sendFailures = sendFailures_.load(std::memory_order_relaxed);
  return c;
}

void ImpairedRelay::start() {
  if (!stopped_ && socket_.is_open()) receive();
}

void ImpairedRelay::stop() {
  stopped_ = true;
  std::error_code ignored;
  socket_.close(ignored);
  timer_.cancel();
  queue_ = {};
}

void ImpairedRelay::receive() {
  socket_.async_receive_from(
      asio::buffer(rx_), from_, [self = shared_from_this()](const std::error_code& ec, std::size_t n) {
        if (self->stopped_ || ec == asio::error::operation_aborted) return;
        const auto now = Clock::now();
        if (!ec) {
          self->onDatagram(n, now);
          for (int i = 0; i < 64 && !self->stopped_; ++i) {  // drain what is queued
            std::error_code e;
            const std::size_t m = self->socket_.receive_from(asio::buffer(self->rx_), self->from_, 0, e);
            if (e) break;
            self->onDatagram(m, now);
          }
        }
        if (!self->stopped_) self->receive();
      });
}

void ImpairedRelay::onDatagram(std::size_t n, Clock::time_point now) {
  Direction d;
  if (from_ == server_) {
    if (!haveClient_) return;  // nobody to hand it to yet
    d = Direction::kToClient;
  } else {
    if (!haveClient_) {
      client_ = from_;
      haveClient_ = true;
    } else if (from_ != client_) {
      return;  // a stranger
    }
    d = Direction::kToServer;
  }
  const auto i = static_cast<std::size_t>(d);
  const Impairment::Verdict v = (d == Direction::kToServer ? toServer_ : toClient_).next();
  if (v.drop) {
    dropped_[i].fetch_add(1, std::memory_order_relaxed);
    return;
  }
  if (v.delay.count() == 0 && queue_.empty()) {
    deliver(d, rx_.data(), n);
    return;
  }
  queue_.push(Pending{now + std::chrono::duration_cast<Clock::duration>(v.delay), order_++, d,
                      std::vector<std::uint8_t>(rx_.begin(), rx_.begin() + static_cast<std::ptrdiff_t>(n))});
  armTimer();
}

void ImpairedRelay::deliver(Direction d, const std::uint8_t* data, std::size_t n) {
  std::error_code ec;
  socket_.send_to(asio::buffer(data, n), d == Direction::kToServer ? server_ : client_, 0, ec);
  if (ec) {
    sendFailures_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  forwarded_[static_cast<std::size_t>(d)].fetch_add(1, std::memory_order_relaxed);
}

void ImpairedRelay::armTimer() {
  if (queue_.empty() || stopped_) return;
  const auto due = queue_.top().due;
  if (timerArmed_ && timerDue_ <= due) return;
  timerArmed_ = true;
  timerDue_ = due;
  timer_.expires_at(due);
  timer_.async_wait([self = shared_from_this()](const std::error_code& ec) {
    if (ec == asio::error::operation_aborted) return;  // re-armed earlier, or stopped
    self->timerArmed_ = false;
    if (!self->stopped_) self->onTimer();
  });
}

void ImpairedRelay::onTimer() {
  const auto now = Clock::now();
  while (!queue_.empty() && queue_.top().due <= now) {
    const Pending& p = queue_.top();
    deliver(p.direction, p.bytes.data(), p.bytes.size());
    queue_.pop();
  }
  armTimer();
}

}  // namespace steerd::loadtest
