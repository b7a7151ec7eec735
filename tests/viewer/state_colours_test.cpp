// The states overlay's colours: each agent listed gets its state's colour, a state name keeps its
// colour for the session (another update with the names in another order changes nothing), the
// key counts the agents in each, and a malformed list (lengths that disagree, an index past the
// names) colours nothing wrong.
#include <gtest/gtest.h>

#include "viewer/state_colours.h"

namespace steerd::viewer {
namespace {

wire::DebugStates states(std::initializer_list<const char*> names,
                         std::initializer_list<std::pair<std::uint32_t, std::uint32_t>> agents) {
  wire::DebugStates s;
  for (const char* n : names) s.add_names(n);
  for (auto [id, state] : agents) {
    s.add_agent_id(id);
    s.add_state(state);
  }
  return s;
}

TEST(StateColours, AgentsTakeTheirStatesColourAndANameKeepsIt) {
  StateColours c;
  EXPECT_FALSE(c.colourOf(1).has_value());
  const wire::DebugStates first = states({"patrol", "combat/chase"}, {{1, 0}, {2, 1}, {3, 0}});
  c.update(&first);
  ASSERT_TRUE(c.colourOf(1).has_value());
  EXPECT_EQ(*c.colourOf(1), *c.colourOf(3));
  EXPECT_NE(*c.colourOf(1), *c.colourOf(2));
  EXPECT_FALSE(c.colourOf(4).has_value());
  ASSERT_EQ(c.key().size(), 2u);
  EXPECT_EQ(c.key()[0].name, "patrol");
  EXPECT_EQ(c.key()[0].count, 2u);
  EXPECT_EQ(c.key()[1].count, 1u);
  const Rgba patrol = *c.colourOf(1), chase = *c.colourOf(2);
  // Later, other names first and agent 1 now chasing: the colours follow the names.
  const wire::DebugStates second = states({"flee", "combat/chase", "patrol"}, {{1, 1}, {5, 0}, {3, 2}});
  c.update(&second);
  EXPECT_EQ(*c.colourOf(1), chase);
  EXPECT_EQ(*c.colourOf(3), patrol);
  EXPECT_NE(*c.colourOf(5), patrol);
  EXPECT_NE(*c.colourOf(5), chase);
  EXPECT_FALSE(c.colourOf(2).has_value());  // not listed this time
  // Nothing: nothing coloured.
  c.update(nullptr);
  EXPECT_FALSE(c.colourOf(1).has_value());
  EXPECT_TRUE(c.key().empty());
}

TEST(StateColours, MalformedListsColourNothingWrong) {
  StateColours c;
  wire::DebugStates uneven = states({"a"}, {{1, 0}, {2, 0}});
  uneven.add_agent_id(3);  // an id without a state
  c.update(&uneven);
  EXPECT_FALSE(c.colourOf(1).has_value());
  const wire::DebugStates pastNames = states({"a"}, {{1, 0}, {2, 7}});
  c.update(&pastNames);
  EXPECT_TRUE(c.colourOf(1).has_value());
  EXPECT_FALSE(c.colourOf(2).has_value());
  EXPECT_EQ(c.key()[0].count, 1u);
}

}  // namespace
}  // namespace steerd::viewer
