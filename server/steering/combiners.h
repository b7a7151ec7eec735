// Combining several behaviours into one request (STEERING.md section 5; seed 000 slides 61-67
// after Buckland ch. 3 and Reynolds; seed 004 and Millington for priority groups).
//
// Two input forms, one algorithm each:
//   * WeightedBehaviour: an output the caller already evaluated. Simple to build and to test, and
//     right for weighted blending, which needs every output anyway.
//   * LazyBehaviour: a non-owning reference to a callable that evaluates the behaviour on demand.
//     Priority, the running sum, dithering and priority groups stop early; a lazily given
//     behaviour that is skipped is never computed, which is the point of those combiners (seed 000:
//     "plus saves CPU"). BehaviourRef is a two-pointer function_ref (std::function_ref is C++26):
//     no heap, no virtual call through an owned object, no type erasure that allocates.
// Both are read through std::span, so the set of behaviours can be runtime data (per archetype)
// and nothing here allocates or sorts the caller's array.
//
// Priority order: a lower `priority` value is evaluated first; equal values keep input order.
// The order is found by repeated selection (O(n * distinct priorities)), not by sorting: n is a
// handful (Buckland's vehicle has ~15 behaviours) and the input stays const.
//
// The budget (maxLinear) is on `linear`, as in Buckland. `angular` rides along: it is weighted and
// summed the same way and clamped to +/-maxAngular at the end, but never stops evaluation.
#pragma once

#include <algorithm>
#include <cmath>
#include <concepts>
#include <memory>
#include <span>
#include <type_traits>

#include "body.h"
#include "random.h"

namespace steer {

struct CombineLimits {
  float maxLinear = 1.0f;   // maxForce for dynamic outputs, maxSpeed for kinematic ones
  float maxAngular = 1.0f;  // maxAngularAcceleration, or maxRotation
  // An output counts as "something" (priority, dithering, groups) when |linear| or |angular|
  // exceeds this.
  float epsilon = kEpsilon;
};

inline CombineLimits forceLimitsOf(const BodyLimits& limits) {
  return {limits.maxForce, limits.maxAngularAcceleration, kEpsilon};
}

// The linear half of Buckland's running sum for any lane type (lanes.h), shared by the combiner
// below and the world's four-lane path: the budget, what is left of it, and one weighted force
// added. The force that overflows is cut to exactly the budget left, and nothing after it runs
// (stopping there rather than on the next remaining <= 0 test keeps float round-off from letting
// a sliver of the next force in). A select, not a branch: which force overflows varies from agent
// to agent and tick to tick, so a branch here mispredicts.
inline float runningSumBudget(const CombineLimits& limits) {
  return limits.maxLinear > 0.0f ? limits.maxLinear : 0.0f;
}
template <class V>
lanes::LaneOf<V> runningSumRemaining(V total, float budget) {
  return lanes::Ops<V>::splat(budget) - lanes::length(total);
}
template <class V>
V runningSumAdd(V total, V weighted, lanes::LaneOf<V> remaining, lanes::MaskOf<V>& overflows) {
  using O = lanes::Ops<V>;
  const lanes::LaneOf<V> magnitude = lanes::length(weighted);
  overflows = magnitude >= remaining;
  return total + weighted * O::select(overflows, remaining / magnitude, O::splat(1.0f));
}

struct WeightedBehaviour {
  SteeringOutput output;
  float weight = 1.0f;
  int priority = 0;          // lower runs first; equal values form one priority group
  float probability = 1.0f;  // dithering only: chance this behaviour is evaluated on a tick
};

class BehaviourRef;

template <typename F>
concept SteeringCallable =
    !std::is_same_v<std::remove_cv_t<F>, BehaviourRef> && std::is_invocable_r_v<SteeringOutput, F&>;

// Non-owning reference to a callable `SteeringOutput()`. The callable must outlive the ref: bind
// it to a named lambda in the caller's frame. Binding a temporary does not compile.
class BehaviourRef {
 public:
  template <SteeringCallable F>
  BehaviourRef(F& f)  // NOLINT(google-explicit-constructor): implicit so {lambda, w, p} reads well
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* o) -> SteeringOutput { return (*static_cast<F*>(o))(); }) {}
  template <typename F>
  BehaviourRef(const F&&) = delete;

  SteeringOutput operator()() const { return call_(object_); }

 private:
  void* object_;
  SteeringOutput (*call_)(void*);
};

struct LazyBehaviour {
  BehaviourRef evaluate;
  float weight = 1.0f;
  int priority = 0;
  float probability = 1.0f;
};

// The algorithms, generic over the element type. Any B with `weight`, `priority` and `probability`
// members and an `evaluate(const B&)` found by argument-dependent lookup works: the world uses
// this with its own per-agent behaviour record (world/agent_update.cpp), which evaluates lazily
// without a BehaviourRef. The two overload sets below are the documented entry points.
namespace detail {

inline SteeringOutput evaluate(const WeightedBehaviour& b) { return b.output; }
inline SteeringOutput evaluate(const LazyBehaviour& b) { return b.evaluate(); }

inline bool isSomething(const SteeringOutput& s, float epsilon) {
  return lengthSq(s.linear) > epsilon * epsilon || std::abs(s.angular) > epsilon;
}

inline float clampAngular(float a, float maxAngular) {
  const float m = maxAngular > 0.0f ? maxAngular : 0.0f;  // NaN or negative: no turning
  return std::clamp(a, -m, m);
}

inline SteeringOutput limit(SteeringOutput s, const CombineLimits& limits) {
  return {truncate(s.linear, limits.maxLinear), clampAngular(s.angular, limits.maxAngular)};
}

// The smallest priority value strictly greater than `after` (any value when `first`). False when
// there is none left.
template <typename B>
bool nextPriority(std::span<const B> behaviours, bool first, int after, int& out) {
  bool found = false;
  for (const B& b : behaviours) {
    if (!first && b.priority <= after) continue;
    if (!found || b.priority < out) out = b.priority;
    found = true;
  }
  return found;
}

// Calls visit(b) for every behaviour in priority order until visit returns true (stop).
// A span already sorted by priority (the world sorts each archetype's set once at load) is
// walked straight through; otherwise the order is found by repeated selection.
template <typename B>
concept DeclaresSortedByPriority = B::kSortedByPriority;

template <typename B, typename Visit>
void forEachInPriorityOrder(std::span<const B> behaviours, Visit&& visit) {
  bool sorted = true;
  if constexpr (!DeclaresSortedByPriority<B>) {
    for (std::size_t i = 1; i < behaviours.size(); ++i) {
      sorted = sorted && behaviours[i - 1].priority <= behaviours[i].priority;
    }
  }
  if (sorted) {
    for (const B& b : behaviours) {
      if (visit(b)) return;
    }
    return;
  }
  int priority = 0;
  for (bool first = true; nextPriority(behaviours, first, priority, priority); first = false) {
    for (const B& b : behaviours) {
      if (b.priority == priority && visit(b)) return;
    }
  }
}

template <typename B>
SteeringOutput weightedBlend(std::span<const B> behaviours, const CombineLimits& limits) {
  SteeringOutput sum;
  for (const B& b : behaviours) sum = sum + evaluate(b) * b.weight;
  return limit(sum, limits);
}

template <typename B>
SteeringOutput prioritised(std::span<const B> behaviours, const CombineLimits& limits) {
  SteeringOutput result;
  forEachInPriorityOrder(behaviours, [&](const B& b) {
    const SteeringOutput s = evaluate(b) * b.weight;
    if (!isSomething(s, limits.epsilon)) return false;
    result = limit(s, limits);
    return true;
  });
  return result;
}

template <typename B>
SteeringOutput runningSum(std::span<const B> behaviours, const CombineLimits& limits) {
  SteeringOutput total;
  const float budget = runningSumBudget(limits);
  forEachInPriorityOrder(behaviours, [&](const B& b) {
    // Checked BEFORE evaluating: Buckland computes the next force and then finds the budget spent;
    // here a behaviour past the budget is never computed.
    const float remaining = runningSumRemaining(total.linear, budget);
    if (!(remaining > 0.0f)) return true;
    const SteeringOutput s = evaluate(b) * b.weight;
    total.angular += s.angular;
    bool overflows = false;
    total.linear = runningSumAdd(total.linear, s.linear, remaining, overflows);
    return overflows;
  });
  total.angular = clampAngular(total.angular, limits.maxAngular);
  return total;
}

template <typename B>
SteeringOutput dithered(std::span<const B> behaviours, const CombineLimits& limits, Rng& rng) {
  SteeringOutput result;
  forEachInPriorityOrder(behaviours, [&](const B& b) {
    // One draw per behaviour reached, even at probability 1, so the stream position depends only
    // on how far down the list this tick got. uniform() is in [0, 1): p >= 1 always runs, p <= 0
    // (or NaN) never does, so the division below never sees 0.
    if (!(rng.uniform() < b.probability)) return false;
    // Buckland scales by weight / probability so that, averaged over ticks, a behaviour pushes as
    // hard as weight * F would if it ran every tick.
    const SteeringOutput s = evaluate(b) * (b.weight / b.probability);
    if (!isSomething(s, limits.epsilon)) return false;
    result = limit(s, limits);
    return true;
  });
  return result;
}

template <typename B>
SteeringOutput priorityGroups(std::span<const B> behaviours, const CombineLimits& limits) {
  int priority = 0;
  for (bool first = true; nextPriority(behaviours, first, priority, priority); first = false) {
    SteeringOutput sum;
    for (const B& b : behaviours) {
      if (b.priority == priority) sum = sum + evaluate(b) * b.weight;
    }
    const SteeringOutput group = limit(sum, limits);
    if (isSomething(group, limits.epsilon)) return group;
  }
  return {};
}

}  // namespace detail

// Any behaviour record the combiners can read: weight, priority, probability, and an
// `evaluate(b)` found by argument-dependent lookup that returns its SteeringOutput. A record type
// with `static constexpr bool kSortedByPriority = true` promises that its spans come sorted by
// priority, and the per-call order check is skipped. The world
// passes its own records this way, so its data-driven behaviour sets need no function pointers.
template <typename B>
concept CombinableBehaviour = requires(const B& b) {
  { evaluate(b) } -> std::convertible_to<SteeringOutput>;
  { b.weight } -> std::convertible_to<float>;
  { b.priority } -> std::convertible_to<int>;
  { b.probability } -> std::convertible_to<float>;
};

// (1) truncate(sum w_i F_i, maxLinear). Every behaviour is evaluated; order does not matter
// except for float rounding (input order is used, so the result is deterministic).
inline SteeringOutput weightedBlend(std::span<const WeightedBehaviour> behaviours,
                                    const CombineLimits& limits) {
  return detail::weightedBlend(behaviours, limits);
}
inline SteeringOutput weightedBlend(std::span<const LazyBehaviour> behaviours, const CombineLimits& limits) {
  return detail::weightedBlend(behaviours, limits);
}

// (2) In priority order, the first weighted output above epsilon wins (truncated); later ones
// are not evaluated. A weight of 0 turns a behaviour off. Nothing above epsilon: zero.
inline SteeringOutput prioritised(std::span<const WeightedBehaviour> behaviours,
                                  const CombineLimits& limits) {
  return detail::prioritised(behaviours, limits);
}
inline SteeringOutput prioritised(std::span<const LazyBehaviour> behaviours, const CombineLimits& limits) {
  return detail::prioritised(behaviours, limits);
}

// (3) Buckland's weighted truncated running sum with prioritisation: add w_i F_i in priority
// order while the budget maxLinear - |total| lasts; the force that overflows is cut to fit the
// budget exactly and evaluation stops. Forces 6, 6, 6 along one axis with maxLinear 10 give
// 6 + 4. The budget is spent on magnitudes, so non-parallel forces can end below maxLinear
// (6 along x then 6 along y gives (6, 4)); |total| never exceeds maxLinear.
inline SteeringOutput runningSum(std::span<const WeightedBehaviour> behaviours, const CombineLimits& limits) {
  return detail::runningSum(behaviours, limits);
}
inline SteeringOutput runningSum(std::span<const LazyBehaviour> behaviours, const CombineLimits& limits) {
  return detail::runningSum(behaviours, limits);
}

// (4) Prioritised dithering (Reynolds; Buckland's CalculateDithered): in priority order, each
// behaviour is evaluated only if rng.uniform() < probability; the first whose output
// F * weight / probability is above epsilon wins (truncated). `rng` is the agent's own stream
// for this tick (random.h).
inline SteeringOutput dithered(std::span<const WeightedBehaviour> behaviours, const CombineLimits& limits,
                               Rng& rng) {
  return detail::dithered(behaviours, limits, rng);
}
inline SteeringOutput dithered(std::span<const LazyBehaviour> behaviours, const CombineLimits& limits,
                               Rng& rng) {
  return detail::dithered(behaviours, limits, rng);
}

// (5) Priority groups (Millington): behaviours with equal `priority` form a group, blended as in
// (1); the first group, in priority order, whose blended output is above epsilon wins. Groups
// after it are not evaluated. No group above epsilon gives zero (Millington returns the last
// group's sub-epsilon output; by definition that is noise, so it is dropped).
inline SteeringOutput priorityGroups(std::span<const WeightedBehaviour> behaviours,
                                     const CombineLimits& limits) {
  return detail::priorityGroups(behaviours, limits);
}
inline SteeringOutput priorityGroups(std::span<const LazyBehaviour> behaviours, const CombineLimits& limits) {
  return detail::priorityGroups(behaviours, limits);
}

// The same five combiners for any CombinableBehaviour record.
template <CombinableBehaviour B>
SteeringOutput weightedBlend(std::span<const B> behaviours, const CombineLimits& limits) {
  return detail::weightedBlend(behaviours, limits);
}
template <CombinableBehaviour B>
SteeringOutput prioritised(std::span<const B> behaviours, const CombineLimits& limits) {
  return detail::prioritised(behaviours, limits);
}
template <CombinableBehaviour B>
SteeringOutput runningSum(std::span<const B> behaviours, const CombineLimits& limits) {
  return detail::runningSum(behaviours, limits);
}
template <CombinableBehaviour B>
SteeringOutput dithered(std::span<const B> behaviours, const CombineLimits& limits, Rng& rng) {
  return detail::dithered(behaviours, limits, rng);
}
template <CombinableBehaviour B>
SteeringOutput priorityGroups(std::span<const B> behaviours, const CombineLimits& limits) {
  return detail::priorityGroups(behaviours, limits);
}

}  // namespace steer
