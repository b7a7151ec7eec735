// The server's side of the protocol, apart from any socket, thread or clock (yojimbo's shape): the
// stateless handshake, the connection table, sealed sessions, packet acks, RTT and loss, pongs,
// scene parts on request, timeouts. Datagrams come in through onDatagram(bytes, from, now) and go
// out through a sink; the caller says what time it is, so tests run it on made-up time with no
// sockets and no sleeps. NetEndpoint (net_endpoint.h) drives one from a UDP socket on the network
// thread. Joins, leaves, inputs and control packets queue for the simulation thread (takeEvents);
// what the simulation sends queues here (send) until flushOutgoing.
#pragma once

#include <asio/ip/udp.hpp>

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "net/address_sessions.h"
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
  // Sessions one address may hold at once (net/address_sessions.h: loopback is not counted); 0:
  // no cap. A few, for players behind one NAT.
  std::size_t maxClientsPerAddress = 4;
  double clientTimeoutSeconds = 5.0;
  std::optional<TokenKey> tokenKey;  // set: clients need a connect token sealed with it
  // This server's public "host:port" (--public-address): a token naming servers must name one
  // of these (none known: one with this port).
  std::vector<std::string> publicAddresses;
  bool allowDebug = false;      // answer DebugSelect (the debug stream); off: dropped, counted
  bool allowControl = false;    // every client has the control role (else: a control token's)
  bool replayControls = false;  // pass ReplayControl on (steerd --replay --serve); off: dropped
};

using Address = asio::ip::udp::endpoint;

// The protocol's time: a steady clock for timeouts, RTT and rates, and Unix seconds for cookies
// and token expiry.
struct NetTime {
  std::int64_t steadyNs = 0;
  std::uint64_t unixSeconds = 0;
  static NetTime now();  // the real clocks
};

class NetProtocol final : public SessionTransport {
 public:
  // Where datagrams go: a socket's send_to, or a test's list. Called on the protocol's thread.
  // Returns whether the datagram went out (counted in /metrics only then).
  using DatagramSink = std::function<bool(std::span<const std::uint8_t> datagram, const Address& to)>;

  NetProtocol(const NetConfig& config, ServerMetrics& metrics, DatagramSink sink);
  ~NetProtocol() override;  // where Connection is complete
  NetProtocol(const NetProtocol&) = delete;
  NetProtocol& operator=(const NetProtocol&) = delete;

  // The protocol's thread (the network thread, or a test's).
  void onDatagram(std::span<const std::uint8_t> datagram, const Address& from, NetTime now);
  // Timeouts and the per-client figures for /metrics; call every kUpdateSeconds or so.
  void update(NetTime now);
  // Sends what the simulation queued with send().
  void flushOutgoing(NetTime now);
  // Tells every connected client the server is going (three Disconnects each) and refuses new ones.
  void shutdown(NetTime now);
  void setSceneDatagrams(std::vector<std::vector<std::uint8_t>> datagrams) { scene_ = std::move(datagrams); }
  // The protocol's thread, as setSceneDatagrams (NetEndpoint posts it): what SceneChangesRequest
  // is answered from from now on.
  void setSceneChangeLog(std::shared_ptr<const wire::SceneChangeLog> log);
  std::size_t connectionCount() const { return connections_.size(); }
  // Any thread: while false, every new client is refused (REFUSE_NOT_ALLOCATED); those admitted stay.
  void setAdmitting(bool admitting) { admitting_.store(admitting, std::memory_order_relaxed); }

  // SessionTransport, for the simulation thread: thread-safe but setScene (the protocol's
  // thread, or before any datagram; NetEndpoint posts it).
  void takeEvents(std::vector<NetEvent>& out) override { events_.takeAll(out); }
  void send(std::vector<OutDatagram>& batch) override { outgoing_.pushAll(batch); }
  void publishTick(std::uint32_t tick, std::int64_t steadyNs, double tickRate) override;
  void setScene(const std::vector<wire::Scene>& parts) override { setSceneDatagrams(sceneDatagrams(parts)); }
  void setSceneChanges(std::shared_ptr<const wire::SceneChangeLog> log) override {
    setSceneChangeLog(std::move(log));
  }
  bool debugAllowed() const override { return config_.allowDebug; }

  // The scene's parts as datagrams (wire::encodeScene's parts, each framed).
  static std::vector<std::vector<std::uint8_t>> sceneDatagrams(const std::vector<wire::Scene>& parts);

  static constexpr double kUpdateSeconds = 0.25;
  // Scene parts sent on request: at most kSceneBurstParts at once and kScenePartsPerSecond a
  // second per client; a request for more than kMaxScenePartsPerRequest parts is malformed.
  static constexpr double kSceneBurstParts = 32.0;
  static constexpr double kScenePartsPerSecond = 32.0;
  static constexpr int kMaxScenePartsPerRequest = 16;
  // Pages of scene changes kept encoded for the next clients at the same version (most are).
  static constexpr std::size_t kSceneChangePagesCached = 8;
  // A Control packet with more commands than this is malformed (a datagram holds fewer real ones).
  static constexpr int kMaxCommandsPerPacket = 256;
  // A ConnectResponse with a new key from an admitted address replaces that session only once it
  // has been silent this long (a restarted client); before, it is dropped (rate_limited).
  static constexpr double kReplaceAfterSilenceSeconds = 1.0;

 private:
  struct Connection;
  void onConnectRequest();
  void onConnectResponse(const wire::Decoded& d);
  void onConnected(Connection& c, const wire::Decoded& d);
  void sendSceneParts(Connection& c, const wire::SceneRequest& request);
  void sendSceneChanges(Connection& c, const wire::SceneChangesRequest& request);
  void sendRaw(Connection& c, std::vector<std::uint8_t>& bytes);
  void sendStateless(const wire::Packet& packet, wire::Packet::BodyCase type);
  void refuse(wire::RefuseReason reason, const std::string& message);
  void removeConnection(std::map<Address, Connection>::iterator it, wire::DisconnectReason why);
  // Once a second per client: its RTT and its loss in that second into /metrics' histograms.
  void observeClientWindow(Connection& c, std::int64_t nowNs);
  static std::string addressBytes(const Address& e);

  NetConfig config_;
  ServerMetrics& metrics_;
  DatagramSink sink_;
  bool shuttingDown_ = false;
  std::atomic<bool> admitting_{true};
  // The datagram being handled and the time: set by each entry point.
  Address from_;
  NetTime now_;

  CookieJar cookies_;
  std::map<Address, Connection> connections_;
  std::unordered_map<std::uint32_t, Address> endpointOf_;
  std::unordered_map<std::uint64_t, Address> sessionOfToken_;  // token client id -> session
  AddressSessions addressSessions_;                            // connections_ by source address
  std::uint32_t nextClientId_ = 1;
  std::vector<std::vector<std::uint8_t>> scene_;  // one datagram per scene part
  std::shared_ptr<const wire::SceneChangeLog> sceneLog_;
  struct CachedPage {
    std::uint32_t have = 0, after = 0;
    std::vector<std::uint8_t> datagram;
  };
  std::vector<CachedPage> pages_;  // of sceneLog_, newest last

  wire::Decoded decoded_;
  std::vector<std::uint8_t> plain_;   // a received datagram, opened
  std::vector<std::uint8_t> sealed_;  // the datagram sendRaw sends
  std::vector<std::uint8_t> scratch_;

  HandoffQueue<NetEvent> events_;
  HandoffQueue<OutDatagram> outgoing_;
  std::vector<OutDatagram> sending_;

  std::atomic<std::uint32_t> tick_{0};
  std::atomic<std::int64_t> tickSteadyNs_{0};
  std::atomic<double> tickRate_{30.0};

  RateLimitedLog log_;
};

}  // namespace steerd::net
