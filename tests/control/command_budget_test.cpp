// The control budget (server/control/command_queue.h, command_cost.h): a flood of each command
// kind, at 344 and 10,000 agents, applies no more work a boundary than the budget (counted in work
// units and in commands, never in time); the tick's budget bounds every client together and none
// starves; a command dearer than a tick's budget goes once and its debt holds its client back; a
// refused command leaves nothing behind and its error comes in its turn; order is kept across
// ticks; and the same flood gives the same world and the same result ticks on 1 and 4 threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "control/command_cost.h"
#include "control/control.h"
#include "scenario/scenario_file.h"

namespace steerd::control {
namespace {

std::unique_ptr<World> defaultWorld(std::size_t agents, unsigned threads = 1) {
  ScenarioLoad load = openScenario("default", ScenarioOptions(1, threads, agents));
  EXPECT_TRUE(load.world) << (load.errors.empty() ? "" : load.errors[0]);
  return std::move(load.world);
}

std::vector<AgentId> npcsOf(const World& world) {
  std::vector<AgentId> ids;
  for (std::size_t s = 0; s < world.agentCount(); ++s) ids.push_back(world.agents().id[s]);
  std::sort(ids.begin(), ids.end());
  return ids;
}

// Command i of a flood of `kind` (Command::KindCase) over `npcs`: each a real command of its kind,
// some of them errors (the default scenario has no brains): an error costs what its kind does.
Command floodCommand(Command::KindCase kind, std::uint32_t i, const std::vector<AgentId>& npcs,
                     const World& world) {
  const AgentId a = npcs[i % npcs.size()];
  const AgentId b = npcs[(i + 1) % npcs.size()];
  const Bounds& bounds = world.geometry().bounds;
  const float x = bounds.minX + static_cast<float>((i * 37) % 200) / 200.0f * bounds.width();
  const float y = bounds.minY + static_cast<float>((i * 91) % 200) / 200.0f * bounds.height();
  Command c;
  switch (kind) {
    case Command::kSpawn:
      c = spawnAt("boid", x, y);
      break;
    case Command::kDespawn:
      c = despawnAgent(a);  // past the world's size: errors, "no live agent"
      break;
    case Command::kMoveTo:
      c = moveTo(a, x, y, 2.0f);
      break;
    case Command::kMoveToWaypoint:
      c.mutable_move_to_waypoint()->set_agent(a);
      c.mutable_move_to_waypoint()->set_waypoint("patrol-ne");
      break;
    case Command::kFollowPath:
      c.mutable_follow_path()->set_agent(a);
      c.mutable_follow_path()->set_path("patrol");
      break;
    case Command::kFollow:
      c = followAgent(a, b);
      break;
    case Command::kGuard:
      c = guardAgent(a, b, 4.0f);
      break;
    case Command::kStop:
      c = stopAgent(a);
      break;
    case Command::kRelease:
      c = releaseAgent(a);
      break;
    case Command::kSetState:
      c = setBrainState(a, "idle");
      break;
    case Command::kSetStat:
      c = setStat(a, "alert", 1.0f);
      break;
    case Command::kSignal:
      c = raiseSignal(a, i % 2 == 0 ? "alarm" : "rally", i % 3 != 0);
      break;
    case Command::kOrder:
      c = orderFetch(a, b);
      break;
    case Command::kQuery:
      c = queryAgent(a);
      break;
    case Command::kSubscribe:
      c.mutable_subscribe();
      break;
    case Command::kSetDoor:
      c = setDoor("gate", i % 2 == 0);  // the default scenario has no doors: errors
      break;
    case Command::kSetArea:
      c = setArea("mud", true);
      break;
    case Command::kAddObstacle:
      c = addCircleObstacle(x, y, 1.0f);  // past 1,024 live: errors
      break;
    case Command::kMoveObstacle:
      c = moveObstacle(1 + i % 8, x, y);
      break;
    case Command::kRemoveObstacle:
      c = removeObstacle(1 + i % 16);
      break;
    case Command::KIND_NOT_SET:
      break;
  }
  c.set_sequence(i + 1);
  return c;
}

constexpr Command::KindCase kKinds[] = {
    Command::kSpawn,      Command::kDespawn,     Command::kMoveTo,       Command::kMoveToWaypoint,
    Command::kFollowPath, Command::kFollow,      Command::kGuard,        Command::kStop,
    Command::kRelease,    Command::kSetState,    Command::kSetStat,      Command::kSignal,
    Command::kOrder,      Command::kQuery,       Command::kSubscribe,    Command::kSetDoor,
    Command::kSetArea,    Command::kAddObstacle, Command::kMoveObstacle, Command::kRemoveObstacle,
};

class Flood : public testing::TestWithParam<std::size_t> {};

TEST_P(Flood, EachKindAppliesNoMoreWorkABoundaryThanTheBudget) {
  const ControllerConfig config;
  for (const Command::KindCase kind : kKinds) {
    auto world = defaultWorld(GetParam());
    const std::size_t agents = world->agentCount();
    const std::vector<AgentId> npcs = npcsOf(*world);
    Controller ctl(*world);
    std::vector<CommandResult> results;
    const SubscriberId me =
        ctl.addSubscriber({.onResult = [&](const CommandResult& r) { results.push_back(r); }});
    const std::uint32_t cost = workUnitsOf(floodCommand(kind, 0, npcs, *world), agents);
    ASSERT_LE(cost, config.clientBudget) << "every kind fits one boundary's budget at this size";
    // Five boundaries' worth and a little, well within the queue's bound.
    const std::uint32_t count = 5 * config.clientBudget / cost + 3;
    for (std::uint32_t i = 0; i < count; ++i) ctl.submit(me, floodCommand(kind, i, npcs, *world));
    const std::uint32_t perBoundary = config.clientBudget / cost;  // credit comes back whole each boundary
    std::uint32_t applied = 0;
    for (int boundary = 0; ctl.pending() > 0; ++boundary) {
      ASSERT_LT(boundary, 1000) << "the flood drains";
      ctl.applyPending();
      const Controller::Boundary& b = ctl.lastBoundary();
      EXPECT_LE(b.work, config.clientBudget) << Command::descriptor()->FindFieldByNumber(kind)->name();
      EXPECT_EQ(b.work, std::uint64_t{b.applied} * cost);
      EXPECT_EQ(b.applied, std::min(perBoundary, count - applied))
          << Command::descriptor()->FindFieldByNumber(kind)->name() << " at boundary " << boundary;
      EXPECT_EQ(b.deferred, boundary == 0 ? count - b.applied : 0u) << "each waiting command counted once";
      EXPECT_EQ(b.refused, 0u);
      if (kind == Command::kSubscribe) {
        EXPECT_EQ(b.rescans, 1u) << "one fresh look a boundary, however many";
      }
      applied += b.applied;
      world->step();
      ctl.afterTick();
    }
    ASSERT_EQ(results.size(), count);
    for (std::uint32_t i = 0; i < count; ++i) {
      EXPECT_EQ(results[i].sequence(), i + 1) << "in order";
      EXPECT_EQ(results[i].tick(), i / perBoundary) << "the boundary the budget gave it";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Agents, Flood, testing::Values(std::size_t{0}, std::size_t{10000}),
                         [](const testing::TestParamInfo<std::size_t>& p) {
                           return p.param == 0 ? std::string("Default344")
                                               : "Default" + std::to_string(p.param);
                         });

TEST(ControlBudget, TheDefaultScenarioHas344AgentsAndASubscribeIsPricedByTheWorld) {
  auto small = defaultWorld(0);
  EXPECT_EQ(small->agentCount(), 344u);
  Command subscribe;
  subscribe.mutable_subscribe();
  EXPECT_EQ(workUnitsOf(subscribe, 344), 1u + 344 / kAgentsPerSubscribeUnit);
  EXPECT_EQ(workUnitsOf(subscribe, 10000), 1u + 10000 / kAgentsPerSubscribeUnit);
  EXPECT_EQ(workUnitsOf(spawnAt("boid", 1, 1), 10), kSpawnUnits);
  EXPECT_EQ(workUnitsOf(queryAgent(1), 10000), kPlainCommandUnits);
}

// Six clients flood 2,000 queries each, then a seventh sends one: every boundary stays within the
// tick's budget. The oldest go first: four clients' budgets fill a tick, so the first four drain
// before the last two start, and the seventh's command, the newest, goes at the first boundary
// that has budget left over.
TEST(ControlBudget, TheTickBudgetBoundsEveryClientTogetherAndTheOldestGoFirst) {
  auto world = defaultWorld(0);
  const std::vector<AgentId> npcs = npcsOf(*world);
  const ControllerConfig config;
  Controller ctl(*world, config);
  constexpr std::uint32_t kFlooders = 6, kEach = 2000;
  ASSERT_EQ(config.tickBudget, 4 * config.clientBudget);
  std::vector<std::vector<CommandResult>> results(kFlooders + 1);
  std::vector<SubscriberId> subs;
  for (std::uint32_t i = 0; i <= kFlooders; ++i)
    subs.push_back(
        ctl.addSubscriber({.onResult = [&results, i](const CommandResult& r) { results[i].push_back(r); }}));
  for (std::uint32_t i = 0; i < kFlooders; ++i) {
    for (std::uint32_t k = 0; k < kEach; ++k)
      ctl.submit(subs[i], floodCommand(Command::kQuery, k, npcs, *world));
  }
  ctl.submit(subs[kFlooders], floodCommand(Command::kStop, 0, npcs, *world));
  std::uint64_t work = 0;
  std::uint64_t boundaries = 0;
  const std::uint64_t full = kEach / config.clientBudget;  // boundaries the first four fill the tick
  while (ctl.pending() > 0) {
    ASSERT_LT(boundaries, 1000u);
    ctl.applyPending();
    EXPECT_LE(ctl.lastBoundary().work, config.tickBudget);
    if (boundaries < full) {
      EXPECT_EQ(ctl.lastBoundary().work, config.tickBudget) << "a full tick at boundary " << boundaries;
    }
    work += ctl.lastBoundary().work;
    ++boundaries;
    world->step();
    ctl.afterTick();
  }
  EXPECT_EQ(work, std::uint64_t{kFlooders} * kEach + 1);
  for (std::uint32_t i = 0; i < 4; ++i) EXPECT_EQ(results[i].back().tick(), full);
  EXPECT_EQ(results[4].front().tick(), full) << "the fifth starts when the first four have room to spare";
  ASSERT_EQ(results[kFlooders].size(), 1u);
  EXPECT_EQ(results[kFlooders][0].tick(), full);
  EXPECT_EQ(boundaries, full + (kEach + config.clientBudget - 1) / config.clientBudget);
  for (std::uint32_t i = 0; i < kFlooders; ++i) {
    ASSERT_EQ(results[i].size(), kEach);
    for (std::uint32_t k = 1; k < kEach; ++k)
      ASSERT_GT(results[i][k].sequence(), results[i][k - 1].sequence());
  }
}

// A subscribe dearer than a tick's whole budget goes when its client's credit is full; the debt
// holds that client's next command back until it is paid, and nobody else's.
TEST(ControlBudget, ACommandDearerThanTheBudgetGoesOnceAndItsDebtHoldsOnlyItsClient) {
  auto world = defaultWorld(10000);
  const std::vector<AgentId> npcs = npcsOf(*world);
  ControllerConfig config;
  config.clientBudget = 16;
  Controller ctl(*world, config);
  std::vector<CommandResult> mine, theirs;
  const SubscriberId me = ctl.addSubscriber({.onResult = [&](const CommandResult& r) { mine.push_back(r); }});
  const SubscriberId other =
      ctl.addSubscriber({.onResult = [&](const CommandResult& r) { theirs.push_back(r); }});
  Command subscribe;
  subscribe.mutable_subscribe();
  subscribe.set_sequence(1);
  const std::uint32_t cost = workUnitsOf(subscribe, world->agentCount());
  ASSERT_GT(cost, config.clientBudget);
  ctl.submit(me, subscribe);
  Command query = queryAgent(npcs[0]);
  query.set_sequence(2);
  ctl.submit(me, query);
  ctl.submit(other, queryAgent(npcs[1]));
  ctl.applyPending();
  EXPECT_EQ(ctl.lastBoundary().work, cost + 1)
      << "the subscribe alone from its client, and the other's query";
  ASSERT_EQ(mine.size(), 1u);
  EXPECT_EQ(mine[0].status(), STATUS_OK);
  EXPECT_EQ(theirs.size(), 1u) << "the other client is not held back";
  // Credit 16 - cost, then 16 more a boundary: the query (1 unit) goes once it is back to 1.
  const std::uint64_t debtBoundaries =
      (cost - config.clientBudget + 1 + config.clientBudget - 1) / config.clientBudget;
  ASSERT_EQ(debtBoundaries, 9u);
  std::uint64_t boundaries = 1;
  while (mine.size() < 2) {
    ASSERT_LT(boundaries, 100u);
    ctl.applyPending();
    ++boundaries;
  }
  EXPECT_EQ(boundaries, 1 + debtBoundaries);
  EXPECT_EQ(mine[1].sequence(), 2u);
}

// A client's queue holds queueTicks of its budget; what comes past that is refused: it changes
// nothing (no agent, no tag name), and its error comes after the results of what it queued before.
TEST(ControlBudget, ACommandPastTheQueueBoundIsRefusedInTurnAndLeavesNothing) {
  auto world = defaultWorld(0);
  ControllerConfig config;
  config.clientBudget = 48;  // one spawn a boundary
  config.queueTicks = 2;     // two spawns queued
  Controller ctl(*world, config);
  std::vector<CommandResult> results;
  const SubscriberId me =
      ctl.addSubscriber({.onResult = [&](const CommandResult& r) { results.push_back(r); }});
  const std::size_t agents = world->agentCount();
  const std::size_t tagNames = world->markNames(World::MarkKind::kTag).size();
  auto tagged = [](std::uint32_t sequence, const std::string& tag) {
    Command c = spawnAt("boid", 120, 120 + static_cast<float>(sequence));
    c.mutable_spawn()->add_tags(tag);
    c.set_sequence(sequence);
    return c;
  };
  EXPECT_TRUE(ctl.hasRoom(me, tagged(1, "first")));
  ctl.submit(me, tagged(1, "first"));
  ctl.submit(me, tagged(2, "second"));
  EXPECT_FALSE(ctl.hasRoom(me, tagged(3, "third")));
  ctl.submit(me, tagged(3, "third"));  // refused: two spawns' worth wait already
  EXPECT_EQ(world->agentCount(), agents) << "nothing before the boundary";
  EXPECT_EQ(world->markNames(World::MarkKind::kTag).size(), tagNames);
  for (int i = 0; i < 3; ++i) {
    ctl.applyPending();
    world->step();
    ctl.afterTick();
  }
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].sequence(), 1u);
  EXPECT_EQ(results[0].status(), STATUS_OK);
  EXPECT_EQ(results[1].sequence(), 2u);
  EXPECT_EQ(results[1].status(), STATUS_OK);
  EXPECT_EQ(results[1].tick(), 1u) << "over budget at the first boundary: the next";
  EXPECT_EQ(results[2].sequence(), 3u);
  EXPECT_EQ(results[2].status(), STATUS_ERROR);
  EXPECT_EQ(results[2].tick(), 2u) << "said in its turn, after the command before it, from the same budget";
  EXPECT_EQ(results[2].error().rfind("command: over budget and the queue is full", 0), 0u)
      << results[2].error();
  EXPECT_NE(results[2].error().find("96 work units"), std::string::npos) << results[2].error();
  EXPECT_EQ(results[2].agent(), 0u);
  EXPECT_EQ(world->agentCount(), agents + 2);
  const auto& names = world->markNames(World::MarkKind::kTag);
  EXPECT_EQ(names.size(), tagNames + 2);
  EXPECT_EQ(std::find(names.begin(), names.end(), "third"), names.end()) << "the refused spawn's tag";
  EXPECT_EQ(ctl.rejected(), 1u);
  EXPECT_EQ(ctl.pending(), 0u);
}

// Refusals cost their error results' work, out of the same budget: a client that floods past its
// queue's bound gets its errors at its budget's pace, in order, and the tick stays within it.
TEST(ControlBudget, RefusalsAreSaidInTurnWithinTheBudget) {
  auto world = defaultWorld(0);
  const std::vector<AgentId> npcs = npcsOf(*world);
  ControllerConfig config;
  config.clientBudget = 10;
  config.queueTicks = 1;  // ten queries queued at most
  Controller ctl(*world, config);
  std::vector<CommandResult> results;
  const SubscriberId me =
      ctl.addSubscriber({.onResult = [&](const CommandResult& r) { results.push_back(r); }});
  for (std::uint32_t i = 0; i < 100; ++i) ctl.submit(me, floodCommand(Command::kQuery, i, npcs, *world));
  for (std::uint32_t boundary = 0; boundary < 10; ++boundary) {
    ctl.applyPending();
    EXPECT_EQ(ctl.lastBoundary().work, 10u);
    EXPECT_EQ(ctl.lastBoundary().applied, boundary == 0 ? 10u : 0u);
    EXPECT_EQ(ctl.lastBoundary().refused, boundary == 0 ? 0u : 10u);
  }
  EXPECT_EQ(ctl.pending(), 0u);
  ASSERT_EQ(results.size(), 100u);
  for (std::uint32_t i = 0; i < 100; ++i) {
    EXPECT_EQ(results[i].sequence(), i + 1);
    EXPECT_EQ(results[i].status(), i < 10 ? STATUS_OK : STATUS_ERROR);
  }
}

// A client's commands go in its order whatever they cost: a cheap one never overtakes a dear one
// before it, across ticks; other clients' commands go past both while it waits.
TEST(ControlBudget, OrderIsKeptAcrossTicks) {
  auto world = defaultWorld(0);
  const std::vector<AgentId> npcs = npcsOf(*world);
  ControllerConfig config;
  config.clientBudget = 50;
  Controller ctl(*world, config);
  std::vector<CommandResult> mine, theirs;
  const SubscriberId me = ctl.addSubscriber({.onResult = [&](const CommandResult& r) { mine.push_back(r); }});
  const SubscriberId other =
      ctl.addSubscriber({.onResult = [&](const CommandResult& r) { theirs.push_back(r); }});
  // Mine: 3 queries (3 units), a spawn (48: waits, 47 left), 5 queries after it; theirs: 5 queries.
  std::uint32_t sequence = 0;
  std::vector<Command> sent;
  for (int i = 0; i < 3; ++i) sent.push_back(queryAgent(npcs[static_cast<std::size_t>(i)]));
  sent.push_back(spawnAt("boid", 120, 120));
  for (int i = 0; i < 5; ++i) sent.push_back(queryAgent(npcs[static_cast<std::size_t>(i)]));
  for (Command& c : sent) {
    c.set_sequence(++sequence);
    ctl.submit(me, c);
  }
  for (std::uint32_t i = 0; i < 5; ++i) ctl.submit(other, floodCommand(Command::kQuery, i, npcs, *world));
  ctl.applyPending();
  world->step();
  ctl.afterTick();
  EXPECT_EQ(mine.size(), 3u) << "the spawn did not fit; what comes after it waits with it";
  EXPECT_EQ(theirs.size(), 5u) << "the other client's go past";
  EXPECT_EQ(ctl.lastBoundary().deferred, 6u);
  for (int i = 0; i < 2; ++i) {
    ctl.applyPending();
    world->step();
    ctl.afterTick();
  }
  ASSERT_EQ(mine.size(), sent.size());
  for (std::size_t i = 0; i < mine.size(); ++i) {
    EXPECT_EQ(mine[i].sequence(), i + 1);
    EXPECT_EQ(mine[i].status(), STATUS_OK) << mine[i].error();
    if (i > 0) {
      EXPECT_GE(mine[i].tick(), mine[i - 1].tick());
    }
  }
  EXPECT_EQ(mine[3].tick(), 1u) << "the spawn: the next tick, with its credit back";
  EXPECT_EQ(mine[4].tick(), 1u);
}

// A removed subscriber's waiting commands still go, in turn and within a budget, answering to
// nobody; a newcomer in its place has a queue and a budget of its own.
TEST(ControlBudget, ARemovedSubscribersWaitingCommandsStillGoAndTheNewcomerHasItsOwnBudget) {
  auto world = defaultWorld(0);
  const std::vector<AgentId> npcs = npcsOf(*world);
  ControllerConfig config;
  config.clientBudget = 10;
  Controller ctl(*world, config);
  int oldResults = 0;
  std::vector<CommandResult> newResults;
  const SubscriberId first = ctl.addSubscriber({.onResult = [&](const CommandResult&) { ++oldResults; }});
  for (std::uint32_t i = 0; i < 25; ++i) ctl.submit(first, floodCommand(Command::kStop, i, npcs, *world));
  ctl.applyPending();
  EXPECT_EQ(oldResults, 10);
  ctl.removeSubscriber(first);
  const SubscriberId second =
      ctl.addSubscriber({.onResult = [&](const CommandResult& r) { newResults.push_back(r); }});
  EXPECT_EQ(second, first) << "the place is taken again";
  ctl.submit(second, floodCommand(Command::kQuery, 0, npcs, *world));
  ctl.applyPending();
  EXPECT_EQ(ctl.lastBoundary().applied, 11u) << "ten of the old and the newcomer's, each its own budget";
  ASSERT_EQ(newResults.size(), 1u);
  ctl.applyPending();
  EXPECT_EQ(ctl.lastBoundary().applied, 5u);
  EXPECT_EQ(oldResults, 10) << "the rest answered nobody";
  EXPECT_EQ(ctl.pending(), 0u);
}

// A flood deferred over many ticks, with the world stepping between: the same world and the same
// result ticks on 1 and 4 threads.
struct FloodRun {
  std::uint64_t hash = 0;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> results;  // sequence, tick
};

FloodRun runFlood(unsigned threads) {
  auto world = defaultWorld(0, threads);
  const std::vector<AgentId> npcs = npcsOf(*world);
  Controller ctl(*world);
  FloodRun run;
  const SubscriberId me = ctl.addSubscriber({.onResult = [&](const CommandResult& r) {
    run.results.push_back({r.sequence(), r.tick()});
  }});
  std::uint32_t sequence = 0;
  for (int t = 0; t < 120; ++t) {
    if (t < 40) {
      for (int k = 0; k < 120; ++k) {
        const Command::KindCase kind = kKinds[static_cast<std::size_t>(t + k) % std::size(kKinds)];
        if (kind == Command::kDespawn && k % 7 != 0) continue;
        ctl.submit(me, floodCommand(kind, sequence++, npcs, *world));
      }
    }
    ctl.applyPending();
    world->step();
    ctl.afterTick();
  }
  run.hash = world->stateHash();
  return run;
}

TEST(ControlBudget, TheSameFloodGivesTheSameWorldAndResultTicksOnOneAndFourThreads) {
  const FloodRun one = runFlood(1);
  const FloodRun four = runFlood(4);
  EXPECT_EQ(one.hash, four.hash);
  EXPECT_EQ(one.results, four.results);
  ASSERT_FALSE(one.results.empty());
  EXPECT_GT(one.results.back().second, 40u) << "the flood outlasted its sending";
}

}  // namespace
}  // namespace steerd::control
