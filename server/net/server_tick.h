// One server tick, written once for the real-time loop, a replay and the tests: the session takes
// what the network handed over, the world steps, an observer (a recording) sees the result, the
// tick is published, and the session sends what is due. The caller says what time it is.
#pragma once

#include <cstdint>
#include <vector>

#include "net/game_session.h"
#include "net/session_transport.h"
#include "world/world.h"

namespace steerd::net {

// Sees every tick right after the world's step, with the events that went in before it.
class TickObserver {
 public:
  virtual ~TickObserver() = default;
  virtual void afterStep(const World& world, const std::vector<NetEvent>& events) = 0;
};

struct TickTimes {
  double tickMs = 0.0;  // the whole tick on this thread: inputs, step, starting (or building) snapshots
};

class ServerTick {
 public:
  ServerTick(World& world, GameSession& session, SessionTransport& transport, double tickRate)
      : world_(world), session_(session), transport_(transport), tickRate_(tickRate) {}

  void setObserver(TickObserver* observer) { observer_ = observer; }
  // Runs one tick. `steadyNs`: the steady clock's time now (the real one, or a test's or a
  // replay's made-up one), stamped on the tick for clients' clock sync. The times returned are
  // measured, for the metrics; nothing in the tick depends on them.
  TickTimes run(std::int64_t steadyNs);

 private:
  World& world_;
  GameSession& session_;
  SessionTransport& transport_;
  double tickRate_;
  TickObserver* observer_ = nullptr;
};

}  // namespace steerd::net
