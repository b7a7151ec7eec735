// The world is a pure function of (seed, inputs): bit-identical for any thread count and chunking.
#include <gtest/gtest.h>

#include "load_scenario.h"

#include "world/scenarios.h"

namespace steerd {
namespace {

std::uint64_t hashAfter(std::string_view scenario, std::uint64_t seed, unsigned threads, int ticks,
                        std::size_t agents = 0) {
  auto world = loadScenario(std::string(scenario), {seed, threads, agents});
  for (int i = 0; i < ticks; ++i) world->step();
  return world->stateHash();
}

TEST(Determinism, DefaultScenarioSameHashForOneTwoAndFourThreads) {
  const std::uint64_t one = hashAfter("default", 7, 1, 200);
  EXPECT_EQ(one, hashAfter("default", 7, 2, 200));
  EXPECT_EQ(one, hashAfter("default", 7, 4, 200));
}

TEST(Determinism, CrowdSameHashForOneAndThreeThreads) {
  const std::uint64_t one = hashAfter("crowd", 3, 1, 60, 5000);
  EXPECT_EQ(one, hashAfter("crowd", 3, 3, 60, 5000));
}

TEST(Determinism, SameThreadsRepeatable) {
  EXPECT_EQ(hashAfter("default", 11, 2, 100), hashAfter("default", 11, 2, 100));
}

TEST(Determinism, SeedChangesTheWorld) {
  EXPECT_NE(hashAfter("default", 7, 1, 50), hashAfter("default", 8, 1, 50));
}

TEST(Determinism, HashChangesAsTheWorldMoves) {
  auto world = loadScenario("default", {1, 1, 0});
  const auto h0 = world->stateHash();
  world->step();
  EXPECT_NE(h0, world->stateHash());
}

}  // namespace
}  // namespace steerd
