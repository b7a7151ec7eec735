#include "world/world.h"

#include <algorithm>
#include <stdexcept>

#include <xxhash.h>

#include "world/agent_update.h"

namespace steerd {

World::World(StaticGeometry geometry, std::vector<Archetype> archetypes, WorldConfig config)
    : geometry_(std::move(geometry)),
      archetypes_(std::move(archetypes)),
      config_(config),
      pool_(std::make_unique<ThreadPool>(std::max(1u, config.threads))) {
  if (archetypes_.empty()) throw std::invalid_argument("a world needs at least one archetype");
  prepareArchetypes();
}

void World::prepareArchetypes() {
  float cell = 1.0f;
  float reach = 1.0f;
  runtime_.clear();
  for (auto& a : archetypes_) {
    std::stable_sort(a.behaviours.begin(), a.behaviours.end(),
                     [](const BehaviourSpec& x, const BehaviourSpec& y) { return x.priority < y.priority; });
    // The neighbour scan looks at the cells around an agent, so a cell must be at least the widest
    // radius asked for (and wide enough for two touching bodies).
    cell = std::max({cell, a.flock.radius, 2.0f * a.limits.radius});
    // An obstacle bucket must hold every obstacle an agent of the cell may see (detection box,
    // feelers) or touch after this tick's move.
    reach = std::max({reach, 2.0f * a.obstacleMinDetectionLength + a.limits.radius, a.wallFeelerLength,
                      a.limits.radius + a.limits.maxSpeed * config_.dt + 1.0f});
    runtime_.push_back(prepareArchetype(a, config_.dt));
  }
  grid_.configure(geometry_.bounds, cell);
  geometry_.index(16.0f, reach);
}

std::string World::replaceArchetypes(std::vector<Archetype> archetypes) {
  if (archetypes.size() != archetypes_.size()) {
    return "the new file has " + std::to_string(archetypes.size()) + " archetypes, the running world " +
           std::to_string(archetypes_.size()) + " (adding or removing archetypes needs a restart)";
  }
  for (std::size_t i = 0; i < archetypes.size(); ++i) {
    if (archetypes[i].name != archetypes_[i].name) {
      return "archetype " + std::to_string(i) + " is \"" + archetypes[i].name +
             "\", the running world has \"" + archetypes_[i].name +
             "\" (renaming or reordering archetypes needs a restart)";
    }
  }
  archetypes_ = std::move(archetypes);
  prepareArchetypes();
  // The radius column carries each agent's archetype radius into the neighbour scan.
  for (std::size_t s = 0; s < current_.size(); ++s)
    current_.radius[s] = archetypes_[current_.archetype[s]].limits.radius;
  return {};
}

World::~World() = default;

AgentId World::spawn(ArchetypeIndex archetype, steer::Vec2 position, steer::Vec2 velocity,
                     std::int32_t path) {
  if (archetype >= archetypes_.size()) throw std::out_of_range("unknown archetype index");
  const AgentId id = static_cast<AgentId>(current_.size());
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
  current_.memory[s] = AgentMemory{};
  current_.memory[s].wanderX = archetypes_[archetype].wander.radius;
  current_.memory[s].assignedPath = path;
  current_.id[s] = id;
  current_.archetype[s] = archetype;
  slotOfId_.resize(n);
  slotOfId_[id] = static_cast<std::uint32_t>(s);
  return id;
}

void World::step() {
  // Phase 1: counting sort of state[n] into cell order.
  grid_.rebuild(current_, sorted_, slotOfId_, [this](std::size_t count, const auto& body) {
    pool_->parallelFor(count, config_.chunkSize * 16, body);
  });
  // Phase 2: steer and integrate every agent from sorted_ (state[n]) into current_ (state[n+1]).
  const std::size_t n = sorted_.size();
  contactFlags_.resize(n);
  const StepContext ctx{sorted_,      grid_, geometry_,  archetypes_,          runtime_,
                        config_.seed, tick_, config_.dt, config_.boundsMargin, config_.quads};
  pool_->parallelFor(n, config_.chunkSize, [&](std::size_t begin, std::size_t end) {
    updateChunk(ctx, static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end), current_,
                contactFlags_.data());
  });
  counters_ = {};
  for (std::uint8_t f : contactFlags_) {
    counters_.obstacleContacts += (f & kContactObstacle) ? 1 : 0;
    counters_.boundsClamps += (f & kContactBounds) ? 1 : 0;
  }
  ++tick_;
}

std::uint64_t World::stateHash() const {
  // Exact bits of every field that carries into the next tick, in id order: a stronger promise
  // than a quantised hash, and what "bit-identical for any thread count" means.
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  XXH3_64bits_update(state, &tick_, sizeof tick_);
  const AgentColumns& a = current_;
  for (AgentId id = 0; id < a.size(); ++id) {
    const std::uint32_t s = slotOfId_[id];
    const float f[8] = {
        a.px[s], a.py[s], a.vx[s], a.vy[s], a.hx[s], a.hy[s], a.memory[s].wanderX, a.memory[s].wanderY};
    const std::int32_t i[3] = {a.memory[s].pathIndex, a.memory[s].targetId,
                               static_cast<std::int32_t>(a.archetype[s])};
    XXH3_64bits_update(state, f, sizeof f);
    XXH3_64bits_update(state, i, sizeof i);
  }
  const std::uint64_t h = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return h;
}

}  // namespace steerd
