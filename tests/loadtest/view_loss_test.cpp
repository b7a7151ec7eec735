// Entities lost from a player's view while inside its interest area (loadtest/view_loss.h), and
// the --churn-per-second flag.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "loadtest/options.h"
#include "loadtest/view_loss.h"

namespace steerd::loadtest {
namespace {

constexpr std::uint32_t kSelf = 1;
constexpr std::int64_t kPlayerArchetype = 0;
constexpr std::uint32_t kNpc = 1;

wire::EntityState entity(std::uint32_t id, std::uint32_t archetype, float x, float y, std::uint32_t tick,
                         std::int32_t vx = 0, std::int32_t vy = 0) {
  wire::EntityState e;
  e.id = id;
  e.archetype = archetype;
  e.x = wire::quantizePosition(x);
  e.y = wire::quantizePosition(y);
  e.vx = vx;
  e.vy = vy;
  e.tick = tick;
  return e;
}

// A record at `tick` with the player at (px, py) and the given NPCs (id, x, y), sorted by id.
wire::SnapshotRecord record(std::uint32_t tick, float px, float py,
                            std::vector<wire::EntityState> others = {}) {
  wire::SnapshotRecord r;
  r.tick = tick;
  r.entities.push_back(entity(kSelf, static_cast<std::uint32_t>(kPlayerArchetype), px, py, tick));
  for (auto& e : others) r.entities.push_back(e);
  std::sort(r.entities.begin(), r.entities.end(),
            [](const wire::EntityState& a, const wire::EntityState& b) { return a.id < b.id; });
  return r;
}

ViewLossConfig radius(float r) {
  ViewLossConfig c;
  c.interestRadius = r;
  c.tickRate = 30.0;
  return c;
}

TEST(ViewLossTest, AnEntityGoneWellInsideThatComesBackIsLost) {
  ViewLossTracker t(radius(50.0f));
  std::vector<double> gaps;
  t.observe(record(10, 0, 0, {entity(5, kNpc, 10, 0, 10)}), kSelf, kPlayerArchetype, gaps);
  t.observe(record(12, 0, 0), kSelf, kPlayerArchetype, gaps);  // gone, 10 m from the player
  EXPECT_EQ(t.waiting(), 1u);
  EXPECT_EQ(t.counts().lost, 0u);
  t.observe(record(14, 0, 0), kSelf, kPlayerArchetype, gaps);
  t.observe(record(16, 0, 0, {entity(5, kNpc, 10, 0, 16)}), kSelf, kPlayerArchetype, gaps);  // back
  EXPECT_EQ(t.counts().lost, 1u);
  EXPECT_EQ(t.counts().vanished, 0u);
  EXPECT_EQ(t.waiting(), 0u);
  ASSERT_EQ(gaps.size(), 1u);
  EXPECT_NEAR(gaps[0], 6.0 / 30.0 * 1000.0, 1e-9);  // last held at tick 10, back at 16
}

TEST(ViewLossTest, LossesInThePlayersFirstSecondsAreCountedApart) {
  ViewLossTracker t(radius(50.0f));
  std::vector<double> gaps;
  // Gone 1 s after the first snapshot (joining), back; then gone again 3 s in (settled), back.
  t.observe(record(100, 0, 0, {entity(5, kNpc, 10, 0, 100)}), kSelf, kPlayerArchetype, gaps);
  t.observe(record(130, 0, 0, {entity(5, kNpc, 10, 0, 130)}), kSelf, kPlayerArchetype, gaps);
  t.observe(record(132, 0, 0), kSelf, kPlayerArchetype, gaps);
  t.observe(record(134, 0, 0, {entity(5, kNpc, 10, 0, 134)}), kSelf, kPlayerArchetype, gaps);
  t.observe(record(190, 0, 0, {entity(5, kNpc, 10, 0, 190)}), kSelf, kPlayerArchetype, gaps);
  t.observe(record(192, 0, 0), kSelf, kPlayerArchetype, gaps);
  t.observe(record(194, 0, 0, {entity(5, kNpc, 10, 0, 194)}), kSelf, kPlayerArchetype, gaps);
  EXPECT_EQ(t.counts().lost, 2u);
  EXPECT_EQ(t.counts().lostJoining, 1u);
  EXPECT_EQ(t.counts().vanishedJoining, 0u);
}

TEST(ViewLossTest, AnEntityLeavingByTheEdgeIsNotCounted) {
  ViewLossTracker t(radius(50.0f));
  std::vector<double> gaps;
  // 45 m away: past 0.8 x 50 m, where the server may rightly drop it.
  t.observe(record(10, 0, 0, {entity(5, kNpc, 45, 0, 10)}), kSelf, kPlayerArchetype, gaps);
  t.observe(record(12, 0, 0), kSelf, kPlayerArchetype, gaps);
  t.observe(record(14, 0, 0, {entity(5, kNpc, 45, 0, 14)}), kSelf, kPlayerArchetype, gaps);
  EXPECT_EQ(t.counts().lost, 0u);
  EXPECT_EQ(t.waiting(), 0u);
  EXPECT_TRUE(gaps.empty());
}

TEST(ViewLossTest, ThePredictionFromVelocityDecides) {
  ViewLossTracker t(radius(50.0f));
  std::vector<double> gaps;
  // 35 m away, inside, but moving out at 64 position units (1 m) per tick: predicted at 37 m two
  // ticks on (inside) in one case, 61 m 26 ticks on in the other (the gap is within 1 s).
  const std::int32_t oneMetrePerTick = 16 * 64;
  t.observe(record(10, 0, 0, {entity(5, kNpc, 35, 0, 10, oneMetrePerTick), entity(6, kNpc, 35, 0, 10)}),
            kSelf, kPlayerArchetype, gaps);
  t.observe(record(12, 0, 0), kSelf, kPlayerArchetype, gaps);
  EXPECT_EQ(t.waiting(), 2u);  // 5 predicted at 37 m, 6 still at 35 m

  ViewLossTracker u(radius(50.0f));
  u.observe(record(10, 0, 0, {entity(5, kNpc, 35, 0, 10, oneMetrePerTick), entity(6, kNpc, 35, 0, 10)}),
            kSelf, kPlayerArchetype, gaps);
  u.observe(record(36, 0, 0), kSelf, kPlayerArchetype, gaps);
  EXPECT_EQ(u.waiting(), 1u);  // only 6: 5 is predicted 61 m out
}

TEST(ViewLossTest, AnEntityThatNeverComesBackVanishes) {
  ViewLossTracker t(radius(50.0f));
  std::vector<double> gaps;
  t.observe(record(10, 0, 0, {entity(5, kNpc, 5, 5, 10), entity(6, kNpc, -5, 5, 10)}), kSelf,
            kPlayerArchetype, gaps);
  t.observe(record(12, 0, 0), kSelf, kPlayerArchetype, gaps);
  EXPECT_EQ(t.waiting(), 2u);
  t.observe(record(10 + 150, 0, 0), kSelf, kPlayerArchetype, gaps);  // exactly 5 s: still waiting
  EXPECT_EQ(t.waiting(), 2u);
  t.observe(record(10 + 151, 0, 0), kSelf, kPlayerArchetype, gaps);
  EXPECT_EQ(t.waiting(), 0u);
  EXPECT_EQ(t.counts().vanished, 2u);
  EXPECT_EQ(t.counts().lost, 0u);
}

TEST(ViewLossTest, PlayerBodiesAreNotJudged) {
  ViewLossTracker t(radius(50.0f));
  std::vector<double> gaps;
  // Another player's body, 5 m away, jumps (its first input) or leaves: not a loss.
  t.observe(record(10, 0, 0, {entity(7, kPlayerArchetype, 5, 0, 10)}), kSelf, kPlayerArchetype, gaps);
  t.observe(record(12, 0, 0), kSelf, kPlayerArchetype, gaps);
  t.observe(record(14, 0, 0, {entity(7, kPlayerArchetype, 5, 0, 14)}), kSelf, kPlayerArchetype, gaps);
  EXPECT_EQ(t.waiting(), 0u);
  EXPECT_EQ(t.counts().lost, 0u);
}

TEST(ViewLossTest, WholeWorldInViewCountsEveryDeparture) {
  ViewLossTracker t(radius(0.0f));
  std::vector<double> gaps;
  t.observe(record(10, 0, 0, {entity(5, kNpc, 500, 500, 10)}), kSelf, kPlayerArchetype, gaps);
  t.observe(record(12, 0, 0), kSelf, kPlayerArchetype, gaps);
  t.observe(record(14, 0, 0, {entity(5, kNpc, 500, 500, 14)}), kSelf, kPlayerArchetype, gaps);
  EXPECT_EQ(t.counts().lost, 1u);
}

TEST(ViewLossTest, APlayerWhoJumpsAwayLosesNothing) {
  ViewLossTracker t(radius(50.0f));
  std::vector<double> gaps;
  // The first input teleports the body from the world's centre to its starting point.
  t.observe(record(10, 0, 0, {entity(5, kNpc, 10, 0, 10)}), kSelf, kPlayerArchetype, gaps);
  t.observe(record(12, 100, 0), kSelf, kPlayerArchetype, gaps);
  EXPECT_EQ(t.waiting(), 0u);
}

TEST(ViewLossTest, SnapshotsTooFarApartAreNotCompared) {
  ViewLossTracker t(radius(50.0f));
  std::vector<double> gaps;
  t.observe(record(10, 0, 0, {entity(5, kNpc, 10, 0, 10)}), kSelf, kPlayerArchetype, gaps);
  t.observe(record(10 + 31, 0, 0), kSelf, kPlayerArchetype, gaps);  // over 1 s later
  EXPECT_EQ(t.waiting(), 0u);
  // Nor without the player's own body in both.
  t.observe(record(42, 0, 0, {entity(5, kNpc, 10, 0, 42)}), kSelf, kPlayerArchetype, gaps);
  wire::SnapshotRecord noSelf;
  noSelf.tick = 44;
  t.observe(noSelf, kSelf, kPlayerArchetype, gaps);
  EXPECT_EQ(t.waiting(), 0u);
  EXPECT_EQ(t.counts().lost + t.counts().vanished, 0u);
}

TEST(ViewLossTest, AStaleCarriedStateIsNotJudged) {
  ViewLossTracker t(radius(50.0f));
  std::vector<double> gaps;
  // Entity 5 was carried since tick 2: its state is 40 ticks old at tick 42.
  t.observe(record(40, 0, 0, {entity(5, kNpc, 10, 0, 2)}), kSelf, kPlayerArchetype, gaps);
  t.observe(record(42, 0, 0), kSelf, kPlayerArchetype, gaps);
  EXPECT_EQ(t.waiting(), 0u);
}

std::optional<int> parse(std::vector<std::string> args, LoadOptions& out) {
  args.insert(args.begin(), "steer-loadtest");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return parseLoadOptions(static_cast<int>(argv.size()), argv.data(), out);
}

TEST(ChurnOptionTest, ParsedAndChecked) {
  LoadOptions o;
  EXPECT_EQ(parse({"--server", "127.0.0.1:7777", "--players", "10", "--duration", "5"}, o), std::nullopt);
  EXPECT_EQ(o.churnPerSecond, 0.0);
  EXPECT_EQ(
      parse({"--server", "127.0.0.1:7777", "--players", "10", "--duration", "5", "--churn-per-second", "0.5"},
            o),
      std::nullopt);
  EXPECT_EQ(o.churnPerSecond, 0.5);
  for (const char* bad : {"-1", "nan", "abc"}) {
    LoadOptions b;
    EXPECT_EQ(
        parse({"--server", "127.0.0.1:7777", "--players", "10", "--duration", "5", "--churn-per-second", bad},
              b),
        2)
        << bad;
  }
}

}  // namespace
}  // namespace steerd::loadtest
