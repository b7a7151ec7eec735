#include "scenario/scenario_behaviour_rules.h"

#include <array>
#include <vector>

namespace steerd::behaviour_rules {

// The file's kinds are scenario.proto's BehaviourKind values after BEHAVIOUR_UNSPECIFIED (1 to
// BehaviourKind_MAX, in the table's order; tests/world/behaviour_table_test.cpp checks the names).
// A kind appended to the proto with no row in kBehaviourTable fails here.
static_assert(pb::BEHAVIOUR_UNSPECIFIED == 0 && pb::BehaviourKind_MIN == 0 &&
                  kBehaviourTable.size() == static_cast<std::size_t>(pb::BehaviourKind_MAX),
              "every scenario.proto BehaviourKind has a row in kBehaviourTable (world/behaviour_table.h)");

namespace {

// In the order the error text names them.
constexpr std::array kKinematicKinds = {BehaviourKind::kSeek, BehaviourKind::kFlee, BehaviourKind::kArrive,
                                        BehaviourKind::kWander};
constexpr std::array kSearchesWithinRange = {BehaviourKind::kHideFromNearest,
                                             BehaviourKind::kInterposeNearest};

template <std::size_t N>
bool listed(const std::array<BehaviourKind, N>& kinds, pb::BehaviourKind k) {
  const BehaviourRow* row = rowOf(k);
  if (row == nullptr) return false;
  for (BehaviourKind kind : kinds) {
    if (kind == row->kind) return true;
  }
  return false;
}

// "A, B and C" (`last` "and"), or "A, B or C".
std::string joined(const std::vector<std::string_view>& names, const char* last) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? std::string(" ") + last + " " : std::string(", ");
    out += names[i];
  }
  return out;
}

}  // namespace

const BehaviourRow* rowOf(pb::BehaviourKind k) { return behaviourRowNamed(pb::BehaviourKind_Name(k)); }

bool reads(pb::BehaviourKind k, std::uint32_t fields) {
  const BehaviourRow* row = rowOf(k);
  return row != nullptr && (row->reads & fields) == fields;
}

bool pointOrAgent(pb::BehaviourKind k) { return reads(k, kPointOrAgent); }

bool needsTarget(const pb::Behaviour& b) {
  return reads(b.kind(), kFieldTargetArchetype) && !(pointOrAgent(b.kind()) && !b.waypoint().empty());
}

bool takesWholeGroup(pb::BehaviourKind k) {
  return reads(k, kFieldTargetArchetype) && !reads(k, kFieldTarget);
}

bool herds(pb::BehaviourKind k) { return reads(k, kFieldStandOff); }

bool needsSecondArchetype(pb::BehaviourKind k) { return reads(k, kFieldSecondArchetype) && !herds(k); }

bool followsPath(pb::BehaviourKind k) { return reads(k, kFieldPath) && !reads(k, kFieldWaypoint); }

bool needsWaypoint(pb::BehaviourKind k) {
  return reads(k, kFieldWaypoint) && !reads(k, kFieldTarget) && !reads(k, kFieldPath);
}

bool goesToWaypointOrPath(pb::BehaviourKind k) { return reads(k, kFieldWaypoint | kFieldPath); }

bool looksAroundItself(pb::BehaviourKind k) {
  return reads(k, kFieldRange) && !reads(k, kFieldTargetArchetype) && !reads(k, kFieldWaypoint);
}

bool searchesWithinRange(pb::BehaviourKind k) { return listed(kSearchesWithinRange, k); }

bool hasKinematicForm(pb::BehaviourKind k) { return listed(kKinematicKinds, k); }

std::string kindsWithKinematicForm() {
  std::vector<std::string_view> names;
  for (BehaviourKind kind : kKinematicKinds) names.push_back(behaviourRow(kind).fileName);
  return joined(names, "and");
}

std::string kindsWithTargetAgent() {
  std::vector<std::string_view> alwaysAgent, unlessWaypoint;
  for (const BehaviourRow& row : kBehaviourTable) {
    if ((row.reads & kFieldTarget) == 0) continue;
    ((row.reads & kPointOrAgent) == kPointOrAgent ? unlessWaypoint : alwaysAgent).push_back(row.fileName);
  }
  std::string out;
  for (std::string_view name : alwaysAgent) out += std::string(name) + ", ";
  return out + "and " + joined(unlessWaypoint, "or") + " without a waypoint";
}

}  // namespace steerd::behaviour_rules
