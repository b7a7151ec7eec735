// The pooled planner: path requests wait in a queue and are served a fixed budget of A* node
// expansions per tick (Detour's sliced search), so a thousand agents asking at once spread their
// cost over several ticks instead of stalling one. First in, first out: which request finishes
// on which tick depends only on the order they were asked, so the world stays deterministic.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "nav/navmesh.h"

namespace steerd::nav {

struct PathResult {
  std::uint32_t agent = 0;
  bool found = false;    // false: start or goal off the mesh, or the search failed
  bool partial = false;  // the goal cannot be reached: the corners lead as near as the mesh allows
  // String-pulled corners from the start (excluded) to the end (included). When the corridor had
  // more corners than fit, the last one is a waypoint on the way and `complete` is false.
  std::vector<steer::Vec2> corners;
  bool complete = true;
  std::uint32_t iterations = 0;  // node expansions spent on it
};

struct PlannerSettings {
  int maxNodes = 4096;            // A* node pool; a search that fills it returns a partial path
  int maxPathPolygons = 256;      // corridor length
  int maxCorners = 48;            // straight-path corners kept per path
  int iterationsPerServe = 4096;  // node expansions per serve() (per tick)
  float searchRadius = 4.0f;      // m: how far from the mesh a start or goal may be
};

struct PlannerStats {
  std::uint64_t requested = 0, served = 0, failed = 0, partial = 0;
  std::uint64_t iterations = 0;  // node expansions, all time
  std::size_t queued = 0;
};

class PathPlanner {
 public:
  PathPlanner(const NavMesh& mesh, PlannerSettings settings = {});
  ~PathPlanner();
  PathPlanner(const PathPlanner&) = delete;
  PathPlanner& operator=(const PathPlanner&) = delete;

  // Queues a request; an agent with a request already queued has it replaced in place (it keeps
  // its turn, with the new ends).
  void request(std::uint32_t agent, steer::Vec2 from, steer::Vec2 to);
  void cancel(std::uint32_t agent);
  // The mesh's tiles changed (NavMesh::replaceTile): a search under way holds stale polygon refs,
  // so it goes back to the front of the queue to start again with the same ends.
  void restartActive();

  // Works through the queue for at most settings.iterationsPerServe node expansions, appending
  // each finished request to `out` in the order finished.
  void serve(std::vector<PathResult>& out);

  // The whole search at once (validation, tests, tools).
  PathResult findNow(steer::Vec2 from, steer::Vec2 to);

  const PlannerStats& stats() const { return stats_; }
  const PlannerSettings& settings() const { return settings_; }
  std::size_t queued() const { return waiting_ + (active_ ? 1 : 0); }

 private:
  struct Request {
    std::uint32_t agent;
    steer::Vec2 from, to;
  };
  // An agent's place in the queue: request and cancel are O(1) however long the queue (a control
  // API storm of goals queued thousands; both scanned it). A queue entry counts only while its
  // ticket is the agent's current one; cancelled and replaced entries are skipped when reached.
  struct Pending {
    bool queued = false;
    std::uint32_t ticket = 0;
    steer::Vec2 from, to;
  };
  struct Ticket {
    std::uint32_t agent, ticket;
  };
  // Starts a search; false (and `out` filled) when it fails at once.
  bool start(const Request& r, PathResult& out);
  void finish(PathResult& out);

  const NavMesh& mesh_;
  PlannerSettings settings_;
  std::unique_ptr<dtNavMeshQuery, FreeNavMeshQuery> query_;
  std::deque<Ticket> queue_;
  std::vector<Pending> pending_;  // by agent
  std::size_t waiting_ = 0;       // live entries in queue_
  bool active_ = false;
  Request current_{};
  NavPoint start_, end_;
  std::uint32_t currentIterations_ = 0;
  std::vector<dtPolyRef> corridor_;
  std::vector<float> straight_;
  std::vector<unsigned char> straightFlags_;
  std::vector<dtPolyRef> straightRefs_;
  PlannerStats stats_;
};

}  // namespace steerd::nav
