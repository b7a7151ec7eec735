#include "scenario/scenario_brains.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace steerd {

namespace {

namespace pb = steerd::scenario;
using scenario_check::Checker;
using scenario_check::NameSets;
using scenario_check::num;
using scenario_check::quoted;

constexpr int kMaxConditionDepth = 16;
constexpr int kMaxTreeDepth = 16;  // decisions from the root to a leaf

struct BrainNames {
  std::map<std::string, int> states, senses, stats;
  std::string archetype;
  bool ordered = false;  // some state's fetch orders send this archetype (has_order can change)
  const pb::Scenario* scenario = nullptr;  // the whole file: other archetypes' brains
};

// The brain the file gives `archetype`, or null.
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

BrainNames brainNamesOf(const pb::Brain& b) {
  BrainNames n;
  for (int i = 0; i < b.states_size(); ++i) n.states.emplace(b.states(i).name(), i);
  for (int i = 0; i < b.senses_size(); ++i) n.senses.emplace(b.senses(i).name(), i);
  for (int i = 0; i < b.stats_size(); ++i) n.stats.emplace(b.stats(i).name(), i);
  n.archetype = b.archetype();
  return n;
}

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

void validateCondition(const pb::Condition& c, const std::string& f, const NameSets& names,
                       const BrainNames& brain, Checker& check, int depth) {
  if (depth > kMaxConditionDepth) {
    check.error(f, "conditions nested deeper than " + std::to_string(kMaxConditionDepth));
    return;
  }
  auto archetype = [&](const pb::Proximity& p, const std::string& field) {
    if (!names.archetypes.count(p.archetype())) {
      check.error(field + ".archetype", "no archetype named " + quoted(p.archetype()));
    }
    const bool marked = c.has_near() || c.has_far();  // state and signal filter near and far only
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
  };
  switch (c.test_case()) {
    case pb::Condition::kNear:
      return archetype(c.near(), f + ".near");
    case pb::Condition::kFar:
      return archetype(c.far(), f + ".far");
    case pb::Condition::kGroupStrays:
      return archetype(c.group_strays(), f + ".group_strays");
    case pb::Condition::kClosestToStray:
      return archetype(c.closest_to_stray(), f + ".closest_to_stray");
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

std::int32_t compileCondition(const pb::Condition& c, const Names& names, const BrainNames& bn,
                              brain::Brain& b) {
  brain::ConditionNode node;
  // Into the brain's own list of signal names (the world maps them to its signals).
  auto signalIndex = [&](const std::string& name) {
    auto it = std::find(b.signals.begin(), b.signals.end(), name);
    if (it == b.signals.end()) it = b.signals.insert(b.signals.end(), name);
    return static_cast<std::int32_t>(it - b.signals.begin());
  };
  auto proximity = [&](brain::Test t, const pb::Proximity& p) {
    node.test = t;
    node.index = names.archetypes.at(p.archetype());
    node.value = p.metres();
    if (t != brain::Test::kNear && t != brain::Test::kFar) return;
    if (!p.state().empty()) node.index2 = stateIndexIn(*brainOf(*bn.scenario, p.archetype()), p.state());
    if (!p.signal().empty()) node.signal = signalIndex(p.signal());
  };
  switch (c.test_case()) {
    case pb::Condition::kNear:
      proximity(brain::Test::kNear, c.near());
      break;
    case pb::Condition::kFar:
      proximity(brain::Test::kFar, c.far());
      break;
    case pb::Condition::kGroupStrays:
    case pb::Condition::kClosestToStray: {
      const pb::Proximity& p = c.has_group_strays() ? c.group_strays() : c.closest_to_stray();
      proximity(c.has_group_strays() ? brain::Test::kGroupStrays : brain::Test::kClosestToStray, p);
      node.index2 = p.group().empty() ? node.index : names.archetypes.at(p.group());
      break;
    }
    case pb::Condition::kSees:
      node.test = brain::Test::kSees;
      node.index = bn.senses.at(c.sees());
      break;
    case pb::Condition::kSeenWithin:
      node.test = brain::Test::kSeenWithin;
      node.index = bn.senses.at(c.seen_within().sense());
      node.value = c.seen_within().seconds();
      break;
    case pb::Condition::kInStateFor:
      node.test = brain::Test::kInStateFor;
      node.value = c.in_state_for();
      break;
    case pb::Condition::kStatOver:
      node.test = brain::Test::kStatOver;
      node.index = bn.stats.at(c.stat_over().stat());
      node.value = c.stat_over().value();
      break;
    case pb::Condition::kStatUnder:
      node.test = brain::Test::kStatUnder;
      node.index = bn.stats.at(c.stat_under().stat());
      node.value = c.stat_under().value();
      break;
    case pb::Condition::kChancePerSecond:
      node.test = brain::Test::kChance;
      node.value = c.chance_per_second();
      break;
    case pb::Condition::kPathFinished:
      node.test = brain::Test::kPathFinished;
      break;
    case pb::Condition::kHasOrder:
      node.test = brain::Test::kHasOrder;
      node.value = c.has_order() ? 1.0f : 0.0f;
      break;
    case pb::Condition::kSignal:
      node.test = brain::Test::kSignal;
      node.index = signalIndex(c.signal());
      break;
    case pb::Condition::kAll:
    case pb::Condition::kAny:
      node.test = c.has_all() ? brain::Test::kAll : brain::Test::kAny;
      for (const auto& child : (c.has_all() ? c.all() : c.any()).of()) {
        node.children.push_back(compileCondition(child, names, bn, b));
      }
      break;
    case pb::Condition::kNot:
      node.test = brain::Test::kNot;
      node.children.push_back(compileCondition(c.not_(), names, bn, b));
      break;
    case pb::Condition::TEST_NOT_SET:
      break;
  }
  b.conditions.push_back(std::move(node));
  return static_cast<std::int32_t>(b.conditions.size() - 1);
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

// Root first, each branch before its subtrees; returns the node's index in Brain::tree.
std::int32_t compileTree(const pb::DecisionNode& n, const Names& names, const BrainNames& bn,
                         brain::Brain& b) {
  const std::size_t at = b.tree.size();
  b.tree.emplace_back();
  if (!n.has_when()) {
    b.tree[at].state = bn.states.at(n.state());
    return static_cast<std::int32_t>(at);
  }
  // Indices, not references: the recursion grows the vectors.
  const std::int32_t condition = compileCondition(n.when(), names, bn, b);
  const std::int32_t yes = compileTree(n.yes(), names, bn, b);
  const std::int32_t no = compileTree(n.no(), names, bn, b);
  b.tree[at] = {condition, yes, no, -1};
  return static_cast<std::int32_t>(at);
}

}  // namespace

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

void validateBrains(const pb::Scenario& s, const NameSets& names, Checker& c) {
  if (const auto signals = signalNamesOf(s); signals.size() > kMaxSignalNames) {
    c.error("brains", "conditions name " + std::to_string(signals.size()) +
                          " signals; a world holds at most " + std::to_string(kMaxSignalNames));
  }
  std::set<std::string> driven;
  for (int i = 0; i < s.brains_size(); ++i) {
    const pb::Brain& b = s.brains(i);
    const std::string f = "brains[" + std::to_string(i) + "] (" + quoted(b.archetype()) + ")";
    if (!names.archetypes.count(b.archetype()))
      c.error(f + ".archetype", "no archetype named " + quoted(b.archetype()));
    if (!driven.insert(b.archetype()).second)
      c.error(f + ".archetype", "a second brain for the same archetype");
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
    if (b.think_every_ticks() > 600) {
      c.error(f + ".think_every_ticks", "at most 600, not " + std::to_string(b.think_every_ticks()));
    }
    BrainNames bn = brainNamesOf(b);
    bn.ordered = orderedBySomeBrain(s, b.archetype());
    bn.scenario = &s;
    if (static_cast<int>(bn.states.size()) != b.states_size())
      c.error(f + ".states", "duplicate state names");
    if (static_cast<int>(bn.senses.size()) != b.senses_size())
      c.error(f + ".senses", "duplicate sense names");
    if (static_cast<int>(bn.stats.size()) != b.stats_size()) c.error(f + ".stats", "duplicate stat names");
    if (!bn.states.count(b.initial_state())) {
      c.error(f + ".initial_state", "no state named " + quoted(b.initial_state()));
    }
    if (b.has_decide()) validateTree(b.decide(), f + ".decide", names, bn, c, 0);
    for (int k = 0; k < b.senses_size(); ++k) {
      const auto& sense = b.senses(k);
      const std::string sf = f + ".senses[" + std::to_string(k) + "]";
      if (!names.archetypes.count(sense.archetype())) {
        c.error(sf + ".archetype", "no archetype named " + quoted(sense.archetype()));
      }
      c.positive(sf + ".range", sense.range());
      c.nonNegative(sf + ".fov_deg", sense.fov_deg());
    }
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
    for (int k = 0; k < b.states_size(); ++k) {
      const auto& st = b.states(k);
      const std::string sf = f + ".states[" + std::to_string(k) + "] (" + quoted(st.name()) + ")";
      if (st.name().empty()) c.error(sf + ".name", "is empty");
      if (!st.parent().empty() && !bn.states.count(st.parent())) {
        c.error(sf + ".parent", "no state named " + quoted(st.parent()));
      }
      if (!st.initial_child().empty()) {
        auto child = bn.states.find(st.initial_child());
        if (child == bn.states.end()) {
          c.error(sf + ".initial_child", "no state named " + quoted(st.initial_child()));
        } else if (b.states(child->second).parent() != st.name()) {
          c.error(sf + ".initial_child",
                  quoted(st.initial_child()) + " is not a child of " + quoted(st.name()));
        }
      }
      // A parent chain must end: no state may be its own ancestor.
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
      if (st.behaviours_size() > 16)
        c.error(sf + ".behaviours", "at most 16, not " + std::to_string(st.behaviours_size()));
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
      if (st.orders_size() > static_cast<int>(brain::kMaxOrders)) {
        c.error(sf + ".orders",
                "at most " + std::to_string(brain::kMaxOrders) + ", not " + std::to_string(st.orders_size()));
      }
      for (int j = 0; j < st.orders_size(); ++j) {
        const auto& o = st.orders(j);
        const std::string of = sf + ".orders[" + std::to_string(j) + "]";
        if (!names.archetypes.count(o.stray()))
          c.error(of + ".stray", "no archetype named " + quoted(o.stray()));
        if (!o.group().empty() && !names.archetypes.count(o.group()))
          c.error(of + ".group", "no archetype named " + quoted(o.group()));
        if (!names.archetypes.count(o.to())) c.error(of + ".to", "no archetype named " + quoted(o.to()));
        c.positive(of + ".metres", o.metres());
        c.nonNegative(of + ".give_up_after_s", o.give_up_after_s());
      }
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
  }
}

void attachBrains(const pb::Scenario& s, const Names& names, std::vector<Archetype>& archetypes) {
  for (const pb::Brain& pbBrain : s.brains()) {
    Archetype& arch = archetypes[static_cast<std::size_t>(names.archetypes.at(pbBrain.archetype()))];
    BrainNames bn = brainNamesOf(pbBrain);
    bn.scenario = &s;
    auto b = std::make_shared<brain::Brain>();
    b->thinkEvery = pbBrain.think_every_ticks() > 0 ? pbBrain.think_every_ticks() : 6;
    b->initial = bn.states.at(pbBrain.initial_state());
    for (const auto& sense : pbBrain.senses()) {
      brain::Sense out;
      out.name = sense.name();
      out.archetype = static_cast<std::uint16_t>(names.archetypes.at(sense.archetype()));
      out.range = sense.range();
      const float fov = sense.fov_deg() > 0.0f ? std::min(sense.fov_deg(), 360.0f) : 360.0f;
      out.cosHalfFov = fov >= 360.0f ? -1.0f : std::cos(fov * 0.5f * steer::kPi / 180.0f);
      b->senses.push_back(out);
    }
    for (const auto& stat : pbBrain.stats()) {
      b->stats.push_back({stat.name(), stat.initial(), stat.min(), stat.max() == 0.0f ? 100.0f : stat.max()});
    }
    for (const auto& st : pbBrain.states()) {
      brain::State out;
      out.name = st.name();
      out.parent = st.parent().empty() ? -1 : bn.states.at(st.parent());
      out.initialChild = st.initial_child().empty() ? -1 : bn.states.at(st.initial_child());
      for (const auto& r : st.stat_rates())
        out.statRates[static_cast<std::size_t>(bn.stats.at(r.stat()))] = r.per_second();
      for (const auto& o : st.orders()) {
        const std::int32_t stray = names.archetypes.at(o.stray());
        out.orders.push_back({stray, o.group().empty() ? stray : names.archetypes.at(o.group()), o.metres(),
                              names.archetypes.at(o.to()), std::max<std::uint32_t>(o.at_once(), 1),
                              o.give_up_after_s()});
      }
      b->states.push_back(std::move(out));
    }
    for (int i = 0; i < pbBrain.states_size(); ++i) {
      for (const auto& t : pbBrain.states(i).transitions()) {
        const std::int32_t root = compileCondition(t.when(), names, bn, *b);
        b->states[static_cast<std::size_t>(i)].transitions.push_back({bn.states.at(t.to()), root});
      }
    }
    if (pbBrain.has_decide()) compileTree(pbBrain.decide(), names, bn, *b);
    // Each state's behaviours: its own, else its nearest ancestor's, else the archetype's.
    arch.stateBehaviours.assign(b->states.size(), {});
    for (int i = 0; i < pbBrain.states_size(); ++i) {
      std::int32_t at = i;
      while (at >= 0 && pbBrain.states(at).behaviours_size() == 0)
        at = b->states[static_cast<std::size_t>(at)].parent;
      if (at < 0) {
        arch.stateBehaviours[static_cast<std::size_t>(i)] = arch.behaviours;
      } else {
        for (const auto& beh : pbBrain.states(at).behaviours()) {
          arch.stateBehaviours[static_cast<std::size_t>(i)].push_back(specOf(beh, names));
        }
      }
    }
    arch.brain = std::move(b);
  }
}

}  // namespace steerd
