// What the client asks of the server's debug stream (steerd --allow-debug, docs/PROTOCOL.md,
// "Debug"): one watched agent, the agent under the pointer, and the brain states of a circle of
// the world, sent together in a DebugSelect repeated every interval (the server ends a stream
// nobody repeats within 3 s); a change goes at the next update(), and the last "stop" once. What
// the server answers is kept when it is about what is asked and not older than what is held.
// Time is a parameter; selections go to an outbox.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

#include "client/clock_sync.h"
#include "client/packet_outbox.h"

namespace steerd::client {

struct StatesArea {
  float x = 0, y = 0, radius = 0;  // world m
};

class DebugSubscription {
 public:
  // A moved states area is sent within this of the last DebugSelect, not with every frame.
  static constexpr std::chrono::milliseconds kStatesAreaRepeat{250};

  explicit DebugSubscription(std::chrono::duration<double> repeatInterval) : repeat_(repeatInterval) {}

  void watch(std::optional<std::uint32_t> agent);
  void hover(std::optional<std::uint32_t> agent);
  // On or off goes at the next update(); a move by a quarter of the radius (or the radius changed
  // by a quarter) within kStatesAreaRepeat, smaller ones with the next repetition.
  void watchStates(std::optional<StatesArea> area);

  // A DebugSelect when one is due (something asked, or a "stop" to say).
  void update(TimePoint now, PacketOutbox& out);
  void onInfo(const wire::DebugInfo& info);
  // The answers held are of another timeline (a served replay's seek).
  void forgetAnswers();

  std::optional<std::uint32_t> watched() const { return agent_; }
  std::optional<std::uint32_t> hovered() const { return hover_; }
  std::optional<StatesArea> statesArea() const { return area_; }
  const wire::DebugInfo* info() const { return info_ ? &*info_ : nullptr; }
  const wire::DebugHover* hoverInfo() const { return hoverInfo_ ? &*hoverInfo_ : nullptr; }
  const wire::DebugStates* states() const { return states_ ? &*states_ : nullptr; }
  std::uint64_t infosReceived() const { return infos_; }  // about the watched agent

 private:
  bool wanted() const { return agent_ || hover_ || area_; }
  void send(PacketOutbox& out);

  std::chrono::duration<double> repeat_;
  std::optional<std::uint32_t> agent_;
  std::optional<std::uint32_t> hover_;
  std::optional<StatesArea> area_;
  std::optional<StatesArea> sentArea_;  // in the last DebugSelect
  bool stopPending_ = false;            // a "stop" to send at the next update()
  TimePoint nextAt_{}, lastAt_{};
  std::optional<wire::DebugInfo> info_;
  std::optional<wire::DebugHover> hoverInfo_;
  std::uint32_t hoverTick_ = 0;  // of hoverInfo_
  std::optional<wire::DebugStates> states_;
  std::uint32_t statesTick_ = 0;  // of states_
  std::uint64_t infos_ = 0;
};

}  // namespace steerd::client
