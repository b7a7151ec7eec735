// The debug stream's senses (DebugInfo.senses, the viewer's sensor overlay): a brain's sense
// reports its reach and cone, and each agent of its archetype inside them, nearest first, with
// whether a line of sight reaches it, as the brain's own `sees` judges; nothing outside the cone.
#include <gtest/gtest.h>

#include "../scenario/scenario_text.h"
#include "net/debug_info.h"

namespace steerd {
namespace {

using namespace steerd::testing;

TEST(DebugSenses, ReachConeAndLinesOfSight) {
  // A watcher at (20, 50) facing +x (at rest: the heading a spawn gets), eyes 30 m wide 90 degrees;
  // a wall across its line to one target.
  ScenarioLoad r = load(R"(
name: "senses"
bounds { min { x: 0 y: 0 } max { x: 100 y: 100 } }
walls { from { x: 30 y: 53 } to { x: 30 y: 57 } two_sided: true }
archetypes { name: "watcher" limits { radius: 0.5 mass: 1 max_speed: 0 max_force: 0 } }
archetypes { name: "mark" limits { radius: 0.5 mass: 1 max_speed: 0 max_force: 0 } }
brains {
  archetype: "watcher"
  initial_state: "look"
  senses { name: "eyes" archetype: "mark" range: 30 fov_deg: 90 }
  states { name: "look" }
}
spawns { archetype: "watcher" count: 1 min { x: 20 y: 50 } max { x: 20 y: 50 } }
spawns { archetype: "mark" count: 1 min { x: 35 y: 50 } max { x: 35 y: 50 } }
spawns { archetype: "mark" count: 1 min { x: 40 y: 60 } max { x: 40 y: 60 } }
spawns { archetype: "mark" count: 1 min { x: 20 y: 70 } max { x: 20 y: 70 } }
spawns { archetype: "mark" count: 1 min { x: 90 y: 50 } max { x: 90 y: 50 } }
)");
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  World& w = *r.world;
  w.step();
  const AgentId watcher = w.agents().id[0];
  const wire::DebugInfo d = net::debugInfoOf(w, watcher, {});
  ASSERT_EQ(d.senses_size(), 1);
  const wire::DebugSense& eyes = d.senses(0);
  EXPECT_EQ(eyes.name(), "eyes");
  EXPECT_FLOAT_EQ(eyes.range(), 30.0f);
  EXPECT_NEAR(eyes.fov_deg(), 90.0f, 0.01f);
  // (35, 50): 15 m straight ahead, seen. (40, 60): 22 m, 27 degrees off, behind the wall at x 30.
  // (20, 70): 90 degrees off, outside the cone. (90, 50): 70 m, out of reach.
  ASSERT_EQ(eyes.agent_id_size(), 2);
  EXPECT_FLOAT_EQ(eyes.agent_x(0), 35.0f);
  EXPECT_TRUE(eyes.visible(0));
  EXPECT_FLOAT_EQ(eyes.agent_x(1), 40.0f);
  EXPECT_FALSE(eyes.visible(1));
  // An archetype without a brain has no senses.
  EXPECT_EQ(net::debugInfoOf(w, w.agents().id[1], {}).senses_size(), 0);
}

}  // namespace
}  // namespace steerd
