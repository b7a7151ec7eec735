#include "analysis/gate_meter.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace steerd {

using steer::Vec2;

GateMeter::GateMeter(std::vector<ReportGate> gates, double dt)
    : gates_(std::move(gates)), figures_(gates_.size()), tracked_(gates_.size()), dt_(dt) {}

void GateMeter::observe(const World& world) {
  ++ticks_;
  const AgentColumns& a = world.agents();
  const auto perSecond = static_cast<std::uint64_t>(std::max(1.0, std::round(1.0 / dt_)));
  const bool sampleLanes = ticks_ % perSecond == 0;
  for (std::size_t g = 0; g < gates_.size(); ++g) {
    const ReportGate& gate = gates_[g];
    GateFigures& fig = figures_[g];
    fig.seconds = static_cast<double>(ticks_) * dt_;
    std::vector<Tracked>& tracked = tracked_[g];
    if (tracked.size() < world.indexCapacity()) tracked.resize(world.indexCapacity());
    const Vec2 d = gate.to - gate.from;
    const float length2 = steer::lengthSq(d);
    if (!(length2 > 0.0f)) continue;
    const Vec2 normal = -steer::perp(d) * (1.0f / std::sqrt(length2));  // towards its right
    near_.clear();
    nearWay_.clear();
    for (std::uint32_t s = 0; s < a.size(); ++s) {
      const Vec2 p{a.px[s], a.py[s]};
      const float distance = steer::distanceToSegment(p, gate.from, gate.to);
      const float cross = steer::cross(d, p - gate.from);
      const std::int8_t side = cross > 0.0f ? 1 : cross < 0.0f ? -1 : 0;
      Tracked& k = tracked[agentIndex(a.id[s])];
      if (k.id != a.id[s]) k = {a.id[s], side, 0};
      // Crossed: the side changed while within the segment's ends (the radius allows for the
      // distance moved in a tick).
      if (side != 0 && k.side != 0 && side != k.side && distance <= 1.0f) {
        (k.side > 0 ? fig.fromLeft : fig.fromRight) += 1;
      }
      if (side != 0) k.side = side;
      if (distance <= gate.nearRadius) {
        ++k.nearTicks;
        fig.longestNearSeconds = std::max(fig.longestNearSeconds, static_cast<double>(k.nearTicks) * dt_);
        const float across = steer::dot(Vec2{a.vx[s], a.vy[s]}, normal);
        if (sampleLanes && std::fabs(across) >= kAcrossSpeed) {
          near_.push_back(s);
          nearWay_.push_back(across > 0.0f ? 1 : -1);
        }
      } else {
        k.nearTicks = 0;
      }
    }
    // Lanes: pairs among the agents near the gate (a few dozen at a door).
    const float r2 = kLaneNeighbourRadius * kLaneNeighbourRadius;
    for (std::size_t i = 0; i < near_.size(); ++i) {
      std::uint32_t same = 0, all = 0;
      for (std::size_t j = 0; j < near_.size(); ++j) {
        if (i == j) continue;
        const float dx = a.px[near_[j]] - a.px[near_[i]], dy = a.py[near_[j]] - a.py[near_[i]];
        if (dx * dx + dy * dy > r2) continue;
        ++all;
        same += nearWay_[j] == nearWay_[i] ? 1 : 0;
      }
      if (all == 0) continue;
      fig.laneShareSum += static_cast<double>(same) / static_cast<double>(all);
      ++fig.laneAgents;
    }
  }
}

std::string GateMeter::format() const {
  std::string out;
  for (std::size_t g = 0; g < gates_.size(); ++g) {
    const GateFigures& f = figures_[g];
    out += fmt::format(
        "gate {}: {} crossings in {:.0f} s ({:.2f}/s): {} from its left, {} from its right; longest "
        "within {:g} m: {:.1f} s; lane order {}\n",
        gates_[g].name, f.fromLeft + f.fromRight, f.seconds, f.throughputPerSecond(), f.fromLeft, f.fromRight,
        gates_[g].nearRadius, f.longestNearSeconds,
        f.laneAgents == 0 ? std::string("not measured")
                          : fmt::format("{:.2f} (0.5 mixed, 1 lanes)", f.laneOrder()));
  }
  return out;
}

}  // namespace steerd
