// The scene's changes on the wire (proto/scene_changes_codec.h): what the server records, the
// pages it cuts, what a client makes of them, and every malformed page refused whole.
#include "proto/scene_changes_codec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numbers>
#include <random>

#include "proto/packet.h"

namespace steerd::wire {
namespace {

SceneObstacle circle(std::uint32_t id, float x, float y, float r, std::uint32_t flags = 0) {
  return quantizedObstacle(id, flags, {x, y}, r, {}, 0.0f);
}
SceneObstacle box(std::uint32_t id, float x, float y, float hx, float hy, float deg) {
  return quantizedObstacle(id, kObstacleBox, {x, y}, 0.0f, {hx, hy}, deg);
}
// An L (arms 2 m wide) turned by `deg`, counter-clockwise.
SceneObstacle ell(std::uint32_t id, float x, float y, float deg, std::uint32_t flags = 0) {
  return quantizedObstacle(id, kObstaclePolygon | flags, {x, y}, 0.0f, {}, deg,
                           {{-3, -3}, {3, -3}, {3, -1}, {-1, -1}, {-1, 3}, {-3, 3}});
}

// A client that starts at version 0 and asks as the client library does, until it is at the log's
// version: every page through a datagram, each within the size limit.
std::uint32_t catchUp(const SceneChangeLog& log, std::uint32_t have, SceneLive& held, int* pages = nullptr) {
  std::uint32_t after = 0, first = 0;
  for (int guard = 0; guard < 10000; ++guard) {
    const SceneChanges page = encodeSceneChanges(log, have, after, kMaxScenePartBytes);
    Packet p;
    *p.mutable_scene_changes() = page;
    std::vector<std::uint8_t> d;
    EXPECT_TRUE(encodeDatagram({Packet::kSceneChanges, 0, 0, 0}, p, d));
    EXPECT_LE(d.size(), kMaxDatagramBytes);
    EXPECT_EQ(applySceneChanges(page, held), "");
    if (pages != nullptr) ++*pages;
    if (after == 0) first = page.version();
    if (page.through() == 0) return first;
    EXPECT_GT(page.through(), after);
    after = page.through();
  }
  ADD_FAILURE() << "never reached the last page";
  return have;
}

std::vector<SceneObstacle> obstaclesOf(const SceneChangeLog& log) {
  std::vector<SceneObstacle> out;
  for (const auto& e : log.obstacles) out.push_back(e.obstacle);
  return out;
}

TEST(SceneChanges, APageListsOnlyWhatChangedSinceTheClientsVersion) {
  SceneChangeLog log;
  recordScene(log, 1, {true}, {circle(1, 10, 10, 1), circle(2, 20, 20, 2)});
  recordScene(log, 2, {false}, {circle(1, 10, 10, 1), circle(2, 21, 20, 2), box(3, 5, 5, 1, 2, 30)});
  const SceneChanges page = encodeSceneChanges(log, 1, 0, kMaxScenePartBytes);
  EXPECT_FALSE(page.whole());
  EXPECT_EQ(page.version(), 2u);
  EXPECT_EQ(page.through(), 0u);
  ASSERT_EQ(page.door_open_size(), 1);
  EXPECT_FALSE(page.door_open(0));
  // 2 moved and 3 is new; 1 did not change.
  ASSERT_EQ(page.obstacle_id_size(), 2);
  EXPECT_EQ(page.obstacle_id(0), 2u);      // from 0
  EXPECT_EQ(page.obstacle_id(1), 1u);      // +1 = 3
  EXPECT_EQ(page.obstacle_flags(1), 1u);   // a box
  EXPECT_EQ(page.obstacle_x(0), 21 * 64);  // 21 m
  EXPECT_EQ(page.obstacle_x(1), (5 - 21) * 64);
  ASSERT_EQ(page.circle_radius_size(), 1);
  EXPECT_EQ(page.circle_radius(0), 128u);
  ASSERT_EQ(page.box_angle_size(), 1);
  EXPECT_EQ(page.box_angle(0), 5461u);  // 30 degrees: 65536 / 12, rounded
  EXPECT_EQ(page.removed_size(), 0);

  // Removing 1 at version 3: a client at 2 hears only that.
  recordScene(log, 3, {false}, {circle(2, 21, 20, 2), box(3, 5, 5, 1, 2, 30)});
  const SceneChanges removal = encodeSceneChanges(log, 2, 0, kMaxScenePartBytes);
  EXPECT_EQ(removal.obstacle_id_size(), 0);
  ASSERT_EQ(removal.removed_size(), 1);
  EXPECT_EQ(removal.removed(0), 1u);
  // A client at 3 hears nothing but the doors.
  const SceneChanges nothing = encodeSceneChanges(log, 3, 0, kMaxScenePartBytes);
  EXPECT_EQ(nothing.obstacle_id_size() + nothing.removed_size(), 0);
  EXPECT_EQ(nothing.door_open_size(), 1);
}

TEST(SceneChanges, ANewClientOneAheadOrOneTooFarBehindGetsTheWholeSet) {
  SceneChangeLog log;
  recordScene(log, 5, {}, {circle(1, 1, 1, 1), circle(2, 2, 2, 1)});
  for (const std::uint32_t have : {0u, 9u}) {
    const SceneChanges page = encodeSceneChanges(log, have, 0, kMaxScenePartBytes);
    EXPECT_TRUE(page.whole()) << have;
    EXPECT_EQ(page.obstacle_id_size(), 2) << have;
  }
  // More removals than are kept: the oldest half is forgotten, and a client from before gets all.
  SceneChangeLog churn;
  std::uint32_t version = 0;
  for (std::uint32_t id = 1; id <= kMaxRemovalsKept + 10; ++id) {
    recordScene(churn, ++version, {}, {circle(id, 1, 1, 1)});
  }
  EXPECT_LE(churn.removed.size(), kMaxRemovalsKept);
  EXPECT_GT(churn.forgotten, 1u);
  EXPECT_TRUE(encodeSceneChanges(churn, 1, 0, kMaxScenePartBytes).whole());
  EXPECT_FALSE(encodeSceneChanges(churn, version - 1, 0, kMaxScenePartBytes).whole());
  // Whole, or not, the client ends with the one live obstacle.
  SceneLive a, b;
  a.obstacles = {circle(1, 1, 1, 1), circle(2, 1, 1, 1)};
  catchUp(churn, 1, a);
  EXPECT_EQ(a.obstacles, obstaclesOf(churn));
  b.obstacles = {circle(version - 1, 1, 1, 1)};
  catchUp(churn, version - 1, b);
  EXPECT_EQ(b.obstacles, obstaclesOf(churn));
}

TEST(SceneChanges, AThousandObstaclesComeInPagesThatEachFitADatagram) {
  SceneChangeLog log;
  std::vector<SceneObstacle> all;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> coord(-500.0f, 500.0f);
  for (std::uint32_t id = 1; id <= 1024; ++id)
    all.push_back(id % 3 == 0 ? box(id, coord(rng), coord(rng), 2.5f, 1.0f, coord(rng))
                              : circle(id, coord(rng), coord(rng), 1.5f));
  recordScene(log, 1, {true, false, true}, all);
  SceneLive held;
  int pages = 0;
  EXPECT_EQ(catchUp(log, 0, held, &pages), 1u);
  EXPECT_GE(pages, 8) << "about a hundred obstacles a page";
  EXPECT_EQ(held.obstacles, all);
  EXPECT_EQ(held.doorOpen, (std::vector<bool>{true, false, true}));
}

// Many random changes; clients at every earlier version catch up to the same set.
TEST(SceneChanges, ClientsAtAnyEarlierVersionCatchUpToTheServersSet) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> coord(0.0f, 100.0f);
  SceneChangeLog log;
  std::vector<SceneObstacle> live;
  std::uint32_t nextId = 1;
  std::vector<SceneLive> states{{}};  // what a client at version v holds, caught up at v
  for (std::uint32_t v = 1; v <= 60; ++v) {
    for (int k = 0; k < 5; ++k) {
      const int what = static_cast<int>(rng() % 3);
      if (what == 0 || live.empty()) {
        live.push_back(rng() % 2 ? circle(nextId, coord(rng), coord(rng), 1.0f)
                                 : box(nextId, coord(rng), coord(rng), 1.0f, 0.5f, coord(rng)));
        ++nextId;
      } else if (what == 1) {
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(rng() % live.size()));
      } else {
        SceneObstacle& o = live[rng() % live.size()];
        o = o.box() ? box(o.id, coord(rng), coord(rng), 1.0f, 0.5f, coord(rng))
                    : circle(o.id, coord(rng), coord(rng), 1.0f);
      }
    }
    recordScene(log, v, {v % 2 == 0}, live);
    SceneLive s = states.back();
    catchUp(log, v - 1, s);
    EXPECT_EQ(s.obstacles, live) << "one version behind, at " << v;
    states.push_back(s);
  }
  for (std::uint32_t have = 0; have < states.size(); ++have) {
    SceneLive s = states[have];
    EXPECT_EQ(catchUp(log, have, s), 60u);
    EXPECT_EQ(s.obstacles, live) << "from version " << have;
    EXPECT_EQ(s.doorOpen, std::vector<bool>{true});
  }
}

TEST(SceneChanges, EveryMalformedPageIsRefusedAndChangesNothing) {
  SceneChangeLog log;
  recordScene(log, 1, {true}, {circle(1, 1, 1, 1), box(2, 5, 5, 1, 1, 0), circle(3, 9, 9, 1)});
  recordScene(log, 2, {true}, {box(2, 5, 5, 1, 1, 0), circle(3, 9, 9, 1)});
  const SceneChanges good = encodeSceneChanges(log, 0, 0, kMaxScenePartBytes);
  const SceneChanges removal = encodeSceneChanges(log, 1, 0, kMaxScenePartBytes);
  ASSERT_EQ(good.obstacle_id_size(), 2);
  ASSERT_EQ(removal.removed_size(), 1);
  SceneLive held;
  held.obstacles = {circle(7, 3, 3, 1)};
  const SceneLive before = held;
  const auto refused = [&](SceneChanges page, const std::function<void(SceneChanges&)>& spoil,
                           const char* what) {
    spoil(page);
    SceneLive copy = held;
    EXPECT_NE(applySceneChanges(page, copy), "") << what;
    EXPECT_EQ(copy, before) << what;
  };
  refused(
      good, [](SceneChanges& p) { p.add_obstacle_flags(0); }, "more flags than ids");
  refused(
      good, [](SceneChanges& p) { p.add_circle_radius(64); }, "a radius too many");
  refused(
      good, [](SceneChanges& p) { p.clear_box_angle(); }, "a box without its angle");
  refused(
      good, [](SceneChanges& p) { p.set_obstacle_id(1, 0); }, "an id repeated");
  refused(
      good, [](SceneChanges& p) { p.set_obstacle_flags(0, 16); }, "unknown flags");
  refused(
      good, [](SceneChanges& p) { p.set_box_angle(0, 65536); }, "an angle of a whole turn");
  refused(
      good, [](SceneChanges& p) { p.set_obstacle_x(0, 1 << 30); }, "out of range");
  refused(
      good, [](SceneChanges& p) { p.set_through(1); }, "an id past the page's range");
  refused(
      good, [](SceneChanges& p) { p.set_after_obstacle(5), p.set_through(5); }, "an empty range");
  refused(
      good, [](SceneChanges& p) { p.add_removed(9); }, "removals in a whole page");
  refused(
      removal, [](SceneChanges& p) { p.add_removed(0); }, "a removal repeated");
  refused(
      removal,
      [](SceneChanges& p) {
        p.add_obstacle_id(1), p.add_obstacle_flags(0), p.add_obstacle_x(0), p.add_obstacle_y(0),
            p.add_circle_radius(1);
      },
      "an id listed and removed");
  // And the good ones apply.
  EXPECT_EQ(applySceneChanges(good, held), "");
  EXPECT_EQ(held.obstacles, obstaclesOf(log)) << "a whole page drops what it does not list";
}

TEST(SceneChanges, PolygonsTravelWithTheirCornersAndTurn) {
  SceneChangeLog log;
  std::vector<SceneObstacle> all;
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> coord(-500.0f, 500.0f);
  for (std::uint32_t id = 1; id <= 300; ++id)
    all.push_back(id % 2 == 0
                      ? ell(id, coord(rng), coord(rng), coord(rng), id % 4 == 0 ? kObstacleCarves : 0u)
                      : circle(id, coord(rng), coord(rng), 1.5f));
  recordScene(log, 1, {}, all);
  SceneLive held;
  int pages = 0;
  EXPECT_EQ(catchUp(log, 0, held, &pages), 1u);
  EXPECT_GE(pages, 3) << "polygons cost their corners";
  EXPECT_EQ(held.obstacles, all);
  // Moved and turned: a client one version behind gets the one polygon again, corners and all.
  all[1] = ell(2, 7, 8, 90);
  recordScene(log, 2, {}, all);
  const SceneChanges one = encodeSceneChanges(log, 1, 0, kMaxScenePartBytes);
  ASSERT_EQ(one.obstacle_id_size(), 1);
  EXPECT_EQ(one.polygon_points(0), 6u);
  EXPECT_EQ(one.polygon_angle(0), 16384u) << "a quarter turn";
  EXPECT_EQ(catchUp(log, 1, held), 2u);
  EXPECT_EQ(held.obstacles, all);
  const std::vector<ScenePoint> outline = obstacleOutline(held.obstacles[1]);
  ASSERT_EQ(outline.size(), 6u);
  EXPECT_NEAR(outline[1].x, 7.0f + 3.0f, 1e-4f) << "(3, -3) turned a quarter is (3, 3)";
  EXPECT_NEAR(outline[1].y, 8.0f + 3.0f, 1e-4f);
}

TEST(SceneChanges, MalformedPolygonsAreRefusedAndChangeNothing) {
  SceneChangeLog log;
  recordScene(log, 1, {}, {circle(1, 1, 1, 1), ell(2, 5, 5, 30), circle(3, 9, 9, 1)});
  const SceneChanges good = encodeSceneChanges(log, 0, 0, kMaxScenePartBytes);
  ASSERT_EQ(good.polygon_points_size(), 1);
  ASSERT_EQ(good.polygon_x_size(), 6);
  SceneLive held;
  held.obstacles = {circle(7, 3, 3, 1)};
  const SceneLive before = held;
  const auto refused = [&](const std::function<void(SceneChanges&)>& spoil, const char* what) {
    SceneChanges page = good;
    spoil(page);
    SceneLive copy = held;
    EXPECT_NE(applySceneChanges(page, copy), "") << what;
    EXPECT_EQ(copy, before) << what;
  };
  refused([](SceneChanges& p) { p.set_polygon_points(0, 2); }, "two corners");
  refused([](SceneChanges& p) { p.set_polygon_points(0, 65); }, "65 corners");
  refused([](SceneChanges& p) { p.set_polygon_points(0, 7); }, "more corners than listed");
  refused([](SceneChanges& p) { p.set_polygon_points(0, 5); }, "a corner left over");
  refused([](SceneChanges& p) { p.add_polygon_x(1); }, "x and y of different lengths");
  refused([](SceneChanges& p) { p.clear_polygon_angle(); }, "a polygon without its angle");
  refused([](SceneChanges& p) { p.set_polygon_angle(0, 65536); }, "an angle of a whole turn");
  refused([](SceneChanges& p) { p.set_polygon_x(3, 1 << 30); }, "a corner out of range");
  refused([](SceneChanges& p) { p.set_obstacle_flags(1, kObstaclePolygon | kObstacleBox); },
          "box and polygon");
  refused([](SceneChanges& p) { p.set_obstacle_flags(0, kObstaclePolygon); }, "a circle read as a polygon");
  EXPECT_EQ(applySceneChanges(good, held), "");
  EXPECT_EQ(held.obstacles, obstaclesOf(log));
}

TEST(SceneChanges, TheCurrentSceneWallsInShutDoorsAndBoxesFacingOut) {
  SceneGeometry base;
  base.doors.push_back({{0, 0}, {4, 0}, 1.0f, "gate", true});
  base.doors.push_back({{10, 0}, {12, 0}, 0.5f, "postern", false});
  SceneLive live;
  live.obstacles = {circle(1, 20, 20, 1.5f), box(2, 30, 30, 2, 1, 90)};
  SceneGeometry now = currentScene(base, live);
  EXPECT_EQ(now.obstacles.size(), 1u);
  ASSERT_EQ(now.walls.size(), 8u) << "the box's four and the shut postern's four";
  // Each wall faces (has on its left) the outside: the box's centre is on its right.
  for (std::size_t i = 0; i < 4; ++i) {
    const SceneSegment& w = now.walls[i];
    const float cross = (w.to.x - w.from.x) * (30.0f - w.from.y) - (w.to.y - w.from.y) * (30.0f - w.from.x);
    EXPECT_LT(cross, 0.0f) << "wall " << i;
  }
  // The gate shut by a change, the postern opened: the doors' states follow, and so do the walls.
  live.doorOpen = {false, true};
  now = currentScene(base, live);
  EXPECT_FALSE(now.doors[0].open);
  EXPECT_TRUE(now.doors[1].open);
  ASSERT_EQ(now.walls.size(), 8u);
  EXPECT_NEAR(now.walls[4].from.x + now.walls[5].from.x + now.walls[6].from.x + now.walls[7].from.x, 8.0f,
              1e-4f)
      << "the gate's corners";
  // A door on a navmesh link (no thickness) walls nothing, shut or open.
  base.doors.push_back({{20, 0}, {24, 0}, 0.0f, "ladder", false});
  EXPECT_EQ(currentScene(base, live).walls.size(), 8u);
  // A polygon's outline is walled, each wall facing out (the notch's corner (2, 2) is outside).
  live.obstacles.push_back(ell(3, 50, 50, 0));
  now = currentScene(base, live);
  ASSERT_EQ(now.walls.size(), 14u);
  for (std::size_t i = 8; i < 14; ++i) {
    const SceneSegment& w = now.walls[i];
    const float mx = (w.from.x + w.to.x) * 0.5f, my = (w.from.y + w.to.y) * 0.5f;
    const float nx = -(w.to.y - w.from.y), ny = w.to.x - w.from.x;  // its left
    // A step to the wall's left from its middle is outside the L.
    const float px = mx + nx * 0.01f - 50.0f, py = my + ny * 0.01f - 50.0f;
    const bool inArm = (px > -3 && px < 3 && py > -3 && py < -1) || (px > -3 && px < -1 && py > -3 && py < 3);
    EXPECT_FALSE(inArm) << "wall " << i;
  }
}

TEST(SceneChanges, DoorsTravelInTheStaticSceneAndANameIsCutOnACharacter) {
  SceneGeometry g;
  g.walls.push_back({{0, 0}, {10, 0}});
  const std::string longName = std::string(63, 'a') + "\xc3\xa9" + "tail";  // e-acute across byte 64
  g.doors.push_back({{1, 2}, {3, 2}, 0.75f, "gate", false});
  g.doors.push_back({{5, 5}, {5, 8}, 1.0f, longName, true});
  const EncodedScene encoded = encodeScene(g, kMaxScenePartBytes);
  SceneGeometry back;
  for (const Scene& part : encoded.parts) ASSERT_EQ(decodeScenePart(part, back), "");
  ASSERT_EQ(back.doors.size(), 2u);
  EXPECT_EQ(back.doors[0].name, "gate");
  EXPECT_FALSE(back.doors[0].open);
  EXPECT_FLOAT_EQ(back.doors[0].thickness, 0.75f);
  EXPECT_EQ(back.doors[1].name, std::string(63, 'a')) << "cut before the two-byte character";
  // A part whose door lists disagree is refused.
  Scene bad = encoded.parts[0];
  bad.add_door_open(true);
  SceneGeometry untouched;
  EXPECT_NE(decodeScenePart(bad, untouched), "");
  EXPECT_TRUE(untouched.empty());
  // A scene without doors is byte for byte what it was before doors existed: no door fields.
  SceneGeometry plain;
  plain.walls = g.walls;
  const Scene only = encodeScene(plain, kMaxScenePartBytes).parts[0];
  EXPECT_EQ(only.door_x_size() + only.door_name_size() + only.door_open_size(), 0);
}

TEST(SceneChanges, ABoxAngleIsKeptToAStepAndTheCornersTurnWithIt) {
  const SceneObstacle b = box(1, 0, 0, 2, 1, 90);
  EXPECT_NEAR(b.angle, std::numbers::pi_v<float> / 2, 1e-4f);
  const std::vector<ScenePoint> c = boxCorners(b);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_NEAR(c[0].x, 1.0f, 1e-4f);  // (-2, -1) turned a quarter: (1, -2)
  EXPECT_NEAR(c[0].y, -2.0f, 1e-4f);
  EXPECT_NEAR(box(1, 0, 0, 1, 1, -90).angle, 3 * std::numbers::pi_v<float> / 2, 1e-4f);
  EXPECT_EQ(quantizedObstacle(1, kObstacleBox, {0, 0}, 0, {1, 1}, std::nanf("")).angle, 0.0f);
}

}  // namespace
}  // namespace steerd::wire
