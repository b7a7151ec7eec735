#include "world/groups.h"

#include <cmath>

namespace steerd {

Groups measureGroups(const AgentColumns& sorted, std::size_t archetypes,
                     const std::vector<StrayPair>& pairs) {
  Groups g;
  g.centroid.assign(archetypes, {});
  g.velocity.assign(archetypes, {});
  g.count.assign(archetypes, 0);
  g.leaderSlot.assign(archetypes, -1);
  std::vector<double> sx(archetypes, 0.0), sy(archetypes, 0.0), svx(archetypes, 0.0), svy(archetypes, 0.0);
  for (std::size_t s = 0; s < sorted.size(); ++s) {
    const ArchetypeIndex a = sorted.archetype[s];
    sx[a] += sorted.px[s];
    sy[a] += sorted.py[s];
    svx[a] += sorted.vx[s];
    svy[a] += sorted.vy[s];
    ++g.count[a];
    const std::int32_t leader = g.leaderSlot[a];
    if (leader < 0 || sorted.id[s] < sorted.id[static_cast<std::size_t>(leader)])
      g.leaderSlot[a] = static_cast<std::int32_t>(s);
  }
  for (std::size_t a = 0; a < archetypes; ++a) {
    if (g.count[a] > 0) {
      g.centroid[a] = {static_cast<float>(sx[a] / g.count[a]), static_cast<float>(sy[a] / g.count[a])};
      g.velocity[a] = {static_cast<float>(svx[a] / g.count[a]), static_cast<float>(svy[a] / g.count[a])};
    }
  }
  g.pairs = pairs;
  g.straySlot.assign(pairs.size(), -1);
  g.strayDistance.assign(pairs.size(), 0.0f);
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    if (g.count[pairs[p].group] == 0) continue;
    const steer::Vec2 c = g.centroid[pairs[p].group];
    for (std::size_t s = 0; s < sorted.size(); ++s) {
      if (sorted.archetype[s] != pairs[p].member) continue;
      const float d = std::hypot(sorted.px[s] - c.x, sorted.py[s] - c.y);
      // Ties go to the lower id, so the choice does not depend on slot order.
      const std::int32_t best = g.straySlot[p];
      if (best < 0 || d > g.strayDistance[p] ||
          (d == g.strayDistance[p] && sorted.id[s] < sorted.id[static_cast<std::size_t>(best)])) {
        g.straySlot[p] = static_cast<std::int32_t>(s);
        g.strayDistance[p] = d;
      }
    }
  }
  return g;
}

void behaviourStrayPairs(const std::vector<BehaviourSpec>& behaviours, std::vector<StrayPair>& pairs) {
  for (const BehaviourSpec& b : behaviours) {
    StrayPair p{b.targetArchetype, b.secondArchetype};
    if (b.target == TargetKind::kGroupLeader || b.target == TargetKind::kGroupCentroid) {
      p = {b.targetArchetype, b.targetArchetype};
    } else if (!behaviourRow(b.kind).has(kTraitHerds) || b.target != TargetKind::kNearest) {
      continue;
    }
    if (std::find(pairs.begin(), pairs.end(), p) == pairs.end()) pairs.push_back(p);
  }
}

}  // namespace steerd
