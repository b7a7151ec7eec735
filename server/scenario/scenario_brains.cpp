// The brains' shared names, and the signal names their conditions read.
#include "scenario/scenario_brains.h"

#include <set>

#include "scenario/scenario_brain_names.h"

namespace steerd {

namespace {

namespace pb = steerd::scenario;

void collectSignals(const pb::Condition& c, std::set<std::string>& out, int depth) {
  if (depth > kMaxConditionDepth) return;
  if (c.has_signal()) out.insert(c.signal());
  if (c.has_near() && !c.near().signal().empty()) out.insert(c.near().signal());
  if (c.has_far() && !c.far().signal().empty()) out.insert(c.far().signal());
  if (c.has_all() || c.has_any()) {
    for (const auto& child : (c.has_all() ? c.all() : c.any()).of()) collectSignals(child, out, depth + 1);
  }
  if (c.has_not_()) collectSignals(c.not_(), out, depth + 1);
}

void collectSignals(const pb::DecisionNode& n, std::set<std::string>& out, int depth) {
  if (depth > kMaxTreeDepth) return;
  if (n.has_when()) collectSignals(n.when(), out, 0);
  if (n.has_yes()) collectSignals(n.yes(), out, depth + 1);
  if (n.has_no()) collectSignals(n.no(), out, depth + 1);
}

}  // namespace

BrainNames brainNamesOf(const pb::Brain& b) {
  BrainNames n;
  for (int i = 0; i < b.states_size(); ++i) n.states.emplace(b.states(i).name(), i);
  for (int i = 0; i < b.senses_size(); ++i) n.senses.emplace(b.senses(i).name(), i);
  for (int i = 0; i < b.stats_size(); ++i) n.stats.emplace(b.stats(i).name(), i);
  n.archetype = b.archetype();
  return n;
}

const pb::Brain* brainOf(const pb::Scenario& s, const std::string& archetype) {
  for (const pb::Brain& b : s.brains()) {
    if (b.archetype() == archetype) return &b;
  }
  return nullptr;
}

std::int32_t stateIndexIn(const pb::Brain& b, const std::string& name) {
  for (int i = 0; i < b.states_size(); ++i) {
    if (b.states(i).name() == name) return i;
  }
  return -1;
}

std::vector<std::string> signalNamesOf(const pb::Scenario& s) {
  std::set<std::string> names;
  for (const pb::Brain& b : s.brains()) {
    for (const auto& st : b.states()) {
      for (const auto& t : st.transitions()) collectSignals(t.when(), names, 0);
    }
    if (b.has_decide()) collectSignals(b.decide(), names, 0);
  }
  return {names.begin(), names.end()};
}

}  // namespace steerd
