#include "world/world.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "world/agent_update.h"
#include "world/contact_projection.h"

namespace steerd {

namespace {

std::vector<Archetype> withPlayerArchetype(std::vector<Archetype> archetypes) {
  for (const auto& a : archetypes) {
    if (a.name == kPlayerArchetypeName) return archetypes;
  }
  archetypes.push_back(playerArchetype());
  return archetypes;
}

}  // namespace

World::World(StaticGeometry geometry, std::vector<Archetype> archetypes, WorldConfig config)
    : geometry_(std::move(geometry)),
      archetypes_(withPlayerArchetype(std::move(archetypes))),
      config_(config),
      pool_(std::make_unique<ThreadPool>(std::max(1u, config.threads))) {
  if (geometry_.navMesh) navigation_ = std::make_unique<Navigation>(geometry_.navMesh, config_.planner);
  changes_.baseObstacles = geometry_.obstacles;
  changes_.baseWalls = geometry_.walls;
  changes_.doors = geometry_.doors;
  changes_.doorFigures.resize(changes_.doors.size());
  for (std::uint32_t i = 0; i < changes_.doors.size(); ++i) {
    if (changes_.doors[i].open) continue;
    if (geometry_.navMesh) geometry_.navMesh->setAreaPassable(changes_.doors[i].area, false);
    changes_.doorsClosed.push_back(i);
    changes_.shapesChanged = changes_.wallsChanged = true;
  }
  current_.memoryStore = sorted_.memoryStore = &memory_;
  prepareArchetypes();
}

void World::prepareArchetypes() {
  float cell = 1.0f;
  float reach = 1.0f;
  runtime_.clear();
  actions_.prepare(archetypes_);
  anyNavigate_ = false;
  strayPairs_.clear();
  const auto byPriority = [](const BehaviourSpec& x, const BehaviourSpec& y) {
    return x.priority < y.priority;
  };
  for (auto& a : archetypes_) {
    std::stable_sort(a.behaviours.begin(), a.behaviours.end(), byPriority);
    for (auto& set : a.stateBehaviours) std::stable_sort(set.begin(), set.end(), byPriority);
    a.faces = facesByItself(a);
    a.lodFocus = a.lodFocus || a.name == kPlayerArchetypeName;
    if (a.brain) strayPairsOf(*a.brain, strayPairs_);
    behaviourStrayPairs(a.behaviours, strayPairs_);
    for (const auto& set : a.stateBehaviours) behaviourStrayPairs(set, strayPairs_);
    anyNavigate_ = anyNavigate_ || Navigation::navigateSpec(a.behaviours) != nullptr;
    for (const auto& set : a.stateBehaviours)
      anyNavigate_ = anyNavigate_ || Navigation::navigateSpec(set) != nullptr;
    // The neighbour scan looks at the cells around an agent, so a cell must be at least the widest
    // radius asked for (and wide enough for two touching bodies).
    cell = std::max({cell, a.flock.radius, 2.0f * a.limits.radius});
    // An obstacle bucket must hold every obstacle an agent of the cell may see (detection box,
    // feelers) or touch after this tick's move.
    // With level of detail a far agent moves up to 2^3 ticks' worth in one step.
    const float longestStep = config_.dt * (config_.lod ? static_cast<float>(1u << (kLodLevels - 1)) : 1.0f);
    reach = std::max({reach, 2.0f * a.obstacleMinDetectionLength + a.limits.radius, a.wallFeelerLength,
                      a.limits.radius + a.limits.maxSpeed * longestStep + 1.0f});
    runtime_.push_back(prepareArchetype(a, config_.dt));
    runtime_.back().signalBit.fill(-1);
    if (a.brain) {
      for (std::size_t i = 0; i < a.brain->signals.size() && i < runtime_.back().signalBit.size(); ++i)
        runtime_.back().signalBit[i] =
            static_cast<std::int8_t>(actions_.markIndex(MarkKind::kSignal, a.brain->signals[i], true));
    }
  }
  for (std::size_t level = 1; level < kLodLevels; ++level) {
    lodRuntime_[level].clear();
    for (std::size_t i = 0; i < archetypes_.size(); ++i) {
      lodRuntime_[level].push_back(
          prepareArchetype(archetypes_[i], config_.dt * static_cast<float>(1u << level)));
      lodRuntime_[level].back().signalBit = runtime_[i].signalBit;
    }
  }
  actions_.addOrderPairs(strayPairs_);
  population_.resize(archetypes_.size(), 0);
  // K-average heading smoothing keeps each agent's last headings, by index, once any archetype
  // asks for it (after a live reload that asks for it first, every history starts empty).
  averagesHeadings_ =
      averagesHeadings_ || std::any_of(archetypes_.begin(), archetypes_.end(),
                                       [](const Archetype& a) { return a.headingSamples > 0; });
  if (averagesHeadings_) headingHistory_.resize(slotOfId_.size());
  grid_.configure(geometry_.bounds, cell);
  // Small buckets: an agent's avoidance and contacts loop over every shape in its bucket, so
  // 4 m buckets (padded by the 5.5 m reach) rather than 16 m took crowd-crossing from 3.9 to
  // 2.7 ms a tick on one thread, with identical results (docs/PERFORMANCE.md).
  changes_.reach = reach;
  geometry_.index(4.0f, reach);
}

void World::setLevelOfDetail(bool on) {
  if (config_.lod == on) return;
  config_.lod = on;
  prepareArchetypes();
}

std::string World::replaceArchetypes(std::vector<Archetype> archetypes) {
  archetypes = withPlayerArchetype(std::move(archetypes));
  if (archetypes.size() < archetypes_.size()) {
    return "the new file has " + std::to_string(archetypes.size()) + " archetypes, the running world " +
           std::to_string(archetypes_.size()) + " (removing archetypes needs a restart)";
  }
  // The running archetypes keep their numbers (agents, snapshots and clients use them): new ones
  // may only come after all of them. A file without its own "player" has it appended last, so
  // it must define one before its new archetypes.
  for (std::size_t i = 0; i < archetypes_.size(); ++i) {
    if (archetypes[i].name != archetypes_[i].name) {
      std::string why = "archetype " + std::to_string(i) + " is \"" + archetypes[i].name +
                        "\", the running world has \"" + archetypes_[i].name + "\" (";
      why += archetypes.size() > archetypes_.size() && archetypes_[i].name == kPlayerArchetypeName
                 ? "new archetypes go after the running ones: define \"player\" in the file before them"
                 : "renaming or reordering archetypes needs a restart; new ones go at the end";
      return why + ")";
    }
  }
  archetypes_ = std::move(archetypes);
  prepareArchetypes();  // sizes population_ for any new archetypes (their count starts at 0)
  refreshFocus();
  // A reloaded brain may have fewer states: agents in a state that no longer exists restart.
  for (std::size_t s = 0; s < current_.size(); ++s) {
    const Archetype& a = archetypes_[current_.archetype[s]];
    AgentMemory& m = current_.memory(s);
    if (!a.brain) {
      m.brainState = 0;
    } else if (m.brainState >= a.brain->states.size()) {
      startBrain(*a.brain, tick_, m, actions_.brainMemory(agentIndex(current_.id[s])));
    }
  }
  // The radius column carries each agent's archetype radius into the neighbour scan.
  for (std::size_t s = 0; s < current_.size(); ++s)
    current_.radius[s] = archetypes_[current_.archetype[s]].limits.radius;
  return {};
}

World::~World() = default;

AgentId World::spawn(ArchetypeIndex archetype, steer::Vec2 position, steer::Vec2 velocity,
                     std::int32_t path) {
  if (archetype >= archetypes_.size()) throw std::out_of_range("unknown archetype index");
  if (path < -1 || path > std::numeric_limits<std::int16_t>::max()) throw std::out_of_range("path index");
  // The oldest departed index whose delay is over, else a new one.
  std::uint32_t index = 0;
  if (!freeIndices_.empty() && freeIndices_.front().second + kIndexReuseDelayTicks <= tick_) {
    index = freeIndices_.front().first;
    freeIndices_.pop_front();
  } else {
    if (slotOfId_.size() >= kMaxAgentIndices)
      throw std::length_error("the world holds at most " + std::to_string(kMaxAgentIndices) + " agents");
    index = static_cast<std::uint32_t>(slotOfId_.size());
    slotOfId_.push_back(kNoSlot);
    generation_.push_back(0);
    actions_.grow(slotOfId_.size());
    if (averagesHeadings_) headingHistory_.resize(slotOfId_.size());
  }
  const AgentId id = agentIdOf(index, generation_[index]);
  const std::size_t n = current_.size() + 1;
  current_.resize(n);
  const std::size_t s = n - 1;
  const steer::Vec2 heading = steer::normalizedOr(velocity, {1.0f, 0.0f});
  current_.px[s] = position.x;
  current_.py[s] = position.y;
  current_.vx[s] = velocity.x;
  current_.vy[s] = velocity.y;
  current_.hx[s] = heading.x;
  current_.hy[s] = heading.y;
  current_.radius[s] = archetypes_[archetype].limits.radius;
  current_.home[s] = static_cast<std::uint32_t>(memory_.size());
  memory_.emplace_back();
  memory_.back().wanderX = archetypes_[archetype].wander.radius;
  memory_.back().assignedPath = static_cast<std::int16_t>(path);
  current_.id[s] = id;
  current_.archetype[s] = archetype;
  slotOfId_[index] = static_cast<std::uint32_t>(s);
  ++population_[archetype];
  actions_.onSpawn(index);
  if (index < headingHistory_.size()) headingHistory_[index] = HeadingHistory{};
  if (archetypes_[archetype].brain)
    startBrain(*archetypes_[archetype].brain, tick_, memory_.back(), actions_.brainMemory(index));
  if (archetypes_[archetype].lodFocus) focusIds_.push_back(id);
  return id;
}

AgentId World::spawnExternal(ArchetypeIndex archetype, steer::Vec2 position) {
  const AgentId id = spawn(archetype, position);
  current_.memory(slotOf(id)).flags |= kAgentExternal;
  ++externalCount_;
  if (!archetypes_[archetype].lodFocus) focusIds_.push_back(id);
  return id;
}

void World::setExternalState(AgentId id, steer::Vec2 position, steer::Vec2 velocity) {
  if (!isAlive(id)) throw std::out_of_range("unknown agent id");
  const std::uint32_t s = slotOf(id);
  current_.px[s] = position.x;
  current_.py[s] = position.y;
  current_.vx[s] = velocity.x;
  current_.vy[s] = velocity.y;
  const steer::Vec2 heading = steer::normalizedOr(velocity, {current_.hx[s], current_.hy[s]});
  current_.hx[s] = heading.x;
  current_.hy[s] = heading.y;
}

void World::despawn(AgentId id) {
  if (!isAlive(id)) throw std::out_of_range("unknown agent id");
  const std::uint32_t index = agentIndex(id);
  const std::uint32_t s = slotOfId_[index];
  const std::uint32_t last = static_cast<std::uint32_t>(current_.size() - 1);
  if (current_.memory(s).flags & kAgentExternal) --externalCount_;
  --population_[current_.archetype[s]];
  if (s != last) {
    AgentColumns::zipColumns(current_, current_, [&](auto& a, auto&) { a[s] = a[last]; });
    slotOfId_[agentIndex(current_.id[s])] = s;
  }
  current_.resize(last);
  slotOfId_[index] = kNoSlot;
  generation_[index] = static_cast<std::uint16_t>((generation_[index] + 1) & kAgentGenerationMask);
  freeIndices_.emplace_back(index, tick_);
  if (navigation_) navigation_->forget(index);
  actions_.onDespawn(index);
  std::erase(focusIds_, id);
}

// The focus list from scratch (after a live reload may have changed which archetypes are one).
void World::refreshFocus() {
  focusIds_.clear();
  for (std::uint32_t index = 0; index < slotOfId_.size(); ++index) {
    const std::uint32_t s = slotOfId_[index];
    if (s == kNoSlot) continue;
    if (isLodFocus(archetypes_[current_.archetype[s]], current_.memory(s)))
      focusIds_.push_back(current_.id[s]);
  }
}

void World::setDirective(AgentId id, Directive d) {
  if (!isAlive(id)) throw std::out_of_range("unknown agent id");
  AgentMemory& m = current_.memory(slotOf(id));
  // A goal on the navmesh walks it like the archetype's own NAVIGATE (its arrival range and all).
  const Archetype& a = archetypes_[current_.archetype[slotOf(id)]];
  const BehaviourSpec* navigates = Navigation::navigateSpec(a.behaviours);
  for (std::size_t s = 0; navigates == nullptr && s < a.stateBehaviours.size(); ++s)
    navigates = Navigation::navigateSpec(a.stateBehaviours[s]);
  d.goal = directiveGoalSpec(d, navigation_ ? navigates : nullptr);
  d.arrived = false;
  actions_.setDirective(agentIndex(id), slotOfId_.size(), d);
  if (d.kind != DirectiveKind::kNone) {
    m.flags |= kAgentDirected;
  } else {
    m.flags &= static_cast<std::uint8_t>(~kAgentDirected);
  }
  m.pathIndex = -1;  // a path (the goal's, or its own again) starts at its nearest waypoint
  if (navigation_) navigation_->forget(agentIndex(id));
}

void World::noteArrived(AgentId id) {
  if (isAlive(id)) actions_.noteArrived(agentIndex(id));
}

const Directive& World::directiveOf(AgentId id) const {
  static const Directive kNone{};
  return isAlive(id) ? actions_.directive(agentIndex(id)) : kNone;
}

void World::setHeading(AgentId id, steer::Vec2 heading) {
  if (!isAlive(id)) throw std::out_of_range("unknown agent id");
  const steer::Vec2 h = steer::normalizedOr(heading, {current_.hx[slotOf(id)], current_.hy[slotOf(id)]});
  current_.hx[slotOf(id)] = h.x;
  current_.hy[slotOf(id)] = h.y;
}

void World::setBrainState(AgentId id, std::int32_t state) {
  if (!isAlive(id)) throw std::out_of_range("unknown agent id");
  const std::uint32_t s = slotOf(id);
  const Archetype& a = archetypes_[current_.archetype[s]];
  if (!a.brain || state < 0 || static_cast<std::size_t>(state) >= a.brain->states.size())
    throw std::out_of_range("no such brain state");
  current_.memory(s).brainState = static_cast<std::uint8_t>(a.brain->enterLeaf(state));
  current_.memory(s).pathIndex = -1;
  actions_.brainMemory(agentIndex(id)).enteredTick = tick_;
}

void World::setStat(AgentId id, std::size_t stat, float value) {
  if (!isAlive(id)) throw std::out_of_range("unknown agent id");
  const Archetype& a = archetypes_[current_.archetype[slotOf(id)]];
  if (!a.brain || stat >= a.brain->stats.size()) throw std::out_of_range("no such stat");
  const brain::Stat& st = a.brain->stats[stat];
  actions_.brainMemory(agentIndex(id)).stats[stat] = std::clamp(value, st.min, st.max);
}

std::uint32_t World::marksOf(MarkKind kind, AgentId id) const {
  return isAlive(id) ? actions_.marks(kind, agentIndex(id)) : 0;
}

void World::setMark(MarkKind kind, AgentId id, std::int32_t index, bool on) {
  if (!isAlive(id)) throw std::out_of_range("unknown agent id");
  actions_.setMark(kind, agentIndex(id), slotOfId_.size(), index, on);
}

std::int32_t World::archetypeIndex(const std::string& name) const {
  for (std::size_t i = 0; i < archetypes_.size(); ++i) {
    if (archetypes_[i].name == name) return static_cast<std::int32_t>(i);
  }
  return -1;
}

// The tick, phase by phase, under the names docs/ARCHITECTURE.md ("The tick") gives them: each
// phase reads state[n] (sorted_) and what the phases before it worked out; only update and contacts
// write state[n+1] (current_).
void World::step() {
  changesPhase();
  sortPhase();
  StepContext ctx = stepContext();
  groupsPhase(ctx);
  detailPhase(ctx);
  thinkPhase(ctx);
  navigatePhase(ctx);
  updatePhase(ctx);
  contactsPhase(ctx);
  countPhase();
  ++tick_;
}

// sort: a counting sort of state[n] into cell order.
void World::sortPhase() {
  grid_.rebuild(current_, sorted_, slotOfId_, [this](std::size_t count, std::size_t chunk, const auto& body) {
    pool_->parallelFor(count, chunk, body);
  });
  // Now and then the memory store follows the sort (agent_columns.h); more often when departed
  // agents' records have come to fill half of it.
  if (tick_ % kMemoryRehomeTicks == 0 || memory_.size() > 2 * sorted_.size() + 1024) rehomeMemory();
}

// What every later phase reads: state[n] in cell order, the grid, and the tick's scratch.
StepContext World::stepContext() {
  const std::size_t n = sorted_.size();
  contactFlags_.resize(n);
  StepContext ctx = contextOf(sorted_, tick_);
  memoryBefore_.resize(n);
  ctx.memoryBefore = memoryBefore_.data();
  ctx.headingHistory = averagesHeadings_ ? headingHistory_.data() : nullptr;
  ctx.headingHistoryCount = headingHistory_.size();
  return ctx;
}

// groups: centroids, velocities, leaders and strays, when a behaviour or brain asks.
void World::groupsPhase(StepContext& ctx) {
  if (strayPairs_.empty()) return;
  groups_ = measureGroups(sorted_, archetypes_.size(), strayPairs_);
  ctx.groups = &groups_;
}

// detail: levels of detail from state[n], before thinking (far brains think less often too). The
// first tick runs at full rate: it settles the spawn (bodies placed inside obstacles or on each
// other), which a far agent would otherwise keep for up to 8 ticks.
void World::detailPhase(StepContext& ctx) {
  if (config_.lod && tick_ > 0) {
    focusXY_.clear();
    for (const AgentId id : focusIds_) {
      focusXY_.push_back(sorted_.px[slotOfId_[agentIndex(id)]]);
      focusXY_.push_back(sorted_.py[slotOfId_[agentIndex(id)]]);
    }
    // Over the grid's rows, 16 to a chunk (a row of a million-agent world holds about 800 agents).
    lod_.compute(sorted_, grid_, archetypes_, tick_, focusXY_,
                 [this](std::size_t rows, const auto& body) { pool_->parallelFor(rows, 16, body); });
    ctx.lodLevels = lod_.levels().data();
  }
  lastStepLod_ = ctx.lodLevels != nullptr;
}

// think: action selection (brains, fetch orders, action_selection.h).
void World::thinkPhase(StepContext& ctx) {
  actions_.think(ctx, slotOfId_, groups_, *pool_, config_.chunkSize);
}

// navigate: corners, arrivals and path requests (navigation.h), after thinking switched sets.
void World::navigatePhase(StepContext& ctx) {
  if (!navigation_ || !anyNavigate_) return;
  navigation_->update(ctx, slotOfId_, *pool_, config_.chunkSize);
  ctx.nav = navigation_->steering();
}

// update: steer and integrate every agent from sorted_ (state[n]) into current_ (state[n+1]).
void World::updatePhase(StepContext& ctx) {
  if (ctx.lodLevels != nullptr) {
    // A context per level of detail, its dt and runtime scaled (after thinking and navigation
    // completed this context).
    lodContexts_.clear();
    for (std::size_t level = 0; level < kLodLevels; ++level) {
      lodContexts_.push_back(ctx);
      if (level == 0) continue;
      lodContexts_.back().dt = config_.dt * static_cast<float>(1u << level);
      lodContexts_.back().runtime = lodRuntime_[level].data();
    }
    ctx.lodContexts = lodContexts_.data();
  }
  pool_->parallelFor(sorted_.size(), config_.chunkSize, [&](std::size_t begin, std::size_t end) {
    updateChunk(ctx, static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end), current_,
                contactFlags_.data());
  });
}

// contacts: bodies still overlapping are pushed apart (contact_projection.h).
void World::contactsPhase(const StepContext& ctx) {
  if (config_.contactPasses <= 0) return;
  projectContacts(ctx, config_.contactPasses, current_, contactX_, contactY_, *pool_, config_.chunkSize,
                  contactFlags_.data());
}

// count: the contact flags summed in parallel (0.6 ms a tick on one thread at a million agents):
// sums of integers, the same whatever order the chunks add up in.
void World::countPhase() {
  std::atomic<std::uint64_t> obstacleContacts{0}, boundsClamps{0};
  pool_->parallelFor(sorted_.size(), config_.chunkSize * 16, [&](std::size_t begin, std::size_t end) {
    std::uint64_t obstacle = 0, bounds = 0;
    for (std::size_t s = begin; s < end; ++s) {
      obstacle += (contactFlags_[s] & kContactObstacle) ? 1 : 0;
      bounds += (contactFlags_[s] & kContactBounds) ? 1 : 0;
    }
    obstacleContacts += obstacle;
    boundsClamps += bounds;
  });
  counters_ = {obstacleContacts.load(), boundsClamps.load()};
}

void World::giveOrder(AgentId holder, AgentId stray, ArchetypeIndex group, float doneWithin,
                      float giveUpAfterS) {
  if (!isAlive(holder) || !isAlive(stray)) throw std::out_of_range("unknown agent id");
  if (group >= archetypes_.size()) throw std::out_of_range("unknown archetype index");
  // Groups must be measured for the stray's archetype and its home (FETCH_STRAY reads both).
  const StrayPair pair{current_.archetype[slotOf(stray)], group};
  if (std::find(strayPairs_.begin(), strayPairs_.end(), pair) == strayPairs_.end())
    strayPairs_.push_back(pair);
  HeldOrder h;
  h.holder = holder;
  h.stray = stray;
  h.group = group;
  h.doneWithin = doneWithin;
  h.giver = holder;
  h.entry = kCommandOrderEntry;
  h.givenTick = tick_;
  h.giveUpTicks = giveUpAfterS > 0.0f ? static_cast<std::uint32_t>(std::ceil(giveUpAfterS / config_.dt)) : 0;
  actions_.giveOrder(h, pair);
}

StepContext World::contextOf(const AgentColumns& in, std::uint64_t tick) const {
  StepContext ctx{.in = in,
                  .grid = grid_,
                  .geometry = geometry_,
                  .archetypes = archetypes_,
                  .runtime = runtime_.data(),
                  .seed = config_.seed,
                  .tick = tick,
                  .dt = config_.dt,
                  .boundsMargin = config_.boundsMargin,
                  .quads = config_.quads,
                  .anyExternal = externalCount_ > 0,
                  .archetypePopulation = population_.data(),
                  .slotOfId = slotOfId_.data(),
                  .idCount = slotOfId_.size()};
  for (std::size_t i = 0; i < changes_.doors.size() && i < 32; ++i)
    ctx.doorsOpen |= changes_.doors[i].open ? 1u << i : 0u;
  actions_.describe(ctx);
  return ctx;
}

void World::rehomeMemory() {
  const std::size_t n = sorted_.size();
  memoryScratch_.resize(n);
  pool_->parallelFor(n, config_.chunkSize * 16, [this](std::size_t begin, std::size_t end) {
    for (std::size_t s = begin; s < end; ++s) {
      memoryScratch_[s] = memory_[sorted_.home[s]];
      sorted_.home[s] = static_cast<std::uint32_t>(s);
    }
  });
  memory_.swap(memoryScratch_);
}

const AgentMemory& World::memoryBeforeLastStep(std::uint32_t slot) const {
  // Carried over (a player's body, or a level of detail's turn skipped): its memory is as it was.
  const bool carried =
      (sorted_.memory(slot).flags & kAgentExternal) != 0 ||
      (lastStepLod_ && slot < lod_.levels().size() && (lod_.levels()[slot] & kLodWaits) != 0);
  return carried || slot >= memoryBefore_.size() ? sorted_.memory(slot) : memoryBefore_[slot];
}

StepContext World::lastStepContext() const {
  StepContext ctx = contextOf(sorted_, tick_ > 0 ? tick_ - 1 : 0);
  if (!strayPairs_.empty()) ctx.groups = &groups_;
  if (navigation_ && anyNavigate_) ctx.nav = navigation_->steering();
  return ctx;
}

}  // namespace steerd
