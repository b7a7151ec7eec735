// The network thread: one UDP socket (standalone Asio), the stateless handshake, the connection
// table, timeouts, ping/pong and packet-level acks. It never touches the world: it hands joins,
// leaves and inputs to the simulation thread through a queue, and sends what the simulation
// thread queues for it (snapshots, accepts), patching each datagram's sequence and acks. It
// answers SceneRequests itself from the scene's parts, encoded once (setScene).
#pragma once

#include <asio.hpp>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "net/connect_token.h"
#include "net/cookie.h"
#include "net/handoff_queue.h"
#include "net/rate_limited_log.h"
#include "net/server_metrics.h"
#include "net/session_transport.h"
#include "proto/packet.h"
#include "proto/scene_codec.h"
#include "proto/session_seal.h"

namespace steerd::net {

struct NetConfig {
  std::string bind = "0.0.0.0";
  std::uint16_t port = 7777;  // 0: the system picks one (see NetEndpoint::port())
  std::size_t maxClients = 256;
  double clientTimeoutSeconds = 5.0;
  std::optional<TokenKey> tokenKey;  // set: clients need a connect token signed with it
  bool allowDebug = false;           // answer DebugSelect (the debug stream); off: dropped, counted
  bool allowControl = false;         // every client has the control role (else: a control token's)
};

class NetEndpoint final : public SessionTransport {
 public:
  // Binds the socket; throws std::system_error (with the address) when it cannot.
  NetEndpoint(const NetConfig& config, ServerMetrics& metrics);
  ~NetEndpoint();
  NetEndpoint(const NetEndpoint&) = delete;
  NetEndpoint& operator=(const NetEndpoint&) = delete;

  std::uint16_t port() const { return port_; }
  bool debugAllowed() const override { return config_.allowDebug; }
  void start();
  // Tells every connected client the server is going (three Disconnect datagrams each), then
  // stops the thread. Safe to call twice.
  void stop();

  // Simulation thread.
  void takeEvents(std::vector<NetEvent>& out) override { events_.takeAll(out); }
  void send(std::vector<OutDatagram>& batch) override;
  void publishTick(std::uint32_t tick, std::int64_t steadyNs, double tickRate) override;
  // The static scene's parts (wire::encodeScene), answered to SceneRequests from then on. Any
  // thread, any time (the scene is static: once, before or after start()).
  void setScene(const std::vector<wire::Scene>& parts) override;

  // Scene parts sent on request: at most kSceneBurstParts at once and kScenePartsPerSecond a
  // second per client; a request for more than kMaxScenePartsPerRequest parts is malformed.
  static constexpr double kSceneBurstParts = 32.0;
  static constexpr double kScenePartsPerSecond = 32.0;
  static constexpr int kMaxScenePartsPerRequest = 16;
  // A Control packet with more commands than this is malformed (a datagram holds fewer real ones).
  static constexpr int kMaxCommandsPerPacket = 256;
  // A ConnectResponse with a new key from an admitted address replaces that session only once it
  // has been silent this long (a restarted client); before, it is dropped (rate_limited).
  static constexpr double kReplaceAfterSilenceSeconds = 1.0;

 private:
  struct Connection;
  void receive();
  void onDatagram(std::size_t size);
  void onConnectRequest(const wire::Decoded& d);
  void onConnectResponse(const wire::Decoded& d);
  void onConnected(Connection& c, const wire::Decoded& d);
  void sendSceneParts(Connection& c, const wire::SceneRequest& request);
  void flushOutgoing();
  void housekeeping();
  void sendRaw(Connection& c, std::vector<std::uint8_t>& bytes);
  void sendStateless(const wire::Packet& packet, wire::Packet::BodyCase type);
  void refuse(wire::RefuseReason reason, const std::string& message);
  void removeConnection(std::map<asio::ip::udp::endpoint, Connection>::iterator it,
                        wire::DisconnectReason why);
  std::string addressBytes(const asio::ip::udp::endpoint& e) const;

  NetConfig config_;
  ServerMetrics& metrics_;
  asio::io_context io_;
  asio::ip::udp::socket socket_;
  asio::steady_timer housekeepingTimer_;
  std::uint16_t port_ = 0;
  std::thread thread_;
  bool stopped_ = false;

  CookieJar cookies_;
  std::map<asio::ip::udp::endpoint, Connection> connections_;
  std::unordered_map<std::uint32_t, asio::ip::udp::endpoint> endpointOf_;
  std::unordered_map<std::uint64_t, asio::ip::udp::endpoint> sessionOfToken_;  // token client id -> session
  std::uint32_t nextClientId_ = 1;
  std::vector<std::vector<std::uint8_t>> scene_;  // one datagram per scene part

  std::array<std::uint8_t, 65536> buffer_{};
  asio::ip::udp::endpoint from_;
  wire::Decoded decoded_;
  std::vector<std::uint8_t> plain_;   // a received datagram, opened
  std::vector<std::uint8_t> sealed_;  // the datagram sendRaw sends
  std::vector<std::uint8_t> scratch_;

  HandoffQueue<NetEvent> events_;
  HandoffQueue<OutDatagram> outgoing_;
  std::vector<OutDatagram> sending_;
  std::atomic<bool> flushPosted_{false};

  std::atomic<std::uint32_t> tick_{0};
  std::atomic<std::int64_t> tickSteadyNs_{0};
  std::atomic<double> tickRate_{30.0};

  RateLimitedLog log_;
};

}  // namespace steerd::net
