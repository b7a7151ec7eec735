#include "net/server_tick.h"

#include <chrono>

namespace steerd::net {

TickTimes ServerTick::run(std::int64_t steadyNs) {
  using Clock = std::chrono::steady_clock;
  const auto a = Clock::now();
  session_.beforeTick();
  world_.step();
  if (observer_ != nullptr) observer_->afterStep(world_, session_.takenEvents());
  const auto b = Clock::now();
  transport_.publishTick(static_cast<std::uint32_t>(world_.tick()), steadyNs, tickRate_);
  session_.afterTick();
  const auto c = Clock::now();
  return {std::chrono::duration<double, std::milli>(c - a).count(),
          std::chrono::duration<double, std::milli>(c - b).count()};
}

}  // namespace steerd::net
