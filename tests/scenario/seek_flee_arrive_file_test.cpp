// SEEK, FLEE and ARRIVE from a scenario file, in a world (their formulas are pinned to
// STEERING.md in tests/steering/): to a waypoint or the nearest agent of an archetype, FLEE's
// panic distance, ARRIVE's Buckland deceleration and Millington radii; what the check refuses and
// warns about; and the hints a designer gets for a misspelt kind or field and an unclosed brace.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "scenario/scenario_hints.h"
#include "scenario_text.h"
#include "world/behaviour_table.h"

namespace steerd {
namespace {

using namespace steerd::testing;

// One mover at (10, 50) at rest, a post (no behaviours) at (60, 50), the waypoint "goal" at (40, 50).
std::string world(const std::string& behaviour, float postX = 60.0f) {
  return R"(
name: "sfa"
bounds { min { x: 0 y: 0 } max { x: 100 y: 100 } }
waypoints { name: "goal" position { x: 40 y: 50 } }
archetypes {
  name: "mover"
  limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 10 max_turn_rate_deg: 720 }
  behaviours { )" +
         behaviour + R"( }
}
archetypes { name: "post" limits { radius: 0.5 mass: 1 max_speed: 0 max_force: 0 } }
spawns { archetype: "mover" count: 1 min { x: 10 y: 50 } max { x: 10 y: 50 } }
spawns { archetype: "post" count: 1 min { x: )" +
         std::to_string(postX) + R"( y: 50 } max { x: )" + std::to_string(postX) + R"( y: 50 } }
)";
}

struct Trip {
  float x = 0, y = 0, speed = 0;
  float nearest = 1e9f;  // the closest it came to `to`
  int ticksToStop = -1;  // first tick at or under 5 cm/s after having moved
};

Trip run(const std::string& text, int ticks, float toX = 40.0f) {
  ScenarioLoad r = load(text);
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  Trip out;
  if (!r.world) return out;
  World& w = *r.world;
  bool moved = false;
  for (int t = 1; t <= ticks; ++t) {
    w.step();
    const AgentColumns& a = w.agents();
    const std::uint32_t s = w.slotOf(a.id[0] < a.id[1] ? a.id[0] : a.id[1]);  // the mover: spawned first
    out.x = a.px[s];
    out.y = a.py[s];
    out.speed = std::hypot(a.vx[s], a.vy[s]);
    out.nearest = std::min(out.nearest, std::hypot(out.x - toX, out.y - 50.0f));
    moved = moved || out.speed > 0.5f;
    if (moved && out.ticksToStop < 0 && out.speed <= 0.05f) out.ticksToStop = t;
  }
  return out;
}

TEST(SeekFleeArriveFile, SeekHeadsStraightForAWaypointAtFullSpeed) {
  const Trip r = run(world("kind: SEEK waypoint: \"goal\""), 600);
  EXPECT_LT(r.nearest, 0.3f);      // it got there...
  EXPECT_NEAR(r.y, 50.0f, 1e-3f);  // ...along the straight line...
  // ...closing on max speed as STEERING.md's seek says: F = desired - v, so from rest, one
  // symplectic Euler step of 1/30 s a tick, v_n = 3 (1 - (29/30)^n).
  const Trip early = run(world("kind: SEEK waypoint: \"goal\""), 60);
  EXPECT_NEAR(early.speed, 3.0 * (1.0 - std::pow(29.0 / 30.0, 60)), 1e-3);
}

TEST(SeekFleeArriveFile, SeekAndArriveCanAimAtTheNearestAgentOfAnArchetype) {
  const Trip seek = run(world("kind: SEEK target_archetype: \"post\" range: 80"), 600, 60.0f);
  EXPECT_LT(seek.nearest, 1.2f);  // touching the post (radii 0.5 + 0.5)
  const Trip arrive = run(world("kind: ARRIVE target_archetype: \"post\" range: 80"), 900, 60.0f);
  EXPECT_LT(arrive.nearest, 1.2f);  // (it presses on the post's centre, which its body holds off)
  // Out of range: nothing to aim at, no force.
  const Trip far = run(world("kind: SEEK target_archetype: \"post\" range: 20"), 60, 60.0f);
  EXPECT_EQ(far.x, 10.0f);
}

TEST(SeekFleeArriveFile, ArriveStopsOnTheWaypointSlowerWithSlowDeceleration) {
  const Trip normal = run(world("kind: ARRIVE waypoint: \"goal\""), 900);
  EXPECT_NEAR(normal.x, 40.0f, 0.1f);
  EXPECT_LT(normal.speed, 0.05f);
  const Trip slow = run(world("kind: ARRIVE waypoint: \"goal\" deceleration: DECELERATION_SLOW"), 900);
  const Trip fast = run(world("kind: ARRIVE waypoint: \"goal\" deceleration: DECELERATION_FAST"), 900);
  EXPECT_NEAR(slow.x, 40.0f, 0.1f);
  EXPECT_NEAR(fast.x, 40.0f, 0.1f);
  // Buckland: speed = distance / DECELERATION, so the slow one takes longer to settle.
  ASSERT_GT(slow.ticksToStop, 0);
  ASSERT_GT(fast.ticksToStop, 0);
  EXPECT_GT(slow.ticksToStop, fast.ticksToStop);
}

TEST(SeekFleeArriveFile, MillingtonArriveStopsInsideItsTargetRadius) {
  const Trip r = run(
      world("kind: ARRIVE waypoint: \"goal\" slow_radius: 6 target_radius: 0.5 time_to_target: 0.2"), 900);
  EXPECT_LT(std::fabs(r.x - 40.0f), 0.5f);
  EXPECT_LT(r.speed, 0.05f);
}

TEST(SeekFleeArriveFile, FleeRunsOnlyWithinItsPanicDistance) {
  // The threat 5 m away (a waypoint at (15, 50)): run until 12 m away, then coast to a stop? No:
  // outside the panic distance flee gives no force, so it keeps the speed it had and drifts on.
  std::string text = world("kind: FLEE waypoint: \"goal\" range: 12");
  text = replacedIn(text, "position { x: 40 y: 50 }", "position { x: 15 y: 50 }");
  const Trip near = run(text, 60, 15.0f);
  EXPECT_LT(near.x, 10.0f);  // away from the threat, along -x
  // 20 m away: outside its panic distance, it never moves.
  std::string calm = replacedIn(world("kind: FLEE waypoint: \"goal\" range: 12"), "position { x: 40 y: 50 }",
                                "position { x: 30 y: 50 }");
  const Trip still = run(calm, 60, 30.0f);
  EXPECT_EQ(still.x, 10.0f);
  EXPECT_EQ(still.speed, 0.0f);
  // Range left out, from a waypoint: always.
  const Trip always = run(world("kind: FLEE waypoint: \"goal\""), 60);
  EXPECT_LT(always.x, 10.0f);
  // From the nearest agent within range.
  const Trip fromPost = run(world("kind: FLEE target_archetype: \"post\" range: 8", 14.0f), 60, 14.0f);
  EXPECT_LT(fromPost.x, 10.0f);
}

TEST(SeekFleeArriveFile, TheCheckRefusesWhatCannotWorkAndWarnsAboutWhatIsIgnored) {
  expectError(world("kind: SEEK"), "SEEK needs a waypoint or a target_archetype");
  expectError(world("kind: FLEE waypoint: \"goal\" target_archetype: \"post\""),
              "FLEE needs a waypoint or a target_archetype (one of them)");
  expectError(world("kind: ARRIVE waypoint: \"nowhere\""), "no waypoint named \"nowhere\"");
  expectError(world("kind: ARRIVE waypoint: \"goal\" slow_radius: 2 target_radius: 3"),
              "target_radius: must be below slow_radius");
  expectError(world("kind: ARRIVE waypoint: \"goal\" slow_radius: -1"),
              "slow_radius: must be a finite number >= 0");
  // Warnings: the file still loads.
  const ScenarioLoad r = load(world("kind: WANDER target_archetype: \"post\" slow_radius: 3 probability: 2"));
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  EXPECT_TRUE(mentions(r.warnings, "behaviours[0].target_archetype", "WANDER does not read it"));
  EXPECT_TRUE(mentions(r.warnings, "behaviours[0].slow_radius", "WANDER does not read it"));
  EXPECT_TRUE(mentions(r.warnings, "behaviours[0].probability", "over 1"));
  EXPECT_TRUE(load(world("kind: SEEK waypoint: \"goal\"")).warnings.empty());  // the post: no behaviours
  const ScenarioLoad still =
      load(replacedIn(world("kind: SEEK waypoint: \"goal\""), "max_speed: 3", "max_speed: 0"));
  EXPECT_TRUE(mentions(still.warnings, "archetypes[0] (\"mover\").limits.max_speed", "they never can"));
}

// A name given to a kind that does not read it is a warning and is never looked up: a path no path
// has, on SEPARATION, used to end the process (map::at) after the check had passed the file.
TEST(SeekFleeArriveFile, AnIgnoredNameIsWarnedAboutAndNeverLookedUp) {
  const ScenarioLoad r =
      load(world("kind: SEPARATION path: \"nowhere\" waypoint: \"nowhere\" second_archetype: \"nobody\""));
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  EXPECT_NE(r.world, nullptr);
  EXPECT_TRUE(mentions(r.warnings, "behaviours[0].path", "SEPARATION does not read it"));
  EXPECT_TRUE(mentions(r.warnings, "behaviours[0].waypoint", "SEPARATION does not read it"));
  EXPECT_TRUE(mentions(r.warnings, "behaviours[0].second_archetype", "SEPARATION does not read it"));
  ASSERT_FALSE(r.archetypes.empty());
  EXPECT_EQ(r.archetypes[0].behaviours[0].pathIndex, -1);
}

// The kinds a `target` may go on are the behaviour table's rows that read it, named in the error.
TEST(SeekFleeArriveFile, TargetOnAKindWithoutATargetNamesTheKindsThatTakeOne) {
  expectError(
      world("kind: WANDER target: GROUP_LEADER"),
      "target: GROUP_LEADER on WANDER, which has no target agent (PURSUE_NEAREST, EVADE_NEAREST, "
      "HIDE_FROM_NEAREST, INTERPOSE_NEAREST, OFFSET_PURSUIT_NEAREST, FETCH_STRAY, VELOCITY_MATCH, ALIGN, "
      "and SEEK, FLEE, ARRIVE or FACE without a waypoint)");
  const ScenarioLoad r = load(world("kind: WANDER target: GROUP_CENTROID"));
  for (const BehaviourRow& row : kBehaviourTable) {
    if ((row.reads & kFieldTarget) == 0) continue;
    EXPECT_TRUE(mentions(r.errors, "which has no target agent", std::string(row.fileName))) << row.fileName;
  }
}

TEST(SeekFleeArriveFile, AMisspeltKindOrFieldGetsADidYouMean) {
  expectError(world("kind: FLE waypoint: \"goal\""), "(did you mean FLEE?)");
  expectError(world("kind: seek waypoint: \"goal\""), "(did you mean SEEK?)");
  expectError(world("kind: SEEK waypont: \"goal\""), "(did you mean waypoint?)");
  expectError(replacedIn(world("kind: SEEK waypoint: \"goal\""), "max_speed: 3", "max_sped: 3"),
              "(did you mean max_speed?)");
  // Nothing near: no hint rather than a wild guess.
  const ScenarioLoad r = load(world("kind: TELEPORT waypoint: \"goal\""));
  ASSERT_FALSE(r.errors.empty());
  EXPECT_EQ(r.errors[0].find("did you mean"), std::string::npos) << r.errors[0];
}

TEST(SeekFleeArriveFile, AnUnclosedBraceIsReportedWhereItOpened) {
  // The archetype's block (line 5, column 12) is never closed.
  const std::string text =
      replacedIn(world("kind: SEEK waypoint: \"goal\""), "  behaviours { kind: SEEK waypoint: \"goal\" }\n}",
                 "  behaviours { kind: SEEK waypoint: \"goal\" }\n");
  expectError(text, "t.txtpb:5:12: this '{' is never closed");
}

TEST(ScenarioHints, EditDistanceAndNearestNames) {
  using scenario_hints::editDistance;
  using scenario_hints::nearest;
  EXPECT_EQ(editDistance("FLE", "FLEE"), 1u);
  EXPECT_EQ(editDistance("behaviors", "behaviours"), 1u);
  EXPECT_EQ(editDistance("SEKE", "SEEK"), 1u);  // a transposition is one edit
  EXPECT_EQ(editDistance("seek", "SEEK"), 0u);  // case-blind
  EXPECT_EQ(nearest("ARIVE", {"ARRIVE", "ARRIVE_AT", "WANDER"}), (std::vector<std::string>{"ARRIVE"}));
  EXPECT_TRUE(nearest("X", {"WANDER"}).empty());
  EXPECT_TRUE(nearest(std::string(1000, 'a'), {std::string(1000, 'a') + "b"}).empty());  // too long: no work
  // Braces in strings and comments do not count.
  EXPECT_TRUE(scenario_hints::unclosedBraces("name: \"{\" # {\nx { }").empty());
  const auto open = scenario_hints::unclosedBraces("a {\n  b { }\n");
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0].line, 1);
  EXPECT_EQ(open[0].column, 3);
}

// A leader that seeks far off along +x and a follower that only matches the leader's velocity.
TEST(VelocityMatchFile, TheFollowerTakesOnTheLeadersVelocity) {
  const std::string text = R"(
name: "vm"
bounds { min { x: 0 y: 0 } max { x: 200 y: 100 } }
waypoints { name: "far" position { x: 190 y: 20 } }
archetypes {
  name: "leader"
  limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 10 max_turn_rate_deg: 720 }
  behaviours { kind: SEEK waypoint: "far" }
}
archetypes {
  name: "follower"
  limits { radius: 0.5 mass: 1 max_speed: 5 max_force: 10 max_turn_rate_deg: 720 }
  behaviours { kind: VELOCITY_MATCH target_archetype: "leader" range: 50 time_to_target: 0.5 }
}
spawns { archetype: "leader" count: 1 min { x: 10 y: 20 } max { x: 10 y: 20 } }
spawns { archetype: "follower" count: 1 min { x: 10 y: 60 } max { x: 10 y: 60 } }
)";
  ScenarioLoad r = load(text);
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  ASSERT_TRUE(r.warnings.empty()) << r.warnings[0];
  World& w = *r.world;
  for (int t = 0; t < 150; ++t) w.step();
  const AgentColumns& a = w.agents();
  const std::uint32_t leader = a.archetype[0] == 0 ? 0 : 1, follower = 1 - leader;
  EXPECT_NEAR(a.vx[follower], a.vx[leader], 0.05f);
  EXPECT_NEAR(a.vy[follower], a.vy[leader], 0.05f);
  EXPECT_GT(a.vx[follower], 2.5f);           // it does move: along +x, as the leader
  EXPECT_NEAR(a.py[follower], 60.0f, 0.5f);  // never towards it: matching velocity, not position
}

// Two seeks of equal priority, one along +x and one along +y: PRIORITY_GROUPS blends them
// (Millington), PRIORITY takes the first alone.
TEST(PriorityGroupsFile, EqualPrioritiesAreBlendedTheFirstGroupWins) {
  const auto velocityAfter = [](const char* combiner) {
    const std::string text = std::string(R"(
name: "pg"
bounds { min { x: 0 y: 0 } max { x: 100 y: 100 } }
waypoints { name: "east" position { x: 90 y: 10 } }
waypoints { name: "north" position { x: 10 y: 90 } }
waypoints { name: "west" position { x: 0 y: 10 } }
archetypes {
  name: "walker"
  limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 10 max_turn_rate_deg: 720 }
  combiner: )") + combiner + R"(
  behaviours { kind: SEEK waypoint: "east" priority: 0 }
  behaviours { kind: SEEK waypoint: "north" priority: 0 }
  behaviours { kind: SEEK waypoint: "west" priority: 1 }
}
spawns { archetype: "walker" count: 1 min { x: 10 y: 10 } max { x: 10 y: 10 } }
)";
    ScenarioLoad r = load(text);
    EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors[0]);
    std::pair<float, float> v{0, 0};
    if (!r.world) return v;
    for (int t = 0; t < 10; ++t) r.world->step();
    return std::pair{r.world->agents().vx[0], r.world->agents().vy[0]};
  };
  const auto [gx, gy] = velocityAfter("PRIORITY_GROUPS");
  EXPECT_GT(gx, 0.1f);
  EXPECT_NEAR(gx, gy, 1e-4f);  // the diagonal: both of the first group, nothing of the second
  const auto [px, py] = velocityAfter("PRIORITY");
  EXPECT_GT(px, 0.1f);
  EXPECT_NEAR(py, 0.0f, 1e-5f);  // the first alone
}

// Kinematic movement (Millington, STEERING.md section 2) from a scenario file: the velocity is set,
// not accelerated; seek goes at top speed from the first tick, arrive stops inside its satisfaction
// radius, wander goes at top speed turning at most max_rotation a second; other kinds are refused.
std::string kinematicWorld(const std::string& behaviours) {
  return R"(
name: "kin"
bounds { min { x: 0 y: 0 } max { x: 100 y: 100 } }
waypoints { name: "goal" position { x: 40 y: 50 } }
archetypes {
  name: "mover"
  locomotion: KINEMATIC
  limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 10 max_rotation_deg: 90 }
  )" + behaviours +
         R"(
}
spawns { archetype: "mover" count: 1 min { x: 10 y: 50 } max { x: 10 y: 50 } }
)";
}

TEST(KinematicFile, SeekIsAtTopSpeedFromTheFirstTickAndArriveStopsInsideItsRadius) {
  ScenarioLoad r = load(kinematicWorld("behaviours { kind: SEEK waypoint: \"goal\" }"));
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  r.world->step();
  const AgentColumns& a = r.world->agents();
  // v = normalize(target - p) * maxSpeed: (3, 0) at once, and the body faces it.
  EXPECT_FLOAT_EQ(a.vx[0], 3.0f);
  EXPECT_FLOAT_EQ(a.vy[0], 0.0f);
  EXPECT_NEAR(a.px[0], 10.1f, 1e-5f);
  EXPECT_NEAR(a.hx[0], 1.0f, 1e-6f);

  ScenarioLoad arrive = load(
      kinematicWorld("behaviours { kind: ARRIVE waypoint: \"goal\" target_radius: 1 time_to_target: 0.25 }"));
  ASSERT_TRUE(arrive.errors.empty()) << arrive.errors[0];
  for (int t = 0; t < 600; ++t) arrive.world->step();
  const AgentColumns& b = arrive.world->agents();
  EXPECT_EQ(b.vx[0], 0.0f);  // inside the satisfaction radius: stopped dead
  EXPECT_LE(40.0f - b.px[0], 1.0f);
  EXPECT_GT(40.0f - b.px[0], 0.5f);  // and not beyond it: it stops as it enters
}

TEST(KinematicFile, WanderGoesAtTopSpeedTurningWithinMaxRotation) {
  ScenarioLoad r = load(kinematicWorld("behaviours { kind: WANDER }"));
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  World& w = *r.world;
  const AgentColumns& a = w.agents();
  float previous = std::atan2(a.hy[0], a.hx[0]);
  float most = 0.0f;
  for (int t = 0; t < 300; ++t) {
    w.step();
    if (a.px[0] > 2 && a.px[0] < 98 && a.py[0] > 2 && a.py[0] < 98) {
      EXPECT_NEAR(std::hypot(a.vx[0], a.vy[0]), 3.0f, 1e-4f) << "tick " << t;
    }
    const float heading = std::atan2(a.hy[0], a.hx[0]);
    most = std::max(most, std::abs(steer::wrapAngle(heading - previous)));
    previous = heading;
  }
  EXPECT_LE(most, 90.0f * steer::kPi / 180.0f / 30.0f + 1e-4f);  // 3 degrees a tick at most
  EXPECT_GT(most, 0.0f);                                         // and it does turn
}

TEST(KinematicFile, OnlyKindsWithAKinematicFormAreTaken) {
  expectError(kinematicWorld("behaviours { kind: OBSTACLE_AVOIDANCE }"),
              "OBSTACLE_AVOIDANCE on KINEMATIC \"mover\": kinematic movement takes SEEK, FLEE, ARRIVE and "
              "WANDER only");
  expectError(kinematicWorld("behaviours { kind: FACE waypoint: \"goal\" }"), "FACE on KINEMATIC");
}

// What an agent steers at (AgentMemory::targetId, the debug stream's target_id) is the first target
// its set finds in priority order: the default scenario's pursuer, which pursues a player within
// 30 m first and boids within 60 m with it, names the player 1.3 m away, not a boid (it used to
// name whichever was evaluated last).
TEST(TargetId, APursuerNamesThePlayerItClosesOnNotABoid) {
  ScenarioLoad r = openScenario("default", {1, 1, 0});
  ASSERT_TRUE(r.world);
  World& w = *r.world;
  int pursuer = -1, player = -1, boid = -1;
  for (std::size_t i = 0; i < w.archetypes().size(); ++i) {
    if (w.archetypes()[i].name == "pursuer") pursuer = static_cast<int>(i);
    if (w.archetypes()[i].name == "player") player = static_cast<int>(i);
    if (w.archetypes()[i].name == "boid") boid = static_cast<int>(i);
  }
  ASSERT_GE(pursuer, 0);
  ASSERT_GE(player, 0);
  const AgentColumns& a = w.agents();
  // A pursuer with a boid within its 60 m (every one has, in a 300-boid district).
  std::uint32_t s = 0;
  while (s < a.size() && a.archetype[s] != pursuer) ++s;
  ASSERT_LT(s, a.size());
  const AgentId chaser = a.id[s];
  const AgentId p = w.spawnExternal(static_cast<ArchetypeIndex>(player), {a.px[s] + 1.3f, a.py[s]});
  int named = 0, namedBoid = 0;
  for (int t = 0; t < 30; ++t) {
    const std::uint32_t c = w.slotOf(chaser);
    w.setExternalState(p, {a.px[c] + 1.3f, a.py[c]}, {0, 0});
    w.step();
    const std::int32_t target = a.memory(w.slotOf(chaser)).targetId;
    named += target == static_cast<std::int32_t>(p) ? 1 : 0;
    if (target >= 0 && w.isAlive(static_cast<AgentId>(target)) &&
        a.archetype[w.slotOf(static_cast<AgentId>(target))] == boid)
      ++namedBoid;
  }
  EXPECT_EQ(named, 30);
  EXPECT_EQ(namedBoid, 0);
}

// Per-behaviour tuning from the file: each field changes what its kind does, and only its kind
// reads it (the others warn).
struct Two {
  float vx = 0, vy = 0;
};
// One "a" at (10, 50) steered by `aBehaviour` and one "b" at (bx, by) by `bBehaviour`; a's
// velocity after 1.5 s.
Two firstStep(const std::string& aBehaviour, const std::string& bLimits, const std::string& bBehaviour,
              float bx, float by, const std::string& extra = "") {
  const std::string text = R"(
name: "tune"
bounds { min { x: 0 y: 0 } max { x: 200 y: 200 } }
waypoints { name: "north" position { x: 40 y: 195 } }
waypoints { name: "west" position { x: 5 y: 50 } }
)" + extra + R"(
archetypes {
  name: "a"
  limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 10 max_turn_rate_deg: 720 }
  behaviours { )" + aBehaviour +
                           R"( }
}
archetypes {
  name: "b"
  limits { )" + bLimits + R"( }
  behaviours { )" + bBehaviour +
                           R"( }
}
spawns { archetype: "a" count: 1 min { x: 10 y: 50 } max { x: 10 y: 50 } }
spawns { archetype: "b" count: 1 min { x: )" +
                           std::to_string(bx) + " y: " + std::to_string(by) + R"( } max { x: )" +
                           std::to_string(bx) + " y: " + std::to_string(by) + R"( } }
)";
  ScenarioLoad r = load(text);
  EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors[0]);
  if (!r.world) return {};
  for (int t = 0; t < 45; ++t) r.world->step();  // b up to speed
  const AgentColumns& a = r.world->agents();
  const std::uint32_t s = a.archetype[0] == 0 ? 0 : 1;
  return {a.vx[s], a.vy[s]};
}

TEST(TuningFile, MaxPredictionCapsPursuitsLookahead) {
  const std::string b = "radius: 0.5 mass: 1 max_speed: 6 max_force: 40";
  const std::string seekNorth = "kind: SEEK waypoint: \"north\"";
  // b runs north from (40, 50): pursuit aims ahead of it; a capped lookahead aims nearer to it.
  const Two ahead =
      firstStep("kind: PURSUE_NEAREST target_archetype: \"b\" range: 100", b, seekNorth, 40, 50);
  const Two capped = firstStep("kind: PURSUE_NEAREST target_archetype: \"b\" range: 100 max_prediction: 0.2",
                               b, seekNorth, 40, 50);
  EXPECT_GT(std::atan2(ahead.vy, ahead.vx), std::atan2(capped.vy, capped.vx) + 0.1f);
}

TEST(TuningFile, RayLengthAndTimeHorizonReachFarther) {
  // A wall 6 m ahead of a walker heading west: a 3 m whisker ray does not see it yet, an 8 m one does.
  const std::string wall = "walls { from { x: 4 y: 200 } to { x: 4 y: 0 } }\n";  // facing east
  const std::string b = "radius: 0.5 mass: 1 max_speed: 0 max_force: 0";
  const Two shortRay =
      firstStep("kind: SEEK waypoint: \"west\" } behaviours { kind: WHISKER_AVOIDANCE weight: 5", b,
                "kind: WANDER", 150, 150, wall);
  const Two longRay = firstStep(
      "kind: SEEK waypoint: \"west\" } behaviours { kind: WHISKER_AVOIDANCE weight: 5 ray_length: 8", b,
      "kind: WANDER", 150, 150, wall);
  EXPECT_NE(shortRay.vx, longRay.vx);
  // Head-on from 40 m apart, b closing at 6 m/s: at 1.5 s the collision is about 5 s off, beyond a
  // 3 s horizon and within a 10 s one.
  const std::string fast = "radius: 0.5 mass: 1 max_speed: 6 max_force: 40";
  const Two near = firstStep(
      "kind: SEEK waypoint: \"west\" weight: 0.01 } behaviours { kind: COLLISION_AVOIDANCE range: 80", fast,
      "kind: SEEK waypoint: \"west\"", 50, 50.3f);
  const Two far = firstStep(
      "kind: SEEK waypoint: \"west\" weight: 0.01 } behaviours { kind: COLLISION_AVOIDANCE range: 80 "
      "time_horizon: 10",
      fast, "kind: SEEK waypoint: \"west\"", 50, 50.3f);
  EXPECT_NE(near.vy, far.vy);
}

TEST(TuningFile, TuningIsCheckedAndWarnedAboutOnOtherKinds) {
  expectError(world("kind: CONTEXT_SEEK_WAYPOINTS danger_tolerance: 2"),
              "danger_tolerance: from 0 to 1, not 2");
  expectError(world("kind: WHISKER_AVOIDANCE ray_length: -1"), "ray_length: must be a finite number >= 0");
  const ScenarioLoad r = load(world("kind: SEEK waypoint: \"goal\" max_prediction: 1 time_horizon: 2"));
  ASSERT_TRUE(r.errors.empty()) << r.errors[0];
  EXPECT_TRUE(mentions(r.warnings, "behaviours[0].max_prediction", "SEEK does not read it"));
  EXPECT_TRUE(mentions(r.warnings, "behaviours[0].time_horizon", "SEEK does not read it"));
}

// Context steering's chooser and danger writer from the file (STEERING.md section 6 asks for
// both choosers): on seed 001's race, every combination keeps its racers going round the track
// (waypoints passed) and out of the obstacles. Measured, the slowest of 6 racers in 60 s: masked
// with discs (the default) 5 waypoints, argmax 3, dot danger 3, argmax with dot danger 8.
// Each option reaches the behaviour and changes the race: the four runs end in four different
// worlds (with an option ignored, two of them would be the same run).
TEST(ContextOptionsFile, EveryChooserAndDangerWriterRacesRound) {
  std::ifstream in(std::string(STEERD_SCENARIOS_DIR) + "/context-race.txtpb");
  const std::string race((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_NE(race.find("kind: CONTEXT_SEEK_WAYPOINTS"), std::string::npos);
  struct Case {
    std::string options;
    bool argmax, dotDanger;
  };
  std::vector<std::uint64_t> ends;  // each run's final state hash
  for (const Case& c : {Case{"", false, false}, Case{"context_chooser: CONTEXT_ARGMAX", true, false},
                        Case{"context_danger: DANGER_DOT", false, true},
                        Case{"context_chooser: CONTEXT_ARGMAX context_danger: DANGER_DOT", true, true}}) {
    const std::string& options = c.options;
    ScenarioLoad r =
        load(replacedIn(race, "kind: CONTEXT_SEEK_WAYPOINTS", "kind: CONTEXT_SEEK_WAYPOINTS " + options));
    ASSERT_TRUE(r.errors.empty()) << r.errors[0];
    World& w = *r.world;
    int racers = 0;  // behaviours of the kind, each with the options the file gave
    for (const Archetype& arch : w.archetypes()) {
      for (const BehaviourSpec& spec : arch.behaviours) {
        if (spec.kind != BehaviourKind::kContextSeekWaypoints) continue;
        ++racers;
        EXPECT_EQ(spec.contextArgmax, c.argmax) << "'" << options << "'";
        EXPECT_EQ(spec.contextDotDanger, c.dotDanger) << "'" << options << "'";
      }
    }
    EXPECT_GT(racers, 0) << "'" << options << "'";
    const AgentColumns& a = w.agents();
    std::vector<int> last(a.size(), -1), passed(a.size(), 0);
    int inside = 0;
    for (int t = 0; t < 60 * 30; ++t) {
      w.step();
      for (std::size_t s = 0; s < a.size(); ++s) {
        const int index = a.memory(s).pathIndex;
        if (last[s] >= 0 && index != last[s]) ++passed[s];
        last[s] = index;
        for (const auto& o : w.geometry().obstacles) {
          if (std::hypot(a.px[s] - o.center.x, a.py[s] - o.center.y) < o.radius - 0.05f) ++inside;
        }
      }
    }
    const int fewest = *std::min_element(passed.begin(), passed.end());
    EXPECT_GE(fewest, 3) << "'" << options << "': the slowest racer passed " << fewest
                         << " waypoints in 60 s";
    EXPECT_EQ(inside, 0) << "'" << options << "'";
    std::printf("context options '%s': slowest racer passed %d waypoints in 60 s\n", options.c_str(), fewest);
    for (std::size_t k = 0; k < ends.size(); ++k)
      EXPECT_NE(w.stateHash(), ends[k]) << "'" << options << "' ran the same race as run " << k;
    ends.push_back(w.stateHash());
  }
}

}  // namespace
}  // namespace steerd
