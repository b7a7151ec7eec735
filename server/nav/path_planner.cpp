#include "nav/path_planner.h"

#include <algorithm>
#include <stdexcept>

namespace steerd::nav {

PathPlanner::PathPlanner(const NavMesh& mesh, PlannerSettings settings)
    : mesh_(mesh), settings_(settings), query_(dtAllocNavMeshQuery()) {
  if (!query_ || dtStatusFailed(query_->init(&mesh.detour(), settings_.maxNodes)))
    throw std::runtime_error("navmesh: cannot set up a path query of " + std::to_string(settings_.maxNodes) +
                             " nodes");
  corridor_.resize(static_cast<std::size_t>(settings_.maxPathPolygons));
  straight_.resize(static_cast<std::size_t>(settings_.maxCorners + 1) * 3);
  straightFlags_.resize(static_cast<std::size_t>(settings_.maxCorners + 1));
  straightRefs_.resize(static_cast<std::size_t>(settings_.maxCorners + 1));
}

PathPlanner::~PathPlanner() = default;

void PathPlanner::request(std::uint32_t agent, steer::Vec2 from, steer::Vec2 to) {
  ++stats_.requested;
  if (pending_.size() <= agent) pending_.resize(static_cast<std::size_t>(agent) + 1);
  Pending& p = pending_[agent];
  p.from = from;
  p.to = to;
  if (!p.queued) {  // else it keeps its turn, with the new ends
    p.queued = true;
    queue_.push_back({agent, ++p.ticket});
    ++waiting_;
  }
  stats_.queued = queued();
}

void PathPlanner::cancel(std::uint32_t agent) {
  if (agent < pending_.size() && pending_[agent].queued) {
    pending_[agent].queued = false;
    --waiting_;
  }
  // Skipped entries are dropped from the front as the queue is served; a queue mostly of them
  // (cancels far outpacing the budget) is compacted so it stays the size of what waits.
  if (queue_.size() > 2 * waiting_ + 64) {
    std::erase_if(queue_, [&](const Ticket& t) {
      return !pending_[t.agent].queued || pending_[t.agent].ticket != t.ticket;
    });
  }
  stats_.queued = queued();
}

void PathPlanner::restartActive() {
  if (!active_) return;
  active_ = false;
  Pending& p = pending_[current_.agent];
  if (p.queued) return;  // asked again meanwhile: that request is the one to serve
  p.queued = true;
  p.from = current_.from;
  p.to = current_.to;
  queue_.push_front({current_.agent, ++p.ticket});
  ++waiting_;
  stats_.queued = queued();
}

bool PathPlanner::start(const Request& r, PathResult& out) {
  out = PathResult{};
  out.agent = r.agent;
  start_ = mesh_.nearest(r.from, settings_.searchRadius);
  end_ = mesh_.nearest(r.to, settings_.searchRadius);
  if (!start_ || !end_) return false;
  float a[3], b[3];
  toRecast(start_.position, a, start_.height);
  toRecast(end_.position, b, end_.height);
  if (dtStatusFailed(query_->initSlicedFindPath(start_.poly, end_.poly, a, b, &mesh_.filter()))) return false;
  current_ = r;
  currentIterations_ = 0;
  active_ = true;
  return true;
}

// The corridor is complete (or partial): string-pull it into corners.
void PathPlanner::finish(PathResult& out) {
  active_ = false;
  out.agent = current_.agent;
  out.iterations = currentIterations_;
  int count = 0;
  const dtStatus s = query_->finalizeSlicedFindPath(corridor_.data(), &count, settings_.maxPathPolygons);
  if (dtStatusFailed(s) || count == 0) return;
  out.partial =
      dtStatusDetail(s, DT_PARTIAL_RESULT) || corridor_[static_cast<std::size_t>(count) - 1] != end_.poly;
  // A partial corridor ends short of the goal: pull towards the nearest point of its last polygon.
  float a[3], b[3];
  toRecast(start_.position, a, start_.height);
  toRecast(end_.position, b, end_.height);
  if (corridor_[static_cast<std::size_t>(count) - 1] != end_.poly) {
    float closest[3];
    if (dtStatusSucceed(
            query_->closestPointOnPoly(corridor_[static_cast<std::size_t>(count) - 1], b, closest, nullptr)))
      std::copy(closest, closest + 3, b);
  }
  int corners = 0;
  if (dtStatusFailed(query_->findStraightPath(a, b, corridor_.data(), count, straight_.data(),
                                              straightFlags_.data(), straightRefs_.data(), &corners,
                                              settings_.maxCorners + 1)) ||
      corners == 0)
    return;
  out.found = true;
  // The first point is the start itself.
  for (int i = 1; i < corners; ++i)
    out.corners.push_back(fromRecast(&straight_[static_cast<std::size_t>(i) * 3]));
  if (out.corners.empty()) out.corners.push_back(end_.position);
  out.complete = (straightFlags_[static_cast<std::size_t>(corners) - 1] & DT_STRAIGHTPATH_END) != 0 &&
                 count < settings_.maxPathPolygons;
}

void PathPlanner::serve(std::vector<PathResult>& out) {
  int budget = settings_.iterationsPerServe;
  while (budget > 0 && (active_ || !queue_.empty())) {
    if (!active_) {
      const Ticket t = queue_.front();
      queue_.pop_front();
      Pending& p = pending_[t.agent];
      if (!p.queued || p.ticket != t.ticket) continue;  // cancelled, or queued again later
      p.queued = false;
      --waiting_;
      const Request r{t.agent, p.from, p.to};
      PathResult failed;
      if (!start(r, failed)) {
        ++stats_.served;
        ++stats_.failed;
        out.push_back(std::move(failed));
        --budget;  // a failed start still costs a lookup; never loop for free
        continue;
      }
    }
    int done = 0;
    const dtStatus s = query_->updateSlicedFindPath(budget, &done);
    done = std::max(done, 1);
    budget -= done;
    currentIterations_ += static_cast<std::uint32_t>(done);
    stats_.iterations += static_cast<std::uint64_t>(done);
    if (dtStatusInProgress(s)) continue;  // budget spent; go on next serve
    PathResult r;
    finish(r);
    ++stats_.served;
    if (!r.found) ++stats_.failed;
    if (r.partial) ++stats_.partial;
    out.push_back(std::move(r));
  }
  stats_.queued = queued();
}

PathResult PathPlanner::findNow(steer::Vec2 from, steer::Vec2 to) {
  if (active_) throw std::logic_error("PathPlanner::findNow during a sliced search");
  PathResult r;
  if (!start({0, from, to}, r)) return r;
  int done = 0;
  dtStatus s = query_->updateSlicedFindPath(settings_.maxNodes * 4, &done);
  currentIterations_ = static_cast<std::uint32_t>(done);
  if (dtStatusInProgress(s)) s = query_->updateSlicedFindPath(settings_.maxNodes * 64, &done);
  finish(r);
  return r;
}

}  // namespace steerd::nav
