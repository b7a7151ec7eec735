#include "net/debug_watch.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace steerd::net {

DebugWatch::DebugWatch(double tickRate)
    : intervalTicks_(static_cast<std::uint64_t>(std::max(1.0, std::ceil(tickRate / kPerSecond)))),
      expiryTicks_(static_cast<std::uint64_t>(std::max(1.0, std::ceil(tickRate * kExpirySeconds)))) {}

void DebugWatch::select(AgentId agent, std::uint64_t tick) {
  if (agent_ != agent) {
    agent_ = agent;
    lastState_.reset();
    transitions_.clear();
  }
  lastSelectTick_ = tick;
}

void DebugWatch::hover(std::optional<AgentId> agent, std::uint64_t tick) {
  hover_ = agent;
  lastSelectTick_ = tick;
}

void DebugWatch::statesArea(std::optional<Area> area, std::uint64_t tick) {
  area_ = area;
  lastSelectTick_ = tick;
}

std::optional<wire::DebugInfo> DebugWatch::afterTick(const World& world) {
  if (!agent_ && !hover_ && !area_) return std::nullopt;
  const std::uint64_t tick = world.tick();
  if (tick > lastSelectTick_ + expiryTicks_) {
    agent_.reset();
    hover_.reset();
    area_.reset();
    return std::nullopt;
  }
  const auto addStates = [&](wire::DebugInfo& info) {
    if (area_) *info.mutable_states() = debugStatesOf(world, area_->x, area_->y, area_->radius);
  };
  if (!agent_) {
    if (tick < nextSendTick_) return std::nullopt;
    nextSendTick_ = tick + intervalTicks_;
    wire::DebugInfo info;
    info.set_tick(static_cast<std::uint32_t>(tick));
    info.set_hover_only(true);
    if (hover_) *info.mutable_hover() = debugHoverOf(world, *hover_);
    addStates(info);
    return info;
  }
  const AgentId id = *agent_;
  if (world.isAlive(id) && world.archetypes()[world.agents().archetype[world.slotOf(id)]].brain) {
    const std::uint8_t state = world.brainStateOf(id);
    if (lastState_ && *lastState_ != state) {
      transitions_.push_back({world.brainMemoryOf(id).enteredTick, *lastState_, state});
      if (transitions_.size() > kMaxTransitions) transitions_.pop_front();
    }
    lastState_ = state;
  }
  if (tick < nextSendTick_) return std::nullopt;
  nextSendTick_ = tick + intervalTicks_;
  const std::vector<BrainTransition> log(transitions_.begin(), transitions_.end());
  wire::DebugInfo info = debugInfoOf(world, id, log);
  if (hover_) *info.mutable_hover() = debugHoverOf(world, *hover_);
  addStates(info);
  return info;
}

}  // namespace steerd::net
