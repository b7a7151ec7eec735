#include "client/replay_follower.h"

#include <algorithm>
#include <cmath>

namespace steerd::client {

ReplayFollower::Verdict ReplayFollower::onStatus(const wire::ReplayStatus& s, std::uint32_t heldEpoch,
                                                 TimePoint now, ClockSync& clock, double tickRate,
                                                 double delayTicks) {
  if (!std::isfinite(s.speed()) || s.speed() <= 0.0f || s.speed() > 1000.0f || s.first_tick() > s.last_tick())
    return Verdict::kMalformed;
  if (s.epoch() < heldEpoch) return Verdict::kStale;  // overtaken by a newer epoch's
  // Within an epoch the playback only goes forward: an older status that arrives late is stale.
  if (status_ && s.epoch() == status_->epoch() && s.tick() < status_->tick()) return Verdict::kStale;
  while (!out_.empty() && out_.front().request() <= s.control_applied()) out_.pop_front();
  // The clock runs at the playback's speed; from a standstill it starts at the tick shown, so the
  // picture moves on from there without a jump back.
  const double speed = standsStill(s) ? 0.0 : s.speed();
  if (speed != speed_ && speed > 0.0) {
    const double from = speed_ == 0.0 ? s.tick() + delayAt(delayTicks, speed) : clock.serverTickAt(now);
    clock.rebase(from, now, tickRate * speed);
  }
  speed_ = speed;
  status_ = s;
  return s.epoch() > heldEpoch ? Verdict::kAppliedNewEpoch : Verdict::kApplied;
}

void ReplayFollower::control(wire::ReplayAction action, float speed, std::uint32_t tick) {
  if (!status_) return;
  wire::ReplayControl c;
  c.set_request(++requests_);
  c.set_action(action);
  c.set_speed(speed);
  c.set_tick(tick);
  out_.push_back(c);
  while (out_.size() > kMaxControls) out_.pop_front();
  nextAt_ = TimePoint{};  // at the next update()
}

void ReplayFollower::update(TimePoint now, PacketOutbox& out) {
  if (out_.empty() || now < nextAt_) return;
  wire::Packet p;
  for (const wire::ReplayControl& c : out_) {
    *p.mutable_replay_control() = c;
    out.post(p);
  }
  nextAt_ = now + kControlResend;
}

double ReplayFollower::delayAt(double normalDelayTicks, double speed) {
  return normalDelayTicks * std::max(1.0, speed);
}

double ReplayFollower::delayTicks(double normalDelayTicks) const {
  return status_ ? delayAt(normalDelayTicks, speed_) : normalDelayTicks;
}

double ReplayFollower::renderTickAt(const ClockSync& clock, double normalDelayTicks, TimePoint now) const {
  if (standingStill()) return status_->tick();
  return clock.serverTickAt(now) - delayTicks(normalDelayTicks);
}

}  // namespace steerd::client
