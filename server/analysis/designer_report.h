// What a designer tests headless (steerd --headless --report, docs/SCENARIOS.md "Report"): per
// archetype with a brain, the share of agent-time in each state and the transitions between them;
// per region of the scenario file, how many agents of each archetype are inside (at the end, and
// the most over the run); per gate, the flow through it (gate_meter.h); and the expectations ("90 % of the
// sheep in the pen after 120 s"), each judged at its time, which make the run exit 1 when they fail.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/door_meter.h"
#include "analysis/gate_meter.h"
#include "steering/vec2.h"
#include "world/world.h"

namespace steerd {

struct ReportRegion {
  std::string name;
  std::vector<steer::Vec2> points;  // a simple polygon
};

struct ReportExpectation {
  std::string region;
  std::string archetype;
  float atLeast = 0.0f;       // share of the archetype's agents inside, 0..1
  double afterSeconds = 0.0;  // of simulated time
  // A run too short to judge it fails (steerd --expect); else (a file's) it is reported only, so
  // a short run of a file that expects something at 120 s still passes.
  bool mustBeJudged = false;
};

// "pen:sheep>=0.9@120" (region:archetype>=share@seconds). Returns an error, or empty with `out` set.
std::string parseExpectation(const std::string& text, ReportExpectation& out);
// Even-odd rule; a point on an edge may count either way.
bool insidePolygon(steer::Vec2 p, std::span<const steer::Vec2> polygon);

class DesignerReport {
 public:
  // Regions and expectations must name regions and archetypes that exist (the scenario check and
  // the caller see to it); ones that do not are reported as failed, never a crash.
  DesignerReport(const World& world, std::vector<ReportRegion> regions,
                 std::vector<ReportExpectation> expectations, std::vector<ReportGate> gates = {});
  // After each step.
  void observe(const World& world);
  // Flow through the file's gates (gate_meter.h).
  const GateMeter& gates() const { return gates_; }
  // The world's doors (door_meter.h).
  const DoorMeter& doors() const { return doors_; }
  // Lines for the report: brain states, transitions, regions, gates, doors, expectations.
  std::string format(const World& world) const;
  // Every expectation judged is met, and every one that must be judged was.
  bool expectationsMet() const;
  // One line per expectation: "expect pen:sheep>=0.9@120 s: met (38 of 40, 95 %)".
  std::string expectationLines() const;

 private:
  struct BrainStats {
    std::vector<std::uint64_t> agentTicks;  // by state
    std::map<std::pair<std::uint8_t, std::uint8_t>, std::uint64_t> transitions;
  };
  struct Judged {
    bool judged = false, met = false;
    std::size_t inside = 0, total = 0;
  };
  std::pair<std::size_t, std::size_t> count(const World& world, std::size_t region, int archetype) const;
  int archetypeNamed(const World& world, const std::string& name) const;

  std::vector<ReportRegion> regions_;
  std::vector<ReportExpectation> expectations_;
  std::vector<Judged> judged_;
  std::vector<BrainStats> brains_;                       // by archetype (empty stats without a brain)
  std::unordered_map<AgentId, std::uint8_t> lastState_;  // brain state last tick, by agent
  std::vector<std::vector<double>> peakShare_;           // [region][archetype]
  std::vector<std::vector<double>> peakAt_;              // seconds, when the peak was first reached
  std::uint64_t ticks_ = 0;
  double dt_ = 0.0;
  GateMeter gates_;
  DoorMeter doors_;
};

}  // namespace steerd
