#include "net/net_protocol.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <variant>

#include "net/token_bucket.h"
#include "proto/token_proof.h"

namespace steerd::net {

namespace {

std::int64_t nanoseconds(double seconds) { return static_cast<std::int64_t>(seconds * 1e9); }

void writeHeaderAcks(std::vector<std::uint8_t>& d, std::uint16_t seq, std::uint16_t ack, std::uint32_t bits) {
  d[6] = static_cast<std::uint8_t>(seq);
  d[7] = static_cast<std::uint8_t>(seq >> 8);
  d[8] = static_cast<std::uint8_t>(ack);
  d[9] = static_cast<std::uint8_t>(ack >> 8);
  for (int i = 0; i < 4; ++i) d[10 + i] = static_cast<std::uint8_t>(bits >> (8 * i));
}

// A ConnectResponse the server answers with a Refuse.
struct Refusal {
  wire::RefuseReason reason;
  std::string message;
};

// What a new session is granted.
struct SessionTerms {
  bool control = false;                      // the control role: its Control packets go to the simulation
  std::optional<std::uint64_t> tokenClient;  // the connect token's client id (servers with a key)
  std::string acceptProof;                   // Accept.key_proof (with a connect token)
  std::int64_t timeoutNs = 0;                // silence that ends it: --client-timeout, or the token's
};

// The terms of the session ConnectResponse `r` asks for: the server's own (--allow-control,
// --client-timeout), and on a server with a token key what a valid connect token adds, with its
// keys bound into `keys`. A token that fails is refused, or dropped unanswered (a DropReason)
// when its sender does not hold the keys it came with.
std::variant<SessionTerms, Refusal, wire::DropReason> sessionTermsOf(const NetConfig& config,
                                                                     const wire::ConnectResponse& r,
                                                                     const wire::KeyPair& serverKeys,
                                                                     std::uint64_t unixSeconds,
                                                                     wire::SessionKeys& keys) {
  SessionTerms terms;
  terms.control = config.allowControl;
  terms.timeoutNs = nanoseconds(config.clientTimeoutSeconds);
  if (!config.tokenKey) return terms;
  const TokenCheck t = checkToken(*config.tokenKey, r.token(), unixSeconds);
  switch (t.verdict) {
    case TokenVerdict::kValid:
      break;
    case TokenVerdict::kMissing:
      return Refusal{wire::REFUSE_TOKEN_MISSING, "this server needs a connect token (--token)"};
    case TokenVerdict::kExpired:
      return Refusal{wire::REFUSE_TOKEN_EXPIRED, "connect token expired"};
    case TokenVerdict::kInvalid:
      return Refusal{wire::REFUSE_TOKEN_INVALID, "connect token not sealed with this server's key"};
  }
  // The token is not enough: its sender must hold the keys the matchmaker gave the client, which
  // never cross the wire. A token seen on the wire gets nothing, and no session is disturbed.
  if (!wire::connectProofValid(t.clientToServer, r.cookie(), r.public_key(), r.key_proof())) {
    return wire::DropReason::kBadKeyProof;
  }
  if (!tokenNamesServer(t.serverAddresses, config.publicAddresses, config.port)) {
    return Refusal{wire::REFUSE_TOKEN_WRONG_SERVER, "connect token is for other servers"};
  }
  terms.control = terms.control || t.role == wire::ROLE_CONTROL;
  terms.tokenClient = t.clientId;
  keys = wire::bindSessionKeys(keys, t.clientToServer, t.serverToClient, /*serverSide=*/true);
  terms.acceptProof = wire::acceptProof(t.serverToClient, serverKeys.publicKey, r.public_key());
  if (t.timeoutSeconds > 0) terms.timeoutNs = std::min(terms.timeoutNs, nanoseconds(t.timeoutSeconds));
  return terms;
}

// The simulation's news of a session admitted: it makes the player (or not) and sends the Accept.
NetEvent joinEventOf(std::uint32_t clientId, bool control, bool noBody, const std::string& serverPublicKey,
                     std::string acceptProof) {
  NetEvent e;
  e.kind = NetEvent::Kind::kJoin;
  e.clientId = clientId;
  e.controlRole = control;
  e.noBody = noBody;
  e.publicKey = serverPublicKey;
  e.acceptProof = std::move(acceptProof);
  return e;
}

}  // namespace

NetTime NetTime::now() {
  NetTime t;
  t.steadyNs = std::chrono::duration_cast<std::chrono::nanoseconds>(
                   std::chrono::steady_clock::now().time_since_epoch())
                   .count();
  t.unixSeconds = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
  return t;
}

// One admitted client, owned by the network thread.
struct NetProtocol::Connection {
  // A session admitted from `from`, sealed with `keys`, on the terms its token (or the server) grants.
  Connection(std::uint32_t id, const Address& from, const wire::SessionKeys& keys,
             const std::string& publicKey, std::int64_t nowNs, const SessionTerms& terms)
      : clientId(id),
        endpoint(from),
        seal(keys),
        clientPublicKey(publicKey),
        lastReceivedNs(nowNs),
        control(terms.control),
        tokenClient(terms.tokenClient),
        timeoutNs(terms.timeoutNs) {
    seal.refuseJumpsOver(wire::kMaxSequenceJump);  // the header's rule, on the whole sequence
  }

  std::uint32_t clientId = 0;
  Address endpoint;
  std::uint64_t sequence = 0;  // of our next datagram: the seal's nonce, its low 16 bits the header's
  wire::SessionSeal seal;      // this session's keys and replay window
  std::string clientPublicKey;
  wire::AckTracker acks;  // what we received from the client
  std::int64_t lastReceivedNs = 0;
  std::vector<std::uint8_t> accept;  // cached Accept datagram, resent if the client asks again
  // Send times of our last 256 sequences, for RTT and loss from the client's acks.
  std::array<std::int64_t, 256> sentNs{};
  std::array<bool, 256> acked{};
  std::uint64_t sent = 0, ackedCount = 0, lost = 0;
  double rttMs = 0;
  // The per-second window of /metrics' client histograms: when it began, and the counts then.
  std::int64_t windowStartNs = 0;
  std::uint64_t windowAcked = 0, windowLost = 0;
  TokenBucket sceneBudget{kSceneBurstParts, kScenePartsPerSecond};
  bool control = false;                      // the control role: its Control packets go to the simulation
  std::optional<std::uint64_t> tokenClient;  // the connect token's client id (servers with a key)
  std::int64_t timeoutNs = 0;                // silence that ends it: --client-timeout, or the token's
};

NetProtocol::NetProtocol(const NetConfig& config, ServerMetrics& metrics, DatagramSink sink)
    : config_(config),
      metrics_(metrics),
      sink_(std::move(sink)),
      addressSessions_(config.maxClientsPerAddress) {}

NetProtocol::~NetProtocol() = default;

void NetProtocol::shutdown(NetTime now) {
  now_ = now;
  shuttingDown_ = true;
  wire::Packet p;
  p.mutable_disconnect()->set_reason(wire::DISCONNECT_SERVER_SHUTDOWN);
  for (auto& [endpoint, c] : connections_) {
    for (int i = 0; i < 3; ++i) {
      if (wire::encodeDatagram({wire::Packet::kDisconnect, 0, 0, 0}, p, scratch_)) sendRaw(c, scratch_);
    }
  }
  if (!connections_.empty())
    spdlog::info("told {} client(s) the server is shutting down", connections_.size());
}

void NetProtocol::publishTick(std::uint32_t tick, std::int64_t ns, double tickRate) {
  tick_.store(tick, std::memory_order_relaxed);
  tickSteadyNs_.store(ns, std::memory_order_relaxed);
  tickRate_.store(tickRate, std::memory_order_relaxed);
}

std::vector<std::vector<std::uint8_t>> NetProtocol::sceneDatagrams(const std::vector<wire::Scene>& parts) {
  std::vector<std::vector<std::uint8_t>> datagrams;
  wire::Packet p;
  for (const wire::Scene& part : parts) {
    *p.mutable_scene() = part;
    std::vector<std::uint8_t> d;
    if (!wire::encodeDatagram({wire::Packet::kScene, 0, 0, 0}, p, d)) {
      spdlog::error("scene part {} over {} bytes: clients will not get it", part.part(),
                    wire::kMaxDatagramBytes);
      d.clear();
    }
    datagrams.push_back(std::move(d));
  }
  return datagrams;
}

void NetProtocol::flushOutgoing(NetTime now) {
  now_ = now;
  outgoing_.takeAll(sending_);
  for (OutDatagram& d : sending_) {
    auto e = endpointOf_.find(d.clientId);
    if (e == endpointOf_.end()) continue;  // left in the meantime
    Connection& c = connections_.at(e->second);
    if (d.bytes.size() > wire::kHeaderBytes && d.bytes[5] == wire::Packet::kAccept) c.accept = d.bytes;
    sendRaw(c, d.bytes);
  }
}

void NetProtocol::sendRaw(Connection& c, std::vector<std::uint8_t>& bytes) {
  const std::uint64_t sequence = c.sequence++;
  const auto seq = static_cast<std::uint16_t>(sequence);
  writeHeaderAcks(bytes, seq, c.acks.ack(), c.acks.ackBits());
  if (!c.seal.protect(bytes, sequence, sealed_)) {
    log_.warn("client {}: a {}-byte datagram of type {} could not be sealed", c.clientId, bytes.size(),
              bytes.size() > 5 ? bytes[5] : 0);
    return;
  }
  const std::size_t slot = seq & 255u;
  if (c.sent >= 256 && !c.acked[slot]) ++c.lost;
  c.sentNs[slot] = now_.steadyNs;
  c.acked[slot] = false;
  ++c.sent;
  if (!sink_(sealed_, c.endpoint)) return;
  metrics_.packetsOut.fetch_add(1, std::memory_order_relaxed);
  metrics_.bytesOut.fetch_add(sealed_.size(), std::memory_order_relaxed);
}

void NetProtocol::sendStateless(const wire::Packet& packet, wire::Packet::BodyCase type) {
  if (!wire::encodeDatagram({static_cast<std::uint8_t>(type), 0, 0, 0}, packet, scratch_)) return;
  if (!sink_(scratch_, from_)) return;
  metrics_.packetsOut.fetch_add(1, std::memory_order_relaxed);
  metrics_.bytesOut.fetch_add(scratch_.size(), std::memory_order_relaxed);
}

std::string NetProtocol::addressBytes(const Address& e) {
  std::string s;
  if (e.address().is_v4()) {
    const auto b = e.address().to_v4().to_bytes();
    s.assign(b.begin(), b.end());
  } else {
    const auto b = e.address().to_v6().to_bytes();
    s.assign(b.begin(), b.end());
  }
  s.push_back(static_cast<char>(e.port() & 0xff));
  s.push_back(static_cast<char>(e.port() >> 8));
  return s;
}

void NetProtocol::onDatagram(std::span<const std::uint8_t> datagram, const Address& from, NetTime now) {
  from_ = from;
  now_ = now;
  metrics_.packetsIn.fetch_add(1, std::memory_order_relaxed);
  metrics_.bytesIn.fetch_add(datagram.size(), std::memory_order_relaxed);
  // A datagram longer than the socket's buffer is truncated by the kernel; one longer than the
  // protocol's limit is refused before parsing either way.
  if (const wire::DropReason framing = wire::checkFraming(datagram); framing != wire::DropReason::kNone) {
    metrics_.drop(framing);
    return;
  }
  if (!wire::sealedKind(datagram[5])) {
    wire::decodeDatagram(datagram, decoded_);
    if (decoded_.drop != wire::DropReason::kNone) {
      metrics_.drop(decoded_.drop);
    } else if (decoded_.packet.body_case() == wire::Packet::kConnectRequest) {
      onConnectRequest();
    } else if (decoded_.packet.body_case() == wire::Packet::kConnectResponse) {
      onConnectResponse(decoded_);
    } else {
      metrics_.drop(wire::DropReason::kUnexpected);
    }
    return;
  }
  // Sealed: only a session's own keys open it, so a forged source address gets nowhere.
  auto it = connections_.find(from_);
  if (it == connections_.end()) {
    metrics_.drop(wire::DropReason::kUnknownClient);
    return;
  }
  if (const wire::DropReason seal = it->second.seal.unprotect(datagram, plain_);
      seal != wire::DropReason::kNone) {
    metrics_.drop(seal);
    return;
  }
  wire::decodeDatagram(plain_, decoded_);
  if (decoded_.drop != wire::DropReason::kNone) {
    metrics_.drop(decoded_.drop);
    return;
  }
  switch (decoded_.packet.body_case()) {
    case wire::Packet::kDebugSelect:
      if (!config_.allowDebug) {
        metrics_.drop(wire::DropReason::kDebugNotAllowed);
        return;
      }
      [[fallthrough]];
    case wire::Packet::kControl:
    case wire::Packet::kInput:
    case wire::Packet::kPing:
    case wire::Packet::kSceneRequest:
    case wire::Packet::kSceneChangesRequest:
    case wire::Packet::kDisconnect:
      onConnected(it->second, decoded_);
      return;
    case wire::Packet::kReplayControl:  // a served replay's only
      if (!config_.replayControls) {
        metrics_.drop(wire::DropReason::kUnexpected);
        return;
      }
      onConnected(it->second, decoded_);
      return;
    default:
      metrics_.drop(wire::DropReason::kUnexpected);
  }
}

// From an admitted address too: a ConnectRequest carries no cookie, so it is answered with a
// Challenge (smaller than the request), never the Accept (which a forged source address would
// make the server send to a victim); the client's ConnectResponse, cookie and all, gets the Accept.
void NetProtocol::onConnectRequest() {
  wire::Packet p;
  p.mutable_challenge()->set_cookie(cookies_.make(addressBytes(from_), now_.unixSeconds));
  sendStateless(p, wire::Packet::kChallenge);
}

void NetProtocol::refuse(wire::RefuseReason reason, const std::string& message) {
  metrics_.refusals.fetch_add(1, std::memory_order_relaxed);
  log_.info("refused {}:{}: {}", from_.address().to_string(), from_.port(), message);
  wire::Packet p;
  p.mutable_refuse()->set_reason(reason);
  p.mutable_refuse()->set_message(message);
  sendStateless(p, wire::Packet::kRefuse);
}

void NetProtocol::onConnectResponse(const wire::Decoded& d) {
  const auto& r = d.packet.connect_response();
  if (!cookies_.check(r.cookie(), addressBytes(from_), now_.unixSeconds)) {
    metrics_.drop(wire::DropReason::kBadCookie);
    return;
  }
  const auto here = connections_.find(from_);
  if (here != connections_.end() && r.public_key() == here->second.clientPublicKey) {
    // The same client asking again (its Accept was lost): the same Accept, no larger than this.
    if (!here->second.accept.empty()) sendRaw(here->second, here->second.accept);
    return;
  }
  if (here != connections_.end() &&
      now_.steadyNs - here->second.lastReceivedNs < nanoseconds(kReplaceAfterSilenceSeconds)) {
    // A new key while the session at this address still speaks: not a restarted client (whose
    // old session falls silent at once), so no new session, and no key exchange to spend. A
    // restarted client's resends get in once the old session has been quiet that long.
    metrics_.drop(wire::DropReason::kRateLimited);
    return;
  }
  if (shuttingDown_) return refuse(wire::REFUSE_SHUTTING_DOWN, "server is shutting down");
  if (!admitting_.load(std::memory_order_relaxed)) {
    return refuse(wire::REFUSE_NOT_ALLOCATED, "server is waiting for its match (not allocated yet)");
  }
  // A key pair of the server's own for every session: even a client that reuses its key gets new
  // session keys, so nothing sealed for an earlier session opens in this one.
  const wire::KeyPair serverKeys = wire::KeyPair::generate();
  auto keys = wire::serverSessionKeys(serverKeys, r.public_key());
  if (!keys) {
    return refuse(wire::REFUSE_BAD_KEY,
                  "ConnectResponse.public_key must be a 32-byte X25519 public key (protocol " +
                      std::to_string(wire::kProtocolVersion) + ")");
  }
  auto granted = sessionTermsOf(config_, r, serverKeys, now_.unixSeconds, *keys);
  if (const auto* refusal = std::get_if<Refusal>(&granted)) return refuse(refusal->reason, refusal->message);
  if (const auto* drop = std::get_if<wire::DropReason>(&granted)) {
    metrics_.drop(*drop);
    return;
  }
  SessionTerms& terms = std::get<SessionTerms>(granted);
  // A new key from an admitted address is a new client there (a restart on the same port), and
  // the cookie shows it receives at that address: once it has passed every check, the old
  // session ends.
  if (here != connections_.end()) {
    metrics_.sessionsReplaced.fetch_add(1, std::memory_order_relaxed);
    removeConnection(here, wire::DISCONNECT_REPLACED);
  }
  // One session per token: the newest connection with a client id replaces the one holding it
  // (told DISCONNECT_REPLACED), so ten sockets with one token end as one session, and a client
  // that crashed gets back in at once instead of waiting out its old session's timeout.
  if (terms.tokenClient) {
    if (const auto held = sessionOfToken_.find(*terms.tokenClient); held != sessionOfToken_.end()) {
      const auto old = connections_.find(held->second);
      if (old != connections_.end()) {
        wire::Packet p;
        p.mutable_disconnect()->set_reason(wire::DISCONNECT_REPLACED);
        for (int i = 0; i < 3; ++i) {
          if (wire::encodeDatagram({wire::Packet::kDisconnect, 0, 0, 0}, p, scratch_))
            sendRaw(old->second, scratch_);
        }
        metrics_.sessionsReplaced.fetch_add(1, std::memory_order_relaxed);
        removeConnection(old, wire::DISCONNECT_REPLACED);
      }
    }
  }
  if (connections_.size() >= config_.maxClients) {
    return refuse(wire::REFUSE_SERVER_FULL,
                  "server full (" + std::to_string(config_.maxClients) + " clients)");
  }
  // Checked once a token or this address's restart has ended the session it replaces: that one
  // no longer counts.
  if (addressSessions_.full(from_)) {
    metrics_.refusalsPerAddress.fetch_add(1, std::memory_order_relaxed);
    return refuse(wire::REFUSE_ADDRESS_FULL, "this address already holds " +
                                                 std::to_string(addressSessions_.cap()) +
                                                 " sessions (--max-clients-per-address)");
  }
  const std::uint32_t id = nextClientId_++;
  Connection c(id, from_, *keys, r.public_key(), now_.steadyNs, terms);
  c.acks.received(d.header.sequence);
  if (terms.tokenClient) sessionOfToken_[*terms.tokenClient] = from_;
  endpointOf_[id] = from_;
  addressSessions_.add(from_);
  connections_.emplace(from_, std::move(c));
  metrics_.connects.fetch_add(1, std::memory_order_relaxed);
  metrics_.clients.store(connections_.size(), std::memory_order_relaxed);
  log_.info("client {} connected from {}:{}{}", id, from_.address().to_string(), from_.port(),
            terms.control ? " (control)" : "");
  events_.push(
      joinEventOf(id, terms.control, r.no_body(), serverKeys.publicKey, std::move(terms.acceptProof)));
}

void NetProtocol::onConnected(Connection& c, const wire::Decoded& d) {
  switch (c.acks.received(d.header.sequence)) {
    case wire::Arrival::kDuplicate:
      metrics_.drop(wire::DropReason::kReplayed);
      return;
    case wire::Arrival::kImplausible:
      // A corrupted or forged header must not shift this connection's sequence window.
      metrics_.drop(wire::DropReason::kImplausibleSequence);
      return;
    case wire::Arrival::kNew:
    case wire::Arrival::kTooOld:  // inputs carry their own sequence; an old one is ignored there
      break;
  }
  c.lastReceivedNs = now_.steadyNs;
  // The client's acks of our datagrams: RTT samples and delivery.
  const std::int64_t now = now_.steadyNs;
  auto ackOne = [&](std::uint16_t seq) {
    const std::size_t slot = seq & 255u;
    // Only the last 256 sent: an ack of the one not sent yet (age 0, a forged or corrupt header)
    // would land in the slot of the one sent 256 before and fake its RTT.
    const auto age = static_cast<std::uint16_t>(static_cast<std::uint16_t>(c.sequence) - seq);
    if (c.acked[slot] || c.sentNs[slot] == 0 || age == 0 || age > 256) return;
    c.acked[slot] = true;
    ++c.ackedCount;
    const double ms = static_cast<double>(now - c.sentNs[slot]) / 1e6;
    c.rttMs = c.rttMs == 0 ? ms : c.rttMs * 0.9 + ms * 0.1;
  };
  if (c.sent > 0) {
    ackOne(d.header.ack);
    for (int i = 0; i < 32; ++i) {
      if (d.header.ackBits & (1u << i)) ackOne(static_cast<std::uint16_t>(d.header.ack - 1 - i));
    }
  }
  switch (d.packet.body_case()) {
    case wire::Packet::kInput: {
      NetEvent e;
      e.kind = NetEvent::Kind::kInput;
      e.clientId = c.clientId;
      e.input = d.packet.input();
      events_.push(std::move(e));
      return;
    }
    case wire::Packet::kPing: {
      wire::Packet p;
      auto* pong = p.mutable_pong();
      pong->set_client_time_us(d.packet.ping().client_time_us());
      pong->set_server_tick(tick_.load(std::memory_order_relaxed));
      const double since = static_cast<double>(now - tickSteadyNs_.load(std::memory_order_relaxed)) / 1e9;
      pong->set_tick_phase(
          static_cast<float>(std::clamp(since * tickRate_.load(std::memory_order_relaxed), 0.0, 1.0)));
      if (wire::encodeDatagram({wire::Packet::kPong, 0, 0, 0}, p, scratch_)) sendRaw(c, scratch_);
      return;
    }
    case wire::Packet::kSceneRequest:
      sendSceneParts(c, d.packet.scene_request());
      return;
    case wire::Packet::kSceneChangesRequest:
      sendSceneChanges(c, d.packet.scene_changes_request());
      return;
    case wire::Packet::kDebugSelect: {
      NetEvent e;
      e.kind = NetEvent::Kind::kDebugSelect;
      e.clientId = c.clientId;
      e.debug = d.packet.debug_select();
      events_.push(std::move(e));
      return;
    }
    case wire::Packet::kControl: {
      if (!c.control) {
        metrics_.drop(wire::DropReason::kControlNotAllowed);
        return;
      }
      if (d.packet.control().commands_size() > kMaxCommandsPerPacket) {
        metrics_.drop(wire::DropReason::kBadCommand);
        return;
      }
      NetEvent e;
      e.kind = NetEvent::Kind::kControl;
      e.clientId = c.clientId;
      e.control = d.packet.control();
      events_.push(std::move(e));
      return;
    }
    case wire::Packet::kReplayControl: {
      NetEvent e;
      e.kind = NetEvent::Kind::kReplayControl;
      e.clientId = c.clientId;
      e.replay = d.packet.replay_control();
      events_.push(std::move(e));
      return;
    }
    case wire::Packet::kDisconnect:
      removeConnection(connections_.find(c.endpoint), wire::DISCONNECT_CLIENT_LEFT);
      return;
    default:
      return;
  }
}

void NetProtocol::setSceneChangeLog(std::shared_ptr<const wire::SceneChangeLog> log) {
  sceneLog_ = std::move(log);
  pages_.clear();
}

// One page of what changed since the client's version, through the scene parts' token bucket (one
// request, one datagram). Clients at the same version ask for the same page: the last few are
// kept encoded.
void NetProtocol::sendSceneChanges(Connection& c, const wire::SceneChangesRequest& request) {
  if (!c.sceneBudget.take(now_.steadyNs)) {
    metrics_.drop(wire::DropReason::kRateLimited);
    return;
  }
  auto cached = std::find_if(pages_.begin(), pages_.end(), [&](const CachedPage& p) {
    return p.have == request.have() && p.after == request.after_obstacle();
  });
  if (cached == pages_.end()) {
    const wire::SceneChangeLog unchanged;  // before the first change: version 0
    const wire::SceneChangeLog& log = sceneLog_ != nullptr ? *sceneLog_ : unchanged;
    wire::Packet p;
    *p.mutable_scene_changes() =
        wire::encodeSceneChanges(log, request.have(), request.after_obstacle(), wire::kMaxScenePartBytes);
    CachedPage page{request.have(), request.after_obstacle(), {}};
    if (!wire::encodeDatagram({wire::Packet::kSceneChanges, 0, 0, 0}, p, page.datagram)) {
      spdlog::error("a page of scene changes over {} bytes: not sent", wire::kMaxBodyBytes);
      return;
    }
    if (pages_.size() == kSceneChangePagesCached) pages_.erase(pages_.begin());
    pages_.push_back(std::move(page));
    cached = pages_.end() - 1;
  }
  metrics_.sceneChangePages.fetch_add(1, std::memory_order_relaxed);
  metrics_.sceneChangeBytes.fetch_add(cached->datagram.size(), std::memory_order_relaxed);
  sendRaw(c, cached->datagram);  // it writes only the header's sequence and acks
}

// Only for admitted clients (their address answered the cookie), and through each client's token
// bucket: a small request cannot make the server send more than kScenePartsPerSecond datagrams a
// second to anyone.
void NetProtocol::sendSceneParts(Connection& c, const wire::SceneRequest& request) {
  if (request.parts_size() > kMaxScenePartsPerRequest) {
    metrics_.drop(wire::DropReason::kBadInput);
    return;
  }
  for (const std::uint32_t part : request.parts()) {
    if (part >= scene_.size() || scene_[part].empty()) continue;  // no such part: nothing to send
    if (!c.sceneBudget.take(now_.steadyNs)) {
      metrics_.drop(wire::DropReason::kRateLimited);
      return;
    }
    // Counted before the send: a client (a test) that has the datagram sees it counted.
    metrics_.sceneParts.fetch_add(1, std::memory_order_relaxed);
    metrics_.sceneBytes.fetch_add(scene_[part].size(), std::memory_order_relaxed);
    sendRaw(c, scene_[part]);
  }
}

void NetProtocol::removeConnection(std::map<Address, Connection>::iterator it, wire::DisconnectReason why) {
  const std::uint32_t id = it->second.clientId;
  log_.info("client {} {}", id,
            why == wire::DISCONNECT_TIMED_OUT  ? "timed out"
            : why == wire::DISCONNECT_REPLACED ? "replaced by a new connection (its token or its address)"
                                               : "disconnected");
  endpointOf_.erase(id);
  addressSessions_.remove(it->first);
  if (const auto& t = it->second.tokenClient) {
    const auto held = sessionOfToken_.find(*t);
    if (held != sessionOfToken_.end() && held->second == it->first) sessionOfToken_.erase(held);
  }
  connections_.erase(it);
  metrics_.disconnects.fetch_add(1, std::memory_order_relaxed);
  if (why == wire::DISCONNECT_TIMED_OUT) metrics_.timeouts.fetch_add(1, std::memory_order_relaxed);
  metrics_.clients.store(connections_.size(), std::memory_order_relaxed);
  NetEvent e;
  e.kind = NetEvent::Kind::kLeave;
  e.clientId = id;
  e.reason = why;
  events_.push(std::move(e));
}

void NetProtocol::observeClientWindow(Connection& c, std::int64_t nowNs) {
  if (c.windowStartNs == 0) c.windowStartNs = c.lastReceivedNs;  // connected: the first window opens
  if (nowNs - c.windowStartNs < nanoseconds(1.0)) return;
  if (c.rttMs > 0) metrics_.clientRttSeconds.observe(c.rttMs / 1000.0);
  const std::uint64_t acked = c.ackedCount - c.windowAcked, lost = c.lost - c.windowLost;
  if (acked + lost > 0) {
    metrics_.clientLossRatio.observe(static_cast<double>(lost) / static_cast<double>(acked + lost));
  }
  c.windowStartNs = nowNs;
  c.windowAcked = c.ackedCount;
  c.windowLost = c.lost;
}

void NetProtocol::update(NetTime now) {
  now_ = now;
  std::vector<ClientSummary> summaries;
  for (auto it = connections_.begin(); it != connections_.end();) {
    auto next = std::next(it);
    Connection& c = it->second;
    const std::int64_t timeout = c.timeoutNs > 0 ? c.timeoutNs : nanoseconds(config_.clientTimeoutSeconds);
    if (now.steadyNs - c.lastReceivedNs > timeout) {
      wire::Packet p;
      p.mutable_disconnect()->set_reason(wire::DISCONNECT_TIMED_OUT);
      if (wire::encodeDatagram({wire::Packet::kDisconnect, 0, 0, 0}, p, scratch_)) sendRaw(c, scratch_);
      removeConnection(it, wire::DISCONNECT_TIMED_OUT);
    } else {
      const double delivered = static_cast<double>(c.ackedCount + c.lost);
      summaries.push_back(
          {c.clientId, c.rttMs, delivered > 0 ? static_cast<double>(c.lost) / delivered : 0.0});
      observeClientWindow(c, now.steadyNs);
    }
    it = next;
  }
  metrics_.setClientSummaries(std::move(summaries));
}

}  // namespace steerd::net
