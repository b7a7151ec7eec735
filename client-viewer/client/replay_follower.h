// Following a served replay (steerd --replay --serve, docs/RECORDING.md): its ReplayStatus, which
// sets the clock's pace (its speed; standing still while paused, seeking or at its end) and the
// tick to draw, and the playback controls this client sends, again every 100 ms until a status
// shows them applied. Time is a parameter; controls go to an outbox.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>

#include "client/clock_sync.h"
#include "client/packet_outbox.h"

namespace steerd::client {

class ReplayFollower {
 public:
  static constexpr std::chrono::milliseconds kControlResend{100};
  static constexpr std::size_t kMaxControls = 16;  // waiting; the oldest is dropped

  enum class Verdict : std::uint8_t {
    kMalformed,  // numbers no replay has: a counted drop
    kStale,      // older than what is held: ignored
    kApplied,
    kAppliedNewEpoch  // ... of a newer epoch: everything held before it is of another timeline
  };
  // A status, with the epoch the client holds; the clock is rebased when the pace changes.
  // `tickRate` is the server's; `delayTicks` the interpolation delay at normal speed.
  Verdict onStatus(const wire::ReplayStatus& status, std::uint32_t heldEpoch, TimePoint now, ClockSync& clock,
                   double tickRate, double delayTicks);

  // A control for the playback; nothing before the first status (not a replay server).
  void control(wire::ReplayAction action, float speed, std::uint32_t tick);
  // The controls not yet applied, when due.
  void update(TimePoint now, PacketOutbox& out);

  const std::optional<wire::ReplayStatus>& status() const { return status_; }
  std::size_t pending() const { return out_.size(); }
  // The delay in ticks: kept in time, not in ticks, when faster (ticks come s times as often).
  double delayTicks(double normalDelayTicks) const;
  // Where to draw: the estimated tick less the delay; standing still, exactly the tick it shows.
  double renderTickAt(const ClockSync& clock, double normalDelayTicks, TimePoint now) const;
  bool standingStill() const { return status_ && standsStill(*status_); }

 private:
  static bool standsStill(const wire::ReplayStatus& s) { return s.paused() || s.seeking() || s.ended(); }
  static double delayAt(double normalDelayTicks, double speed);

  std::optional<wire::ReplayStatus> status_;
  double speed_ = 1.0;  // the clock's pace, times the tick rate (0: standing still)
  std::uint32_t requests_ = 0;
  std::deque<wire::ReplayControl> out_;
  TimePoint nextAt_{};
};

}  // namespace steerd::client
