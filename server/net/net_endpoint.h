// The network thread: one UDP socket (standalone Asio) feeding a NetProtocol (net_protocol.h) with
// each datagram and the real time, a timer for its timeouts, and its datagrams sent from the
// socket. It never touches the world: the simulation thread takes joins, leaves and inputs from
// it and queues what it sends (SessionTransport); the protocol itself is socket- and clock-free.
#pragma once

#include <asio.hpp>

#include <array>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "net/net_protocol.h"
#include "net/server_metrics.h"
#include "net/session_transport.h"

namespace steerd::net {

class NetEndpoint final : public SessionTransport {
 public:
  // Binds the socket; throws std::system_error (with the address) when it cannot.
  NetEndpoint(const NetConfig& config, ServerMetrics& metrics);
  ~NetEndpoint();
  NetEndpoint(const NetEndpoint&) = delete;
  NetEndpoint& operator=(const NetEndpoint&) = delete;

  std::uint16_t port() const { return port_; }
  void start();
  bool started() const { return thread_.joinable(); }
  // Any thread: while false, new clients are refused (an Agones server waiting for allocation).
  void setAdmitting(bool admitting) { protocol_.setAdmitting(admitting); }
  // Tells every connected client the server is going (three Disconnect datagrams each), then
  // stops the thread. Safe to call twice.
  void stop();

  // SessionTransport (the simulation thread).
  void takeEvents(std::vector<NetEvent>& out) override { protocol_.takeEvents(out); }
  void send(std::vector<OutDatagram>& batch) override;
  void publishTick(std::uint32_t tick, std::int64_t steadyNs, double tickRate) override {
    protocol_.publishTick(tick, steadyNs, tickRate);
  }
  // Any thread, any time (the scene is static: once, before or after start()).
  void setScene(const std::vector<wire::Scene>& parts) override;
  // Any thread, whenever the scene's version moves on.
  void setSceneChanges(std::shared_ptr<const wire::SceneChangeLog> log) override;
  bool debugAllowed() const override { return protocol_.debugAllowed(); }

  // The protocol's limits, where tests and docs look for them.
  static constexpr double kSceneBurstParts = NetProtocol::kSceneBurstParts;
  static constexpr double kScenePartsPerSecond = NetProtocol::kScenePartsPerSecond;
  static constexpr int kMaxScenePartsPerRequest = NetProtocol::kMaxScenePartsPerRequest;
  static constexpr int kMaxCommandsPerPacket = NetProtocol::kMaxCommandsPerPacket;
  static constexpr double kReplaceAfterSilenceSeconds = NetProtocol::kReplaceAfterSilenceSeconds;

 private:
  void receive();
  void housekeeping();

  asio::io_context io_;
  asio::ip::udp::socket socket_;
  asio::steady_timer housekeepingTimer_;
  std::uint16_t port_ = 0;
  std::thread thread_;
  bool stopped_ = false;
  std::array<std::uint8_t, 65536> buffer_{};
  Address from_;
  NetProtocol protocol_;
  std::atomic<bool> flushPosted_{false};
};

}  // namespace steerd::net
