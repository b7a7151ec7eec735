// Navmesh navigation for the agents whose behaviour set has a NAVIGATE behaviour: each has a goal
// (a waypoint, the waypoints of a path in turn, or random points on the mesh), a string-pulled
// corridor of corners from the pooled planner, and the bookkeeping that notices arrival, a corridor
// left behind (pushed off it by the crowd) and no progress (blocked), and asks for a new path.
//
// The navigate phase of the tick, after thinking and before steering:
//   a. in parallel, per agent in id order (writes only that agent's NavAgent and NavSteer):
//      advance corners, check arrival and progress, mark what it needs (a goal, a path)
//   b. serially, in id order: choose goals, queue path requests
//   c. serially: the planner spends its per-tick budget; finished paths become corridors
// The steering pass then only reads NavSteer, by slot (the NAVIGATE behaviour seeks the current
// corner).
// Everything is in id or queue order, so the world stays the same for any thread count.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "nav/navmesh.h"
#include "nav/path_planner.h"
#include "steering/vec2.h"
#include "world/archetype.h"

namespace steerd {

class ThreadPool;
struct StepContext;

struct NavAgent {
  std::vector<steer::Vec2> corners;  // the corridor's corners, after the start
  steer::Vec2 start;                 // where the corridor began
  steer::Vec2 goal;
  steer::Vec2 position;            // at the last update (for the serial phase)
  std::uint32_t progressTick = 0;  // when the distance to the current corner last shrank
  std::uint32_t retryTick = 0;     // a failed request is not asked again before this tick
  std::uint32_t goalsReached = 0;
  std::uint32_t goalDraws = 0;  // random goals drawn (reached or given up): picks the next draw's stream
  float bestDistance = std::numeric_limits<float>::infinity();
  std::int32_t waypoint = -1;      // path goals: the waypoint being walked to
  std::uint16_t corner = 0;        // index into corners of the one being steered to
  std::uint8_t replans = 0;        // since the last corner reached
  std::uint16_t pathFailures = 0;  // requests that found no path, or only part of one (events)
  bool hasGoal = false;
  bool waiting = false;    // a path request is queued
  bool complete = true;    // the last corner is the goal (else the corridor was cut short)
  bool arrived = false;    // point goals: stopped at the goal
  bool replanNow = false;  // the world changed under its corridor: plan again at the next update
  enum Need : std::uint8_t { kNothing, kGoal, kPath } need = kNothing;
};

// What the NAVIGATE behaviour steers to this tick, by slot of the tick's sorted state: the steering
// pass reads it in slot order instead of following each agent's NavAgent (by id) and its corridor
// (on the heap), two cache misses per agent that were a sixth of crowd-crossing's tick.
struct NavSteer {
  steer::Vec2 goal;   // the agent's goal (reported as its goal)
  steer::Vec2 point;  // the corner (or the goal) steered to
  enum Mode : std::uint8_t { kNone, kArrive, kSeek } mode = kNone;
};

struct NavigationStats {
  std::uint64_t goalsReached = 0;
  std::uint64_t replansBlocked = 0;      // no progress for a while
  std::uint64_t replansOffCourse = 0;    // pushed off the corridor
  std::uint64_t unreachable = 0;         // partial paths (goal on another island)
  std::uint64_t failed = 0;              // start or goal off the mesh
  std::uint64_t replansWorldChange = 0;  // a door closed across the corridor, or opened
  nav::PlannerStats planner;
};

// Whether an agent at `position` has gone round `corner` wide of the reach circle: beyond it along
// the leg in (from `before`, the previous corner or the corridor's start) and along the leg out (to
// `next`), and within kPastCornerWithin of it. The crowd pushes walkers round an obstacle's corner
// wide, where every path round that obstacle shares the corner point: turning back to touch it
// walks them against the flow, so they go on to the next corner. Both legs are tested: where the
// path turns back round the end of a thin wall, a point beyond the corner along the leg out is
// still before it along the leg in, on the near side of the wall. Crowd-crossing, 4,000 walkers,
// seeds 1-3: 62.5-64.0 goals a second instead of 60.2-60.8, and 9.9-11.0 stuck on the mean second
// instead of 12.1-13.4 (docs/PERFORMANCE.md).
inline constexpr float kPastCornerWithin = 3.0f;  // m
bool pastCorner(steer::Vec2 before, steer::Vec2 corner, steer::Vec2 next, steer::Vec2 position);

class Navigation {
 public:
  Navigation(std::shared_ptr<const nav::NavMesh> mesh, nav::PlannerSettings settings);

  // The navigate phase. slotOfId maps every id to its slot in ctx.in (kNoSlot: not alive).
  void update(const StepContext& ctx, std::span<const std::uint32_t> slotOfId, ThreadPool& pool,
              std::size_t chunkSize);

  const NavAgent* agents() const { return agents_.data(); }
  // By slot of the last update's ctx.in.
  const NavSteer* steering() const { return steer_.data(); }
  // Navigation keeps its agents by agent index (agentIndex(id)): an id or an index finds them.
  const NavAgent& agent(AgentId id) const { return agents_[agentIndex(id)]; }
  bool has(AgentId id) const { return agentIndex(id) < agents_.size(); }
  std::size_t agentCount() const { return agents_.size(); }
  const NavigationStats& stats() const { return stats_; }
  const nav::NavMesh& mesh() const { return *mesh_; }
  // World changes (world_changes.h), between ticks: agents whose remaining corridor crosses the
  // segment a-b (a door just closed), or every agent with a goal (a door opened: a shorter way may
  // be there), plan again at the next update. Returns how many were asked to.
  std::size_t replanCrossing(steer::Vec2 a, steer::Vec2 b);
  std::size_t replanAll();
  // The mesh's tiles were rebuilt (an obstacle carved): the search under way starts again.
  void meshChanged() { planner_.restartActive(); }
  // An agent left (by index): forget its request.
  void forget(std::uint32_t index);

  // The first NAVIGATE behaviour of a set, or null.
  static const BehaviourSpec* navigateSpec(std::span<const BehaviourSpec> set);

 private:
  void advance(const StepContext& ctx, std::uint32_t slot, NavAgent& a, const BehaviourSpec& spec) const;
  // steer_[slot] from agents_[id].
  void publish(std::uint32_t id, std::uint32_t slot);
  bool chooseGoal(const StepContext& ctx, std::uint32_t id, NavAgent& a, const BehaviourSpec& spec,
                  std::int32_t assignedPath);

  std::shared_ptr<const nav::NavMesh> mesh_;
  nav::PathPlanner planner_;
  std::vector<NavAgent> agents_;                // by id
  std::vector<const BehaviourSpec*> specOfId_;  // this tick, by id (null: not navigating)
  std::vector<std::int16_t> assignedPathOfId_;
  std::vector<nav::PathResult> results_;
  std::vector<NavSteer> steer_;  // by slot
  NavigationStats stats_;
};

}  // namespace steerd
