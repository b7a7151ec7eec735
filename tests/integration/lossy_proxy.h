// A UDP proxy on 127.0.0.1 between one client and a server that drops, duplicates, corrupts and
// delays (so reorders) datagrams both ways, deterministic from its seed.
#pragma once

#include <asio.hpp>

#include <array>
#include <chrono>
#include <memory>
#include <random>
#include <thread>
#include <vector>

namespace steerd::testing {

using udp = asio::ip::udp;

// Forwards client <-> server datagrams with impairments, deterministic from its seed.
class LossyProxy {
 public:
  struct Impairment {
    double drop = 0.10, duplicate = 0.05, corrupt = 0.02;
    int minDelayMs = 20, maxDelayMs = 50;  // uniform: later datagrams overtake earlier ones
  };
  LossyProxy(std::uint16_t serverPort, Impairment impairment, unsigned seed = 7)
      : impairment_(impairment),
        front_(io_, udp::endpoint(asio::ip::make_address("127.0.0.1"), 0)),
        back_(io_, udp::endpoint(asio::ip::make_address("127.0.0.1"), 0)),
        server_(asio::ip::make_address("127.0.0.1"), serverPort),
        rng_(seed) {
    receiveFront();
    receiveBack();
    thread_ = std::thread([this] { io_.run(); });
  }
  ~LossyProxy() {
    io_.stop();
    thread_.join();
  }
  std::uint16_t port() const { return front_.local_endpoint().port(); }
  std::uint64_t dropped() const { return dropped_; }
  std::uint64_t corrupted() const { return corrupted_; }

 private:
  void forward(udp::socket& via, udp::endpoint to, std::vector<std::uint8_t> bytes) {
    std::uniform_real_distribution<double> u(0, 1);
    if (u(rng_) < impairment_.drop) {
      ++dropped_;
      return;
    }
    if (u(rng_) < impairment_.corrupt && !bytes.empty()) {
      bytes[std::uniform_int_distribution<std::size_t>(0, bytes.size() - 1)(rng_)] ^= 0x5a;
      ++corrupted_;
    }
    const int copies = u(rng_) < impairment_.duplicate ? 2 : 1;
    for (int c = 0; c < copies; ++c) {
      const int ms = std::uniform_int_distribution<int>(impairment_.minDelayMs, impairment_.maxDelayMs)(rng_);
      auto timer = std::make_shared<asio::steady_timer>(io_, std::chrono::milliseconds(ms));
      auto data = std::make_shared<std::vector<std::uint8_t>>(bytes);
      timer->async_wait([&via, to, timer, data](const std::error_code&) {
        std::error_code ignored;
        via.send_to(asio::buffer(*data), to, 0, ignored);
      });
    }
  }
  void receiveFront() {
    front_.async_receive_from(
        asio::buffer(buffer_), client_, [this](const std::error_code& ec, std::size_t n) {
          if (ec) return;
          haveClient_ = true;
          forward(back_, server_, std::vector<std::uint8_t>(buffer_.begin(), buffer_.begin() + n));
          receiveFront();
        });
  }
  void receiveBack() {
    back_.async_receive_from(
        asio::buffer(backBuffer_), from_, [this](const std::error_code& ec, std::size_t n) {
          if (ec) return;
          if (haveClient_)
            forward(front_, client_, std::vector<std::uint8_t>(backBuffer_.begin(), backBuffer_.begin() + n));
          receiveBack();
        });
  }

  Impairment impairment_;
  asio::io_context io_;
  udp::socket front_, back_;
  udp::endpoint server_, client_, from_;
  bool haveClient_ = false;
  std::array<std::uint8_t, 2048> buffer_{}, backBuffer_{};
  std::mt19937 rng_;
  std::uint64_t dropped_ = 0, corrupted_ = 0;
  std::thread thread_;
};

}  // namespace steerd::testing
