#include "control/control.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "control/command_cost.h"
#include "steering/vec2.h"

namespace steerd::control {

namespace {

using steer::Vec2;

constexpr float kDefaultArrivalRadius = 1.0f;    // m
constexpr float kDefaultGuardRadius = 5.0f;      // m
constexpr float kDefaultOrderDoneWithin = 5.0f;  // m from home
constexpr Vec2 kDefaultFollowOffset{-2.0f, 0.0f};

// A check's failure: the field it names and why; empty when fine.
struct Problem {
  std::string field, why;
  explicit operator bool() const { return !why.empty(); }
};

Vec2 vecOf(const Point& p) { return {p.x(), p.y()}; }
void setPoint(Point* out, Vec2 v) {
  out->set_x(v.x);
  out->set_y(v.y);
}

std::string fmt(float v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", static_cast<double>(v));
  return b;
}

bool finite(float v) { return std::isfinite(v); }

// Appends its pieces: GCC 12 warns falsely (-Wrestrict) on long chains of std::string operator+.
template <class... Parts>
std::string cat(const Parts&... parts) {
  std::string out;
  (out += ... += parts);
  return out;
}

// A point a body of `radius` may stand on: finite, inside the bounds, clear of obstacles and walls,
// on the navmesh when the world has one (`onMesh`, when given, gets the mesh point).
Problem checkPlace(const World& world, const std::string& field, const Point& point, float radius,
                   nav::NavPoint* onMesh = nullptr) {
  const Vec2 p = vecOf(point);
  if (!finite(p.x) || !finite(p.y)) return {field, "not a finite point"};
  const Bounds& b = world.geometry().bounds;
  if (p.x < b.minX || p.x > b.maxX || p.y < b.minY || p.y > b.maxY) {
    return {field, cat("(", fmt(p.x), ", ", fmt(p.y), ") is outside the world bounds (", fmt(b.minX), ", ",
                       fmt(b.minY), ") - (", fmt(b.maxX), ", ", fmt(b.maxY), ")")};
  }
  // The point's bucket holds every obstacle and wall within an agent's reach of it (more than a
  // body's radius), so it is enough to look there.
  const StaticGeometry::Near near = world.geometry().near(p.x, p.y);
  for (const auto& o : near.obstacles) {
    if (steer::distance(p, o.center) < o.radius + radius) return {field, "inside an obstacle"};
  }
  for (const auto& w : near.walls) {
    if (steer::distanceToSegment(p, w.from, w.to) < radius) return {field, "inside a wall"};
  }
  if (const auto& mesh = world.geometry().navMesh) {
    const nav::NavPoint at = mesh->nearest(p, radius + 0.5f);
    if (!at) return {field, "not on the navmesh's walkable ground"};
    if (onMesh != nullptr) *onMesh = at;
  }
  return {};
}

std::int32_t pathIndexOf(const World& world, const std::string& name) {
  const auto& paths = world.geometry().paths;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    if (!name.empty() && paths[i].name == name) return static_cast<std::int32_t>(i);
  }
  return -1;
}

std::int32_t stateIndexOf(const brain::Brain& brain, const std::string& name) {
  for (std::size_t i = 0; i < brain.states.size(); ++i) {
    if (brain.states[i].name == name || brain::statePath(brain, static_cast<std::uint8_t>(i)) == name)
      return static_cast<std::int32_t>(i);
  }
  return -1;
}

// Whether some behaviour set of `a` has FETCH_STRAY with target FETCH_ORDER for `stray`.
bool actsOnOrdersFor(const Archetype& a, ArchetypeIndex stray) {
  auto acts = [&](const std::vector<BehaviourSpec>& set) {
    return std::any_of(set.begin(), set.end(), [&](const BehaviourSpec& b) {
      return b.kind == BehaviourKind::kFetchStray && b.target == TargetKind::kFetchOrder &&
             b.targetArchetype == stray;
    });
  };
  return acts(a.behaviours) || std::any_of(a.stateBehaviours.begin(), a.stateBehaviours.end(), acts);
}

bool navigates(const Archetype& a) {
  if (Navigation::navigateSpec(a.behaviours)) return true;
  for (const auto& set : a.stateBehaviours) {
    if (Navigation::navigateSpec(set)) return true;
  }
  return false;
}

}  // namespace

namespace {

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

CommandResult Controller::apply(SubscriberId from, const Command& c) {
  CommandResult r;
  r.set_sequence(c.sequence());
  r.set_tick(world_.tick());
  auto fail = [&](const Problem& p) {
    r.set_status(STATUS_ERROR);
    r.set_error(p.field + ": " + p.why);
    ++rejected_;
    return r;
  };
  // The agent a command names: alive, and (unless a player may be named) not a player's body.
  auto agentProblem = [&](const std::string& field, std::uint32_t id, bool playerOk = false) -> Problem {
    if (!world_.isAlive(id)) return {field, "no live agent " + std::to_string(id)};
    if (!playerOk && (world_.agents().memory(world_.slotOf(id)).flags & kAgentExternal))
      return {field, "agent " + std::to_string(id) + " is a connected player's body (moved by its client)"};
    return {};
  };
  auto archetypeOf = [&](AgentId id) -> const Archetype& {
    return world_.archetypes()[world_.agents().archetype[world_.slotOf(id)]];
  };
  // A goal's point: a place, and on a navmesh reachable from where the agent stands.
  auto goalProblem = [&](const std::string& field, AgentId id, const Point& point) -> Problem {
    const Archetype& a = archetypeOf(id);
    nav::NavPoint to;
    if (Problem p = checkPlace(world_, field, point, a.limits.radius, &to)) return p;
    const auto& mesh = world_.geometry().navMesh;
    if (mesh && navigates(a)) {
      const std::uint32_t s = world_.slotOf(id);
      const nav::NavPoint from = mesh->nearest({world_.agents().px[s], world_.agents().py[s]});
      if (!from || mesh->islandOf(from.poly) != mesh->islandOf(to.poly))
        return {field, "not reachable on the navmesh from agent " + std::to_string(id)};
    }
    return {};
  };
  auto radiusProblem = [&](const std::string& field, float v) -> Problem {
    if (!finite(v) || v < 0.0f) return {field, fmt(v) + " must be finite and >= 0"};
    return {};
  };
  auto setGoal = [&](AgentId id, Directive d) {
    world_.setDirective(id, d);  // its navigation starts afresh: no failures yet
    seenOf(id).pathFailures = 0;
    if (d.kind != DirectiveKind::kNone && !std::binary_search(directed_.begin(), directed_.end(), id))
      directed_.insert(std::upper_bound(directed_.begin(), directed_.end(), id), id);
    r.set_agent(id);
  };

  switch (c.kind_case()) {
    case Command::kSpawn: {
      const Spawn& s = c.spawn();
      const std::int32_t a = world_.archetypeIndex(s.archetype());
      if (a < 0) return fail({"spawn.archetype", "no archetype \"" + s.archetype() + "\""});
      const Archetype& arch = world_.archetypes()[static_cast<std::size_t>(a)];
      if (arch.name == kPlayerArchetypeName)
        return fail({"spawn.archetype", "player bodies come with player connections"});
      if (world_.agentCount() >= config_.maxAgents)
        return fail({"spawn", "the world holds its cap of " + std::to_string(config_.maxAgents) + " agents"});
      if (!s.has_position()) return fail({"spawn.position", "missing"});
      if (Problem p = checkPlace(world_, "spawn.position", s.position(), arch.limits.radius)) return fail(p);
      const Vec2 v = vecOf(s.velocity());
      if (!finite(v.x) || !finite(v.y)) return fail({"spawn.velocity", "not finite"});
      if (steer::length(v) > arch.limits.maxSpeed * 1.0001f)
        return fail(
            {"spawn.velocity", "faster than " + arch.name + "'s max speed " + fmt(arch.limits.maxSpeed)});
      Vec2 heading{};
      if (s.has_heading()) {
        heading = vecOf(s.heading());
        if (!finite(heading.x) || !finite(heading.y) || steer::lengthSq(heading) <= 0.0f)
          return fail({"spawn.heading", "must be a finite, non-zero direction"});
      }
      const std::int32_t path = s.path().empty() ? -1 : pathIndexOf(world_, s.path());
      if (!s.path().empty() && path < 0) return fail({"spawn.path", "no path \"" + s.path() + "\""});
      std::int32_t state = -1;
      if (!s.brain_state().empty()) {
        if (!arch.brain) return fail({"spawn.brain_state", arch.name + " has no brain"});
        state = stateIndexOf(*arch.brain, s.brain_state());
        if (state < 0)
          return fail(
              {"spawn.brain_state", "no state \"" + s.brain_state() + "\" in " + arch.name + "'s brain"});
      }
      // New tag names are counted before any is registered: a refused spawn leaves none behind.
      std::vector<std::string> newTags;
      for (int i = 0; i < s.tags_size(); ++i) {
        if (world_.markIndex(World::MarkKind::kTag, s.tags(i), false) >= 0) continue;
        if (std::find(newTags.begin(), newTags.end(), s.tags(i)) != newTags.end()) continue;
        newTags.push_back(s.tags(i));
        if (world_.markNames(World::MarkKind::kTag).size() + newTags.size() > World::kMaxMarkNames)
          return fail({"spawn.tags[" + std::to_string(i) + "]",
                       "a world holds at most " + std::to_string(World::kMaxMarkNames) + " tag names"});
      }
      // Everything checked: now it happens, all of it. The world refuses only when every agent
      // index is taken (those of agents gone in the last 64 ticks wait), before changing anything.
      AgentId id = 0;
      try {
        id = world_.spawn(static_cast<ArchetypeIndex>(a), vecOf(s.position()), v, path);
      } catch (const std::length_error&) {
        return fail({"spawn", "every agent index is taken (those of agents gone in the last " +
                                  std::to_string(World::kIndexReuseDelayTicks) + " ticks wait)"});
      }
      std::vector<std::int32_t> tags;
      for (int i = 0; i < s.tags_size(); ++i)
        tags.push_back(world_.markIndex(World::MarkKind::kTag, s.tags(i), true));
      if (s.has_heading()) world_.setHeading(id, heading);
      if (state >= 0) world_.setBrainState(id, state);
      for (const std::int32_t t : tags) world_.setMark(World::MarkKind::kTag, id, t, true);
      r.set_agent(id);
      noteSpawned(id);
      break;
    }
    case Command::kDespawn: {
      const AgentId id = c.despawn().agent();
      if (Problem p = agentProblem("despawn.agent", id)) return fail(p);
      const std::string archetype = archetypeOf(id).name;
      world_.despawn(id);
      r.set_agent(id);
      noteDespawned(id, archetype);
      break;
    }
    case Command::kMoveTo: {
      const MoveTo& m = c.move_to();
      if (Problem p = agentProblem("move_to.agent", m.agent())) return fail(p);
      if (!m.has_position()) return fail({"move_to.position", "missing"});
      if (Problem p = goalProblem("move_to.position", m.agent(), m.position())) return fail(p);
      if (Problem p = radiusProblem("move_to.radius", m.radius())) return fail(p);
      Directive d;
      d.kind = DirectiveKind::kMoveTo;
      d.point = vecOf(m.position());
      d.radius = m.radius() > 0.0f ? m.radius() : kDefaultArrivalRadius;
      d.releaseOnArrival = m.release_on_arrival();
      setGoal(m.agent(), d);
      break;
    }
    case Command::kMoveToWaypoint: {
      const MoveToWaypoint& m = c.move_to_waypoint();
      if (Problem p = agentProblem("move_to_waypoint.agent", m.agent())) return fail(p);
      const auto& points = world_.geometry().waypoints;
      const auto w = std::find_if(points.begin(), points.end(),
                                  [&](const NamedPoint& n) { return n.name == m.waypoint(); });
      if (w == points.end())
        return fail({"move_to_waypoint.waypoint", "no waypoint \"" + m.waypoint() + "\""});
      Point at;
      setPoint(&at, w->position);
      if (Problem p = goalProblem("move_to_waypoint.waypoint", m.agent(), at)) return fail(p);
      if (Problem p = radiusProblem("move_to_waypoint.radius", m.radius())) return fail(p);
      Directive d;
      d.kind = DirectiveKind::kMoveTo;
      d.point = w->position;
      d.radius = m.radius() > 0.0f ? m.radius() : kDefaultArrivalRadius;
      d.releaseOnArrival = m.release_on_arrival();
      setGoal(m.agent(), d);
      break;
    }
    case Command::kFollowPath: {
      const FollowPath& f = c.follow_path();
      if (Problem p = agentProblem("follow_path.agent", f.agent())) return fail(p);
      const std::int32_t path = pathIndexOf(world_, f.path());
      if (path < 0) return fail({"follow_path.path", "no path \"" + f.path() + "\""});
      const Path& found = world_.geometry().paths[static_cast<std::size_t>(path)];
      if (found.points.empty()) return fail({"follow_path.path", "has no points"});
      Directive d;
      d.kind = DirectiveKind::kPath;
      d.path = path;
      d.point = found.points.back();
      d.radius = std::max(kDefaultArrivalRadius, archetypeOf(f.agent()).pathSeekDistance);
      d.releaseOnArrival = f.release_on_arrival();
      setGoal(f.agent(), d);
      break;
    }
    case Command::kFollow:
    case Command::kGuard: {
      const bool follow = c.kind_case() == Command::kFollow;
      const std::string name = follow ? "follow" : "guard";
      const AgentId id = follow ? c.follow().agent() : c.guard().agent();
      const AgentId target = follow ? c.follow().target() : c.guard().target();
      if (Problem p = agentProblem(name + ".agent", id)) return fail(p);
      if (Problem p = agentProblem(name + ".target", target, true)) return fail(p);
      if (target == id) return fail({name + ".target", "an agent cannot " + name + " itself"});
      Directive d;
      d.kind = follow ? DirectiveKind::kFollow : DirectiveKind::kGuard;
      d.target = target;
      if (follow) {
        d.offset = c.follow().has_offset() ? vecOf(c.follow().offset()) : kDefaultFollowOffset;
        if (!finite(d.offset.x) || !finite(d.offset.y)) return fail({"follow.offset", "not finite"});
      } else {
        if (Problem p = radiusProblem("guard.radius", c.guard().radius())) return fail(p);
        d.radius = c.guard().radius() > 0.0f ? c.guard().radius() : kDefaultGuardRadius;
      }
      setGoal(id, d);
      break;
    }
    case Command::kStop: {
      const AgentId id = c.stop().agent();
      if (Problem p = agentProblem("stop.agent", id)) return fail(p);
      Directive d;
      d.kind = DirectiveKind::kStop;
      const std::uint32_t s = world_.slotOf(id);
      d.point = {world_.agents().px[s], world_.agents().py[s]};
      setGoal(id, d);
      break;
    }
    case Command::kRelease: {
      const AgentId id = c.release().agent();
      if (Problem p = agentProblem("release.agent", id)) return fail(p);
      setGoal(id, Directive{});
      break;
    }
    case Command::kSetState: {
      const SetState& s = c.set_state();
      if (Problem p = agentProblem("set_state.agent", s.agent())) return fail(p);
      const Archetype& a = archetypeOf(s.agent());
      if (!a.brain) return fail({"set_state.agent", a.name + " has no brain"});
      const std::int32_t state = stateIndexOf(*a.brain, s.state());
      if (state < 0)
        return fail({"set_state.state", "no state \"" + s.state() + "\" in " + a.name + "'s brain"});
      const std::uint8_t before = world_.agents().memory(world_.slotOf(s.agent())).brainState;
      world_.setBrainState(s.agent(), state);
      r.set_agent(s.agent());
      const std::uint8_t now = world_.agents().memory(world_.slotOf(s.agent())).brainState;
      seenOf(s.agent()).state = now;
      if (now != before && anyWants(EVENT_STATE_CHANGED)) {
        Event e = eventAbout(EVENT_STATE_CHANGED, s.agent());
        e.set_from(brain::statePath(*a.brain, before));
        e.set_to(brain::statePath(*a.brain, now));
        emit(e);
      }
      break;
    }
    case Command::kSetStat: {
      const SetStat& s = c.set_stat();
      if (Problem p = agentProblem("set_stat.agent", s.agent())) return fail(p);
      const Archetype& a = archetypeOf(s.agent());
      if (!a.brain) return fail({"set_stat.agent", a.name + " has no brain"});
      const auto& stats = a.brain->stats;
      const auto st =
          std::find_if(stats.begin(), stats.end(), [&](const brain::Stat& x) { return x.name == s.stat(); });
      if (st == stats.end())
        return fail({"set_stat.stat", "no stat \"" + s.stat() + "\" in " + a.name + "'s brain"});
      if (!finite(s.value())) return fail({"set_stat.value", "not finite"});
      world_.setStat(s.agent(), static_cast<std::size_t>(st - stats.begin()), s.value());
      r.set_agent(s.agent());
      break;
    }
    case Command::kSignal: {
      const Signal& s = c.signal();
      if (Problem p = agentProblem("signal.agent", s.agent(), true)) return fail(p);
      if (s.name().empty()) return fail({"signal.name", "empty"});
      const std::int32_t i = world_.markIndex(World::MarkKind::kSignal, s.name(), s.raised());
      if (i < 0 && s.raised())
        return fail({"signal.name",
                     "a world holds at most " + std::to_string(World::kMaxMarkNames) + " signal names"});
      if (i >= 0) world_.setMark(World::MarkKind::kSignal, s.agent(), i, s.raised());
      r.set_agent(s.agent());
      break;
    }
    case Command::kOrder: {
      const Order& o = c.order();
      if (Problem p = agentProblem("order.agent", o.agent())) return fail(p);
      if (Problem p = agentProblem("order.stray", o.stray())) return fail(p);
      if (o.stray() == o.agent()) return fail({"order.stray", "an agent cannot fetch itself"});
      const Archetype& holder = archetypeOf(o.agent());
      const ArchetypeIndex strayArchetype = world_.agents().archetype[world_.slotOf(o.stray())];
      std::int32_t group = strayArchetype;
      if (!o.group().empty()) {
        group = world_.archetypeIndex(o.group());
        if (group < 0) return fail({"order.group", "no archetype \"" + o.group() + "\""});
      }
      if (!finite(o.done_within()) || o.done_within() < 0.0f)
        return fail({"order.done_within", fmt(o.done_within()) + " must be finite and >= 0"});
      if (!finite(o.give_up_after_s()) || o.give_up_after_s() < 0.0f)
        return fail({"order.give_up_after_s", fmt(o.give_up_after_s()) + " must be finite and >= 0"});
      if (!actsOnOrdersFor(holder, strayArchetype)) {
        return fail({"order.agent", holder.name + "'s behaviours never act on an order to fetch a " +
                                        world_.archetypes()[strayArchetype].name +
                                        " (FETCH_STRAY with target: FETCH_ORDER)"});
      }
      world_.giveOrder(o.agent(), o.stray(), static_cast<ArchetypeIndex>(group),
                       o.done_within() > 0.0f ? o.done_within() : kDefaultOrderDoneWithin,
                       o.give_up_after_s());
      r.set_agent(o.agent());
      break;
    }
    case Command::kQuery: {
      const auto info = query(c.query().agent());
      if (!info) return fail({"query.agent", "no live agent " + std::to_string(c.query().agent())});
      *r.mutable_info() = *info;
      r.set_agent(c.query().agent());
      break;
    }
    case Command::kSubscribe: {
      const std::string error = subscribe(from, c.subscribe());
      if (!error.empty()) {
        const auto colon = error.find(": ");
        return fail({error.substr(0, colon), colon == std::string::npos ? error : error.substr(colon + 2)});
      }
      break;
    }
    case Command::KIND_NOT_SET:
      return fail({"command", "no command in it (an unknown kind from a newer client?)"});
  }
  ++applied_;
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

// Builders.

Command spawnAt(const std::string& archetype, float x, float y) {
  Command c;
  c.mutable_spawn()->set_archetype(archetype);
  setPoint(c.mutable_spawn()->mutable_position(), {x, y});
  return c;
}
Command despawnAgent(AgentId agent) {
  Command c;
  c.mutable_despawn()->set_agent(agent);
  return c;
}
Command moveTo(AgentId agent, float x, float y, float radius, bool releaseOnArrival) {
  Command c;
  MoveTo* m = c.mutable_move_to();
  m->set_agent(agent);
  setPoint(m->mutable_position(), {x, y});
  m->set_radius(radius);
  m->set_release_on_arrival(releaseOnArrival);
  return c;
}
Command followAgent(AgentId agent, AgentId target) {
  Command c;
  c.mutable_follow()->set_agent(agent);
  c.mutable_follow()->set_target(target);
  return c;
}
Command guardAgent(AgentId agent, AgentId target, float radius) {
  Command c;
  c.mutable_guard()->set_agent(agent);
  c.mutable_guard()->set_target(target);
  c.mutable_guard()->set_radius(radius);
  return c;
}
Command stopAgent(AgentId agent) {
  Command c;
  c.mutable_stop()->set_agent(agent);
  return c;
}
Command releaseAgent(AgentId agent) {
  Command c;
  c.mutable_release()->set_agent(agent);
  return c;
}
Command setBrainState(AgentId agent, const std::string& state) {
  Command c;
  c.mutable_set_state()->set_agent(agent);
  c.mutable_set_state()->set_state(state);
  return c;
}
Command setStat(AgentId agent, const std::string& stat, float value) {
  Command c;
  c.mutable_set_stat()->set_agent(agent);
  c.mutable_set_stat()->set_stat(stat);
  c.mutable_set_stat()->set_value(value);
  return c;
}
Command raiseSignal(AgentId agent, const std::string& name, bool raised) {
  Command c;
  c.mutable_signal()->set_agent(agent);
  c.mutable_signal()->set_name(name);
  c.mutable_signal()->set_raised(raised);
  return c;
}
Command orderFetch(AgentId agent, AgentId stray, const std::string& group) {
  Command c;
  c.mutable_order()->set_agent(agent);
  c.mutable_order()->set_stray(stray);
  c.mutable_order()->set_group(group);
  return c;
}
Command queryAgent(AgentId agent) {
  Command c;
  c.mutable_query()->set_agent(agent);
  return c;
}

}  // namespace steerd::control
