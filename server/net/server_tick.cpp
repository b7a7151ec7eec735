#include "net/server_tick.h"

#include <chrono>

namespace steerd::net {

TickTimes ServerTick::run(std::int64_t steadyNs) {
  using Clock = std::chrono::steady_clock;
  const auto a = Clock::now();
  session_.beforeTick();
  world_.step();
  if (observer_ != nullptr) observer_->afterStep(world_, session_.takenEvents());
  transport_.publishTick(static_cast<std::uint32_t>(world_.tick()), steadyNs, tickRate_);
  session_.afterTick();
  return {std::chrono::duration<double, std::milli>(Clock::now() - a).count()};
}

}  // namespace steerd::net
