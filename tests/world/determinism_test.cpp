// The world is a pure function of (seed, inputs): bit-identical for any thread count and chunking.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

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

// The results themselves, pinned. Comparing thread counts with each other cannot see a change of
// results (every count changes alike); this can. The run is README's example, `steerd --headless
// --ticks 600 --threads 4 --seed 7` (the default scenario), whose last line is this hash.
//
// When results change on purpose (a formula, a default, the default scenario), run
// `build/ci/server/app/steerd --headless --ticks 600 --seed 7 --log-level warn`, put its state_hash
// here and in README.md's example in the same commit, and say in the commit why results changed
// (steerd_process.ReadmeExampleEndsInTheReadmeHash checks the README's line against the binary).
// A change nobody meant is what this catches: find it, do not update the hash.
constexpr std::uint64_t kReadmeExampleHash = 0x955051fc3e9a4b38;

std::string hex(std::uint64_t hash) {  // as steerd prints it
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

TEST(Determinism, ReadmeExampleEndsInItsStoredHashForOneTwoAndFourThreads) {
  for (const unsigned threads : {1u, 2u, 4u}) {
    EXPECT_EQ(hex(hashAfter("default", 7, threads, 600)), hex(kReadmeExampleHash))
        << threads << " threads: see kReadmeExampleHash's comment";
  }
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
