// Every shipped scenario pinned to a stored state hash after kTicks, for 1, 2 and 4 threads (Box2D's
// way): a change of results nobody meant fails here even when every thread count agrees. A
// deliberate change (a formula, a tuning, a scenario edit) updates the constant in the same commit
// and says why in its body. A scenario added to scenarios/ without a hash here fails too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

#include "scenario/scenario_file.h"

namespace steerd {
namespace {

constexpr int kTicks = 90;  // 3 s at 30 Hz: past the start, short enough for every scenario
constexpr std::uint64_t kSeed = 1;

// Printed by a failing run as "name: hash"; copy from there when a change is meant.
const std::map<std::string, std::string>& storedHashes() {
  static const std::map<std::string, std::string> hashes = {
      {"castle-gate.txtpb", "bf50e65a2fad004f"},    {"market-cart.txtpb", "abb822562af42025"},
      {"context-race.txtpb", "d5cdaa1c26b35170"},   {"corridor.txtpb", "0b434e00f122df48"},
      {"crowd-crossing.txtpb", "65cc7d771737693a"}, {"default.txtpb", "b5169d16417ff223"},
      {"doorway.txtpb", "1d487aa3ea3207c9"},        {"escort.txtpb", "8f69b5e1f5c453f3"},
      {"fps-bots.txtpb", "c86e110db3474078"},       {"guards.txtpb", "3bae1682618001fa"},
      {"hide-and-seek.txtpb", "9771958def9284b3"},  {"level-building.txtpb", "f0c27e591430e56a"},
      {"level-town.txtpb", "63a18008036a5d45"},     {"level-yard.txtpb", "6e743e6700fc3765"},
      {"police.txtpb", "040937c2261f5ff7"},         {"ranch.txtpb", "1dcb840106422c9d"},
      {"sheepdog.txtpb", "ea30329bab3e48cc"},       {"turrets.txtpb", "7574ad2334a21108"},
      {"wildlife.txtpb", "bcba7c1ced0fc72b"},       {"yard.txtpb", "8dff22e5f656b0f2"},
  };
  return hashes;
}

std::string hex(std::uint64_t hash) {  // as steerd prints it
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

std::string hashOf(const std::string& name, unsigned threads) {
  ScenarioLoad load = loadScenarioFile(std::string(STEERD_SCENARIOS_DIR) + "/" + name,
                                       ScenarioOptions(kSeed, threads, 0), true);
  if (!load.errors.empty() || load.world == nullptr)
    return "error: " + (load.errors.empty() ? "" : load.errors[0]);
  for (int i = 0; i < kTicks; ++i) load.world->step();
  return hex(load.world->stateHash());
}

std::vector<std::string> shippedScenarios() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(STEERD_SCENARIOS_DIR))
    if (entry.is_regular_file() && entry.path().extension() == ".txtpb")
      names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(ShippedScenarioHashes, EveryShippedScenarioHasAStoredHash) {
  for (const std::string& name : shippedScenarios())
    EXPECT_TRUE(storedHashes().count(name) == 1)
        << name << " has no stored hash: " << name << ": " << hashOf(name, 1);
  EXPECT_GE(shippedScenarios().size(), 18u);
}

class ShippedScenarioHash : public testing::TestWithParam<std::string> {};

TEST_P(ShippedScenarioHash, SameStoredHashForOneTwoAndFourThreads) {
  const std::string& name = GetParam();
  const auto stored = storedHashes().find(name);
  ASSERT_NE(stored, storedHashes().end()) << name;
  for (unsigned threads : {1u, 2u, 4u})
    EXPECT_EQ(hashOf(name, threads), stored->second) << name << " with " << threads << " threads";
}

INSTANTIATE_TEST_SUITE_P(Shipped, ShippedScenarioHash, testing::ValuesIn(shippedScenarios()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           std::string n = info.param.substr(0, info.param.find('.'));
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

}  // namespace
}  // namespace steerd
