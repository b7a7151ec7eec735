// Flow through gates, for the headless report: a gate is a line segment (a door, a corridor's
// cross-section) named in the scenario file. Per gate: how many agents crossed it each way and
// how fast, the longest any agent stayed near it (a queue at a door), and whether two opposing
// flows through it formed lanes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "steering/vec2.h"
#include "world/world.h"

namespace steerd {

struct ReportGate {
  std::string name;
  steer::Vec2 from, to;
  float nearRadius = 3.0f;  // m from the segment that counts as "near" (waiting at it)
};

struct GateFigures {
  std::uint64_t fromLeft = 0, fromRight = 0;  // crossings, by the side (of from -> to) they came from
  double longestNearSeconds = 0.0;            // the longest any agent stayed near without a break
  // Lane order: for each agent near the gate moving across it, the share of its neighbours within
  // 1.5 m that move across the same way; the mean over agents and over once-a-second samples.
  // 0.5 is two flows mixed at random, 1 is lanes (or a single flow). -1: never measured.
  double laneShareSum = 0.0;     // of the per-agent shares
  std::uint64_t laneAgents = 0;  // agent samples behind it
  double seconds = 0.0;          // of play observed
  double laneOrder() const { return laneAgents > 0 ? laneShareSum / static_cast<double>(laneAgents) : -1.0; }
  double throughputPerSecond() const {
    return seconds > 0.0 ? static_cast<double>(fromLeft + fromRight) / seconds : 0.0;
  }
};

class GateMeter {
 public:
  static constexpr float kLaneNeighbourRadius = 1.5f;  // m
  static constexpr float kAcrossSpeed = 0.3f;  // m/s across the gate, at least, to count as moving across

  GateMeter(std::vector<ReportGate> gates, double dt);
  // After each step.
  void observe(const World& world);
  std::span<const GateFigures> figures() const { return figures_; }
  const std::vector<ReportGate>& gates() const { return gates_; }
  // One line per gate: "gate door: 212 crossings in 120 s (1.77/s): 108 from its left, ...".
  std::string format() const;

 private:
  struct Tracked {
    AgentId id = 0xffffffffu;
    std::int8_t side = 0;         // -1 right, 1 left, 0 not yet seen
    std::uint32_t nearTicks = 0;  // ticks near the gate without a break
  };
  std::vector<ReportGate> gates_;
  std::vector<GateFigures> figures_;
  std::vector<std::vector<Tracked>> tracked_;  // [gate][agent index]
  std::vector<std::uint32_t> near_;            // scratch: slots near one gate, moving across
  std::vector<std::int8_t> nearWay_;           // scratch: their direction across
  double dt_;
  std::uint64_t ticks_ = 0;
};

}  // namespace steerd
