#include "client/client_protocol.h"

#include <algorithm>
#include <cmath>

#include "client/durations.h"

namespace steerd::client {

ClientProtocol::ClientProtocol(ClientOptions o, DatagramSink sink)
    : options_(std::move(o)),
      sink_(std::move(sink)),
      handshake_(options_),
      snapshots_(options_.baselineRing),
      player_(options_),
      scene_(options_.sceneRetryInterval),
      changes_(options_.sceneRetryInterval / 2),
      debug_(options_.debugSelectInterval),
      control_(options_.commandResendInterval, options_.maxUnacknowledgedCommands),
      interp_(InterpolationBuffer::Options{std::max<std::size_t>(options_.interpolationCapacity, 2), 7.5}) {
  // Checked here, before the parts read them (they hold a reference to options_).
  if (!(options_.inputRateHz > 0.0) || !std::isfinite(options_.inputRateHz)) options_.inputRateHz = 30.0;
  if (!(options_.interpolationDelaySnapshots >= 0.0) || !std::isfinite(options_.interpolationDelaySnapshots))
    options_.interpolationDelaySnapshots = 2.0;
}

ClientProtocol::~ClientProtocol() = default;

// --- sending -------------------------------------------------------------------------------------

void ClientProtocol::deliver(const wire::Packet& packet, std::size_t minBytes) {
  wire::PacketHeader h;
  h.type = static_cast<std::uint8_t>(packet.body_case());
  h.sequence = static_cast<std::uint16_t>(sequence_);
  h.ack = acks_.ack();
  h.ackBits = acks_.ackBits();
  // After the handshake every kind is sealed with the session's keys (proto/session_seal.h).
  if (!wire::encodeDatagram(h, packet, tx_, minBytes) || !seal_.protect(tx_, sequence_, sealedTx_)) {
    ++sendFailures_;
    return;
  }
  ++sequence_;
  if (!sink_(sealedTx_)) {
    ++sendFailures_;
    return;
  }
  ++datagramsOut_;
  bytesOut_ += sealedTx_.size();
}

bool ClientProtocol::connect(TimePoint now) {
  if (handshake_.state() != ClientState::kIdle) return false;
  willConnect();
  if (!handshake_.connect(now, *this)) return false;
  rates_.start(now);
  return true;
}

void ClientProtocol::disconnect() { handshake_.disconnect(*this); }

void ClientProtocol::update(TimePoint now) {
  handshake_.update(now, *this);
  if (handshake_.connected()) {
    const ServerInfo& info = handshake_.server();
    if (info.controlAllowed) control_.update(now, *this);
    replay_.update(now, *this);
    player_.update(now, snapshots_.newestComplete(), snapshots_.epoch(), wholeScene(), *this);
    if (now >= nextPingAt_) {
      wire::Packet p;
      const auto us = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count();
      p.mutable_ping()->set_client_time_us(static_cast<std::uint64_t>(std::max<std::int64_t>(us, 0)));
      post(p);
      const auto interval = toDuration(options_.pingInterval);
      nextPingAt_ += interval;
      if (nextPingAt_ <= now) nextPingAt_ = now + interval;
    }
    if (options_.fetchScene) {
      scene_.update(now, *this);
      changes_.update(now, *this);
    }
    if (info.debugAllowed) debug_.update(now, *this);
  }
  rates_.update(now, bytesIn_, bytesOut_, snapshots_.counters().complete);
}

std::uint32_t ClientProtocol::sendCommand(control::Command command) {
  if (!handshake_.connected() || !handshake_.server().controlAllowed) return 0;
  return control_.send(std::move(command));
}

void ClientProtocol::controlReplay(wire::ReplayAction action, float speed, std::uint32_t tick) {
  if (handshake_.connected()) replay_.control(action, speed, tick);
}

// --- receiving -----------------------------------------------------------------------------------

void ClientProtocol::countForeignDatagram(std::size_t bytes) {
  ++datagramsIn_;
  bytesIn_ += bytes;
  ++foreignDatagrams_;
}

void ClientProtocol::onDatagram(std::span<const std::uint8_t> datagram, TimePoint now) {
  ++datagramsIn_;
  bytesIn_ += datagram.size();
  // Sealed kinds open only with this session's keys: before the Accept, or forged, they are counted
  // drops (bad_seal), as are replays.
  if (const wire::DropReason opened = seal_.unprotect(datagram, plain_); opened != wire::DropReason::kNone) {
    countDrop(opened);
    return;
  }
  if (!options_.decodeEntities && plain_.size() >= wire::kHeaderBytes &&
      plain_[5] == wire::Packet::kSnapshot) {
    onLightSnapshot(now);
    return;
  }
  wire::decodeDatagram(plain_, decoded_);
  if (decoded_.drop != wire::DropReason::kNone) {
    countDrop(decoded_.drop);
    return;
  }
  dispatch(decoded_.packet, now);
}

void ClientProtocol::dispatch(const wire::Packet& p, TimePoint now) {
  switch (p.body_case()) {
    case wire::Packet::kChallenge:
      handshake_.onChallenge(p.challenge(), now, *this);
      return;
    case wire::Packet::kAccept:
      if (handshake_.state() == ClientState::kAwaitingAccept) {
        onAccept(p.accept(), now);
      } else if (handshake_.connected()) {
        heard(now);  // a repeated Accept
      }
      return;
    case wire::Packet::kRefuse:
      handshake_.onRefuse(p.refuse(), now);
      return;
    case wire::Packet::kDisconnect:
      handshake_.onDisconnect(p.disconnect());
      return;
    default:
      break;
  }
  // Everything else is of the connection.
  const bool ours = p.body_case() == wire::Packet::kSnapshot || p.body_case() == wire::Packet::kPong ||
                    p.body_case() == wire::Packet::kScene || p.body_case() == wire::Packet::kSceneChanges ||
                    p.body_case() == wire::Packet::kDebugInfo ||
                    p.body_case() == wire::Packet::kControlReply ||
                    p.body_case() == wire::Packet::kReplayStatus;
  if (!ours) {  // a kind only servers receive
    countDrop(wire::DropReason::kUnexpected);
    return;
  }
  if (!handshake_.connected() || !heard(now)) return;
  switch (p.body_case()) {
    case wire::Packet::kSnapshot:
      onSnapshotPart(snapshotPartHeader(p.snapshot()), &p.snapshot(), now);
      return;
    case wire::Packet::kPong:
      onPong(p.pong(), now);
      return;
    case wire::Packet::kScene:
      if (options_.fetchScene) {
        if (std::string error = scene_.onPart(p.scene(), now); !error.empty())
          lastDecodeError_ = std::move(error);
      }
      return;
    case wire::Packet::kSceneChanges:
      if (options_.fetchScene) {
        if (std::string error = changes_.onPage(p.scene_changes(), now); !error.empty())
          lastDecodeError_ = std::move(error);
      }
      return;
    case wire::Packet::kDebugInfo:
      debug_.onInfo(p.debug_info());
      return;
    case wire::Packet::kControlReply:
      control_.onReply(p.control_reply());
      return;
    case wire::Packet::kReplayStatus:
      onReplayStatus(p.replay_status(), now);
      return;
    default:
      return;
  }
}

bool ClientProtocol::heard(TimePoint now) {
  // A sequence far ahead of the newest is corruption: it must not shift the ack window or count
  // everything in between as lost.
  if (acks_.received(decoded_.header.sequence) == wire::Arrival::kImplausible) {
    countDrop(wire::DropReason::kImplausibleSequence);
    return false;
  }
  loss_.add(decoded_.header.sequence);
  handshake_.heard(now);
  return true;
}

void ClientProtocol::onAccept(const wire::Accept& a, TimePoint now) {
  const std::optional<wire::SessionKeys> keys = handshake_.onAccept(a, now);
  if (!keys) return;
  seal_ = wire::SessionSeal(*keys);
  const ServerInfo& info = handshake_.server();
  clock_.setTickRate(info.tickRate);
  clock_.seed(info.serverTick, now, now - handshake_.lastSend());
  delayTicks_ = options_.interpolationDelaySnapshots * info.tickRate / info.sendRate;
  interp_.setMaxExtrapolationTicks(options_.maxExtrapolationSeconds * info.tickRate);
  heard(now);
  player_.start(info, now);
  nextPingAt_ = now;
  scene_.start(now);
  update(now);  // the first input (with its ack), ping and scene request right away
}

void ClientProtocol::onPong(const wire::Pong& pong, TimePoint now) {
  const auto nowUs = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count();
  if (pong.client_time_us() > static_cast<std::uint64_t>(std::max<std::int64_t>(nowUs, 0))) {
    ++pongsIgnored_;
    return;
  }
  const TimePoint sent{std::chrono::duration_cast<Clock::duration>(
      std::chrono::microseconds(static_cast<std::int64_t>(pong.client_time_us())))};
  if (!clock_.onPong(sent, now, pong.server_tick(), pong.tick_phase())) ++pongsIgnored_;
}

// Light snapshots (options.decodeEntities false): the part header only, read from the datagram
// opened in plain_ without parsing the entity arrays; then the same part bookkeeping.
void ClientProtocol::onLightSnapshot(TimePoint now) {
  SnapshotPartHeader part;
  if (const wire::DropReason drop = readSnapshotDatagram(plain_, decoded_.header, part);
      drop != wire::DropReason::kNone) {
    countDrop(drop);
    return;
  }
  if (handshake_.connected() && heard(now)) onSnapshotPart(part, nullptr, now);
}

void ClientProtocol::onSnapshotPart(const SnapshotPartHeader& part, const wire::Snapshot* full,
                                    TimePoint now) {
  const SnapshotAssembler::Admission admission = snapshots_.admit(part);
  if (admission == SnapshotAssembler::Admission::kRefused) return;
  if (admission == SnapshotAssembler::Admission::kAdmittedNewEpoch) startEpoch(part.epoch);
  changes_.onSnapshotVersion(part.sceneVersion);
  // The server's own record of this client's player (intent mode), whatever becomes of the rest.
  if (part.own && !player_.onOwn(part.tick, *part.own, now, wholeScene())) snapshots_.countMalformed();
  const SnapshotAssembler::Outcome outcome = snapshots_.add(part, full, now, handshake_.server().tickRate);
  if (!outcome.error.empty()) lastDecodeError_ = outcome.error;
  if (outcome.kind == SnapshotAssembler::Outcome::kDropped) return;
  const bool whole = outcome.kind == SnapshotAssembler::Outcome::kComplete;
  if (options_.interpolate) {
    toViews(outcome.record->entities);
    interp_.push(part.tick, views_, whole);
  }
  if (whole && options_.onSnapshot) options_.onSnapshot(part.tick, now);
}

void ClientProtocol::toViews(const std::vector<wire::EntityState>& entities) {
  views_.clear();
  views_.reserve(entities.size());
  for (const wire::EntityState& e : entities) {
    views_.push_back({e.id, e.archetype, wire::positionMetres(e.x), wire::positionMetres(e.y),
                      wrapAngle(wire::headingRadians(e.heading)), wire::heightMetres(e.z)});
  }
}

// Everything held came from an earlier epoch: baselines, pending parts, the interpolation buffer,
// the debug answers (ticks that may be ahead of the new timeline's).
const wire::SceneGeometry& ClientProtocol::scene() const {
  const std::uint64_t key = (std::uint64_t{scene_.counters().received} << 40) ^ changes_.generation();
  if (key != currentKey_) {
    current_ = wire::currentScene(scene_.geometry(), changes_.live());
    currentKey_ = key;
  }
  return current_;
}

void ClientProtocol::startEpoch(std::uint32_t epoch) {
  if (snapshots_.epoch() != epoch) snapshots_.startEpoch(epoch);
  interp_.clear();
  debug_.forgetAnswers();
  changes_.reset();  // the replay's world starts again: its scene too
  ++replayEpochs_;
}

void ClientProtocol::onReplayStatus(const wire::ReplayStatus& s, TimePoint now) {
  switch (replay_.onStatus(s, snapshots_.epoch(), now, clock_, handshake_.server().tickRate, delayTicks_)) {
    case ReplayFollower::Verdict::kMalformed:
      countDrop(wire::DropReason::kUnexpected);
      return;
    case ReplayFollower::Verdict::kStale:
      return;
    case ReplayFollower::Verdict::kApplied:
      ++replayStatuses_;
      return;
    case ReplayFollower::Verdict::kAppliedNewEpoch:
      ++replayStatuses_;
      startEpoch(s.epoch());
      return;
  }
}

void ClientProtocol::sample(TimePoint now, Sample& out) {
  interp_.sample(renderTickAt(now), out);
  ++samples_[static_cast<std::size_t>(out.kind)];
}

ClientStats ClientProtocol::stats(TimePoint now) const {
  ClientStats s;
  const OwnPlayer::Counters& prediction = player_.counters();
  s.predictionSamples = prediction.samples;
  s.predictionErrorSumM = prediction.errorSumM;
  s.predictionErrorMaxM = prediction.errorMaxM;
  s.predictionCorrections = prediction.corrections;
  s.rttMs = clock_.rttMs();
  s.rttJitterMs = clock_.jitterMs();
  s.lossPercent = loss_.percent();
  s.kbpsIn = rates_.kbpsIn();
  s.kbpsOut = rates_.kbpsOut();
  s.snapshotsPerSecond = rates_.snapshotsPerSecond();
  s.snapshotJitterMs = snapshots_.jitterMs();
  const double tickRate = handshake_.server().tickRate;
  s.interpolationDelayTicks = delayTicks_;
  s.interpolationDelayMs = tickRate > 0 ? delayTicks_ / tickRate * 1000.0 : 0.0;
  s.serverTick = replay_.standingStill() ? replay_.status()->tick() : clock_.serverTickAt(now);
  s.bufferDepth = interp_.depth();
  s.bufferAhead = interp_.depthAhead(renderTickAt(now));
  const wire::SnapshotRecord* latest = snapshots_.latest();
  s.entityCount = latest ? latest->entities.size() : 0;
  s.newestCompleteTick = snapshots_.newestComplete();
  s.inputSequence = player_.inputSequence();

  s.datagramsIn = datagramsIn_;
  s.datagramsOut = datagramsOut_;
  s.bytesIn = bytesIn_;
  s.bytesOut = bytesOut_;
  s.sendFailures = sendFailures_;
  s.receiveErrors = receiveErrors_;
  s.foreignDatagrams = foreignDatagrams_;
  s.drops = drops_;
  const SnapshotAssembler::Counters& parts = snapshots_.counters();
  s.snapshotParts = parts.parts;
  s.snapshotsComplete = parts.complete;
  s.partsDuplicate = parts.duplicate;
  s.partsStale = parts.stale;
  s.partsBaselineMissing = parts.baselineMissing;
  s.partsMalformed = parts.malformed;
  s.partsOtherEpoch = parts.otherEpoch;
  s.snapshotsAbandoned = parts.abandoned;
  s.replayStatuses = replayStatuses_;
  s.replayEpochs = replayEpochs_;
  s.pongsIgnored = pongsIgnored_;
  const SceneFetch::Counters scene = scene_.counters();
  s.sceneRequests = scene.requests;
  s.scenePartsMalformed = scene.malformed;
  s.scenePartsReceived = scene.received;
  s.scenePartCount = scene.count;
  const SceneChangesFetch::Counters changes = changes_.counters();
  s.sceneChangeRequests = changes.requests;
  s.sceneChangePages = changes.pages;
  s.sceneChangesMalformed = changes.malformed;
  s.sceneVersion = changes_.version();
  s.debugInfos = debug_.infosReceived();
  const ControlChannel::Counters& control = control_.counters();
  s.commandsSent = control.sent;
  s.commandsAcknowledged = control.acknowledged;
  s.controlMessages = control.delivered;
  s.controlDuplicates = control.duplicates;
  s.controlUntakenDropped = control.untakenDropped;
  s.samples = samples_;
  return s;
}

}  // namespace steerd::client
