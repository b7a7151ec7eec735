// The check of a scenario file's brains: per brain its limits and names, senses, stats, decision
// tree, and each state (its place among its parents, behaviours, stat rates, orders, transitions).
#include <cmath>
#include <set>

#include "scenario/scenario_brain_names.h"
#include "scenario/scenario_brains.h"
#include "scenario/scenario_validate.h"

namespace steerd {

namespace {

namespace pb = steerd::scenario;
using scenario_check::Checker;
using scenario_check::NameSets;
using scenario_check::num;
using scenario_check::quoted;

constexpr int kMaxStateBehaviours = 16;
constexpr std::uint32_t kMaxThinkEveryTicks = 600;

// Whether any brain's state gives fetch orders to `archetype`.
bool orderedBySomeBrain(const pb::Scenario& s, const std::string& archetype) {
  for (const pb::Brain& b : s.brains()) {
    for (const auto& st : b.states()) {
      for (const auto& o : st.orders()) {
        if (o.to() == archetype) return true;
      }
    }
  }
  return false;
}

// near, far, group_strays and closest_to_stray: an archetype within `metres`; near and far may
// also ask for its state or signal.
void validateProximity(const pb::Proximity& p, const std::string& field, bool marked, const NameSets& names,
                       const BrainNames& brain, Checker& check) {
  if (!names.archetypes.count(p.archetype())) {
    check.error(field + ".archetype", "no archetype named " + quoted(p.archetype()));
  }
  if (!p.state().empty()) {
    const pb::Brain* other = brain.scenario ? brainOf(*brain.scenario, p.archetype()) : nullptr;
    if (!marked) {
      check.error(field + ".state", "only near and far read another agent's state");
    } else if (other == nullptr) {
      check.error(field + ".state", quoted(p.archetype()) + " has no brain, so no states");
    } else if (stateIndexIn(*other, p.state()) < 0) {
      check.error(field + ".state",
                  "no state named " + quoted(p.state()) + " in " + quoted(p.archetype()) + "'s brain");
    }
  }
  if (!p.signal().empty() && !marked)
    check.error(field + ".signal", "only near and far read another agent's signals");
  if (!p.group().empty() && !names.archetypes.count(p.group())) {
    check.error(field + ".group", "no archetype named " + quoted(p.group()));
  }
  check.positive(field + ".metres", p.metres());
}

void validateCondition(const pb::Condition& c, const std::string& f, const NameSets& names,
                       const BrainNames& brain, Checker& check, int depth) {
  if (depth > kMaxConditionDepth) {
    check.error(f, "conditions nested deeper than " + std::to_string(kMaxConditionDepth));
    return;
  }
  const bool marked = c.has_near() || c.has_far();  // state and signal filter near and far only
  switch (c.test_case()) {
    case pb::Condition::kNear:
      return validateProximity(c.near(), f + ".near", marked, names, brain, check);
    case pb::Condition::kFar:
      return validateProximity(c.far(), f + ".far", marked, names, brain, check);
    case pb::Condition::kGroupStrays:
      return validateProximity(c.group_strays(), f + ".group_strays", marked, names, brain, check);
    case pb::Condition::kClosestToStray:
      return validateProximity(c.closest_to_stray(), f + ".closest_to_stray", marked, names, brain, check);
    case pb::Condition::kSees:
      if (!brain.senses.count(c.sees())) check.error(f + ".sees", "no sense named " + quoted(c.sees()));
      return;
    case pb::Condition::kSeenWithin:
      if (!brain.senses.count(c.seen_within().sense())) {
        check.error(f + ".seen_within.sense", "no sense named " + quoted(c.seen_within().sense()));
      }
      check.nonNegative(f + ".seen_within.seconds", c.seen_within().seconds());
      return;
    case pb::Condition::kInStateFor:
      check.nonNegative(f + ".in_state_for", c.in_state_for());
      return;
    case pb::Condition::kStatOver:
    case pb::Condition::kStatUnder: {
      const auto& t = c.has_stat_over() ? c.stat_over() : c.stat_under();
      const std::string field = f + (c.has_stat_over() ? ".stat_over" : ".stat_under");
      if (!brain.stats.count(t.stat())) check.error(field + ".stat", "no stat named " + quoted(t.stat()));
      if (!std::isfinite(t.value())) check.error(field + ".value", "not a finite number: " + num(t.value()));
      return;
    }
    case pb::Condition::kChancePerSecond:
      if (!std::isfinite(c.chance_per_second()) || c.chance_per_second() < 0 || c.chance_per_second() > 1) {
        check.error(f + ".chance_per_second", "must be in [0, 1], not " + num(c.chance_per_second()));
      }
      return;
    case pb::Condition::kPathFinished:
      return;
    case pb::Condition::kSignal:
      if (c.signal().empty()) check.error(f + ".signal", "is empty");
      return;
    case pb::Condition::kDoorOpen:
    case pb::Condition::kDoorShut: {
      const std::string& door = c.has_door_open() ? c.door_open() : c.door_shut();
      if (!names.doors.count(door))
        check.error(f + (c.has_door_open() ? ".door_open" : ".door_shut"), "no door named " + quoted(door));
      return;
    }
    case pb::Condition::kHasOrder:
      // It could never change: a typo in an order's `to`, or in the brain's archetype.
      if (!brain.ordered) {
        check.error(f + ".has_order",
                    "can never change: no brain state's orders send a " + quoted(brain.archetype));
      }
      return;
    case pb::Condition::kAll:
    case pb::Condition::kAny: {
      const auto& list = c.has_all() ? c.all() : c.any();
      const std::string field = f + (c.has_all() ? ".all" : ".any");
      if (list.of_size() == 0) check.error(field, "needs at least one condition");
      for (int i = 0; i < list.of_size(); ++i) {
        validateCondition(list.of(i), field + ".of[" + std::to_string(i) + "]", names, brain, check,
                          depth + 1);
      }
      return;
    }
    case pb::Condition::kNot:
      validateCondition(c.not_(), f + ".not", names, brain, check, depth + 1);
      return;
    case pb::Condition::TEST_NOT_SET:
      check.error(f,
                  "empty condition (near, far, sees, seen_within, in_state_for, stat_over, stat_under, "
                  "chance_per_second, group_strays, closest_to_stray, path_finished, has_order, signal, all, "
                  "any or not)");
      return;
  }
}

// A node is a branch (when, yes, no) or a leaf (state), never a mix: a half-written branch
// would otherwise silently become a leaf, or a leaf's state be ignored.
void validateTree(const pb::DecisionNode& n, const std::string& f, const NameSets& names,
                  const BrainNames& brain, Checker& check, int depth) {
  if (depth > kMaxTreeDepth) {
    check.error(f, "a decision tree deeper than " + std::to_string(kMaxTreeDepth) + " decisions");
    return;
  }
  if (!n.has_when()) {
    if (n.has_yes() || n.has_no()) {
      check.error(f + ".when", "missing (a branch with yes and no needs a condition)");
    } else if (n.state().empty()) {
      check.error(f + ".state", "missing (a leaf names a state; a branch has when, yes and no)");
    } else if (!brain.states.count(n.state())) {
      check.error(f + ".state", "no state named " + quoted(n.state()));
    }
    return;
  }
  validateCondition(n.when(), f + ".when", names, brain, check, 0);
  if (!n.state().empty()) {
    check.error(f + ".state", quoted(n.state()) + " on a branch (a node has when, yes and no, or a state)");
  }
  if (!n.has_yes()) check.error(f + ".yes", "missing (a branch needs yes and no)");
  if (!n.has_no()) check.error(f + ".no", "missing (a branch needs yes and no)");
  if (n.has_yes()) validateTree(n.yes(), f + ".yes", names, brain, check, depth + 1);
  if (n.has_no()) validateTree(n.no(), f + ".no", names, brain, check, depth + 1);
}

// How many states, senses and stats, and how often it thinks.
void validateBrainLimits(const pb::Brain& b, const std::string& f, Checker& c) {
  if (b.states_size() == 0) c.error(f + ".states", "a brain needs at least one state");
  if (b.states_size() > static_cast<int>(brain::kMaxStates)) {
    c.error(f + ".states",
            "at most " + std::to_string(brain::kMaxStates) + ", not " + std::to_string(b.states_size()));
  }
  if (b.senses_size() > static_cast<int>(brain::kMaxSenses)) {
    c.error(f + ".senses",
            "at most " + std::to_string(brain::kMaxSenses) + ", not " + std::to_string(b.senses_size()));
  }
  if (b.stats_size() > static_cast<int>(brain::kMaxStats)) {
    c.error(f + ".stats",
            "at most " + std::to_string(brain::kMaxStats) + ", not " + std::to_string(b.stats_size()));
  }
  if (b.think_every_ticks() > kMaxThinkEveryTicks) {
    c.error(f + ".think_every_ticks", "at most " + std::to_string(kMaxThinkEveryTicks) + ", not " +
                                          std::to_string(b.think_every_ticks()));
  }
}

// States, senses and stats named once each, and the initial state one of them.
void validateBrainNames(const pb::Brain& b, const BrainNames& bn, const std::string& f, Checker& c) {
  if (static_cast<int>(bn.states.size()) != b.states_size()) c.error(f + ".states", "duplicate state names");
  if (static_cast<int>(bn.senses.size()) != b.senses_size()) c.error(f + ".senses", "duplicate sense names");
  if (static_cast<int>(bn.stats.size()) != b.stats_size()) c.error(f + ".stats", "duplicate stat names");
  if (!bn.states.count(b.initial_state())) {
    c.error(f + ".initial_state", "no state named " + quoted(b.initial_state()));
  }
}

void validateSenses(const pb::Brain& b, const std::string& f, const NameSets& names, Checker& c) {
  for (int k = 0; k < b.senses_size(); ++k) {
    const auto& sense = b.senses(k);
    const std::string sf = f + ".senses[" + std::to_string(k) + "]";
    if (!names.archetypes.count(sense.archetype())) {
      c.error(sf + ".archetype", "no archetype named " + quoted(sense.archetype()));
    }
    c.positive(sf + ".range", sense.range());
    c.nonNegative(sf + ".fov_deg", sense.fov_deg());
  }
}

void validateStats(const pb::Brain& b, const std::string& f, Checker& c) {
  for (int k = 0; k < b.stats_size(); ++k) {
    const auto& stat = b.stats(k);
    const std::string sf = f + ".stats[" + std::to_string(k) + "]";
    const float max = stat.max() == 0.0f ? 100.0f : stat.max();
    if (!std::isfinite(stat.initial()) || !std::isfinite(stat.min()) || !std::isfinite(stat.max()) ||
        stat.min() > max || stat.initial() < stat.min() || stat.initial() > max) {
      c.error(sf, "needs min <= initial <= max, finite (min " + num(stat.min()) + ", initial " +
                      num(stat.initial()) + ", max " + num(max) + ")");
    }
  }
}

// A state's name, parent and initial child; a parent chain must end (no state its own ancestor).
void validateStateNesting(const pb::Brain& b, const pb::State& st, const BrainNames& bn,
                          const std::string& sf, Checker& c) {
  if (st.name().empty()) c.error(sf + ".name", "is empty");
  if (!st.parent().empty() && !bn.states.count(st.parent())) {
    c.error(sf + ".parent", "no state named " + quoted(st.parent()));
  }
  if (!st.initial_child().empty()) {
    auto child = bn.states.find(st.initial_child());
    if (child == bn.states.end()) {
      c.error(sf + ".initial_child", "no state named " + quoted(st.initial_child()));
    } else if (b.states(child->second).parent() != st.name()) {
      c.error(sf + ".initial_child", quoted(st.initial_child()) + " is not a child of " + quoted(st.name()));
    }
  }
  std::string at = st.parent();
  for (int hops = 0; !at.empty(); ++hops) {
    if (at == st.name() || hops > b.states_size()) {
      c.error(sf + ".parent", "the parent chain loops back to " + quoted(st.name()));
      break;
    }
    auto it = bn.states.find(at);
    if (it == bn.states.end()) break;
    at = b.states(it->second).parent();
  }
}

// Fetch orders: which strays, home group and fetcher, how near, for how long.
void validateOrders(const pb::State& st, const std::string& sf, const NameSets& names, Checker& c) {
  if (st.orders_size() > static_cast<int>(brain::kMaxOrders)) {
    c.error(sf + ".orders",
            "at most " + std::to_string(brain::kMaxOrders) + ", not " + std::to_string(st.orders_size()));
  }
  for (int j = 0; j < st.orders_size(); ++j) {
    const auto& o = st.orders(j);
    const std::string of = sf + ".orders[" + std::to_string(j) + "]";
    if (!names.archetypes.count(o.stray())) c.error(of + ".stray", "no archetype named " + quoted(o.stray()));
    if (!o.group().empty() && !names.archetypes.count(o.group()))
      c.error(of + ".group", "no archetype named " + quoted(o.group()));
    if (!names.archetypes.count(o.to())) c.error(of + ".to", "no archetype named " + quoted(o.to()));
    c.positive(of + ".metres", o.metres());
    c.nonNegative(of + ".give_up_after_s", o.give_up_after_s());
  }
}

void validateTransitions(const pb::Brain& b, const pb::State& st, const BrainNames& bn, const std::string& sf,
                         const NameSets& names, Checker& c) {
  if (b.has_decide() && st.transitions_size() > 0) {
    c.error(sf + ".transitions", "a brain with `decide` chooses by its tree; transitions are not used");
  }
  for (int j = 0; j < st.transitions_size(); ++j) {
    const auto& t = st.transitions(j);
    const std::string tf = sf + ".transitions[" + std::to_string(j) + "]";
    if (!bn.states.count(t.to())) c.error(tf + ".to", "no state named " + quoted(t.to()));
    if (!t.has_when()) {
      c.error(tf + ".when", "missing (a transition needs a condition)");
    } else {
      validateCondition(t.when(), tf + ".when", names, bn, c, 0);
    }
  }
}

void validateState(const pb::Scenario& s, const pb::Brain& b, int k, const BrainNames& bn,
                   const std::string& f, const NameSets& names, Checker& c) {
  const auto& st = b.states(k);
  const std::string sf = f + ".states[" + std::to_string(k) + "] (" + quoted(st.name()) + ")";
  validateStateNesting(b, st, bn, sf, c);
  if (st.behaviours_size() > kMaxStateBehaviours)
    c.error(sf + ".behaviours", "at most " + std::to_string(kMaxStateBehaviours) + ", not " +
                                    std::to_string(st.behaviours_size()));
  for (int j = 0; j < st.behaviours_size(); ++j) {
    validateBehaviour(s, b.archetype(), st.behaviours(j), sf + ".behaviours[" + std::to_string(j) + "]",
                      names, c);
  }
  for (int j = 0; j < st.stat_rates_size(); ++j) {
    const auto& r = st.stat_rates(j);
    const std::string rf = sf + ".stat_rates[" + std::to_string(j) + "]";
    if (!bn.stats.count(r.stat())) c.error(rf + ".stat", "no stat named " + quoted(r.stat()));
    if (!std::isfinite(r.per_second()))
      c.error(rf + ".per_second", "not a finite number: " + num(r.per_second()));
  }
  validateOrders(st, sf, names, c);
  validateTransitions(b, st, bn, sf, names, c);
}

void validateBrain(const pb::Scenario& s, int i, const NameSets& names, std::set<std::string>& driven,
                   Checker& c) {
  const pb::Brain& b = s.brains(i);
  const std::string f = "brains[" + std::to_string(i) + "] (" + quoted(b.archetype()) + ")";
  if (!names.archetypes.count(b.archetype()))
    c.error(f + ".archetype", "no archetype named " + quoted(b.archetype()));
  if (!driven.insert(b.archetype()).second)
    c.error(f + ".archetype", "a second brain for the same archetype");
  validateBrainLimits(b, f, c);
  BrainNames bn = brainNamesOf(b);
  bn.ordered = orderedBySomeBrain(s, b.archetype());
  bn.scenario = &s;
  validateBrainNames(b, bn, f, c);
  if (b.has_decide()) validateTree(b.decide(), f + ".decide", names, bn, c, 0);
  validateSenses(b, f, names, c);
  validateStats(b, f, c);
  for (int k = 0; k < b.states_size(); ++k) validateState(s, b, k, bn, f, names, c);
}

}  // namespace

void validateBrains(const pb::Scenario& s, const NameSets& names, Checker& c) {
  if (const auto signals = signalNamesOf(s); signals.size() > kMaxSignalNames) {
    c.error("brains", "conditions name " + std::to_string(signals.size()) +
                          " signals; a world holds at most " + std::to_string(kMaxSignalNames));
  }
  std::set<std::string> driven;
  for (int i = 0; i < s.brains_size(); ++i) validateBrain(s, i, names, driven, c);
}

}  // namespace steerd
