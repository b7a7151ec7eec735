// The standard crowd test, steerd against DetourCrowd on the same world, in one run.
//
// Both load scenarios/crowd-crossing.txtpb (or --scenario): the same navmesh (built by server/nav
// with Recast), the same N agents at the same starting points, radius 0.5 m, 3.5 m/s, each walking
// to a random reachable point and given a new one on arrival (within 1.5 m). Both step at 30 Hz
// on the same number of threads' worth of work (DetourCrowd is single-threaded; steerd runs with
// --threads). After a warm-up, the same measures for both:
//   ms per tick (mean, p99), agent-updates per second (N x ticks / wall time in the update call),
//   goals reached per simulated second, stuck (goal > 10 m away, moved < 1 m in the last 5 s) at the
//   end and at worst, overlap (pair depth as a fraction of the radius: worst, and the share of
//   ticks with any pair deeper than 20 %), bodies inside obstacles.
// scripts/bench.sh crowd runs it; --list-stuck prints steerd's stuck agents at the end, one line each
// (where, how far from the goal, the corridor, what is around them), for finding out why.
//
// --replan-storm (scripts/bench.sh paths): the planner's side. A fresh world where every agent
// asks for a path on the same tick, served by the pooled planner's per-tick budget: ticks until
// all are served, tick times during the storm against after it, and the planner's throughput
// (path requests per second of planner time, from a separate run of the same searches).
#include <DetourCrowd.h>
#include <google/protobuf/text_format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "proto/scenario.pb.h"
#include "scenario/scenario_file.h"
#include "scenario/scenario_nav.h"
#include "steering/random.h"

namespace {

using namespace steerd;
using steer::Vec2;
using Clock = std::chrono::steady_clock;

constexpr float kDt = 1.0f / 30.0f;
constexpr float kRadius = 0.5f;
constexpr float kArrive = 1.5f;
constexpr float kMaxSpeed = 3.5f;

// What both crowds are measured by, fed the positions and goals after every tick.
class Measures {
 public:
  Measures(std::size_t n, int ticksPerSecond) : n_(n), perSecond_(ticksPerSecond) {}

  void observe(const std::vector<Vec2>& pos, const std::vector<Vec2>& goal, bool measuring) {
    ++tick_;
    if (!measuring) return;
    ++ticks_;
    // Speed: displacement since the last tick (the first measured tick has none to compare).
    if (prev_.size() == pos.size()) {
      for (std::size_t i = 0; i < pos.size(); ++i) {
        const float v = steer::distance(pos[i], prev_[i]) / kDt;
        speedSum_ += v;
        ++speedSamples_;
        if (v < 0.5f * kMaxSpeed) ++slowSamples_;
      }
    }
    prev_ = pos;
    // Overlap: a hash grid of 1 m cells; each pair once.
    grid_.clear();
    const auto key = [](int x, int y) {
      return (static_cast<std::int64_t>(x) << 32) ^ static_cast<std::uint32_t>(y);
    };
    for (std::size_t i = 0; i < pos.size(); ++i)
      grid_[key(static_cast<int>(std::floor(pos[i].x)), static_cast<int>(std::floor(pos[i].y)))].push_back(
          static_cast<std::uint32_t>(i));
    float worst = 0.0f;
    for (std::size_t i = 0; i < pos.size(); ++i) {
      const int cx = static_cast<int>(std::floor(pos[i].x)), cy = static_cast<int>(std::floor(pos[i].y));
      for (int dx = -1; dx <= 1; ++dx) {
        for (int dy = -1; dy <= 1; ++dy) {
          const auto it = grid_.find(key(cx + dx, cy + dy));
          if (it == grid_.end()) continue;
          for (const std::uint32_t j : it->second) {
            if (j <= i) continue;
            const float d = steer::distance(pos[i], pos[j]);
            if (d < 2.0f * kRadius) {
              const float depth = (2.0f * kRadius - d) / kRadius;
              worst = std::max(worst, depth);
              overlapSum_ += depth;
              ++overlapPairs_;
            }
          }
        }
      }
    }
    maxOverlap_ = std::max(maxOverlap_, worst);
    if (worst > 0.2f) ++ticksOverTolerance_;
    // Stuck: positions every second, compared with five seconds before.
    if (tick_ % perSecond_ == 0) {
      samples_.push_back(pos);
      goalDistances_.emplace_back(n_);
      for (std::size_t i = 0; i < n_; ++i) goalDistances_.back()[i] = steer::distance(pos[i], goal[i]);
      if (samples_.size() > 6) {
        samples_.erase(samples_.begin());
        goalDistances_.erase(goalDistances_.begin());
      }
      if (samples_.size() == 6) {
        // Far from its goal at both ends of the window (one that reached a goal and turned back
        // for the next is not stuck), and moved under 1 m.
        stuckNow_.clear();
        for (std::size_t i = 0; i < n_; ++i) {
          if (goalDistances_.back()[i] > 10.0f && goalDistances_.front()[i] > 10.0f &&
              steer::distance(pos[i], samples_.front()[i]) < 1.0f)
            stuckNow_.push_back(static_cast<std::uint32_t>(i));
        }
        stuckMax_ = std::max(stuckMax_, stuckNow_.size());
        stuckSum_ += stuckNow_.size();
        ++stuckSamples_;
        stuckEnd_ = stuckNow_.size();
      }
    }
  }

  std::uint64_t ticks_ = 0, ticksOverTolerance_ = 0, overlapPairs_ = 0, speedSamples_ = 0, slowSamples_ = 0;
  double speedSum_ = 0.0;
  double overlapSum_ = 0.0;
  float maxOverlap_ = 0.0f;
  std::size_t stuckMax_ = 0, stuckEnd_ = 0, stuckSum_ = 0, stuckSamples_ = 0;
  double stuckMean() const {
    return stuckSamples_ > 0 ? static_cast<double>(stuckSum_) / static_cast<double>(stuckSamples_) : 0.0;
  }
  std::vector<std::uint32_t> stuckNow_;  // at the last whole second

 private:
  std::size_t n_;
  int perSecond_;
  std::uint64_t tick_ = 0;
  std::unordered_map<std::int64_t, std::vector<std::uint32_t>> grid_;
  std::vector<std::vector<Vec2>> samples_;
  std::vector<std::vector<float>> goalDistances_;
  std::vector<Vec2> prev_;
};

struct Row {
  std::string name;
  std::vector<double> tickMs;
  double goals = 0;  // reached during the measured part
  Measures m;
};

void print(const Row& r, std::size_t n, double seconds) {
  std::vector<double> t = r.tickMs;
  std::sort(t.begin(), t.end());
  double sum = 0;
  for (double v : t) sum += v;
  const double mean = t.empty() ? 0 : sum / static_cast<double>(t.size());
  const double p99 =
      t.empty() ? 0
                : t[std::min(t.size() - 1, static_cast<std::size_t>(0.99 * static_cast<double>(t.size())))];
  const double updates =
      sum > 0 ? static_cast<double>(n) * static_cast<double>(t.size()) / (sum / 1000.0) : 0;
  std::printf("%-12s %9.2f %9.2f %13.0f %11.2f %7zu %7.1f %7zu %9.3f %10.2f%% %10.4f %7.2f %6.1f%%\n",
              r.name.c_str(), mean, p99, updates, r.goals / seconds, r.m.stuckEnd_, r.m.stuckMean(),
              r.m.stuckMax_, r.m.maxOverlap_,
              100.0 * static_cast<double>(r.m.ticksOverTolerance_) /
                  std::max<double>(1.0, static_cast<double>(r.m.ticks_)),
              r.m.overlapPairs_ ? r.m.overlapSum_ / static_cast<double>(r.m.overlapPairs_) : 0.0,
              r.m.speedSamples_ ? r.m.speedSum_ / static_cast<double>(r.m.speedSamples_) : 0.0,
              r.m.speedSamples_
                  ? 100.0 * static_cast<double>(r.m.slowSamples_) / static_cast<double>(r.m.speedSamples_)
                  : 0.0);
}

// Every agent of a fresh world asks on tick 0.
int replanStorm(World& world, double seconds) {
  const std::size_t n = world.agentCount();
  std::vector<double> storm, after;
  int ticks = 0, stormTicks = -1;
  const int limit = static_cast<int>(seconds / kDt);
  for (; ticks < limit; ++ticks) {
    const auto t0 = Clock::now();
    world.step();
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    const auto& p = world.navigation()->stats().planner;
    (stormTicks < 0 ? storm : after).push_back(ms);
    if (stormTicks < 0 && p.served >= n && p.queued == 0) stormTicks = ticks + 1;
    if (stormTicks >= 0 && static_cast<int>(after.size()) >= 150) break;
  }
  const auto summary = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    double sum = 0;
    for (double x : v) sum += x;
    char out[128];
    std::snprintf(
        out, sizeof out, "mean %.2f ms, p99 %.2f ms, max %.2f ms over %zu ticks",
        v.empty() ? 0 : sum / static_cast<double>(v.size()),
        v.empty() ? 0
                  : v[std::min(v.size() - 1, static_cast<std::size_t>(0.99 * static_cast<double>(v.size())))],
        v.empty() ? 0 : v.back(), v.size());
    return std::string(out);
  };
  const auto& stats = world.navigation()->stats();
  std::printf(
      "replan storm: %zu agents ask for a path on tick 0; planner budget %d node expansions per tick\n", n,
      world.config().planner.iterationsPerServe);
  std::printf("  all served after %d ticks (%.2f s of simulated time); %llu node expansions, %.0f per path\n",
              stormTicks, stormTicks * kDt, static_cast<unsigned long long>(stats.planner.iterations),
              static_cast<double>(stats.planner.iterations) /
                  std::max<double>(1.0, static_cast<double>(stats.planner.served)));
  std::printf("  tick during the storm: %s\n", summary(storm).c_str());
  std::printf("  tick after it:         %s\n", summary(after).c_str());
  // Throughput: the same kind of searches (random start and goal on the mesh), all at once.
  nav::PathPlanner planner(world.navigation()->mesh(), world.config().planner);
  steer::Rng rng(7);
  std::vector<std::pair<Vec2, Vec2>> pairs;
  const Bounds& b = world.geometry().bounds;
  while (pairs.size() < n) {
    const Vec2 a{b.minX + rng.uniform() * (b.maxX - b.minX), b.minY + rng.uniform() * (b.maxY - b.minY)};
    const Vec2 c{b.minX + rng.uniform() * (b.maxX - b.minX), b.minY + rng.uniform() * (b.maxY - b.minY)};
    if (world.navigation()->mesh().nearest(a, 1.0f) && world.navigation()->mesh().nearest(c, 1.0f))
      pairs.push_back({a, c});
  }
  std::size_t found = 0;
  const auto t0 = Clock::now();
  for (const auto& [from, to] : pairs) found += planner.findNow(from, to).found ? 1 : 0;
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  std::printf(
      "  planner alone: %zu paths (%zu found) in %.1f ms: %.0f path requests per second, %.1f us each\n",
      pairs.size(), found, s * 1e3, static_cast<double>(pairs.size()) / s,
      s * 1e6 / static_cast<double>(pairs.size()));
  return 0;
}

// --list-stuck: one line per agent stuck at the end, for finding out why (jams, corners, walls).
void listStuckAgents(const World& world, const std::vector<std::uint32_t>& stuck) {
  const AgentColumns& a = world.agents();
  const Navigation& nav = *world.navigation();
  std::printf(
      "stuck at the end: id pos -> goal (m) speed | corner i/n (m away), replans | bodies within 1.5 m "
      "(moving against it)\n");
  for (const std::uint32_t id : stuck) {
    const std::uint32_t s = world.slotOf(id);
    const Vec2 p{a.px[s], a.py[s]}, v{a.vx[s], a.vy[s]};
    const NavAgent& na = nav.agent(id);
    const Vec2 corner = na.corner < na.corners.size() ? na.corners[na.corner] : na.goal;
    const Vec2 want = steer::normalizedOr(corner - p, {});
    int near = 0, against = 0;
    for (std::uint32_t j = 0; j < a.size(); ++j) {
      if (j == s || steer::distance(p, {a.px[j], a.py[j]}) > 1.5f) continue;
      ++near;
      if (steer::dot(Vec2{a.vx[j], a.vy[j]}, want) < -0.5f) ++against;
    }
    std::printf(
        "  %5u (%6.1f,%6.1f) -> (%6.1f,%6.1f) %5.1f m  %4.2f m/s | corner %u/%zu (%4.1f m) replans %u%s%s | "
        "%d (%d)\n",
        id, p.x, p.y, na.goal.x, na.goal.y, steer::distance(p, na.goal), steer::length(v),
        static_cast<unsigned>(na.corner), na.corners.size(), steer::distance(p, corner),
        static_cast<unsigned>(na.replans), na.waiting ? " waiting" : "", na.arrived ? " arrived" : "", near,
        against);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string scenarioPath = "scenarios/crowd-crossing.txtpb";
  std::size_t agents = 4000;
  double seconds = 60, warmup = 10;
  unsigned threads = 1;
  bool skipDetour = false, storm = false, listStuck = false;
  std::uint64_t seed = 1;
  CLI::App app{"crowd_crossing: steerd and DetourCrowd on the same crowd-crossing world"};
  app.add_option("--scenario", scenarioPath, "scenario file with a navmesh and one NAVIGATE archetype")
      ->check(CLI::ExistingFile);
  app.add_option("--agents", agents, "agents")->check(CLI::Range(std::size_t{1}, std::size_t{200000}));
  app.add_option("--seconds", seconds, "simulated seconds measured")->check(CLI::Range(1.0, 3600.0));
  app.add_option("--warmup", warmup, "simulated seconds before measuring")->check(CLI::Range(0.0, 600.0));
  app.add_option("--threads", threads, "steerd's simulation threads")->check(CLI::Range(1u, 256u));
  app.add_option("--seed", seed, "world seed");
  app.add_flag("--skip-detour", skipDetour, "steerd only");
  app.add_flag("--list-stuck", listStuck,
               "print steerd's stuck agents at the end: where, and what is around them");
  app.add_flag("--replan-storm", storm, "every agent asks for a path at once (default --agents 1000)");
  CLI11_PARSE(app, argc, argv);
  if (storm && app.count("--agents") == 0) agents = 1000;

  std::ifstream file(scenarioPath);
  std::stringstream text;
  text << file.rdbuf();
  scenario::Scenario pb;
  if (!google::protobuf::TextFormat::ParseFromString(text.str(), &pb) || pb.spawns_size() != 1) {
    std::fprintf(stderr, "crowd_crossing: %s must parse and have one spawn group\n", scenarioPath.c_str());
    return 2;
  }
  pb.mutable_spawns(0)->set_count(static_cast<std::uint32_t>(agents));
  std::string resized;
  google::protobuf::TextFormat::PrintToString(pb, &resized);
  ScenarioOptions options;
  options.seed = seed;
  options.threads = threads;
  ScenarioLoad load = loadScenarioText(resized, scenarioPath, options, true);
  if (!load.world) {
    for (const auto& e : load.errors) std::fprintf(stderr, "%s\n", e.c_str());
    return 1;
  }
  World& world = *load.world;
  const std::size_t n = world.agentCount();
  const int warmTicks = static_cast<int>(warmup / kDt), measureTicks = static_cast<int>(seconds / kDt);
  std::printf(
      "crowd-crossing: %zu agents, %.0f s measured after %.0f s warm-up, 30 Hz, steerd on %u thread(s)\n", n,
      seconds, warmup, threads);
  std::printf("%s\n", load.summary.c_str());

  std::vector<Vec2> start(n), pos(n), goal(n);
  for (AgentId id = 0; id < n; ++id) {
    const std::uint32_t s = world.slotOf(id);
    start[id] = {world.agents().px[s], world.agents().py[s]};
  }

  if (storm) return replanStorm(world, seconds);

  // ---- steerd
  Row ours{"steerd", {}, 0, Measures(n, 30)};
  std::uint64_t goalsBefore = 0;
  for (int t = 0; t < warmTicks + measureTicks; ++t) {
    const auto t0 = Clock::now();
    world.step();
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    const bool measuring = t >= warmTicks;
    if (measuring) ours.tickMs.push_back(ms);
    const Navigation* nav = world.navigation();
    if (t == warmTicks - 1 || (warmTicks == 0 && t == 0)) goalsBefore = nav->stats().goalsReached;
    for (AgentId id = 0; id < n; ++id) {
      const std::uint32_t s = world.slotOf(id);
      pos[id] = {world.agents().px[s], world.agents().py[s]};
      goal[id] = nav->agent(id).hasGoal ? nav->agent(id).goal : pos[id];
    }
    ours.m.observe(pos, goal, measuring);
  }
  ours.goals = static_cast<double>(world.navigation()->stats().goalsReached - goalsBefore);
  if (listStuck) listStuckAgents(world, ours.m.stuckNow_);
  const auto& ns = world.navigation()->stats();

  // ---- DetourCrowd, same mesh, same starts
  Row theirs{"DetourCrowd", {}, 0, Measures(n, 30)};
  if (!skipDetour) {
    const nav::NavMesh& mesh = world.navigation()->mesh();
    dtCrowd* crowd = dtAllocCrowd();
    // dtCrowd takes a mutable mesh but only queries it.
    crowd->init(static_cast<int>(n), kRadius, const_cast<dtNavMesh*>(&mesh.detour()));
    dtCrowdAgentParams ap{};
    ap.radius = kRadius;
    ap.height = 2.0f;
    ap.maxAcceleration = 8.0f;
    ap.maxSpeed = kMaxSpeed;
    ap.collisionQueryRange = kRadius * 12.0f;
    ap.pathOptimizationRange = kRadius * 30.0f;
    ap.separationWeight = 2.0f;
    ap.updateFlags = DT_CROWD_ANTICIPATE_TURNS | DT_CROWD_OPTIMIZE_VIS | DT_CROWD_OPTIMIZE_TOPO |
                     DT_CROWD_OBSTACLE_AVOIDANCE | DT_CROWD_SEPARATION;
    ap.obstacleAvoidanceType = 0;  // dtCrowd's default avoidance settings (adaptive, 7 divisions, 2 rings)
    std::vector<std::uint32_t> reached(n, 0);
    const auto newGoal = [&](std::size_t i, Vec2 from) {
      steer::Rng rng = steer::Rng::forAgent(seed ^ 0xdc, i, reached[i]);
      const Bounds& b = world.geometry().bounds;
      const nav::NavPoint on = mesh.randomReachablePoint(from, {b.minX, b.minY}, {b.maxX, b.maxY}, rng);
      if (!on) return;
      float target[3];
      nav::toRecast(on.position, target);
      crowd->requestMoveTarget(static_cast<int>(i), on.poly, target);
      goal[i] = on.position;
    };
    for (std::size_t i = 0; i < n; ++i) {
      float p[3];
      nav::toRecast(start[i], p);
      crowd->addAgent(p, &ap);
      newGoal(i, start[i]);
    }
    double goalsAtStart = 0;
    std::uint64_t goalsTotal = 0;
    for (int t = 0; t < warmTicks + measureTicks; ++t) {
      const auto t0 = Clock::now();
      crowd->update(kDt, nullptr);
      const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
      const bool measuring = t >= warmTicks;
      if (measuring) theirs.tickMs.push_back(ms);
      if (t == warmTicks) goalsAtStart = static_cast<double>(goalsTotal);
      for (std::size_t i = 0; i < n; ++i) {
        pos[i] = nav::fromRecast(crowd->getAgent(static_cast<int>(i))->npos);
        if (steer::distance(pos[i], goal[i]) <= kArrive) {
          ++reached[i];
          ++goalsTotal;
          newGoal(i, pos[i]);
        }
      }
      theirs.m.observe(pos, goal, measuring);
    }
    theirs.goals = static_cast<double>(goalsTotal) - goalsAtStart;
    dtFreeCrowd(crowd);
  }

  std::printf("\n%-12s %9s %9s %13s %11s %7s %7s %7s %9s %11s %10s %7s %7s\n", "crowd", "ms/tick", "p99",
              "agent-upd/s", "goals/s", "stuck", "stuck~", "stuck^", "overlap^", "ticks>20%r", "mean ovl",
              "speed", "slow");
  print(ours, n, seconds);
  if (!skipDetour) print(theirs, n, seconds);
  std::printf(
      "\nstuck: goal > 10 m now and 5 s ago, moved < 1 m in those 5 s (at the end; stuck~ the mean of the\n"
      "measured seconds, stuck^ the worst). overlap^: deepest pair, fraction of the radius; ticks>20%%r:\n"
      "share of ticks with a pair deeper than 20 %%. speed: mean m/s of the measured ticks (the most is "
      "3.5);\n"
      "slow: share of agent-ticks under half of it.\n");
  std::printf(
      "steerd navigation: %llu path requests, %llu failed, %llu partial, %llu node expansions; replans: %llu "
      "blocked, %llu off course\n",
      static_cast<unsigned long long>(ns.planner.served), static_cast<unsigned long long>(ns.planner.failed),
      static_cast<unsigned long long>(ns.planner.partial),
      static_cast<unsigned long long>(ns.planner.iterations),
      static_cast<unsigned long long>(ns.replansBlocked),
      static_cast<unsigned long long>(ns.replansOffCourse));
  return 0;
}
