// The action-selection component on its own (world/action_selection.h): goals counted in and out,
// marks bounded at 32 names and cleared at a despawn, control orders kept one per holder in
// holder order, a live reload without order-giving brains ending only the brains' orders, and
// what the update phase is told.
#include "world/action_selection.h"

#include <gtest/gtest.h>

namespace steerd {
namespace {

Directive moveTo(float x, float y) {
  Directive d;
  d.kind = DirectiveKind::kMoveTo;
  d.point = {x, y};
  return d;
}

bool anyDirected(const ActionSelection& a) {
  AgentColumns none;
  SpatialGrid grid;
  StaticGeometry geometry;
  std::vector<Archetype> archetypes;
  StepContext ctx{
      .in = none, .grid = grid, .geometry = geometry, .archetypes = archetypes, .runtime = nullptr};
  a.describe(ctx);
  return ctx.anyDirected;
}

TEST(ActionSelection, GoalsAreCountedInAndOutAndEndAtADespawn) {
  ActionSelection a;
  a.grow(4);
  EXPECT_EQ(a.directive(2).kind, DirectiveKind::kNone);
  EXPECT_EQ(a.directive(99).kind, DirectiveKind::kNone);  // never stored: none
  a.setDirective(2, 4, moveTo(1, 2));
  a.setDirective(2, 4, moveTo(3, 4));  // replaced, not counted twice
  EXPECT_TRUE(anyDirected(a));
  a.noteArrived(2);
  EXPECT_TRUE(a.directive(2).arrived);
  a.setDirective(2, 4, Directive{});
  EXPECT_FALSE(anyDirected(a));
  a.setDirective(1, 4, moveTo(5, 5));
  a.onDespawn(1);
  EXPECT_EQ(a.directive(1).kind, DirectiveKind::kNone);
  EXPECT_FALSE(anyDirected(a));
}

TEST(ActionSelection, MarksHoldThirtyTwoNamesAndABitPerName) {
  ActionSelection a;
  for (int i = 0; i < 32; ++i) {
    std::string name = std::to_string(i);  // (GCC 12 warns falsely on "s" + to_string)
    name.insert(name.begin(), 's');
    EXPECT_EQ(a.markIndex(MarkKind::kSignal, name, true), i);
  }
  EXPECT_EQ(a.markIndex(MarkKind::kSignal, "one-too-many", true), -1);
  EXPECT_EQ(a.markIndex(MarkKind::kSignal, "s7", false), 7);
  EXPECT_EQ(a.markIndex(MarkKind::kTag, "s7", false), -1);  // tags are names of their own
  EXPECT_EQ(a.marks(MarkKind::kSignal, 3), 0u);
  EXPECT_EQ(a.marksRecord(3), nullptr);
  a.setMark(MarkKind::kSignal, 3, 8, 7, true);
  a.setMark(MarkKind::kTag, 3, 8, 0, true);
  EXPECT_EQ(a.marks(MarkKind::kSignal, 3), 1u << 7);
  EXPECT_EQ(a.marks(MarkKind::kTag, 3), 1u);
  EXPECT_THROW(a.setMark(MarkKind::kSignal, 3, 8, 32, true), std::out_of_range);
  EXPECT_THROW(a.setMark(MarkKind::kSignal, 3, 8, -1, true), std::out_of_range);
  a.setMark(MarkKind::kSignal, 3, 8, 7, false);
  EXPECT_EQ(a.marks(MarkKind::kSignal, 3), 0u);
  a.onDespawn(3);
  EXPECT_EQ(a.marks(MarkKind::kTag, 3), 0u);
}

TEST(ActionSelection, ControlOrdersAreOnePerHolderInHolderOrderAndOutliveABrainReload) {
  ActionSelection a;
  auto order = [](AgentId holder, AgentId stray, std::uint16_t entry) {
    HeldOrder h;
    h.holder = holder;
    h.stray = stray;
    h.entry = entry;
    return h;
  };
  a.giveOrder(order(9, 1, ActionSelection::kCommandOrderEntry), {0, 1});
  a.giveOrder(order(4, 2, ActionSelection::kCommandOrderEntry), {0, 1});
  a.giveOrder(order(9, 3, ActionSelection::kCommandOrderEntry), {2, 1});  // replaces 9's
  ASSERT_EQ(a.fetchOrders().size(), 2u);
  EXPECT_EQ(a.fetchOrders()[0].holder, 4u);
  EXPECT_EQ(a.fetchOrders()[1].stray, 3u);
  std::vector<StrayPair> pairs{{0, 1}};
  a.addOrderPairs(pairs);
  EXPECT_EQ(pairs.size(), 2u);  // {0, 1} once, {2, 1}
  // A reload whose archetypes give no orders ends brains' orders only: these are the API's.
  a.prepare({});
  EXPECT_EQ(a.fetchOrders().size(), 2u);
  EXPECT_FALSE(a.anyBrain());
}

}  // namespace
}  // namespace steerd
