// Conditions that read other agents' brain states and signals (near/far { state signal },
// signal): a good file loads and wires the signal names into the world; each mistake is an error
// naming its field.
#include <gtest/gtest.h>

#include <algorithm>

#include "scenario_text.h"

namespace steerd {
namespace {

using testing::expectError;
using testing::load;
using testing::replacedIn;

const std::string kGood = R"(
name: "marked"
bounds { min { x: 0 y: 0 } max { x: 100 y: 100 } }
archetypes {
  name: "guard"
  limits { radius: 0.5 mass: 1 max_speed: 4 max_force: 10 max_turn_rate_deg: 360 }
  behaviours { kind: WANDER }
}
archetypes {
  name: "townsman"
  limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 10 max_turn_rate_deg: 360 }
  behaviours { kind: WANDER }
}
brains {
  archetype: "guard"
  initial_state: "patrol"
  states { name: "patrol" transitions { to: "chase" when { signal: "alarm" } } }
  states { name: "chase" transitions { to: "patrol" when { in_state_for: 5 } } }
}
brains {
  archetype: "townsman"
  initial_state: "calm"
  states {
    name: "calm"
    transitions { to: "run" when { near { archetype: "guard" metres: 10 state: "chase" } } }
    transitions { to: "run" when { near { archetype: "townsman" metres: 10 signal: "scream" } } }
  }
  states { name: "run" transitions { to: "calm" when { far { archetype: "guard" metres: 20 state: "chase" signal: "alarm" } } } }
}
spawns { archetype: "guard" count: 1 min { x: 10 y: 10 } max { x: 12 y: 12 } }
spawns { archetype: "townsman" count: 2 min { x: 20 y: 20 } max { x: 24 y: 24 } }
)";

TEST(MarkedConditionsFile, AGoodFileLoadsAndRegistersItsSignals) {
  const ScenarioLoad r = load(kGood);
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  ASSERT_NE(r.world, nullptr);
  const auto& names = r.world->markNames(World::MarkKind::kSignal);
  EXPECT_NE(std::find(names.begin(), names.end(), "alarm"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "scream"), names.end());
  EXPECT_EQ(names.size(), 2u);
}

TEST(MarkedConditionsFile, MistakesNameTheirField) {
  expectError(
      replacedIn(kGood, "state: \"chase\" } } }\n    transitions", "state: \"hunt\" } } }\n    transitions"),
      "near.state");
  const ScenarioLoad own =
      load(replacedIn(kGood, "archetype: \"townsman\" metres: 10 signal: \"scream\"",
                      "archetype: \"townsman\" metres: 10 state: \"calm\" signal: \"scream\""));
  EXPECT_TRUE(own.errors.empty()) << "a townsman's own archetype's states are fine";
  expectError(replacedIn(kGood, "when { signal: \"alarm\" }", "when { signal: \"\" }"), "signal: is empty");
  expectError(
      replacedIn(kGood,
                 "states { name: \"patrol\" transitions { to: \"chase\" when { signal: \"alarm\" } } }",
                 "states { name: \"patrol\" transitions { to: \"chase\" when { group_strays { archetype: "
                 "\"townsman\" metres: 5 state: \"calm\" } } } }"),
      "group_strays.state");
}

TEST(MarkedConditionsFile, AStateOfAnArchetypeWithoutABrainIsAnError) {
  std::string text =
      replacedIn(kGood, "brains {\n  archetype: \"guard\"", "brains {\n  archetype: \"townsman_unused\"");
  expectError(text, "has no brain");
}

}  // namespace
}  // namespace steerd
