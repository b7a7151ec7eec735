// Round-trip time and the server's tick as seen from this machine, from Ping/Pong.
//
// A Pong echoes the client_time_us of its Ping and carries the server's last completed tick and how
// far into the next one the server was (tick_phase, 0..1). One round trip gives
//
//   rtt       = received - sent
//   raw(now)  = (server_tick + tick_phase) + (now - received + rtt / 2) * tickRate
//
// The estimate kept is `offset + seconds(now - epoch) * tickRate`: each pong moves a target offset
// (an EWMA of the raw offsets), and the offset in use slews towards the target at a bounded rate
// (by default at most 0.1 tick per tick), so serverTickAt() is continuous and never runs
// backwards. When the raw estimate is more than `snapTicks` away from the one in use (the first
// pong, a server hitch, a stalled client) the estimate snaps to it instead.
#pragma once

#include <chrono>
#include <cstdint>

namespace steerd::client {

using Clock = std::chrono::steady_clock;
using TimePoint = Clock::time_point;

class ClockSync {
 public:
  struct Options {
    double rttGain = 0.125;     // EWMA gain of the smoothed RTT (RFC 6298's alpha)
    double jitterGain = 0.25;   // gain of the mean RTT deviation (RFC 6298's beta)
    double offsetGain = 0.1;    // EWMA gain of the target tick offset
    double slewFraction = 0.1;  // most correction per unit of elapsed time, as a fraction of it
    double snapTicks = 10.0;    // snap instead of slewing when further off than this
  };

  ClockSync() : ClockSync(Options{}) {}
  explicit ClockSync(const Options& options);

  // Simulation ticks per second (from Accept). Must be set before seed() or onPong().
  void setTickRate(double ticksPerSecond);
  double tickRate() const { return tickRate_; }

  // A first guess before any pong: the server was at `serverTick` about `rttGuess / 2` ago.
  void seed(std::uint32_t serverTick, TimePoint now, std::chrono::duration<double> rttGuess);

  // The server's ticks now run at another rate (a served replay's speed, or a resume after a
  // pause): the estimate goes on from `tickNow` at the new rate, and later pongs correct it as
  // usual (slewing, not snapping, when it was synced before).
  void rebase(double tickNow, TimePoint now, double ticksPerSecond);

  // One pong: `sent` is the time its ping left (from the echoed client_time_us), `received` now.
  // Returns false, changing nothing, for an implausible sample (received before sent, over 60 s,
  // a non-finite phase, or no tick rate yet).
  bool onPong(TimePoint sent, TimePoint received, std::uint32_t serverTick, float tickPhase);

  // The server's tick as a continuous value at local time `now`; 0 before seed() or any pong.
  double serverTickAt(TimePoint now) const;

  bool hasEstimate() const { return hasEstimate_; }
  std::uint64_t pongs() const { return pongs_; }
  std::uint64_t snaps() const { return snaps_; }
  double rttMs() const { return rttMs_; }        // smoothed; 0 before the first pong
  double jitterMs() const { return jitterMs_; }  // smoothed mean deviation of the RTT
  double lastRttMs() const { return lastRttMs_; }

 private:
  double seconds(TimePoint t) const { return std::chrono::duration<double>(t - epoch_).count(); }
  double offsetAt(TimePoint now) const;
  void snapTo(double offset, TimePoint now);

  Options options_;
  double tickRate_ = 0.0;
  bool hasEstimate_ = false;
  bool synced_ = false;  // a pong has been applied (a seed alone is replaced by the first pong)
  TimePoint epoch_{};
  double offset_ = 0.0;  // offset in use at adjustedAt_
  TimePoint adjustedAt_{};
  double target_ = 0.0;  // offset the estimate slews towards
  double rttMs_ = 0.0, jitterMs_ = 0.0, lastRttMs_ = 0.0;
  std::uint64_t pongs_ = 0, snaps_ = 0;
};

}  // namespace steerd::client
