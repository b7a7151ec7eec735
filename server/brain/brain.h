// Action selection (Reynolds' top layer): a data-driven hierarchical state machine per archetype.
// This header is the compiled form of a scenario's `brains` and the pure logic on it: which
// transition fires, or which leaf of the decision tree is reached, given what an agent
// perceives. What "perceives" means (grid queries, line of sight) is the world's business: it
// passes a query object to `nextState`.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace steerd::brain {

inline constexpr std::size_t kMaxSenses = 4;
inline constexpr std::size_t kMaxStats = 4;
inline constexpr std::size_t kMaxStates = 64;
inline constexpr std::size_t kMaxOrders = 4;  // fetch orders per state

enum class Test : std::uint8_t {
  kNear,            // index: archetype, value: metres; index2: its brain's state (-1: any), signal
  kFar,             // index: archetype, value: metres; as kNear
  kSees,            // index: sense
  kSeenWithin,      // index: sense, value: seconds
  kInStateFor,      // value: seconds
  kStatOver,        // index: stat, value
  kStatUnder,       // index: stat, value
  kChance,          // value: probability per second
  kGroupStrays,     // index: member archetype, index2: group archetype, value: metres
  kClosestToStray,  // as kGroupStrays, and no agent of my archetype is nearer to the stray
  kPathFinished,
  kHasOrder,  // value: 1 (holds a fetch order) or 0 (holds none)
  kSignal,    // index: signal (into Brain::signals)
  kDoorOpen,  // index: the scenario's door; value: 1 (open) or 0 (shut)
  kAll,
  kAny,
  kNot,
};

struct ConditionNode {
  Test test = Test::kAll;
  std::int32_t index = -1;
  float value = 0.0f;
  std::vector<std::int32_t> children;  // into Brain::conditions (all/any/not)
  std::int32_t index2 = -1;
  std::int32_t signal = -1;  // kNear, kFar: the other agent has this signal (Brain::signals) raised; -1: any
};

struct Transition {
  std::int32_t to = 0;
  std::int32_t condition = 0;  // root node in Brain::conditions
};

// A node of a decision tree: a branch (condition, yes, no) or a leaf (state).
struct DecisionNode {
  std::int32_t condition = -1;     // into Brain::conditions; -1: a leaf
  std::int32_t yes = -1, no = -1;  // into Brain::tree
  std::int32_t state = -1;
};

// A fetch order a state gives (the trail boss's): at each think, the member of `stray` farthest
// beyond `metres` from the centroid of `group` that nobody is fetching yet goes to the nearest
// agent of `to` holding no order, while fewer than `atOnce` of the orders this entry gave are in
// force (the world applies it: brain_think.h).
struct FetchOrder {
  std::int32_t stray = 0;  // archetypes
  std::int32_t group = 0;
  float metres = 0.0f;
  std::int32_t to = 0;
  std::uint32_t atOnce = 1;
  float giveUpAfter = 0.0f;  // s; > 0: an order not done by then ends (brain_think.h); 0: never
};

struct State {
  std::string name;
  std::int32_t parent = -1;
  std::int32_t initialChild = -1;
  std::array<float, kMaxStats> statRates{};  // per second
  std::vector<Transition> transitions;
  std::vector<FetchOrder> orders;  // given at each think in this state or one of its children
};

struct Sense {
  std::string name;
  std::uint16_t archetype = 0;
  float range = 0.0f;
  float cosHalfFov = -1.0f;  // -1: all around
};

struct Stat {
  std::string name;
  float initial = 0.0f, min = 0.0f, max = 100.0f;
};

struct Brain {
  std::vector<State> states;
  std::vector<ConditionNode> conditions;
  std::vector<Sense> senses;
  std::vector<Stat> stats;
  std::vector<DecisionNode> tree;  // root first; empty: the states' transitions choose
  // Names of the signals its conditions read (kSignal's index, ConditionNode::signal): the world
  // maps them to its own signal numbers (ArchetypeRuntime::signalBit).
  std::vector<std::string> signals;
  std::int32_t initial = 0;
  std::uint32_t thinkEvery = 6;  // ticks

  // The leaf a transition into `state` lands in (descending through initial children).
  std::int32_t enterLeaf(std::int32_t state) const {
    for (std::size_t guard = 0; guard < states.size() && states[state].initialChild >= 0; ++guard) {
      state = states[state].initialChild;
    }
    return state;
  }
  bool givesOrders() const {
    return std::any_of(states.begin(), states.end(), [](const State& s) { return !s.orders.empty(); });
  }
};

// Whether `current` is `state` or a state inside it (a descendant).
inline bool withinState(const Brain& brain, std::int32_t current, std::int32_t state) {
  for (std::size_t guard = 0; current >= 0 && guard <= brain.states.size(); ++guard) {
    if (current == state) return true;
    if (static_cast<std::size_t>(current) >= brain.states.size()) return false;
    current = brain.states[static_cast<std::size_t>(current)].parent;
  }
  return false;
}

// A state's name with its ancestors', outermost first ("combat/flee/cower"); "#N" for no such state.
inline std::string statePath(const Brain& brain, std::uint8_t state) {
  if (state >= brain.states.size()) {
    std::string unknown = "#";  // appended, not "#" + ...: GCC 12 warns falsely on that (-Wrestrict)
    unknown += std::to_string(state);
    return unknown;
  }
  std::string name = brain.states[state].name;
  std::int32_t parent = brain.states[state].parent;
  for (std::size_t guard = 0;
       parent >= 0 && static_cast<std::size_t>(parent) < brain.states.size() && guard < brain.states.size();
       ++guard) {
    name = brain.states[static_cast<std::size_t>(parent)].name + "/" + name;
    parent = brain.states[static_cast<std::size_t>(parent)].parent;
  }
  return name;
}

// What a condition may ask about the agent and its surroundings. The world implements it.
//   near(archetype, metres), nearMarked(archetype, metres, state, signal) (only agents in that
//   state of their brain or a state inside it, and with that signal raised; -1: either test off),
//   signal(index) (the agent's own), sees(sense), secondsSinceSeen(sense) (infinity: never),
//   secondsInState(), stat(index), roll() in [0, 1), thinkSeconds() (the interval the roll
//   covers), groupStrays(member, group, metres), closestToStray(member, group, metres), pathFinished(),
//   hasOrder() (the agent holds a fetch order), doorOpen(index) (the scenario's door, now)
template <class Q>
bool evaluate(const Brain& brain, std::int32_t node, Q& q) {
  const ConditionNode& c = brain.conditions[static_cast<std::size_t>(node)];
  switch (c.test) {
    case Test::kNear:
    case Test::kFar: {
      const bool near = c.index2 < 0 && c.signal < 0 ? q.near(c.index, c.value)
                                                     : q.nearMarked(c.index, c.value, c.index2, c.signal);
      return c.test == Test::kNear ? near : !near;
    }
    case Test::kSignal:
      return q.signal(c.index);
    case Test::kDoorOpen:
      return q.doorOpen(c.index) == (c.value != 0.0f);
    case Test::kSees:
      return q.sees(c.index);
    case Test::kSeenWithin:
      return q.secondsSinceSeen(c.index) <= c.value;
    case Test::kInStateFor:
      return q.secondsInState() >= c.value;
    case Test::kStatOver:
      return q.stat(c.index) > c.value;
    case Test::kStatUnder:
      return q.stat(c.index) < c.value;
    case Test::kChance:
      // Probability of at least one event in the interval since the last think.
      return q.roll() < 1.0f - std::pow(1.0f - std::min(c.value, 1.0f), q.thinkSeconds());
    case Test::kGroupStrays:
      return q.groupStrays(c.index, c.index2, c.value);
    case Test::kClosestToStray:
      return q.closestToStray(c.index, c.index2, c.value);
    case Test::kPathFinished:
      return q.pathFinished();
    case Test::kHasOrder:
      return q.hasOrder() == (c.value != 0.0f);
    case Test::kAll:
      for (std::int32_t child : c.children) {
        if (!evaluate(brain, child, q)) return false;
      }
      return true;
    case Test::kAny:
      for (std::int32_t child : c.children) {
        if (evaluate(brain, child, q)) return true;
      }
      return false;
    case Test::kNot:
      return !evaluate(brain, c.children.front(), q);
  }
  return false;
}

// The state the decision tree names, walked from its root; -1 for a tree that never reaches a
// leaf (malformed: attachBrains never builds one; the step bound keeps a cycle from hanging).
template <class Q>
std::int32_t decide(const Brain& brain, Q& q) {
  std::int32_t at = 0;
  for (std::size_t steps = 0; steps < brain.tree.size() && at >= 0; ++steps) {
    const DecisionNode& n = brain.tree[static_cast<std::size_t>(at)];
    if (n.condition < 0) return n.state;
    at = evaluate(brain, n.condition, q) ? n.yes : n.no;
  }
  return -1;
}

// The state after one think. With a tree, the leaf it decides (entering initial children); naming
// the current state or one of its ancestors keeps it, so in_state_for keeps counting. Otherwise the first
// transition whose condition holds, checking the outermost ancestor's transitions first; `current` if none
// fires (or one leads back to it).
template <class Q>
std::int32_t nextState(const Brain& brain, std::int32_t current, Q& q) {
  if (!brain.tree.empty()) {
    const std::int32_t decided = decide(brain, q);
    for (std::int32_t s = current; s >= 0; s = brain.states[s].parent) {
      if (s == decided) return current;  // already there (or inside it): no re-entry
    }
    return decided < 0 ? current : brain.enterLeaf(decided);
  }
  std::array<std::int32_t, kMaxStates> chain{};
  std::size_t depth = 0;
  for (std::int32_t s = current; s >= 0 && depth < chain.size(); s = brain.states[s].parent)
    chain[depth++] = s;
  while (depth > 0) {
    const State& s = brain.states[chain[--depth]];
    for (const Transition& t : s.transitions) {
      if (evaluate(brain, t.condition, q)) return brain.enterLeaf(t.to);
    }
  }
  return current;
}

}  // namespace steerd::brain
