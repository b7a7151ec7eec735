#include "control/control.h"

#include <algorithm>

#include "control/command_cost.h"
#include "control/control_context.h"
#include "control/dispatcher.h"
#include "control/points.h"

namespace steerd::control {

namespace {

using steer::Vec2;

CommandQueue::Limits limitsOf(const ControllerConfig& c) {
  CommandQueue::Limits l;
  l.laneUnits = std::max<std::uint32_t>(c.clientBudget, 1);
  l.tickUnits = std::max<std::uint32_t>(c.tickBudget, 1);
  l.laneQueueUnits = static_cast<std::uint64_t>(l.laneUnits) * std::max<std::uint32_t>(c.queueTicks, 1);
  return l;
}

}  // namespace

Controller::Controller(World& world, ControllerConfig config)
    : world_(world), config_(config), queue_(limitsOf(config)) {}

SubscriberId Controller::addSubscriber(Subscriber subscriber) {
  Sub s;
  s.callbacks = std::move(subscriber);
  s.used = true;
  // A removed subscriber's place is taken again: a server that has seen a million control
  // clients come and go keeps as many places as were ever connected at once.
  std::size_t place = 0;
  while (place < subs_.size() && subs_[place].used) ++place;
  if (place == subs_.size()) subs_.emplace_back();
  const auto id = static_cast<SubscriberId>(place + 1);
  s.lane = queue_.open(id);
  subs_[place] = std::move(s);
  return id;
}

void Controller::removeSubscriber(SubscriberId id) {
  if (id == 0 || id > subs_.size() || !subs_[id - 1].used) return;
  // Its queued commands are still applied, in turn, but answer to nobody: its place may be taken
  // again first, and the newcomer gets a lane of its own.
  queue_.close(subs_[id - 1].lane);
  subs_[id - 1] = Sub{};
}

CommandQueue::LaneId Controller::laneOf(SubscriberId id) const {
  if (id == 0 || id > subs_.size() || !subs_[id - 1].used) return CommandQueue::kNobody;
  return subs_[id - 1].lane;
}

std::string Controller::subscribe(SubscriberId id, const Subscribe& filter) {
  if (id == 0 || id > subs_.size()) return "subscribe: no such subscriber";
  std::vector<std::uint16_t> archetypes;
  for (int i = 0; i < filter.archetypes_size(); ++i) {
    const std::int32_t a = world_.archetypeIndex(filter.archetypes(i));
    if (a < 0) {
      return "subscribe.archetypes[" + std::to_string(i) + "]: no archetype \"" + filter.archetypes(i) + "\"";
    }
    archetypes.push_back(static_cast<std::uint16_t>(a));
  }
  std::uint32_t kinds = 0;
  for (int i = 0; i < filter.kinds_size(); ++i) {
    const int k = filter.kinds(i);
    if (k <= EVENT_UNSPECIFIED || k > EVENT_OVERFLOW || !EventKind_IsValid(k))
      return "subscribe.kinds[" + std::to_string(i) + "]: no event kind " + std::to_string(k);
    kinds |= 1u << k;
  }
  Sub& s = subs_[id - 1];
  s.active = true;
  s.kinds = kinds;
  s.archetypes = std::move(archetypes);
  // What changes from here on is news; what was true before subscribing is not: a fresh look at
  // every agent. At a boundary it is taken once, after the last command (however many subscribe
  // there, a flood costs one look; nothing in between reads what it resets).
  rescanDue_ = true;
  if (!applying_) rescan();
  return {};
}

void Controller::rescan() {
  rescanDue_ = false;
  ++last_.rescans;
  for (Seen& seen : seen_) seen = Seen{};
  const AgentColumns& agents = world_.agents();
  for (std::size_t slot = 0; slot < agents.size(); ++slot) track(agents.id[slot]);
}

void Controller::submit(SubscriberId from, Command command) {
  const std::uint32_t cost = workUnitsOf(command, world_.agentCount());
  queue_.push(laneOf(from), std::move(command), cost);
}

bool Controller::hasRoom(SubscriberId from, const Command& command) const {
  return queue_.hasRoom(laneOf(from), workUnitsOf(command, world_.agentCount()));
}

void Controller::applyPending() {
  last_ = Boundary{};
  applying_ = true;
  // Commands submitted while applying (a result callback that submits) wait for the next boundary.
  const CommandQueue::Drained d = queue_.drain([this](SubscriberId owner, CommandQueue::Entry& e) {
    CommandResult r;
    if (e.refused.empty()) {
      r = apply(owner, e.command);
    } else {
      r.set_sequence(e.command.sequence());
      r.set_tick(world_.tick());
      r.set_status(STATUS_ERROR);
      r.set_error("command: " + e.refused);
      ++rejected_;
    }
    if (owner > 0 && owner <= subs_.size() && subs_[owner - 1].used && subs_[owner - 1].callbacks.onResult)
      subs_[owner - 1].callbacks.onResult(r);
  });
  applying_ = false;
  if (rescanDue_) rescan();
  last_.applied = d.applied;
  last_.work = d.work;
  last_.deferred = d.deferred;
  last_.refused = d.refused;
  last_.waiting = d.waiting;
}

// Each kind's checks and effects are its handler's (handlers/handlers.h); here only the counting.
CommandResult Controller::apply(SubscriberId from, const Command& c) {
  ControlContext context(*this, from);
  CommandResult r = dispatch(context, c);
  if (r.status() == STATUS_OK) {
    ++applied_;
  } else {
    ++rejected_;
  }
  return r;
}

std::optional<AgentInfo> Controller::query(AgentId id) const {
  if (!world_.isAlive(id)) return std::nullopt;
  const AgentColumns& a = world_.agents();
  const std::uint32_t s = world_.slotOf(id);
  const Archetype& arch = world_.archetypes()[a.archetype[s]];
  AgentInfo info;
  info.set_agent(id);
  info.set_archetype(arch.name);
  setPoint(info.mutable_position(), {a.px[s], a.py[s]});
  setPoint(info.mutable_velocity(), {a.vx[s], a.vy[s]});
  setPoint(info.mutable_heading(), {a.hx[s], a.hy[s]});
  info.set_external((a.memory(s).flags & kAgentExternal) != 0);
  if (arch.brain) {
    info.set_brain_state(brain::statePath(*arch.brain, a.memory(s).brainState));
    const BrainMemory& m = world_.brainMemoryOf(id);
    for (std::size_t i = 0; i < arch.brain->stats.size(); ++i) {
      Stat* st = info.add_stats();
      st->set_name(arch.brain->stats[i].name);
      st->set_value(m.stats[i]);
    }
  }
  const Directive& d = world_.directiveOf(id);
  switch (d.kind) {
    case DirectiveKind::kNone:
      info.set_goal(GOAL_NONE);
      break;
    case DirectiveKind::kMoveTo:
      info.set_goal(GOAL_MOVE_TO);
      setPoint(info.mutable_goal_point(), d.point);
      break;
    case DirectiveKind::kStop:
      info.set_goal(GOAL_STOP);
      setPoint(info.mutable_goal_point(), d.point);
      break;
    case DirectiveKind::kPath:
      info.set_goal(GOAL_PATH);
      setPoint(info.mutable_goal_point(), d.point);
      break;
    case DirectiveKind::kFollow:
      info.set_goal(GOAL_FOLLOW);
      info.set_goal_target(d.target);
      break;
    case DirectiveKind::kGuard:
      info.set_goal(GOAL_GUARD);
      info.set_goal_target(d.target);
      break;
  }
  for (const HeldOrder& h : world_.fetchOrders()) {
    if (h.holder == id) info.set_fetching(h.stray);
  }
  for (const World::MarkKind kind : {World::MarkKind::kTag, World::MarkKind::kSignal}) {
    const std::uint32_t bits = world_.marksOf(kind, id);
    const auto& names = world_.markNames(kind);
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (bits & (1u << i))
        (kind == World::MarkKind::kTag ? info.add_tags() : info.add_signals())->assign(names[i]);
    }
  }
  return info;
}

// Events.

bool Controller::anyWants(EventKind kind) const {
  for (const Sub& s : subs_) {
    if (s.active && (s.kinds == 0 || (s.kinds & (1u << kind)))) return true;
  }
  return false;
}

Event Controller::eventAbout(EventKind kind, AgentId id) const {
  Event e;
  e.set_kind(kind);
  e.set_tick(world_.tick());
  e.set_agent(id);
  if (world_.isAlive(id)) {
    const std::uint32_t s = world_.slotOf(id);
    e.set_archetype(world_.archetypes()[world_.agents().archetype[s]].name);
    setPoint(e.mutable_position(), {world_.agents().px[s], world_.agents().py[s]});
  }
  return e;
}

void Controller::emit(const Event& e) {
  const std::int32_t archetype = world_.archetypeIndex(e.archetype());
  for (Sub& s : subs_) {
    if (!s.active || !s.callbacks.onEvent) continue;
    if (s.kinds != 0 && !(s.kinds & (1u << e.kind()))) continue;
    if (!s.archetypes.empty() &&
        std::find(s.archetypes.begin(), s.archetypes.end(), archetype) == s.archetypes.end())
      continue;
    s.callbacks.onEvent(e);
  }
  ++eventsEmitted_;
}

void Controller::noteSpawned(AgentId id) {
  track(id);
  if (anyWants(EVENT_SPAWNED)) emit(eventAbout(EVENT_SPAWNED, id));
}

void Controller::noteDespawned(AgentId id, const std::string& archetype) {
  if (agentIndex(id) < seen_.size()) seen_[agentIndex(id)] = Seen{};
  directed_.erase(std::remove(directed_.begin(), directed_.end(), id), directed_.end());
  if (!anyWants(EVENT_DESPAWNED)) return;
  Event e;
  e.set_kind(EVENT_DESPAWNED);
  e.set_tick(world_.tick());
  e.set_agent(id);
  e.set_archetype(archetype);
  emit(e);
}

// What the controller last saw of an agent, by its index (agent_columns.h).
Controller::Seen& Controller::seenOf(AgentId id) {
  const std::uint32_t i = agentIndex(id);
  if (seen_.size() <= i) seen_.resize(static_cast<std::size_t>(i) + 1);
  return seen_[i];
}

// What an agent shows now, so that afterTick reports only changes.
void Controller::track(AgentId id) {
  Seen& s = seenOf(id);
  s = Seen{};
  if (!world_.isAlive(id)) return;
  const std::uint32_t slot = world_.slotOf(id);
  const Archetype& a = world_.archetypes()[world_.agents().archetype[slot]];
  if (a.brain) {
    s.state = world_.agents().memory(slot).brainState;
    const BrainMemory& m = world_.brainMemoryOf(id);
    for (std::size_t k = 0; k < a.brain->senses.size(); ++k) {
      if (m.lastSeen[k] != 0 && m.lastSeen[k] == world_.tick())
        s.sensing |= static_cast<std::uint8_t>(1u << k);
    }
  }
}

void Controller::afterTick() {
  bool any = false;
  for (const Sub& s : subs_) any = any || s.active;
  watchGoals();  // goals end (arrival with release, lost targets) whether or not anyone listens
  if (!any) return;
  watchBrains();
  watchCatches();
}

// Arrivals and lost targets of the goals given, in id order.
void Controller::watchGoals() {
  const bool report = anyWants(EVENT_ARRIVED) || anyWants(EVENT_TARGET_LOST) || anyWants(EVENT_PATH_FAILED);
  const Navigation* nav = world_.navigation();
  std::size_t kept = 0;
  for (const AgentId id : directed_) {
    const Directive& d = world_.directiveOf(id);
    if (!world_.isAlive(id) || d.kind == DirectiveKind::kNone) continue;
    directed_[kept++] = id;
    const std::uint32_t s = world_.slotOf(id);
    const Vec2 at{world_.agents().px[s], world_.agents().py[s]};
    if (d.kind == DirectiveKind::kFollow || d.kind == DirectiveKind::kGuard) {
      if (world_.isAlive(d.target)) continue;
      Event e = eventAbout(EVENT_TARGET_LOST, id);
      e.set_other(d.target);
      world_.setDirective(id, Directive{});
      --kept;
      if (report) emit(e);
      continue;
    }
    if (d.kind == DirectiveKind::kMoveTo && nav != nullptr && nav->has(id)) {
      // The planner found no path to the goal, or only part of one (the mesh changed its mind
      // since the command's check, or the goal is on an island the agent was pushed off).
      const std::uint16_t failures = nav->agent(id).pathFailures;
      if (failures > seenOf(id).pathFailures && report) {
        Event e = eventAbout(EVENT_PATH_FAILED, id);
        setPoint(e.mutable_position(), d.point);
        emit(e);
      }
      seenOf(id).pathFailures = failures;
    }
    const bool end =
        d.kind == DirectiveKind::kMoveTo ||
        (d.kind == DirectiveKind::kPath && !world_.geometry().paths[static_cast<std::size_t>(d.path)].looped);
    if (!end || d.arrived || steer::distance(at, d.point) > d.radius) continue;
    world_.noteArrived(id);
    const bool release = d.releaseOnArrival;
    if (report) emit(eventAbout(EVENT_ARRIVED, id));
    if (release) {
      world_.setDirective(id, Directive{});
      --kept;
    }
  }
  directed_.resize(kept);
}

// Brain state changes and sightings, in id order, for the agents of brain-driven archetypes.
void Controller::watchBrains() {
  const bool states = anyWants(EVENT_STATE_CHANGED);
  const bool senses = anyWants(EVENT_SIGHTED) || anyWants(EVENT_LOST_SIGHT);
  const auto& archetypes = world_.archetypes();
  if ((!states && !senses) || std::none_of(archetypes.begin(), archetypes.end(),
                                           [](const Archetype& a) { return a.brain != nullptr; }))
    return;  // (a pass over every agent costs 0.1 ms a tick at 100,000)
  const AgentColumns& a = world_.agents();
  // The think the last step ran was at tick - 1: agents whose turn it was have fresh sightings.
  const std::uint64_t thought = world_.tick() - 1;
  std::vector<AgentId> ids;
  for (std::size_t s = 0; s < a.size(); ++s) {
    if (world_.archetypes()[a.archetype[s]].brain) ids.push_back(a.id[s]);
  }
  std::sort(ids.begin(), ids.end());
  for (const AgentId id : ids) {
    const std::uint32_t s = world_.slotOf(id);
    const brain::Brain& b = *world_.archetypes()[a.archetype[s]].brain;
    Seen& seen = seenOf(id);
    const std::uint8_t now = a.memory(s).brainState;
    if (seen.state == 0xff) seen.state = now;  // first look: nothing to compare with
    if (now != seen.state) {
      if (states) {
        Event e = eventAbout(EVENT_STATE_CHANGED, id);
        e.set_from(brain::statePath(b, seen.state));
        e.set_to(brain::statePath(b, now));
        emit(e);
      }
      seen.state = now;
    }
    if (!senses || (thought + id) % b.thinkEvery != 0) continue;
    const BrainMemory& m = world_.brainMemoryOf(id);
    for (std::size_t k = 0; k < b.senses.size(); ++k) {
      const std::uint8_t bit = static_cast<std::uint8_t>(1u << k);
      const bool sees = m.lastSeen[k] == thought + 1;
      if (sees == ((seen.sensing & bit) != 0)) continue;
      seen.sensing = static_cast<std::uint8_t>(sees ? (seen.sensing | bit) : (seen.sensing & ~bit));
      Event e = eventAbout(sees ? EVENT_SIGHTED : EVENT_LOST_SIGHT, id);
      e.set_sense(b.senses[k].name);
      emit(e);
    }
  }
}

// A pursuer within its archetype's catch distance of the agent it chased this tick: once, until
// it chases another or the same one gets more than twice that distance away.
void Controller::watchCatches() {
  const auto& archetypes = world_.archetypes();
  if (!anyWants(EVENT_CAUGHT) || std::none_of(archetypes.begin(), archetypes.end(),
                                              [](const Archetype& x) { return x.catchDistance > 0.0f; }))
    return;
  const AgentColumns& a = world_.agents();
  std::vector<std::pair<AgentId, AgentId>> caught;
  for (std::size_t s = 0; s < a.size(); ++s) {
    const float reach = world_.archetypes()[a.archetype[s]].catchDistance;
    if (reach <= 0.0f) continue;
    const AgentId id = a.id[s];
    const std::int32_t t = a.memory(s).targetId;
    const bool alive = t >= 0 && world_.isAlive(static_cast<AgentId>(t));
    const float d = alive
                        ? steer::distance({a.px[s], a.py[s]}, {a.px[world_.slotOf(static_cast<AgentId>(t))],
                                                               a.py[world_.slotOf(static_cast<AgentId>(t))]})
                        : 0.0f;
    if (alive && d <= reach) {
      caught.push_back({id, static_cast<AgentId>(t)});
    } else if (seenOf(id).caught >= 0 && (seenOf(id).caught != t || !alive || d > 2.0f * reach)) {
      seenOf(id).caught = -1;  // a new target, or it got away: the next catch is news again
    }
  }
  std::sort(caught.begin(), caught.end());
  for (const auto& [id, target] : caught) {
    if (seenOf(id).caught == static_cast<std::int32_t>(target)) continue;
    seenOf(id).caught = static_cast<std::int32_t>(target);
    Event e = eventAbout(EVENT_CAUGHT, id);
    e.set_other(target);
    emit(e);
  }
}

}  // namespace steerd::control
