// A checked scenario file's brains compiled into brain::Brain (conditions flattened, the decision
// tree root first), and each state's behaviour set on its archetype.
#include <algorithm>
#include <cmath>
#include <memory>

#include "scenario/scenario_brain_names.h"
#include "scenario/scenario_brains.h"

namespace steerd {

namespace {

namespace pb = steerd::scenario;

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
    case pb::Condition::kDoorOpen:
    case pb::Condition::kDoorShut:
      node.test = brain::Test::kDoorOpen;
      node.index = names.doors.at(c.has_door_open() ? c.door_open() : c.door_shut());
      node.value = c.has_door_open() ? 1.0f : 0.0f;
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

// The brain itself: senses, stats, states with their transitions, the decision tree.
std::shared_ptr<brain::Brain> compileBrain(const pb::Scenario& s, const pb::Brain& pbBrain,
                                           const Names& names) {
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
  return b;
}

// Each state's behaviours: its own, else its nearest ancestor's, else the archetype's.
void setStateBehaviours(const pb::Brain& pbBrain, const brain::Brain& b, const Names& names,
                        Archetype& arch) {
  arch.stateBehaviours.assign(b.states.size(), {});
  for (int i = 0; i < pbBrain.states_size(); ++i) {
    std::int32_t at = i;
    while (at >= 0 && pbBrain.states(at).behaviours_size() == 0)
      at = b.states[static_cast<std::size_t>(at)].parent;
    if (at < 0) {
      arch.stateBehaviours[static_cast<std::size_t>(i)] = arch.behaviours;
    } else {
      for (const auto& beh : pbBrain.states(at).behaviours()) {
        arch.stateBehaviours[static_cast<std::size_t>(i)].push_back(specOf(beh, names));
      }
    }
  }
}

}  // namespace

void attachBrains(const pb::Scenario& s, const Names& names, std::vector<Archetype>& archetypes) {
  for (const pb::Brain& pbBrain : s.brains()) {
    Archetype& arch = archetypes[static_cast<std::size_t>(names.archetypes.at(pbBrain.archetype()))];
    std::shared_ptr<brain::Brain> b = compileBrain(s, pbBrain, names);
    setStateBehaviours(pbBrain, *b, names, arch);
    arch.brain = std::move(b);
  }
}

}  // namespace steerd
