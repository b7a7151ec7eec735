#include "client/debug_subscription.h"

#include <algorithm>
#include <cmath>

#include "client/durations.h"

namespace steerd::client {

void DebugSubscription::watch(std::optional<std::uint32_t> agent) {
  if (agent == agent_) return;
  const bool was = wanted();
  agent_ = agent;
  stopPending_ = was && !wanted();
  info_.reset();
  nextAt_ = TimePoint{};  // at the next update()
}

void DebugSubscription::hover(std::optional<std::uint32_t> agent) {
  if (agent == hover_) return;
  const bool was = wanted();
  hover_ = agent;
  stopPending_ = was && !wanted();
  hoverInfo_.reset();
  nextAt_ = TimePoint{};
}

void DebugSubscription::watchStates(std::optional<StatesArea> area) {
  const bool had = area_.has_value();
  if (!area) {
    if (!had) return;
    const bool was = wanted();
    area_.reset();
    states_.reset();
    stopPending_ = was && !wanted();
    nextAt_ = TimePoint{};
    return;
  }
  if (had) {
    // Measured against the area last sent, so a slow steady pan adds up.
    const StatesArea& o = sentArea_ ? *sentArea_ : *area_;
    const float moved = std::hypot(area->x - o.x, area->y - o.y);
    const bool far = moved > 0.25f * o.radius || std::fabs(area->radius - o.radius) > 0.25f * o.radius;
    area_ = area;
    if (far) nextAt_ = std::min(nextAt_, lastAt_ + kStatesAreaRepeat);
    return;
  }
  area_ = area;
  nextAt_ = TimePoint{};
}

void DebugSubscription::update(TimePoint now, PacketOutbox& out) {
  if (!(wanted() || stopPending_) || now < nextAt_) return;
  send(out);
  lastAt_ = now;
  nextAt_ = now + toDuration(repeat_);
}

void DebugSubscription::send(PacketOutbox& out) {
  wire::Packet p;
  wire::DebugSelect* select = p.mutable_debug_select();
  if (agent_) {
    select->set_agent_id(*agent_);
  } else {
    select->set_stop(true);  // no selection: the hover alone, or nothing
  }
  if (hover_) select->set_hover_agent(*hover_);
  if (area_) {
    wire::DebugArea* a = select->mutable_states_area();
    a->set_x(area_->x);
    a->set_y(area_->y);
    a->set_radius(area_->radius);
  }
  sentArea_ = area_;
  // A last "stop" is sent once: if it is lost, the server ends the stream by itself.
  if (!wanted()) stopPending_ = false;
  out.post(p);
}

void DebugSubscription::onInfo(const wire::DebugInfo& d) {
  if (d.has_hover() && hover_ && d.hover().agent_id() == *hover_ && (!hoverInfo_ || d.tick() >= hoverTick_)) {
    hoverInfo_ = d.hover();
    hoverTick_ = d.tick();
  }
  // A states list whose ids and states disagree in length is not one.
  if (d.has_states() && area_ && d.states().agent_id_size() == d.states().state_size() &&
      (!states_ || d.tick() >= statesTick_)) {
    states_ = d.states();
    statesTick_ = d.tick();
  }
  if (d.hover_only()) return;
  if (!agent_ || d.agent_id() != *agent_) return;  // about an earlier selection
  if (info_ && d.tick() < info_->tick()) return;   // reordered: keep the newer
  info_ = d;
  ++infos_;
}

void DebugSubscription::forgetAnswers() {
  info_.reset();
  hoverInfo_.reset();
  hoverTick_ = 0;
  states_.reset();
  statesTick_ = 0;
}

}  // namespace steerd::client
