// The behaviour table against scenario.proto's BehaviourKind: scenario files name kinds by the
// proto's names, and the loader finds a kind's row by that name, so row i must be the proto's
// value i + 1 (after BEHAVIOUR_UNSPECIFIED), named alike. The sizes are checked at compile time
// (behaviour_table.h and scenario/scenario_behaviour_rules.cpp); the names and the order only here.
#include "world/behaviour_table.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "proto/scenario.pb.h"

namespace steerd {
namespace {

namespace pb = steerd::scenario;

TEST(BehaviourTable, RowsAreTheScenarioFilesKindsInTheProtosOrder) {
  ASSERT_EQ(kBehaviourTable.size(), static_cast<std::size_t>(pb::BehaviourKind_MAX));
  for (int value = 1; value <= pb::BehaviourKind_MAX; ++value) {
    ASSERT_TRUE(pb::BehaviourKind_IsValid(value)) << value;
    const BehaviourRow& row = kBehaviourTable[static_cast<std::size_t>(value - 1)];
    EXPECT_EQ(std::string(row.fileName), pb::BehaviourKind_Name(static_cast<pb::BehaviourKind>(value)));
    EXPECT_EQ(static_cast<int>(row.kind), value - 1) << row.fileName;
    EXPECT_EQ(behaviourRowNamed(row.fileName), &row) << row.fileName;
  }
  EXPECT_EQ(behaviourRowNamed("BEHAVIOUR_UNSPECIFIED"), nullptr);
}

TEST(BehaviourTable, NamesAreDistinct) {
  std::set<std::string> fileNames, names;
  for (const BehaviourRow& row : kBehaviourTable) {
    EXPECT_TRUE(fileNames.emplace(row.fileName).second) << row.fileName;
    EXPECT_TRUE(names.emplace(row.name).second) << row.name;
  }
}

// The traits the world asks about, pinned kind by kind: changing one changes a world's behaviour
// (what runs under a control goal, what resets the path index, what groups are measured).
TEST(BehaviourTable, TraitsAreTheKindsTheWorldMeans) {
  std::set<std::string> kept, walks, herds, turns;
  for (const BehaviourRow& row : kBehaviourTable) {
    if (row.has(kTraitKeptUnderGoal)) kept.insert(std::string(row.fileName));
    if (row.has(kTraitWalksPath)) walks.insert(std::string(row.fileName));
    if (row.has(kTraitHerds)) herds.insert(std::string(row.fileName));
    if (row.turns()) turns.insert(std::string(row.fileName));
  }
  EXPECT_EQ(kept, (std::set<std::string>{"SEPARATION", "OBSTACLE_AVOIDANCE", "WALL_AVOIDANCE",
                                         "WHISKER_AVOIDANCE", "COLLISION_AVOIDANCE"}));
  EXPECT_EQ(walks, (std::set<std::string>{"FOLLOW_PATH", "CONTEXT_SEEK_WAYPOINTS"}));
  EXPECT_EQ(herds, (std::set<std::string>{"FETCH_STRAY", "DRIVE_GROUP"}));
  EXPECT_EQ(turns, (std::set<std::string>{"ALIGN", "FACE", "LOOK_WHERE_GOING"}));
}

}  // namespace
}  // namespace steerd
