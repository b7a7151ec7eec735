// The four-agent SIMD path mirrors the scalar update lane for lane: whole worlds stepped with it
// and without it must be bit-identical. If this fails, a formula in agent_update.cpp's quad
// namespace has drifted from its scalar counterpart (or from the steering library).
#include <gtest/gtest.h>

#include "load_scenario.h"

#include "world/scenarios.h"

namespace steerd {
namespace {

std::uint64_t hashWith(bool quads, std::string_view scenario, std::uint64_t seed, std::size_t agents,
                       int ticks) {
  auto base = loadScenario(std::string(scenario), {seed, 2, agents});
  WorldConfig config = base->config();
  config.quads = quads;
  World w(base->geometry(), base->archetypes(), config);
  const AgentColumns& a = base->agents();
  for (AgentId id = 0; id < a.size(); ++id) {
    const std::uint32_t s = base->slotOf(id);
    w.spawn(a.archetype[s], {a.px[s], a.py[s]}, {a.vx[s], a.vy[s]}, a.memory(s).assignedPath);
  }
  for (int i = 0; i < ticks; ++i) w.step();
  return w.stateHash();
}

TEST(QuadPath, CrowdIsBitIdenticalToTheScalarPath) {
  EXPECT_EQ(hashWith(true, "crowd", 1, 4000, 120), hashWith(false, "crowd", 1, 4000, 120));
}

TEST(QuadPath, DefaultMixIsBitIdenticalToTheScalarPath) {
  // Mixed archetypes: quads of one archetype take the SIMD path, the rest the scalar one.
  EXPECT_EQ(hashWith(true, "default", 5, 1400, 300), hashWith(false, "default", 5, 1400, 300));
}

}  // namespace
}  // namespace steerd
