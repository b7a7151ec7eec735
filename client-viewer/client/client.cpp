#include "client/client.h"

#include <algorithm>
#include <bitset>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <sstream>

#include "client/snapshot_header.h"
#include "client/stamped_receive.h"
#include "movement/wire_collision.h"
#include "proto/session_seal.h"
#include "proto/token_proof.h"
#include "proto/varint_size.h"

namespace steerd::client {

namespace {

using udp = asio::ip::udp;
using Seconds = std::chrono::duration<double>;

Clock::duration toDuration(Seconds s) {
  if (!std::isfinite(s.count()) || s.count() < 0) return Clock::duration::zero();
  return std::chrono::duration_cast<Clock::duration>(std::min(s, Seconds(1e6)));
}

std::string describe(const udp::endpoint& e) {
  std::ostringstream s;
  s << e;
  return s.str();
}

// Loss from gaps in the peer's sequence numbers over the last kWindow of them. A datagram that
// arrives late but inside the window still counts as received.
class LossWindow {
 public:
  static constexpr std::uint16_t kWindow = 256;

  void add(std::uint16_t s) {
    if (!any_) {
      any_ = true;
      got_.reset();
      got_.set(s % kWindow);
      newest_ = s;
      span_ = 1;
      return;
    }
    if (wire::sequenceNewer(s, newest_)) {
      const auto d = static_cast<std::uint16_t>(s - newest_);
      if (d >= kWindow) {
        got_.reset();
      } else {
        for (std::uint16_t k = 1; k <= d; ++k) got_.reset(static_cast<std::uint16_t>(newest_ + k) % kWindow);
      }
      span_ = std::min<std::uint32_t>(kWindow, span_ + d);
      got_.set(s % kWindow);
      newest_ = s;
    } else if (static_cast<std::uint16_t>(newest_ - s) < span_) {
      got_.set(s % kWindow);
    }
  }

  double percent() const {
    if (span_ == 0) return 0.0;
    return 100.0 * static_cast<double>(span_ - std::min<std::size_t>(span_, got_.count())) / span_;
  }

 private:
  std::bitset<kWindow> got_;
  std::uint16_t newest_ = 0;
  std::uint32_t span_ = 0;
  bool any_ = false;
};

struct PlayerSample {
  std::uint32_t sequence = 0;
  float x = 0, y = 0, vx = 0, vy = 0;  // position mode
  float mx = 0, my = 0, dt = 0;        // intent mode
};

// Parts of one tick received so far.
struct Pending {
  std::uint32_t partCount = 0;
  std::uint32_t received = 0;
  std::vector<bool> have;
  std::vector<wire::SnapshotRecord> parts;  // by part index
};

constexpr std::uint32_t kMaxParts = 256;         // a snapshot of more parts than this is malformed
constexpr std::uint32_t kMaxSceneParts = 65536;  // a scene of more parts than this is malformed
constexpr int kScenePartsPerRequest = 16;        // the server's limit per SceneRequest
constexpr std::size_t kMaxPendingTicks = 16;     // incomplete ticks kept waiting for parts
constexpr std::size_t kMaxCookieBytes = 512;

}  // namespace

const char* clientStateName(ClientState state) {
  switch (state) {
    case ClientState::kIdle:
      return "idle";
    case ClientState::kAwaitingChallenge:
      return "awaiting_challenge";
    case ClientState::kAwaitingAccept:
      return "awaiting_accept";
    case ClientState::kConnected:
      return "connected";
    case ClientState::kRefused:
      return "refused";
    case ClientState::kTimedOut:
      return "timed_out";
    case ClientState::kDisconnected:
      return "disconnected";
    case ClientState::kFailed:
      return "failed";
  }
  return "unknown";
}

std::uint64_t ClientStats::decodeFailures() const {
  std::uint64_t n = partsMalformed + partsBaselineMissing + scenePartsMalformed;
  for (std::uint64_t d : drops) n += d;
  return n;
}

struct Client::Impl : std::enable_shared_from_this<Impl> {
  Impl(asio::io_context& io, ClientOptions o)
      : options(std::move(o)),
        strand(asio::make_strand(io)),
        socket(strand),
        interp(InterpolationBuffer::Options{std::max<std::size_t>(options.interpolationCapacity, 2), 7.5}) {
    options.baselineRing = std::max<std::size_t>(options.baselineRing, 1);
    if (!(options.inputRateHz > 0.0) || !std::isfinite(options.inputRateHz)) options.inputRateHz = 30.0;
    if (!(options.interpolationDelaySnapshots >= 0.0) ||
        !std::isfinite(options.interpolationDelaySnapshots)) {
      options.interpolationDelaySnapshots = 2.0;
    }
    std::error_code ec;
    socket.open(options.server.protocol(), ec);
    if (!ec) socket.bind(udp::endpoint(options.server.protocol(), 0), ec);
    if (!ec) socket.non_blocking(true, ec);
    if (ec) fail("cannot open a UDP socket: " + ec.message());
    // Arrival times as the kernel stamped them, where it can (client/stamped_receive.h; without,
    // the time of reading).
    if (!ec) enableReceiveStamps(socket);
  }

  // --- sockets -------------------------------------------------------------------------------

  void startReceiving() {
    if (receiving || closed || !socket.is_open()) return;
    receiving = true;
    receive();
  }

  void receive() {
    socket.async_wait(udp::socket::wait_read,
                      [self = shared_from_this()](const std::error_code& ec) { self->onReadable(ec); });
  }

  // Readable: every queued datagram (up to 65), each with its arrival (receiveStamped).
  void onReadable(const std::error_code& ec) {
    if (closed || ec == asio::error::operation_aborted) {
      receiving = false;
      return;
    }
    if (ec) {
      ++counters.receiveErrors;
    } else {
      for (int i = 0; i < 65 && !closed; ++i) {
        bool error = false;
        const std::optional<StampedDatagram> d = receiveStamped(socket, rx, from, error);
        if (error) ++counters.receiveErrors;
        if (!d) break;
        handleDatagram(d->bytes, d->arrival);
      }
    }
    if (closed) {
      receiving = false;
      return;
    }
    receive();
  }

  void close() {
    closed = true;
    std::error_code ec;
    socket.close(ec);
  }

  void send(const wire::Packet& packet, std::size_t minSize = 0) {
    if (!socket.is_open()) return;
    wire::PacketHeader h;
    h.type = static_cast<std::uint8_t>(packet.body_case());
    h.sequence = static_cast<std::uint16_t>(sequence);
    h.ack = acks.ack();
    h.ackBits = acks.ackBits();
    // After the handshake every kind is sealed with the session's keys (proto/session_seal.h).
    if (!wire::encodeDatagram(h, packet, tx, minSize) || !seal.protect(tx, sequence, sealedTx)) {
      ++counters.sendFailures;
      return;
    }
    ++sequence;
    std::error_code ec;
    socket.send_to(asio::buffer(sealedTx), options.server, 0, ec);
    if (ec) {
      ++counters.sendFailures;
      return;
    }
    ++counters.datagramsOut;
    counters.bytesOut += sealedTx.size();
  }

  // --- state ---------------------------------------------------------------------------------

  void fail(std::string why) {
    state = ClientState::kFailed;
    message = std::move(why);
  }

  bool handshaking() const {
    return state == ClientState::kAwaitingChallenge || state == ClientState::kAwaitingAccept;
  }

  bool connect(TimePoint now) {
    if (state != ClientState::kIdle) return false;
    startReceiving();
    keys = wire::KeyPair::generate();  // fresh for every connection: its sessions share nothing
    tokenKeys.reset();
    if (!options.token.empty()) {
      std::string error;
      tokenKeys = wire::parseClientToken(options.token, error);
      if (!tokenKeys) {
        fail("the connect token is unusable: " + error);
        return false;
      }
    }
    notAllocatedMessage.clear();
    state = ClientState::kAwaitingChallenge;
    connectStarted = now;
    handshakeSends = 0;
    windowStart = now;
    sendHandshake(now);
    return true;
  }

  void sendHandshake(TimePoint now) {
    wire::Packet p;
    if (state == ClientState::kAwaitingChallenge) {
      auto* r = p.mutable_connect_request();  // set even when empty: it names the packet's kind
      if (tokenKeys) r->set_token(tokenKeys->privateToken);
    } else {
      auto* r = p.mutable_connect_response();
      r->set_cookie(cookie);
      r->set_no_body(options.noBody);
      r->set_public_key(keys.publicKey);
      if (tokenKeys) {
        r->set_token(tokenKeys->privateToken);
        r->set_key_proof(wire::connectProof(tokenKeys->clientToServer, cookie, keys.publicKey));
      }
    }
    send(p, wire::minimumDatagramBytes(p.body_case()));
    ++handshakeSends;
    lastHandshakeSend = now;
  }

  void update(TimePoint now) {
    if (handshaking()) {
      if (now - connectStarted >= toDuration(options.connectTimeout)) {
        std::ostringstream s;
        s << "no " << (state == ClientState::kAwaitingChallenge ? "answer" : "Accept or Refuse") << " from "
          << describe(options.server) << " within " << options.connectTimeout.count() << " s";
        if (!notAllocatedMessage.empty()) s << " (last refusal: " << notAllocatedMessage << ")";
        state = ClientState::kTimedOut;
        message = s.str();
      } else if (now - lastHandshakeSend >= toDuration(options.resendInterval) &&
                 handshakeSends <= std::max(options.retries, 0)) {
        sendHandshake(now);
      }
    } else if (state == ClientState::kConnected) {
      if (now - lastHeard > toDuration(options.serverTimeout)) {
        std::ostringstream s;
        s << "server " << describe(options.server) << " silent for " << options.serverTimeout.count() << " s";
        state = ClientState::kTimedOut;
        message = s.str();
      } else {
        const auto inputInterval = toDuration(Seconds(1.0 / options.inputRateHz));
        if (info.controlAllowed) sendControl(now);
        if (!replayOut.empty() && now >= nextReplayControlAt) {
          for (const wire::ReplayControl& c : replayOut) {
            wire::Packet p;
            *p.mutable_replay_control() = c;
            send(p);
          }
          nextReplayControlAt = now + kReplayControlResend;
        }
        if (now >= nextInputAt) {
          sendInput();
          nextInputAt += inputInterval;
          if (nextInputAt <= now) nextInputAt = now + inputInterval;  // late: no burst to catch up
        }
        if (now >= nextPingAt) {
          sendPing(now);
          nextPingAt += toDuration(options.pingInterval);
          if (nextPingAt <= now) nextPingAt = now + toDuration(options.pingInterval);
        }
        if (options.fetchScene && !sceneComplete() && now >= nextSceneRequestAt) {
          sendSceneRequest();
          nextSceneRequestAt = now + toDuration(options.sceneRetryInterval);
        }
        if (info.debugAllowed && (debugWanted() || debugStopPending) && now >= nextDebugSelectAt) {
          sendDebugSelect();
          lastDebugSelectAt = now;
          nextDebugSelectAt = now + toDuration(options.debugSelectInterval);
        }
      }
    }
    const double elapsed = Seconds(now - windowStart).count();
    if (elapsed >= 1.0) {
      kbpsIn = static_cast<double>(counters.bytesIn - windowBytesIn) * 8.0 / 1000.0 / elapsed;
      kbpsOut = static_cast<double>(counters.bytesOut - windowBytesOut) * 8.0 / 1000.0 / elapsed;
      snapshotsPerSecond = static_cast<double>(counters.snapshotsComplete - windowSnapshots) / elapsed;
      windowStart = now;
      windowBytesIn = counters.bytesIn;
      windowBytesOut = counters.bytesOut;
      windowSnapshots = counters.snapshotsComplete;
    }
  }

  void disconnect() {
    if (state == ClientState::kAwaitingAccept || state == ClientState::kConnected) {
      wire::Packet p;
      p.mutable_disconnect()->set_reason(wire::DISCONNECT_CLIENT_LEFT);
      for (int i = 0; i < 3; ++i) send(p);
    }
    if (handshaking() || state == ClientState::kConnected || state == ClientState::kIdle) {
      state = ClientState::kDisconnected;
      disconnectReason = wire::DISCONNECT_CLIENT_LEFT;
      message = "disconnected by the client";
    }
  }

  void sendInput() {
    // One Packet kept for every input: clearing it keeps its messages' memory for the next.
    wire::Input* in = inputPacket.mutable_input();
    in->Clear();
    if (havePlayer) {
      std::move_backward(history.begin(), history.begin() + 3, history.end());
      history[0] = player;
      history[0].sequence = ++inputSequence;
      // An intent is one input interval long (the server spends real time on it, not more).
      history[0].dt = info.playerIntents ? static_cast<float>(1.0 / options.inputRateHz) : 0.0f;
      if (info.playerIntents) {
        updatePredictionScene();
        prediction.applyInput(history[0].sequence, {history[0].mx, history[0].my}, history[0].dt);
      }
      historyCount = std::min<std::size_t>(historyCount + 1, history.size());
      for (std::size_t i = 0; i < historyCount; ++i) {
        auto* pi = in->add_inputs();
        pi->set_sequence(history[i].sequence);
        if (info.playerIntents) {
          pi->set_move_x(history[i].mx);
          pi->set_move_y(history[i].my);
          pi->set_dt(history[i].dt);
        } else {
          pi->set_x(history[i].x);
          pi->set_y(history[i].y);
          pi->set_vx(history[i].vx);
          pi->set_vy(history[i].vy);
        }
      }
    }
    in->set_ack_snapshot(newestComplete);
    in->set_ack_epoch(epoch);
    send(inputPacket);
  }

  // Commands due (new, or unacknowledged for commandResendInterval) and the acknowledgement of the
  // server's messages, in as many datagrams as they take (8 at most per update).
  void sendControl(TimePoint now) {
    const double t = Seconds(now.time_since_epoch()).count();
    const bool ackDue =
        controlAckDirty || (messagesIn.received() > 0 && now - lastControlSend >= kControlAckRepeat);
    for (int d = 0; d < 8; ++d) {
      wire::Packet p;
      wire::Control* c = p.mutable_control();
      c->set_messages_received(messagesIn.received());
      if (messagesIn.anyPacket()) {
        c->set_reply_ack(messagesIn.packetAck());
        c->set_reply_ack_bits(messagesIn.packetAckBits());
      }
      const std::uint16_t number = commandsOut.beginPacket();
      c->set_packet(number);
      bool more = false;
      std::size_t controlBytes = c->ByteSizeLong();
      commandsOut.due(t, options.commandResendInterval.count(), number, [&](const control::Command& cmd) {
        const std::size_t add = wire::embeddedBytes(wire::Control::kCommandsFieldNumber, cmd.ByteSizeLong());
        if (wire::embeddedBytes(wire::Packet::kControlFieldNumber, controlBytes + add) >
            wire::kMaxBodyBytes) {
          more = true;
          return false;
        }
        controlBytes += add;
        *c->add_commands() = cmd;
        return true;
      });
      if (c->commands_size() == 0 && !(d == 0 && ackDue)) return;
      send(p);
      controlAckDirty = false;
      lastControlSend = now;
      if (!more) return;
    }
  }

  std::uint32_t sendCommand(control::Command command) {
    if (state != ClientState::kConnected || !info.controlAllowed) return 0;
    if (commandsOut.size() >= options.maxUnacknowledgedCommands) return 0;
    const std::uint32_t seq = commandsOut.push(std::move(command));
    if (seq != 0) ++counters.commandsSent;
    return seq;
  }

  void onControlReply(const wire::ControlReply& r) {
    counters.commandsAcknowledged += commandsOut.acknowledge(r.commands_received());
    if (r.has_control_ack())
      commandsOut.acknowledgePackets(static_cast<std::uint16_t>(r.control_ack()), r.control_ack_bits());
    counters.controlDuplicates +=
        messagesIn.receivePacket(static_cast<std::uint16_t>(r.packet()), r.messages()).duplicates;
    if (r.messages_size() > 0) controlAckDirty = true;
    wire::ControlMessage next;
    while (messagesIn.next(next)) {
      delivered.push_back(std::move(next));
      ++counters.controlMessages;
    }
  }

  bool sceneComplete() const { return sceneCount != 0 && counters.scenePartsReceived == sceneCount; }

  // Part 0 until the part count is known, then the first missing parts.
  void sendSceneRequest() {
    wire::Packet p;
    auto* r = p.mutable_scene_request();
    if (sceneCount == 0) {
      r->add_parts(0);
    } else {
      for (std::uint32_t i = 0; i < sceneCount && r->parts_size() < kScenePartsPerRequest; ++i) {
        if (!sceneHave[i]) r->add_parts(i);
      }
    }
    ++counters.sceneRequests;
    send(p);
  }

  bool debugWanted() const { return debugAgent || hoverAgent || statesArea; }

  void watchAgent(std::optional<std::uint32_t> agent) {
    if (agent == debugAgent) return;
    const bool wanted = debugWanted();
    debugAgent = agent;
    debugStopPending = wanted && !debugWanted();
    debugInfo.reset();
    nextDebugSelectAt = TimePoint{};  // at the next update()
  }

  void setHoverAgent(std::optional<std::uint32_t> agent) {
    if (agent == hoverAgent) return;
    const bool wanted = debugWanted();
    hoverAgent = agent;
    debugStopPending = wanted && !debugWanted();
    hoverInfo.reset();
    nextDebugSelectAt = TimePoint{};  // at the next update()
  }

  // On or off is sent at the next update(); a moved area (by a quarter of its radius, or a radius
  // changed by a quarter) within kStatesAreaRepeat of the last DebugSelect, else with the next
  // repetition, so a panning view does not send a DebugSelect a frame.
  void setStatesArea(std::optional<Client::StatesArea> area) {
    const bool had = statesArea.has_value();
    if (!area) {
      if (!had) return;
      const bool wanted = debugWanted();
      statesArea.reset();
      brainStates.reset();
      debugStopPending = wanted && !debugWanted();
      nextDebugSelectAt = TimePoint{};
      return;
    }
    if (had) {
      // Measured against the area last sent, so a slow steady pan adds up.
      const Client::StatesArea& o = sentStatesArea ? *sentStatesArea : *statesArea;
      const float moved = std::hypot(area->x - o.x, area->y - o.y);
      const bool far = moved > 0.25f * o.radius || std::fabs(area->radius - o.radius) > 0.25f * o.radius;
      statesArea = area;
      if (far) nextDebugSelectAt = std::min(nextDebugSelectAt, lastDebugSelectAt + kStatesAreaRepeat);
      return;
    }
    statesArea = area;
    nextDebugSelectAt = TimePoint{};
  }

  void sendDebugSelect() {
    wire::Packet p;
    wire::DebugSelect* select = p.mutable_debug_select();
    if (debugAgent) {
      select->set_agent_id(*debugAgent);
    } else {
      select->set_stop(true);  // no selection: the hover alone, or nothing
    }
    if (hoverAgent) select->set_hover_agent(*hoverAgent);
    if (statesArea) {
      wire::DebugArea* area = select->mutable_states_area();
      area->set_x(statesArea->x);
      area->set_y(statesArea->y);
      area->set_radius(statesArea->radius);
    }
    sentStatesArea = statesArea;
    // A last "stop" is sent once: if it is lost, the server ends the stream by itself.
    if (!debugWanted()) debugStopPending = false;
    send(p);
  }

  void onDebugInfo(const wire::DebugInfo& d) {
    if (d.has_hover() && hoverAgent && d.hover().agent_id() == *hoverAgent &&
        (!hoverInfo || d.tick() >= hoverTick)) {
      hoverInfo = d.hover();
      hoverTick = d.tick();
    }
    // A states list whose ids and states disagree in length is not one.
    if (d.has_states() && statesArea && d.states().agent_id_size() == d.states().state_size() &&
        (!brainStates || d.tick() >= brainStatesTick)) {
      brainStates = d.states();
      brainStatesTick = d.tick();
    }
    if (d.hover_only()) return;
    if (!debugAgent || d.agent_id() != *debugAgent) return;  // about an earlier selection
    if (debugInfo && d.tick() < debugInfo->tick()) return;   // reordered: keep the newer
    debugInfo = d;
    ++counters.debugInfos;
  }

  void onScenePart(const wire::Scene& part, TimePoint now) {
    if (part.part_count() == 0 || part.part_count() > kMaxSceneParts || part.part() >= part.part_count() ||
        (sceneCount != 0 && part.part_count() != sceneCount)) {
      ++counters.scenePartsMalformed;
      return;
    }
    if (sceneCount != 0 && sceneHave[part.part()]) return;  // asked twice, answered twice
    if (const std::string error = wire::decodeScenePart(part, sceneGeometry); !error.empty()) {
      ++counters.scenePartsMalformed;
      lastDecodeError = "scene part " + std::to_string(part.part()) + ": " + error;
      return;
    }
    if (sceneCount == 0) {
      sceneCount = part.part_count();
      sceneHave.assign(sceneCount, false);
      nextSceneRequestAt = now;  // the count is known: ask for the rest at once
    }
    sceneHave[part.part()] = true;
    ++counters.scenePartsReceived;
  }

  void sendPing(TimePoint now) {
    wire::Packet p;
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count();
    p.mutable_ping()->set_client_time_us(static_cast<std::uint64_t>(std::max<std::int64_t>(us, 0)));
    send(p);
  }

  // --- receiving -----------------------------------------------------------------------------

  void handleDatagram(std::size_t n, TimePoint now) {
    ++counters.datagramsIn;
    counters.bytesIn += n;
    if (from != options.server) {
      ++counters.foreignDatagrams;
      return;
    }
    // Sealed kinds open only with this session's keys: before the Accept, or forged, they are
    // counted drops (bad_seal), as are replays.
    const wire::DropReason opened = seal.unprotect(std::span<const std::uint8_t>(rx.data(), n), plain);
    if (opened != wire::DropReason::kNone) {
      ++counters.drops[static_cast<std::size_t>(opened)];
      return;
    }
    if (!options.decodeEntities && plain.size() >= wire::kHeaderBytes &&
        plain[5] == wire::Packet::kSnapshot) {
      onLightSnapshotDatagram(now);
      return;
    }
    wire::decodeDatagram(plain, decoded);
    if (decoded.drop != wire::DropReason::kNone) {
      ++counters.drops[static_cast<std::size_t>(decoded.drop)];
      return;
    }
    const wire::Packet& p = decoded.packet;
    switch (p.body_case()) {
      case wire::Packet::kChallenge:
        onChallenge(p.challenge(), now);
        return;
      case wire::Packet::kAccept:
        if (state == ClientState::kAwaitingAccept) {
          onAccept(p.accept(), now);
        } else if (state == ClientState::kConnected) {
          heard(now);  // a repeated Accept
        }
        return;
      case wire::Packet::kRefuse:
        if (handshaking() && p.refuse().reason() == wire::REFUSE_NOT_ALLOCATED) {
          // An Agones server allocated a moment ago admits players once its match is loaded:
          // start the handshake again (a fresh challenge) until connectTimeout.
          refuseReason = p.refuse().reason();
          notAllocatedMessage = p.refuse().message();
          state = ClientState::kAwaitingChallenge;
          handshakeSends = 0;
          lastHandshakeSend = now;
          return;
        }
        if (handshaking()) {
          state = ClientState::kRefused;
          refuseReason = p.refuse().reason();
          message = !p.refuse().message().empty()
                        ? p.refuse().message()
                        : std::string("refused: ") + wire::RefuseReason_Name(p.refuse().reason());
        }
        return;
      case wire::Packet::kSnapshot:
        if (state == ClientState::kConnected) {
          heard(now);
          onSnapshotPart(snapshotPartHeader(p.snapshot()), &p.snapshot(), now);
        }
        return;
      case wire::Packet::kPong:
        if (state == ClientState::kConnected) {
          heard(now);
          onPong(p.pong(), now);
        }
        return;
      case wire::Packet::kScene:
        if (state == ClientState::kConnected) {
          heard(now);
          if (options.fetchScene) onScenePart(p.scene(), now);
        }
        return;
      case wire::Packet::kDebugInfo:
        if (state == ClientState::kConnected) {
          heard(now);
          onDebugInfo(p.debug_info());
        }
        return;
      case wire::Packet::kControlReply:
        if (state == ClientState::kConnected) {
          heard(now);
          onControlReply(p.control_reply());
        }
        return;
      case wire::Packet::kReplayStatus:
        if (state == ClientState::kConnected) {
          heard(now);
          onReplayStatus(p.replay_status(), now);
        }
        return;
      case wire::Packet::kDisconnect:
        if (handshaking() || state == ClientState::kConnected) {
          state = ClientState::kDisconnected;
          disconnectReason = p.disconnect().reason();
          message =
              std::string("server disconnected: ") + wire::DisconnectReason_Name(p.disconnect().reason());
        }
        return;
      default:  // a kind only servers receive
        ++counters.drops[static_cast<std::size_t>(wire::DropReason::kUnexpected)];
        return;
    }
  }

  // Light snapshots (options.decodeEntities false): the part header only, read from the datagram
  // opened in `plain` without parsing the entity arrays; then the same part bookkeeping.
  void onLightSnapshotDatagram(TimePoint now) {
    SnapshotPartHeader part;
    const wire::DropReason drop = readSnapshotDatagram(plain, decoded.header, part);
    if (drop != wire::DropReason::kNone) {
      ++counters.drops[static_cast<std::size_t>(drop)];
      return;
    }
    if (state == ClientState::kConnected) {
      heard(now);
      onSnapshotPart(part, nullptr, now);
    }
  }

  // A packet of the connection (not a stateless handshake answer): acks, loss, liveness.
  void heard(TimePoint now) {
    // A sequence far ahead of the newest is corruption: it must not shift the ack window or
    // count everything in between as lost.
    if (acks.received(decoded.header.sequence) == wire::Arrival::kImplausible) {
      ++counters.drops[static_cast<std::size_t>(wire::DropReason::kImplausibleSequence)];
      return;
    }
    loss.add(decoded.header.sequence);
    lastHeard = now;
  }

  void onChallenge(const wire::Challenge& c, TimePoint now) {
    if (!handshaking() || c.cookie().empty() || c.cookie().size() > kMaxCookieBytes) return;
    const bool fresh = state == ClientState::kAwaitingChallenge;
    cookie = c.cookie();
    if (fresh) {
      state = ClientState::kAwaitingAccept;
      handshakeSends = 0;
      sendHandshake(now);
    }
  }

  void onAccept(const wire::Accept& a, TimePoint now) {
    auto rateOk = [](float r) { return std::isfinite(r) && r > 0.0f && r <= 10000.0f; };
    if (!rateOk(a.tick_rate()) || !rateOk(a.send_rate())) {
      std::ostringstream s;
      s << "the server's Accept is unusable (tick_rate " << a.tick_rate() << ", send_rate " << a.send_rate()
        << ")";
      fail(s.str());
      return;
    }
    // With a token, only a server that opened it can prove its half of the keys: an Accept without
    // that proof is someone else's (a man in the middle), so ignored; the real one may follow.
    if (tokenKeys &&
        !wire::acceptProofValid(tokenKeys->serverToClient, a.public_key(), keys.publicKey, a.key_proof()))
      return;
    auto sessionKeys = wire::clientSessionKeys(keys, a.public_key());
    if (sessionKeys && tokenKeys)
      *sessionKeys = wire::bindSessionKeys(*sessionKeys, tokenKeys->clientToServer, tokenKeys->serverToClient,
                                           /*serverSide=*/false);
    if (!sessionKeys) {
      std::ostringstream s;
      s << "the server's Accept has no usable public key (" << a.public_key().size() << " bytes; protocol "
        << int{wire::kProtocolVersion} << " needs " << wire::kPublicKeyBytes << ")";
      fail(s.str());
      return;
    }
    seal = wire::SessionSeal(*sessionKeys);
    info.clientId = a.client_id();
    info.playerEntity = a.player_entity();
    info.tickRate = a.tick_rate();
    info.sendRate = a.send_rate();
    info.minX = a.min_x();
    info.minY = a.min_y();
    info.maxX = a.max_x();
    info.maxY = a.max_y();
    info.serverTick = a.server_tick();
    info.playerMaxSpeed = a.player_max_speed();
    info.archetypes.assign(a.archetypes().begin(), a.archetypes().end());
    info.interestRadius = std::isfinite(a.interest_radius()) ? std::max(a.interest_radius(), 0.0f) : 0.0f;
    info.debugAllowed = a.debug_allowed();
    info.controlAllowed = a.control_allowed();
    const wire::PlayerLimits& pl = a.player_limits();
    info.playerLimits = {pl.radius(), pl.mass(), pl.max_speed(), pl.max_force(), pl.max_turn_rate()};
    info.playerIntents = a.player_intents();
    if (info.playerIntents) {
      // Bounds only until the static scene is whole (then updatePredictionScene adds its shapes).
      prediction = PlayerPrediction(
          predictionLimits(), movement::CollisionScene(info.minX, info.minY, info.maxX, info.maxY, {}, {}));
      predictionHasScene = false;
    }

    clock.setTickRate(info.tickRate);
    clock.seed(info.serverTick, now, now - lastHandshakeSend);
    delayTicks = options.interpolationDelaySnapshots * info.tickRate / info.sendRate;
    interp.setMaxExtrapolationTicks(options.maxExtrapolationSeconds * info.tickRate);
    state = ClientState::kConnected;
    message.clear();
    heard(now);
    nextInputAt = now;
    nextPingAt = now;
    nextSceneRequestAt = now;
    update(now);  // the first input (with its ack), ping and scene request right away
  }

  void onPong(const wire::Pong& pong, TimePoint now) {
    const auto nowUs = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count();
    if (pong.client_time_us() > static_cast<std::uint64_t>(std::max<std::int64_t>(nowUs, 0))) {
      ++counters.pongsIgnored;
      return;
    }
    const TimePoint sent{std::chrono::duration_cast<Clock::duration>(
        std::chrono::microseconds(static_cast<std::int64_t>(pong.client_time_us())))};
    if (!clock.onPong(sent, now, pong.server_tick(), pong.tick_phase())) ++counters.pongsIgnored;
  }

  const wire::SnapshotRecord* record(std::uint32_t tick) const {
    auto it = std::lower_bound(ring.begin(), ring.end(), tick,
                               [](const wire::SnapshotRecord& r, std::uint32_t t) { return r.tick < t; });
    return it != ring.end() && it->tick == tick ? &*it : nullptr;
  }

  void toViews(const std::vector<wire::EntityState>& entities) {
    views.clear();
    views.reserve(entities.size());
    for (const wire::EntityState& e : entities) {
      views.push_back({e.id, e.archetype, wire::positionMetres(e.x), wire::positionMetres(e.y),
                       wrapAngle(wire::headingRadians(e.heading)), wire::heightMetres(e.z)});
    }
  }

  // One snapshot part, its header read by either path: `full` is the parsed part (decoded against
  // its baseline), or null for a light part (no entities: an empty record stands for it). Both
  // check, count, assemble and acknowledge parts the same way.
  void onSnapshotPart(const SnapshotPartHeader& part, const wire::Snapshot* full, TimePoint now) {
    const std::uint32_t tick = part.tick;
    if (part.partCount == 0 || part.partCount > kMaxParts || part.part >= part.partCount || tick == 0) {
      ++counters.partsMalformed;
      return;
    }
    // A served replay's seek starts a new epoch: what an earlier one sent is of another timeline.
    if (part.epoch < epoch) {
      ++counters.partsOtherEpoch;
      return;
    }
    if (part.epoch > epoch) startEpoch(part.epoch);
    // The server's own record of this client's player (intent mode), newest tick wins; checked
    // like any peer's numbers (finite) before anyone reconciles against it.
    if (part.own && (!own || tick > own->tick)) {
      const SnapshotOwn& o = *part.own;
      if (std::isfinite(o.x) && std::isfinite(o.y) && std::isfinite(o.vx) && std::isfinite(o.vy)) {
        own = OwnPlayerState{tick, o.lastInput, o.x, o.y, o.vx, o.vy};
        if (info.playerIntents) {
          updatePredictionScene();
          const std::optional<float> error =
              prediction.reconcile(o.lastInput, {{o.x, o.y}, {o.vx, o.vy}}, secondsOf(now));
          if (error) {
            if (predictionErrors.size() < kMaxPredictionErrors) predictionErrors.push_back(*error);
            ++counters.predictionSamples;
            counters.predictionErrorSumM += *error;
            counters.predictionErrorMaxM =
                std::max(counters.predictionErrorMaxM, static_cast<double>(*error));
          }
          counters.predictionCorrections = prediction.corrections();
        }
      } else {
        ++counters.partsMalformed;
      }
    }
    if (record(tick) != nullptr) {
      ++counters.partsDuplicate;
      return;
    }
    if (tick < staleBefore()) {
      ++counters.partsStale;
      return;
    }
    auto pit = pending.find(tick);
    if (pit != pending.end()) {
      if (pit->second.partCount != part.partCount) {
        ++counters.partsMalformed;
        return;
      }
      if (pit->second.have[part.part]) {
        ++counters.partsDuplicate;
        return;
      }
    }
    // Light parts are refused for a missing baseline too: the client acknowledges only ticks whose
    // parts all came against a baseline it holds, in either mode.
    const wire::SnapshotRecord* baseline = nullptr;
    if (part.baselineTick != 0) {
      baseline = record(part.baselineTick);
      if (baseline == nullptr) {
        ++counters.partsBaselineMissing;
        return;
      }
    }
    wire::SnapshotRecord decodedPart;
    decodedPart.tick = tick;
    if (full != nullptr) {
      const std::string error = wire::decodeSnapshotPart(*full, baseline, decodedPart);
      if (!error.empty()) {
        ++counters.partsMalformed;
        lastDecodeError = error;
        return;
      }
    }
    ++counters.snapshotParts;

    if (pit == pending.end()) {
      Pending fresh;
      fresh.partCount = part.partCount;
      fresh.have.assign(fresh.partCount, false);
      fresh.parts.resize(fresh.partCount);
      pit = pending.emplace(tick, std::move(fresh)).first;
    }
    Pending& pend = pit->second;
    pend.have[part.part] = true;
    ++pend.received;
    if (pend.received < pend.partCount) {
      if (options.interpolate) {
        toViews(decodedPart.entities);
        interp.push(tick, views, false);
      }
      pend.parts[part.part] = std::move(decodedPart);
      prunePending();
      return;
    }
    pend.parts[part.part] = std::move(decodedPart);

    // Every part is in: the parts' id ranges are disjoint and ascending, so their outputs in part
    // order concatenate into the whole record.
    wire::SnapshotRecord whole;
    whole.tick = tick;
    for (wire::SnapshotRecord& r : pend.parts) {
      if (!whole.entities.empty() && !r.entities.empty() &&
          r.entities.front().id <= whole.entities.back().id) {
        ++counters.partsMalformed;
        lastDecodeError = "snapshot parts overlap";
        pending.erase(pit);
        return;
      }
      whole.entities.insert(whole.entities.end(), r.entities.begin(), r.entities.end());
    }
    pending.erase(pit);
    complete(std::move(whole), now);
    prunePending();
  }

  // Parts of ticks older than this are of no use: their baselines and their records would fall
  // out of the ring at once.
  std::uint32_t staleBefore() const {
    return ring.size() >= options.baselineRing && !ring.empty() ? ring.front().tick : 0;
  }

  void complete(wire::SnapshotRecord whole, TimePoint now) {
    const std::uint32_t tick = whole.tick;
    ++counters.snapshotsComplete;
    if (options.interpolate) {
      toViews(whole.entities);
      interp.push(tick, views, true);
    }
    if (tick > newestComplete) {
      if (newestComplete != 0) {
        // RFC 3550 interarrival jitter, with the server's ticks as the send timestamps.
        const double d = Seconds(now - lastSnapshotArrival).count() -
                         static_cast<double>(tick - newestComplete) / info.tickRate;
        snapshotJitterMs += (std::abs(d) * 1000.0 - snapshotJitterMs) / 16.0;
      }
      newestComplete = tick;
      lastSnapshotArrival = now;
    }
    auto it = std::lower_bound(ring.begin(), ring.end(), tick,
                               [](const wire::SnapshotRecord& r, std::uint32_t t) { return r.tick < t; });
    ring.insert(it, std::move(whole));
    while (ring.size() > options.baselineRing) ring.pop_front();
    if (options.onSnapshot) options.onSnapshot(tick, now);
  }

  void prunePending() {
    const std::uint32_t stale = staleBefore();
    for (auto it = pending.begin(); it != pending.end();) {
      if (it->first < stale || pending.size() > kMaxPendingTicks) {
        ++counters.snapshotsAbandoned;
        it = pending.erase(it);
      } else {
        break;  // ascending by tick: the rest are newer
      }
    }
  }

  // --- a served replay ---------------------------------------------------------------------------

  // Everything held came from an earlier epoch: baselines, pending parts, the interpolation buffer.
  void startEpoch(std::uint32_t e) {
    epoch = e;
    ring.clear();
    pending.clear();
    interp.clear();
    newestComplete = 0;
    debugInfo.reset();  // of another timeline: a tick that may be ahead of the new one's
    hoverInfo.reset();
    hoverTick = 0;
    brainStates.reset();
    brainStatesTick = 0;
    ++counters.replayEpochs;
  }

  static bool standsStill(const wire::ReplayStatus& s) { return s.paused() || s.seeking() || s.ended(); }

  void onReplayStatus(const wire::ReplayStatus& s, TimePoint now) {
    if (!std::isfinite(s.speed()) || s.speed() <= 0.0f || s.speed() > 1000.0f ||
        s.first_tick() > s.last_tick()) {
      ++counters.drops[static_cast<std::size_t>(wire::DropReason::kUnexpected)];
      return;
    }
    if (s.epoch() < epoch) return;  // overtaken by a newer epoch's
    // Within an epoch the playback only goes forward: an older status that arrives late is stale.
    if (replay && s.epoch() == replay->epoch() && s.tick() < replay->tick()) return;
    ++counters.replayStatuses;
    if (s.epoch() > epoch) startEpoch(s.epoch());
    while (!replayOut.empty() && replayOut.front().request() <= s.control_applied()) replayOut.pop_front();
    // The clock runs at the playback's speed; from a standstill it starts at the tick shown, so
    // the picture moves on from there without a jump back.
    const double speed = standsStill(s) ? 0.0 : s.speed();
    if (speed != clockSpeed && speed > 0.0) {
      const double from = clockSpeed == 0.0 ? s.tick() + replayDelayTicks(speed) : clock.serverTickAt(now);
      clock.rebase(from, now, info.tickRate * speed);
    }
    clockSpeed = speed;
    replay = s;
  }

  // At speed s ticks come s times as often: the delay is kept in time, not in ticks, when faster.
  double replayDelayTicks(double speed) const { return delayTicks * std::max(1.0, speed); }

  double renderTickAt(TimePoint now) const {
    if (replay && standsStill(*replay)) return replay->tick();
    const double delay = replay ? replayDelayTicks(clockSpeed) : delayTicks;
    return clock.serverTickAt(now) - delay;
  }

  void controlReplay(wire::ReplayAction action, float speed, std::uint32_t tick) {
    if (state != ClientState::kConnected || !replay) return;
    wire::ReplayControl c;
    c.set_request(++replayRequests);
    c.set_action(action);
    c.set_speed(speed);
    c.set_tick(tick);
    replayOut.push_back(c);
    while (replayOut.size() > kMaxReplayControls) replayOut.pop_front();
    nextReplayControlAt = TimePoint{};  // at the next update()
  }

  ClientStats stats(TimePoint now) const {
    ClientStats s = counters;
    s.rttMs = clock.rttMs();
    s.rttJitterMs = clock.jitterMs();
    s.lossPercent = loss.percent();
    s.kbpsIn = kbpsIn;
    s.kbpsOut = kbpsOut;
    s.snapshotsPerSecond = snapshotsPerSecond;
    s.snapshotJitterMs = snapshotJitterMs;
    s.interpolationDelayTicks = delayTicks;
    s.interpolationDelayMs = info.tickRate > 0 ? delayTicks / info.tickRate * 1000.0 : 0.0;
    s.serverTick = replay && standsStill(*replay) ? replay->tick() : clock.serverTickAt(now);
    s.bufferDepth = interp.depth();
    s.bufferAhead = interp.depthAhead(renderTickAt(now));
    const wire::SnapshotRecord* latest = record(newestComplete);
    s.entityCount = latest ? latest->entities.size() : 0;
    s.newestCompleteTick = newestComplete;
    s.inputSequence = inputSequence;
    s.scenePartCount = sceneCount;
    return s;
  }

  ClientOptions options;
  Executor strand;
  udp::socket socket;
  udp::endpoint from;
  std::array<std::uint8_t, 2048> rx{};  // over kMaxDatagramBytes, so oversized datagrams are seen as such
  std::vector<std::uint8_t> tx;         // the datagram to send, in the clear
  std::vector<std::uint8_t> sealedTx;   // ... as sent
  std::vector<std::uint8_t> plain;      // the datagram received, opened
  wire::Packet inputPacket;             // sendInput's, reused
  wire::Decoded decoded;
  wire::KeyPair keys;  // this connection's, made at connect()
  // From options.token (a ClientToken): the private token to send and the keys to prove it.
  std::optional<wire::ClientTokenKeys> tokenKeys;
  wire::SessionSeal seal;
  bool receiving = false;
  bool closed = false;

  ClientState state = ClientState::kIdle;
  std::string message;
  wire::RefuseReason refuseReason = wire::REFUSE_UNSPECIFIED;
  std::string notAllocatedMessage;  // the last REFUSE_NOT_ALLOCATED's (retried until connectTimeout)
  wire::DisconnectReason disconnectReason = wire::DISCONNECT_UNSPECIFIED;
  ServerInfo info;
  std::string cookie;
  TimePoint connectStarted{}, lastHandshakeSend{}, lastHeard{};
  int handshakeSends = 0;

  std::uint64_t sequence = 0;  // of the next datagram: the seal's nonce, its low bits the header's
  wire::AckTracker acks;
  LossWindow loss;

  std::optional<OwnPlayerState> own;    // Snapshot.own, the newest
  PlayerPrediction prediction;          // intent mode
  std::vector<float> predictionErrors;  // since takePredictionErrors, m
  static constexpr std::size_t kMaxPredictionErrors = 4096;
  bool predictionHasScene = false;

  static double secondsOf(TimePoint t) { return Seconds(t.time_since_epoch()).count(); }
  steer::BodyLimits predictionLimits() const {
    steer::BodyLimits l;
    l.radius = info.playerLimits.radius;
    l.mass = info.playerLimits.mass;
    l.maxSpeed = info.playerLimits.maxSpeed;
    l.maxForce = info.playerLimits.maxForce;
    l.maxTurnRate = info.playerLimits.maxTurnRate;
    return l;
  }
  // The server steps players against the scene as it sends it: once the client has it whole, so
  // does the prediction.
  void updatePredictionScene() {
    if (predictionHasScene || !options.fetchScene || !sceneComplete()) return;
    prediction.setScene(
        movement::collisionSceneOf(sceneGeometry, info.minX, info.minY, info.maxX, info.maxY));
    predictionHasScene = true;
  }
  bool havePlayer = false;
  PlayerSample player;
  std::array<PlayerSample, 4> history{};  // newest first
  std::size_t historyCount = 0;
  std::uint32_t inputSequence = 0;
  TimePoint nextInputAt{}, nextPingAt{}, nextSceneRequestAt{}, nextDebugSelectAt{};

  ClockSync clock;
  InterpolationBuffer interp;
  double delayTicks = 0.0;
  std::vector<EntityView> views;

  std::deque<wire::SnapshotRecord> ring;  // complete snapshots, ascending by tick
  std::map<std::uint32_t, Pending> pending;
  std::uint32_t newestComplete = 0;
  std::string lastDecodeError;

  wire::SceneGeometry sceneGeometry;  // every scene part received, merged
  std::uint32_t sceneCount = 0;       // parts the scene has (0: not known yet)
  std::vector<bool> sceneHave;        // by part

  std::optional<std::uint32_t> debugAgent;  // watchAgent()
  bool debugStopPending = false;            // a "stop" to send at the next update()
  std::optional<wire::DebugInfo> debugInfo;
  std::optional<std::uint32_t> hoverAgent;  // hoverAgent()
  std::optional<wire::DebugHover> hoverInfo;
  std::uint32_t hoverTick = 0;                       // of hoverInfo
  std::optional<Client::StatesArea> statesArea;      // watchBrainStates()
  std::optional<Client::StatesArea> sentStatesArea;  // in the last DebugSelect
  std::optional<wire::DebugStates> brainStates;
  std::uint32_t brainStatesTick = 0;  // of brainStates
  TimePoint lastDebugSelectAt{};
  static constexpr std::chrono::milliseconds kStatesAreaRepeat{250};

  // The control channel.
  static constexpr std::chrono::milliseconds kControlAckRepeat{250};
  wire::ReliableOutbox<control::Command> commandsOut{std::numeric_limits<std::size_t>::max()};
  wire::ReliableInbox<wire::ControlMessage> messagesIn{8192};
  std::vector<wire::ControlMessage> delivered;  // not yet taken
  bool controlAckDirty = false;
  TimePoint lastControlSend{};

  // A served replay: its newest status, the epoch held, the controls not yet applied.
  static constexpr std::chrono::milliseconds kReplayControlResend{100};
  static constexpr std::size_t kMaxReplayControls = 16;
  std::optional<wire::ReplayStatus> replay;
  std::uint32_t epoch = 0;
  double clockSpeed = 1.0;  // the rate the clock runs at, times the tick rate (0: standing still)
  std::uint32_t replayRequests = 0;
  std::deque<wire::ReplayControl> replayOut;
  TimePoint nextReplayControlAt{};

  ClientStats counters;
  TimePoint windowStart{};
  std::uint64_t windowBytesIn = 0, windowBytesOut = 0, windowSnapshots = 0;
  double kbpsIn = 0, kbpsOut = 0, snapshotsPerSecond = 0;
  TimePoint lastSnapshotArrival{};
  double snapshotJitterMs = 0.0;
};

Client::Client(asio::io_context& io, ClientOptions options)
    : impl_(std::make_shared<Impl>(io, std::move(options))) {}

Client::~Client() { impl_->close(); }

void Client::start() { impl_->startReceiving(); }
bool Client::connect(TimePoint now) { return impl_->connect(now); }
void Client::update(TimePoint now) { impl_->update(now); }
void Client::disconnect() { impl_->disconnect(); }

void Client::setPlayer(float x, float y, float vx, float vy) {
  impl_->havePlayer = true;
  impl_->player = {0, x, y, vx, vy, 0, 0, 0};
}
void Client::setMove(float mx, float my) {
  impl_->havePlayer = true;
  impl_->player = {0, 0, 0, 0, 0, mx, my, 0};
}

ClientState Client::state() const { return impl_->state; }
const std::string& Client::stateMessage() const { return impl_->message; }
wire::RefuseReason Client::refuseReason() const { return impl_->refuseReason; }
wire::DisconnectReason Client::disconnectReason() const { return impl_->disconnectReason; }
const ServerInfo& Client::server() const { return impl_->info; }

asio::ip::udp::endpoint Client::localEndpoint() const {
  std::error_code ec;
  return impl_->socket.local_endpoint(ec);
}

Client::Executor Client::executor() const { return impl_->strand; }

const wire::SnapshotRecord* Client::latestSnapshot() const { return impl_->record(impl_->newestComplete); }
std::optional<OwnPlayerState> Client::ownPlayer() const { return impl_->own; }
void Client::takePredictionErrors(std::vector<float>& out) {
  out.insert(out.end(), impl_->predictionErrors.begin(), impl_->predictionErrors.end());
  impl_->predictionErrors.clear();
}
std::optional<PredictedPlayer> Client::predictedPlayer(TimePoint now) const {
  const PlayerPrediction& p = impl_->prediction;
  if (!impl_->info.playerIntents || !p.started()) return std::nullopt;
  const movement::Vec2 at = p.renderPosition(Impl::secondsOf(now));
  return PredictedPlayer{at.x, at.y, p.state().velocity.x, p.state().velocity.y};
}
std::uint32_t Client::ackedTick() const { return impl_->newestComplete; }
const std::string& Client::lastDecodeError() const { return impl_->lastDecodeError; }
const wire::SceneGeometry& Client::scene() const { return impl_->sceneGeometry; }
bool Client::sceneComplete() const { return impl_->sceneComplete(); }
void Client::watchAgent(std::optional<std::uint32_t> agent) { impl_->watchAgent(agent); }
std::optional<std::uint32_t> Client::watchedAgent() const { return impl_->debugAgent; }
const wire::DebugInfo* Client::debugInfo() const { return impl_->debugInfo ? &*impl_->debugInfo : nullptr; }
void Client::hoverAgent(std::optional<std::uint32_t> agent) { impl_->setHoverAgent(agent); }
std::optional<std::uint32_t> Client::hoveredAgent() const { return impl_->hoverAgent; }
const wire::DebugHover* Client::hoverInfo() const { return impl_->hoverInfo ? &*impl_->hoverInfo : nullptr; }
void Client::watchBrainStates(std::optional<StatesArea> area) { impl_->setStatesArea(area); }
std::optional<Client::StatesArea> Client::brainStatesArea() const { return impl_->statesArea; }
const wire::DebugStates* Client::brainStates() const {
  return impl_->brainStates ? &*impl_->brainStates : nullptr;
}

const ClockSync& Client::clock() const { return impl_->clock; }
double Client::serverTickAt(TimePoint now) const { return impl_->clock.serverTickAt(now); }
double Client::interpolationDelayTicks() const {
  return impl_->replay ? impl_->replayDelayTicks(impl_->clockSpeed) : impl_->delayTicks;
}
const InterpolationBuffer& Client::interpolation() const { return impl_->interp; }

double Client::renderTickAt(TimePoint now) const { return impl_->renderTickAt(now); }
std::optional<wire::ReplayStatus> Client::replayStatus() const { return impl_->replay; }
void Client::controlReplay(wire::ReplayAction action, float speed, std::uint32_t tick) {
  impl_->controlReplay(action, speed, tick);
}
std::size_t Client::replayControlsPending() const { return impl_->replayOut.size(); }

void Client::sample(TimePoint now, Sample& out) {
  impl_->interp.sample(renderTickAt(now), out);
  ++impl_->counters.samples[static_cast<std::size_t>(out.kind)];
}

ClientStats Client::stats(TimePoint now) const { return impl_->stats(now); }

std::uint32_t Client::sendCommand(control::Command command) { return impl_->sendCommand(std::move(command)); }
std::size_t Client::commandsUnacknowledged() const { return impl_->commandsOut.size(); }
void Client::takeControlMessages(std::vector<wire::ControlMessage>& out) {
  for (auto& m : impl_->delivered) out.push_back(std::move(m));
  impl_->delivered.clear();
}

}  // namespace steerd::client
