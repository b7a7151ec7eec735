#include "record/replay_playback.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>

#include "proto/packet.h"

namespace steerd::record {

namespace {

// The recording's last tick: one pass over its frames (their checks too), up to its end, the
// first frame that fails them, or the first tick out of sequence (where the replay stops too; a
// hostile tick number would stretch the timeline to it).
std::uint64_t lastTickOf(const std::string& path, std::uint64_t firstTick) {
  std::string error;
  auto reader = RecordingReader::open(path, error);
  std::uint64_t last = firstTick;
  Frame frame;
  while (reader && reader->next(frame) == RecordingReader::Status::kFrame) {
    if (!frame.has_tick()) continue;
    if (frame.tick().tick() != last + 1) break;
    last = frame.tick().tick();
  }
  return last;
}

bool isWatcher(std::uint32_t sessionId) { return (sessionId & ReplayTransport::kLiveClientBit) != 0; }

}  // namespace

std::unique_ptr<ReplayPlayback> ReplayPlayback::open(const ReplayOptions& options,
                                                     net::SessionTransport& live, ReplayResult& result,
                                                     net::ServerMetrics* metrics) {
  std::unique_ptr<ReplayPlayback> p(new ReplayPlayback(options, live, metrics));
  p->options_.snapshotEveryTick = true;
  p->replayer_ = Replayer::open(p->options_, &live, result, metrics);
  if (!p->replayer_) return nullptr;
  p->firstTick_ = p->replayer_->world().tick();
  p->lastTick_ = lastTickOf(options.path, p->firstTick_);
  return p;
}

const ReplayResult& ReplayPlayback::result() const { return anyWorse_ ? worst_ : replayer_->result(); }

std::int64_t ReplayPlayback::update(std::int64_t nowNs) {
  controls_.clear();
  replayer_->transport().takeControls(controls_);
  for (const net::NetEvent& c : controls_) apply(c, nowNs);
  bool played = false;
  if (seeking_) {
    seekSlice(nowNs);
    played = true;
  } else if (started_ && !ended_ && (stepPending_ || (!paused_ && nowNs >= nextTickNs_))) {
    played = playOne(nowNs);
    if (stepPending_) {
      stepPending_ = false;
    } else {
      // On schedule at the speed asked; a late tick is not made up for in a burst.
      nextTickNs_ += static_cast<std::int64_t>(periodNs());
      if (nowNs - nextTickNs_ > static_cast<std::int64_t>(4 * periodNs()))
        nextTickNs_ = nowNs + static_cast<std::int64_t>(periodNs());
    }
  }
  if (!played) {
    // Between ticks: watchers join and leave; while the picture stands still, each gets the
    // current frame until it acknowledges it.
    const bool still = !started_ || paused_ || ended_;
    const bool resend = still && nowNs >= nextHeldNs_;
    if (resend) nextHeldNs_ = nowNs + kHeldResendNs;
    replayer_->session().serveHeld([&](std::uint32_t id) { return resend && isWatcher(id); });
    if (!started_ && !replayer_->transport().watchers().empty()) {
      started_ = true;
      nextTickNs_ = nowNs;
      statusNow_ = true;
      spdlog::info("a watcher connected: playback starts");
    }
  }
  if (statusNow_ || nowNs >= nextStatusNs_) {
    statusNow_ = false;
    nextStatusNs_ = nowNs + kStatusIntervalNs;
    sendStatus();
  }
  if (seeking_ || stepPending_) return nowNs;
  std::int64_t next = nextStatusNs_;
  if (started_ && !paused_ && !ended_) next = std::min(next, nextTickNs_);
  return std::min(next, nowNs + kIdleNs);
}

void ReplayPlayback::apply(const net::NetEvent& e, std::int64_t nowNs) {
  const wire::ReplayControl& c = e.replay;
  std::uint32_t& applied = applied_[e.clientId];
  statusNow_ = true;  // the sender learns at once that it was applied (or already had been)
  if (c.request() <= applied) return;
  applied = c.request();
  switch (c.action()) {
    case wire::REPLAY_PLAY:
      if (ended_) startSeek(firstTick_);  // play at the end: from the start again
      if (paused_) nextTickNs_ = nowNs;
      paused_ = false;
      break;
    case wire::REPLAY_PAUSE:
      paused_ = true;
      break;
    case wire::REPLAY_STEP:
      paused_ = true;
      stepPending_ = !ended_ && !seeking_;
      break;
    case wire::REPLAY_SPEED:
      if (!std::isfinite(c.speed())) break;  // NaN or inf: ignored, as any other unusable request
      speed_ = std::clamp(static_cast<double>(c.speed()), kMinSpeed, kMaxSpeed);
      replayer_->transport().setRateScale(speed_);
      nextTickNs_ = nowNs;
      break;
    case wire::REPLAY_SEEK:
      startSeek(std::clamp<std::uint64_t>(c.tick(), firstTick_, lastTick_));
      break;
    default:
      break;  // unknown actions change nothing
  }
}

void ReplayPlayback::startSeek(std::uint64_t target) {
  stepPending_ = false;
  if (target < replayer_->world().tick()) {
    // Back: the world cannot run backwards, so the replay starts again from the recording's first
    // tick, with the watchers joined to its new session.
    ReplayResult fresh;
    auto again = Replayer::open(options_, &live_, fresh, metrics_);
    if (!again) {
      spdlog::error("seek to tick {}: the recording does not open again: {}", target, fresh.summary);
      return;
    }
    again->transport().rejoin(replayer_->transport().watchers());
    again->transport().setRateScale(speed_);
    replayer_ = std::move(again);
    ended_ = false;
  }
  seekTarget_ = target;
  seeking_ = true;
  replayer_->transport().setMuted(true);
}

void ReplayPlayback::seekSlice(std::int64_t nowNs) {
  // One second of play per update at most, so statuses keep going out on a long seek.
  const auto slice = static_cast<std::uint64_t>(std::ceil(replayer_->tickRate()));
  for (std::uint64_t n = 0; n < slice && replayer_->world().tick() < seekTarget_; ++n) {
    if (!playOne(nowNs)) break;
  }
  if (ended_ || replayer_->world().tick() >= seekTarget_) finishSeek();
}

void ReplayPlayback::finishSeek() {
  seeking_ = false;
  replayer_->transport().setMuted(false);
  replayer_->session().setSnapshotEpoch(++epoch_);
  nextHeldNs_ = 0;
  statusNow_ = true;
}

bool ReplayPlayback::playOne(std::int64_t nowNs) {
  if (!replayer_->next(nowNs)) {
    noteEnd();
    return false;
  }
  ++ticksPlayed_;
  if (metrics_ != nullptr) {
    metrics_->ticks.fetch_add(1, std::memory_order_relaxed);
    metrics_->lastTickSteadyNs.store(nowNs, std::memory_order_relaxed);
    metrics_->lastTick.store(replayer_->world().tick(), std::memory_order_relaxed);
    metrics_->agents.store(replayer_->world().agentCount(), std::memory_order_relaxed);
  }
  return true;
}

void ReplayPlayback::noteEnd() {
  ended_ = true;
  statusNow_ = true;
  const ReplayResult& r = replayer_->result();
  if (!anyWorse_ && r.outcome != ReplayResult::Outcome::kEqual) {
    worst_ = r;
    anyWorse_ = true;
  }
  spdlog::info("{}", r.summary);
  // A tick that was never recorded cannot be sought to: the timeline ends where the file does.
  lastTick_ = std::min<std::uint64_t>(lastTick_, std::max(firstTick_, replayer_->world().tick()));
}

void ReplayPlayback::sendStatus() {
  wire::Packet packet;
  wire::ReplayStatus* s = packet.mutable_replay_status();
  s->set_tick(static_cast<std::uint32_t>(replayer_->world().tick()));
  s->set_first_tick(static_cast<std::uint32_t>(firstTick_));
  s->set_last_tick(static_cast<std::uint32_t>(lastTick_));
  s->set_paused(paused_ || !started_);
  s->set_speed(static_cast<float>(speed_));
  s->set_epoch(epoch_);
  s->set_seeking(seeking_);
  s->set_seek_tick(static_cast<std::uint32_t>(seekTarget_));
  s->set_ended(ended_);
  if (ended_) s->set_verdict(replayer_->result().summary.substr(0, 300));
  out_.clear();
  const std::vector<std::uint32_t>& watchers = replayer_->transport().watchers();
  if (applied_.size() > 2 * watchers.size() + 16) {  // requests of watchers long gone
    std::erase_if(applied_, [&](const auto& kv) {
      return std::find(watchers.begin(), watchers.end(), kv.first) == watchers.end();
    });
  }
  for (const std::uint32_t id : watchers) {
    // Not before its Accept (a watcher that connected during a seek joins after it): the client
    // could not open a sealed status yet.
    if (!replayer_->session().hasClient(id | ReplayTransport::kLiveClientBit)) continue;
    const auto it = applied_.find(id);
    s->set_control_applied(it == applied_.end() ? 0 : it->second);
    net::OutDatagram d{id, {}};
    if (wire::encodeDatagram({wire::Packet::kReplayStatus, 0, 0, 0}, packet, d.bytes))
      out_.push_back(std::move(d));
  }
  if (!out_.empty()) live_.send(out_);
}

}  // namespace steerd::record
