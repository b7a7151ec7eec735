#include "loadtest/player.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace steerd::loadtest {

namespace {

using Clock = client::Clock;
using Ms = std::chrono::duration<double, std::milli>;

// Players' ticks fall on a shared grid: tick n of phase slot k is at k x kTickSlot + n x period
// after the clock's epoch, the same for every player of that slot, so the players of one slot run
// in one wakeup of the io_context (one timer expiry, one epoll_wait) instead of one wakeup each.
constexpr std::chrono::nanoseconds kTickSlot = std::chrono::milliseconds(1);

// The first tick of slot `offset` (since the epoch) after `now`.
Clock::time_point nextOnGrid(Clock::time_point now, std::chrono::nanoseconds offset,
                             std::chrono::nanoseconds period) {
  const std::chrono::nanoseconds since = now.time_since_epoch() - offset;
  const auto n = since.count() < 0 ? 0 : since / period + 1;
  return Clock::time_point(std::chrono::duration_cast<Clock::duration>(offset + n * period));
}

bool terminal(client::ClientState s) {
  return s == client::ClientState::kRefused || s == client::ClientState::kTimedOut ||
         s == client::ClientState::kDisconnected || s == client::ClientState::kFailed;
}

}  // namespace

Player::Player(asio::io_context& io, PlayerSettings settings)
    : settings_(std::move(settings)),
      relay_(makeRelay(io)),
      client_(makeClient(io)),
      strand_(client_->executor()),
      timer_(strand_),  // the player's ticks run on the client's strand
      period_(std::chrono::nanoseconds(static_cast<std::int64_t>(1e9 / settings_.inputRateHz))),
      viewPeriod_(std::chrono::nanoseconds(static_cast<std::int64_t>(1e9 / settings_.viewRateHz))) {
  std::lock_guard lock(mutex_);
  record_.state = client_->state();
  record_.fullDecode = settings_.fullDecode;
  if (!relayError_.empty()) {
    record_.state = client::ClientState::kFailed;
    record_.message = relayError_;
  } else if (record_.state == client::ClientState::kFailed) {
    record_.message = client_->stateMessage();
  }
}

std::shared_ptr<ImpairedRelay> Player::makeRelay(asio::io_context& io) {
  if (!settings_.impairment.active()) return nullptr;
  std::error_code ec;
  auto relay = ImpairedRelay::create(asio::make_strand(io), settings_.server, settings_.impairment,
                                     settings_.seed, settings_.index, ec);
  if (!relay) relayError_ = "cannot open the impairment relay's socket: " + ec.message();
  return relay;
}

std::unique_ptr<client::Client> Player::makeClient(asio::io_context& io) {
  client::ClientOptions o;
  o.server = relay_ ? relay_->endpoint() : settings_.server;
  o.token = settings_.token;
  o.inputRateHz = settings_.inputRateHz;
  o.baselineRing = settings_.baselineRing;
  o.interpolationCapacity = settings_.interpolationCapacity;
  o.decodeEntities = settings_.fullDecode;
  o.onSnapshot = [this](std::uint32_t tick, client::TimePoint arrival) { onSnapshot(tick, arrival); };
  return std::make_unique<client::Client>(io, std::move(o));
}

Player::~Player() = default;

void Player::start() {
  asio::dispatch(strand_, [this] {
    {
      std::lock_guard lock(mutex_);
      record_.started = true;
      if (record_.state == client::ClientState::kFailed) return;
    }
    if (relay_) asio::dispatch(relay_->executor(), [r = relay_] { r->start(); });
    const auto now = Clock::now();
    connectStarted_ = now;
    client_->connect(now);
    ticking_ = true;
    // Players tick at different phases, as people do (in kTickSlot steps: the grid).
    SplitMix64 phase(mixSeed(settings_.seed, 7, settings_.index));
    const auto slots = std::max<std::int64_t>(1, period_ / kTickSlot);
    const auto slot =
        std::min(slots - 1, static_cast<std::int64_t>(phase.uniform() * static_cast<double>(slots)));
    phaseOffset_ = slot * kTickSlot;
    scheduled_ = nextOnGrid(now, phaseOffset_, period_);
    arm(scheduled_);
    std::lock_guard lock(mutex_);
    record_.state = client_->state();
  });
}

void Player::arm(Clock::time_point at) {
  timer_.expires_at(at);
  timer_.async_wait([this](const std::error_code& ec) {
    if (ec) return;  // cancelled: `this` may be on its way out
    onTick();
  });
}

void Player::onTick() {
  if (!ticking_) return;
  const auto now = Clock::now();
  const double lagMs = std::max(0.0, Ms(now - scheduled_).count());
  if (connected_) {
    if (now >= nextView_) {
      observeSample(now);
      nextView_ += viewPeriod_;
      if (nextView_ <= now) nextView_ = now + viewPeriod_;
    }
    const double dt = std::chrono::duration<double>(now - lastMove_).count();
    lastMove_ = now;
    // A light player sees no entities: it walks.
    const bool seeks = settings_.pattern == Pattern::kChase || settings_.pattern == Pattern::kFlee;
    mover_->step(dt, seeks && settings_.fullDecode ? nearestNpc() : std::nullopt);
    const client::ServerInfo& info = client_->server();
    const auto predicted = info.playerIntents ? client_->predictedPlayer(now) : std::nullopt;
    if (predicted) {
      // Intent mode: the body follows the pattern's point, steered from where it is predicted
      // (its velocity plus a pull towards the point), as a person at a keyboard would.
      const float speed = std::max(info.playerLimits.maxSpeed, 1e-3f);
      const float wx = mover_->vx() + 2.0f * (mover_->x() - predicted->x);
      const float wy = mover_->vy() + 2.0f * (mover_->y() - predicted->y);
      client_->setMove(wx / speed, wy / speed);
    } else if (!info.playerIntents) {
      client_->setPlayer(mover_->x(), mover_->y(), mover_->vx(), mover_->vy());
    } else {
      client_->setMove(0.0f, 0.0f);  // before the first own state: stand, and be heard
    }
  }
  client_->update(now);
  const client::ClientState state = client_->state();
  if (!connected_ && state == client::ClientState::kConnected) onConnected(now);
  if (connected_ && now >= nextSecond_) perSecond(now);
  {
    std::lock_guard lock(mutex_);
    record_.state = state;
    if (connected_) push(kTickLag, lagMs);
  }
  if (terminal(state)) {
    ticking_ = false;
    if (inStall_) {
      std::lock_guard lock(mutex_);
      push(kStall, Ms(now - stallStart_).count());
      inStall_ = false;
    }
    copyCounters(now);
    return;
  }
  scheduled_ += period_;
  if (scheduled_ <= now) scheduled_ = nextOnGrid(now, phaseOffset_, period_);  // late: no burst to catch up
  arm(scheduled_);
}

void Player::onConnected(client::TimePoint now) {
  connected_ = true;
  const client::ServerInfo& info = client_->server();
  tickRate_ = info.tickRate > 0 ? info.tickRate : 30.0;
  MoveLimits limits{info.minX, info.minY, info.maxX, info.maxY, info.playerMaxSpeed};
  mover_.emplace(settings_.pattern, limits, mixSeed(settings_.seed, 3, settings_.index));
  for (std::size_t i = 0; i < info.archetypes.size(); ++i) {
    if (info.archetypes[i] == "player") playerArchetype_ = static_cast<std::int64_t>(i);
  }
  lastMove_ = now;
  nextView_ = now;
  // The first input teleports the body to where this player starts (position mode; in intent
  // mode the body starts where the server put it and walks to the pattern).
  if (info.playerIntents) {
    client_->setMove(0.0f, 0.0f);
  } else {
    client_->setPlayer(mover_->x(), mover_->y(), 0.0f, 0.0f);
  }
  nextSecond_ = now + std::chrono::seconds(1);
  ratesValid_ = false;         // the client's first rate window began at connect(): skip it
  if (settings_.fullDecode) {  // light players have no positions to judge
    ViewLossConfig view;
    view.interestRadius = info.interestRadius;
    view.tickRate = tickRate_;
    viewLoss_.emplace(view);
  }
  std::lock_guard lock(mutex_);
  record_.everConnected = true;
  record_.tickRateHz = info.tickRate;
  record_.sendRateHz = info.sendRate;
  push(kConnect, Ms(now - connectStarted_).count());
}

void Player::observeSample(client::TimePoint now) {
  client_->sample(now, sample_);
  const client::SampleKind kind = sample_.kind;
  std::lock_guard lock(mutex_);
  ++record_.sampleKinds[static_cast<std::size_t>(kind)];
  if (kind == client::SampleKind::kExtrapolated)
    push(kExtrapolation, sample_.aheadTicks / tickRate_ * 1000.0);
  if (kind == client::SampleKind::kStalled) {
    if (!inStall_) {
      // It began when the render tick passed the extrapolation bound, not at this tick.
      const double over = (sample_.aheadTicks - client_->interpolation().maxExtrapolationTicks()) / tickRate_;
      inStall_ = true;
      stallEndSeen_ = false;
      stallStart_ = now - std::chrono::duration_cast<Clock::duration>(
                              std::chrono::duration<double>(std::clamp(over, 0.0, 3600.0)));
    }
  } else if (inStall_) {
    inStall_ = false;
    const auto end = stallEndSeen_ ? std::min(stallEnd_, now) : now;
    push(kStall, std::max(0.0, Ms(end - stallStart_).count()));
  }
}

std::optional<Point> Player::nearestNpc() const {
  const std::uint32_t self = client_->server().playerEntity;
  std::optional<Point> best;
  float bestD = std::numeric_limits<float>::infinity();
  for (const client::EntityView& e : sample_.entities) {
    if (e.id == self || static_cast<std::int64_t>(e.archetype) == playerArchetype_) continue;
    const float dx = e.x - mover_->x(), dy = e.y - mover_->y();
    const float d = dx * dx + dy * dy;
    if (d < bestD) {
      bestD = d;
      best = Point{e.x, e.y};
    }
  }
  return best;
}

void Player::perSecond(client::TimePoint now) {
  nextSecond_ += std::chrono::seconds(1);
  if (nextSecond_ <= now) nextSecond_ = now + std::chrono::seconds(1);
  const client::ClientStats s = client_->stats(now);
  std::lock_guard lock(mutex_);
  if (client_->clock().pongs() > 0) push(kRtt, s.rttMs);
  if (ratesValid_) {
    push(kKbpsIn, s.kbpsIn);
    push(kKbpsOut, s.kbpsOut);
  }
  ratesValid_ = true;
  if (settings_.fullDecode) push(kEntities, static_cast<double>(sample_.entities.size()));
  record_.kbpsIn = s.kbpsIn;
  record_.kbpsOut = s.kbpsOut;
  copyStats(s);  // the counters live, for --abort-on-fail and the running figures
}

void Player::copyCounters(client::TimePoint now) {
  const client::ClientStats s = client_->stats(now);
  std::lock_guard lock(mutex_);
  record_.state = client_->state();
  if (record_.message.empty() || record_.state != client::ClientState::kFailed) {
    record_.message = client_->stateMessage();
  }
  copyStats(s);
}

void Player::copyStats(const client::ClientStats& s) {
  record_.snapshots = s.snapshotsComplete;
  record_.snapshotParts = s.snapshotParts;
  record_.snapshotsAbandoned = s.snapshotsAbandoned;
  record_.decodeFailures = s.decodeFailures();
  record_.bytesIn = s.bytesIn;
  record_.bytesOut = s.bytesOut;
  record_.datagramsIn = s.datagramsIn;
  record_.datagramsOut = s.datagramsOut;
  record_.sendFailures = s.sendFailures;
  record_.predictionCorrections = s.predictionCorrections;
  predictionErrors_.clear();
  client_->takePredictionErrors(predictionErrors_);
  for (const float e : predictionErrors_) push(kPredictionError, e);
  if (relay_) record_.relay = relay_->counters();
}

void Player::onSnapshot(std::uint32_t tick, client::TimePoint arrival) {
  const double rate = client_->server().tickRate > 0 ? client_->server().tickRate : tickRate_;
  const SnapshotIntervalMeter::Observation seen = snapshotMeter_.observe(tick, arrival, rate);
  if (!seen.newer) return;  // a late one: nothing new for the player
  if (inStall_ && !stallEndSeen_ && arrival >= stallStart_) {
    stallEndSeen_ = true;
    stallEnd_ = arrival;
  }
  // Entities gone from view while inside the area of interest (from the player's first tick on).
  const wire::SnapshotRecord* record = viewLoss_ ? client_->latestSnapshot() : nullptr;
  if (record != nullptr && record->tick == tick) {
    gaps_.clear();
    viewLoss_->observe(*record, client_->server().playerEntity, playerArchetype_, gaps_);
  } else {
    record = nullptr;
  }
  std::lock_guard lock(mutex_);
  ++record_.snapshotsSeen;
  const auto handled = Clock::now();
  const double handledMs = lastHandled_ ? Ms(handled - *lastHandled_).count() : -1.0;
  lastHandled_ = handled;
  if (seen.gap) {
    push(kSnapshotInterval, seen.gap->intervalMs);
    if (handledMs >= 0.0) push(kSnapshotHandledInterval, handledMs);
    push(kSnapshotTickInterval, seen.gap->tickIntervalMs);
    push(kSnapshotJitter, seen.gap->jitterMs);
  }
  if (record != nullptr) {
    for (double g : gaps_) push(kLostGap, g);
    record_.viewLoss = viewLoss_->counts();
  }
}

void Player::push(Series s, double value) { record_.series[s].push_back(static_cast<float>(value)); }

void Player::leave(std::function<void()> done, bool churned) {
  asio::dispatch(strand_, [this, churned, done = std::move(done)] {
    if (!client_) {  // retired
      done();
      return;
    }
    const auto now = Clock::now();
    const bool wasTicking = ticking_;
    ticking_ = false;
    timer_.cancel();
    if (inStall_) {
      inStall_ = false;
      std::lock_guard lock(mutex_);
      push(kStall, Ms(now - stallStart_).count());
    }
    const client::ClientState before = client_->state();
    const bool wasConnected = before == client::ClientState::kConnected;
    if (wasTicking) copyCounters(now);  // as the run saw it, before our own Disconnect
    client_->disconnect();
    {
      std::lock_guard lock(mutex_);
      if (churned) {
        record_.churned = true;
        record_.state = client_->state();
      } else if (!record_.churned) {
        record_.left = wasConnected;
        if (!wasTicking) record_.state = before;
      }
    }
    done();
  });
}

void Player::retire() {
  if (relay_) {
    asio::dispatch(relay_->executor(), [this] {
      relay_->stop();
      std::lock_guard lock(mutex_);
      record_.relay = relay_->counters();
    });
  }
  asio::dispatch(strand_, [this] {
    ticking_ = false;
    timer_.cancel();
    viewLoss_.reset();
    client_.reset();
  });
}

void Player::close(std::function<void()> done) {
  if (!relay_) {
    done();
    return;
  }
  asio::dispatch(relay_->executor(), [this, done = std::move(done)] {
    relay_->stop();
    std::lock_guard lock(mutex_);
    record_.relay = relay_->counters();
    done();
  });
}

}  // namespace steerd::loadtest
