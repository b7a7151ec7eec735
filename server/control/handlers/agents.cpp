// Spawn and Despawn.
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "control/handlers/checks.h"
#include "control/handlers/handlers.h"
#include "control/points.h"

namespace steerd::control {

namespace {

using steer::Vec2;

// A spawn's fields, checked and resolved against the world.
struct SpawnPlan {
  ArchetypeIndex archetype = 0;
  Vec2 velocity{};
  Vec2 heading{};           // when the command has one
  std::int32_t path = -1;   // -1: none
  std::int32_t state = -1;  // -1: the brain's initial state
};

// (World& only because markIndex is not const; with add false it changes nothing.)
Problem checkTags(World& world, const Spawn& s) {
  // New tag names are counted before any is registered: a refused spawn leaves none behind.
  std::vector<std::string> newTags;
  for (int i = 0; i < s.tags_size(); ++i) {
    if (world.markIndex(World::MarkKind::kTag, s.tags(i), false) >= 0) continue;
    if (std::find(newTags.begin(), newTags.end(), s.tags(i)) != newTags.end()) continue;
    newTags.push_back(s.tags(i));
    if (world.markNames(World::MarkKind::kTag).size() + newTags.size() > World::kMaxMarkNames)
      return {"spawn.tags[" + std::to_string(i) + "]",
              "a world holds at most " + std::to_string(World::kMaxMarkNames) + " tag names"};
  }
  return {};
}

Problem checkSpawn(World& world, const ControllerConfig& config, const Spawn& s, SpawnPlan& plan) {
  const std::int32_t a = world.archetypeIndex(s.archetype());
  if (a < 0) return {"spawn.archetype", "no archetype \"" + s.archetype() + "\""};
  plan.archetype = static_cast<ArchetypeIndex>(a);
  const Archetype& arch = world.archetypes()[static_cast<std::size_t>(a)];
  if (arch.name == kPlayerArchetypeName)
    return {"spawn.archetype", "player bodies come with player connections"};
  if (world.agentCount() >= config.maxAgents)
    return {"spawn", "the world holds its cap of " + std::to_string(config.maxAgents) + " agents"};
  if (!s.has_position()) return {"spawn.position", "missing"};
  if (Problem p = checkPlace(world, "spawn.position", s.position(), arch.limits.radius)) return p;
  plan.velocity = vecOf(s.velocity());
  if (!finite(plan.velocity.x) || !finite(plan.velocity.y)) return {"spawn.velocity", "not finite"};
  if (steer::length(plan.velocity) > arch.limits.maxSpeed * 1.0001f)
    return {"spawn.velocity", "faster than " + arch.name + "'s max speed " + fmt(arch.limits.maxSpeed)};
  if (s.has_heading()) {
    plan.heading = vecOf(s.heading());
    if (!finite(plan.heading.x) || !finite(plan.heading.y) || steer::lengthSq(plan.heading) <= 0.0f)
      return {"spawn.heading", "must be a finite, non-zero direction"};
  }
  plan.path = s.path().empty() ? -1 : pathIndexOf(world, s.path());
  if (!s.path().empty() && plan.path < 0) return {"spawn.path", "no path \"" + s.path() + "\""};
  if (!s.brain_state().empty()) {
    if (!arch.brain) return {"spawn.brain_state", arch.name + " has no brain"};
    plan.state = stateIndexOf(*arch.brain, s.brain_state());
    if (plan.state < 0)
      return {"spawn.brain_state", "no state \"" + s.brain_state() + "\" in " + arch.name + "'s brain"};
  }
  return checkTags(world, s);
}

}  // namespace

CommandResult handleSpawn(ControlContext& context, const Spawn& s) {
  World& world = context.world();
  SpawnPlan plan;
  if (Problem p = checkSpawn(world, context.config(), s, plan)) return failed(p);
  // Everything checked: now it happens, all of it. The world refuses only when every agent index
  // is taken (those of agents gone in the last 64 ticks wait), before changing anything.
  AgentId id = 0;
  try {
    id = world.spawn(plan.archetype, vecOf(s.position()), plan.velocity, plan.path);
  } catch (const std::length_error&) {
    return failed({"spawn", "every agent index is taken (those of agents gone in the last " +
                                std::to_string(World::kIndexReuseDelayTicks) + " ticks wait)"});
  }
  std::vector<std::int32_t> tags;
  for (int i = 0; i < s.tags_size(); ++i)
    tags.push_back(world.markIndex(World::MarkKind::kTag, s.tags(i), true));
  if (s.has_heading()) world.setHeading(id, plan.heading);
  if (plan.state >= 0) world.setBrainState(id, plan.state);
  for (const std::int32_t t : tags) world.setMark(World::MarkKind::kTag, id, t, true);
  context.noteSpawned(id);
  return succeeded(id);
}

CommandResult handleDespawn(ControlContext& context, const Despawn& d) {
  World& world = context.world();
  const AgentId id = d.agent();
  if (Problem p = checkAgent(world, "despawn.agent", id)) return failed(p);
  const std::string archetype = archetypeOf(world, id).name;
  world.despawn(id);
  context.noteDespawned(id, archetype);
  return succeeded(id);
}

}  // namespace steerd::control
