// Motion quality: the things crowd-library users complain about most, measured.
//
//   overlap   depth by which two bodies interpenetrate, as a fraction of the smaller radius;
//             mean over overlapping pairs seen at each tick, and the worst seen
//   inside    bodies penetrating an obstacle or a wall by more than 1 % of their radius
//   jitter    mean absolute heading change per tick (degrees) of agents moving steadily (above
//             half their max speed on both ticks); a body that trembles has a large one
//   stuck     agents with a goal farther than 10 m, now and 5 s ago, that moved under 1 m in those 5 s
//
// The monitor watches a World after each step(); it reads, never writes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "world/world.h"

namespace steerd {

struct MotionQuality {
  std::uint64_t ticks = 0;
  std::uint64_t overlappingPairs = 0;  // summed over ticks
  double meanOverlap = 0.0;            // fraction of radius, over overlapping pairs
  double maxOverlap = 0.0;
  std::uint64_t insideObstacleMax = 0;  // most agents inside an obstacle or wall on any tick
  std::uint64_t insideObstacleFinal = 0;
  double headingJitterDeg = 0.0;
  std::uint64_t stuckMax = 0;  // most agents stuck at any sample
  std::uint64_t stuckFinal = 0;
  std::uint64_t agentsWithGoal = 0;  // at the last sample
};

class MotionQualityMonitor {
 public:
  // dt: tick length, to turn "5 s" into ticks. nearFocus > 0: count only agents within that many
  // metres of a player or bot (level of detail's focus: an external agent or one of a lodFocus
  // archetype), the ones a player could see, and only overlaps one of them is in.
  explicit MotionQualityMonitor(float dt, float nearFocus = 0.0f);
  void observe(const World& world);
  MotionQuality summary() const;

 private:
  int sampleEvery_;  // ticks between position samples (1 s)
  int window_;       // samples per stuck window (5)
  double overlapSum_ = 0.0;
  double jitterSum_ = 0.0;
  std::uint64_t jitterCount_ = 0;
  MotionQuality q_;
  std::vector<std::vector<float>> samplesX_, samplesY_;  // ring of per-id positions
  std::vector<std::vector<float>> samplesGoal_;          // and of their distances to their goals
  std::size_t samplesTaken_ = 0;
  float nearFocus_ = 0.0f;
  std::vector<std::uint8_t> nearPrev_, nearNow_;  // by slot: counted (all 1 without nearFocus)
};

// One line per metric, for --report, under `title`.
std::string formatMotionQuality(const MotionQuality& q, const std::string& title = "motion_quality");

// The navigation lines of the headless report, for a world with a navmesh after `seconds` of
// simulated time: goals reached (count and per second), paths that failed, and how many agents
// stand off the walkable area (farther than their radius from the navmesh) at the end.
std::string formatNavigationReport(const World& world, double seconds);

}  // namespace steerd
