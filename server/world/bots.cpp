#include "world/bots.h"

#include "steering/random.h"
#include "world/world.h"

namespace steerd {

std::string addBots(World& world, std::size_t count, std::uint64_t seed) {
  if (count == 0) return {};
  if (world.archetypeIndex(kBotArchetypeName) >= 0)
    return std::string("the scenario already has an archetype named \"") + kBotArchetypeName + "\"";
  std::vector<Archetype> archetypes = world.archetypes();
  Archetype bot = playerArchetype();
  bot.name = kBotArchetypeName;
  bot.limits.maxSpeed = 3.0f;  // a player walking about, not sprinting
  for (const BehaviourKind kind :
       {BehaviourKind::kWander, BehaviourKind::kObstacleAvoidance, BehaviourKind::kWallAvoidance}) {
    BehaviourSpec spec;
    spec.kind = kind;
    bot.behaviours.push_back(spec);
  }
  bot.lodFocus = true;
  archetypes.push_back(bot);
  if (std::string error = world.replaceArchetypes(std::move(archetypes)); !error.empty()) return error;
  const auto index = static_cast<ArchetypeIndex>(world.archetypeIndex(kBotArchetypeName));
  const Bounds& b = world.geometry().bounds;
  steer::Rng rng(seed ^ 0xb0750b0750b07ull);
  for (std::size_t i = 0; i < count; ++i) {
    const float x = b.minX + rng.uniform() * b.width();
    const float y = b.minY + rng.uniform() * b.height();
    world.spawn(index, {x, y});
  }
  return {};
}

}  // namespace steerd
