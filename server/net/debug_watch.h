// One client's debug stream (steerd --allow-debug): the agent it watches, the agent under its
// pointer (a label: DebugInfo.hover), the brain states of the agents on its screen
// (DebugInfo.states), the brain transitions seen since it was selected, and the pace of
// DebugInfo (kPerSecond at most, whatever the client sends). The client repeats its DebugSelect; a watch it
// stopped repeating ends by itself, so a lost "stop" costs seconds, not a stream forever. Lives in the
// GameSession (simulation thread).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

#include "net/debug_info.h"
#include "world/world.h"

namespace steerd::net {

class DebugWatch {
 public:
  static constexpr double kPerSecond = 5.0;
  static constexpr double kExpirySeconds = 3.0;
  static constexpr std::size_t kMaxTransitions = 8;

  explicit DebugWatch(double tickRate);

  // The client asked (again) for `agent` at world tick `tick`. Another agent starts a new log.
  void select(AgentId agent, std::uint64_t tick);
  void stop() { agent_.reset(); }
  std::optional<AgentId> agent() const { return agent_; }
  // The agent under the client's pointer (nullopt: none), replaced by every DebugSelect. A hover
  // alone keeps the stream going (a DebugInfo with hover_only), at the same pace.
  void hover(std::optional<AgentId> agent, std::uint64_t tick);
  std::optional<AgentId> hovered() const { return hover_; }
  // The circle whose agents' brain states go with each DebugInfo (DebugInfo.states; nullopt:
  // none), replaced by every DebugSelect. Like a hover, it keeps the stream going by itself.
  struct Area {
    float x = 0, y = 0, radius = 0;
  };
  void statesArea(std::optional<Area> area, std::uint64_t tick);
  std::optional<Area> statesArea() const { return area_; }
  // The next afterTick() sends, whatever the pace (a paused replay: the tick stands still, and
  // each DebugSelect the client repeats is answered once).
  void sendNext() { nextSendTick_ = 0; }

  // After each tick: ends a watch the client stopped asking for, notes the agent's brain state
  // changes, and returns the DebugInfo to send when one is due.
  std::optional<wire::DebugInfo> afterTick(const World& world);

 private:
  std::uint64_t intervalTicks_;
  std::uint64_t expiryTicks_;
  std::optional<AgentId> agent_;
  std::optional<AgentId> hover_;
  std::optional<Area> area_;
  std::uint64_t lastSelectTick_ = 0;
  std::uint64_t nextSendTick_ = 0;  // per client, not per agent: switching does not beat the pace
  std::optional<std::uint8_t> lastState_;
  std::deque<BrainTransition> transitions_;  // oldest first
};

}  // namespace steerd::net
