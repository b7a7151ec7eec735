#include "proto/scene_codec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "proto/packet.h"

namespace steerd::wire {
namespace {

constexpr std::size_t kPartBytes = kMaxScenePartBytes;  // what the server passes

// Every coordinate within half a quantisation step (1/128 m) of the original.
void expectNear(ScenePoint got, ScenePoint want) {
  EXPECT_NEAR(got.x, want.x, 1.0f / 128.0f);
  EXPECT_NEAR(got.y, want.y, 1.0f / 128.0f);
}

SceneGeometry decodeAll(const std::vector<Scene>& parts) {
  SceneGeometry out;
  for (const Scene& p : parts) {
    const std::string error = decodeScenePart(p, out);
    EXPECT_EQ(error, "") << "part " << p.part();
  }
  return out;
}

// Every part, wrapped in a Packet with the header, is a datagram the protocol allows.
void expectEveryPartFitsADatagram(const std::vector<Scene>& parts) {
  ASSERT_FALSE(parts.empty());
  for (const Scene& s : parts) {
    Packet p;
    *p.mutable_scene() = s;
    std::vector<std::uint8_t> d;
    ASSERT_TRUE(encodeDatagram({Packet::kScene, 0, 0, 0}, p, d)) << "part " << s.part();
    EXPECT_LE(d.size(), kMaxDatagramBytes);
    EXPECT_EQ(s.part_count(), parts.size());
  }
}

SceneGeometry smallScene() {
  SceneGeometry g;
  g.obstacles = {{{10.0f, 20.0f}, 1.5f}, {{-3.25f, 7.0f}, 0.75f}};
  g.walls = {{{35, 25}, {35, 45}}, {{35, 45}, {65, 45}}};
  g.paths = {{{{0, 0}, {10, 0}, {10, 10}}, true}, {{{1, 1}, {2, 3}}, false}};
  g.navPolygons = {{{0, 0}, {4, 0}, {4, 4}, {0, 4}}, {{4, 0}, {8, 0}, {6, 3}}};
  return g;
}

TEST(SceneCodec, ASmallSceneIsOnePartAndRoundTrips) {
  const SceneGeometry g = smallScene();
  const EncodedScene e = encodeScene(g, kPartBytes);
  ASSERT_EQ(e.parts.size(), 1u);
  EXPECT_EQ(e.polygonsLeftOut, 0u);
  expectEveryPartFitsADatagram(e.parts);
  const SceneGeometry d = decodeAll(e.parts);
  // These coordinates are multiples of 1/64 m: exact.
  EXPECT_EQ(d, g);
}

TEST(SceneCodec, AnEmptySceneIsOneEmptyPart) {
  const EncodedScene e = encodeScene({}, kPartBytes);
  ASSERT_EQ(e.parts.size(), 1u);
  EXPECT_EQ(e.parts[0].part_count(), 1u);
  EXPECT_TRUE(decodeAll(e.parts).empty());
}

TEST(SceneCodec, TwoThousandWallsSplitIntoPartsThatEachFitADatagram) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> coord(-500.0f, 500.0f);
  SceneGeometry g;
  for (int i = 0; i < 2000; ++i) g.walls.push_back({{coord(rng), coord(rng)}, {coord(rng), coord(rng)}});
  for (int i = 0; i < 500; ++i) g.obstacles.push_back({{coord(rng), coord(rng)}, 0.5f + i % 7});
  const EncodedScene e = encodeScene(g, kPartBytes);
  EXPECT_GT(e.parts.size(), 10u);
  expectEveryPartFitsADatagram(e.parts);
  const SceneGeometry d = decodeAll(e.parts);
  ASSERT_EQ(d.walls.size(), g.walls.size());
  ASSERT_EQ(d.obstacles.size(), g.obstacles.size());
  for (std::size_t i = 0; i < g.walls.size(); ++i) {
    expectNear(d.walls[i].from, g.walls[i].from);
    expectNear(d.walls[i].to, g.walls[i].to);
  }
  for (std::size_t i = 0; i < g.obstacles.size(); ++i) {
    expectNear(d.obstacles[i].centre, g.obstacles[i].centre);
    EXPECT_NEAR(d.obstacles[i].radius, g.obstacles[i].radius, 1.0f / 128.0f);
  }
  // The parts are well filled: a wall of random 1 km coordinates costs about 12 bytes.
  std::size_t bytes = 0;
  for (const Scene& s : e.parts) bytes += s.ByteSizeLong();
  EXPECT_GT(bytes / e.parts.size(), kPartBytes * 8 / 10);
}

TEST(SceneCodec, ALongLoopedPathArrivesAsOpenPiecesThatShareEndPoints) {
  SceneGeometry g;
  ScenePolyline circle;
  circle.looped = true;
  for (int i = 0; i < 3000; ++i) {
    const float a = static_cast<float>(i) * 6.2831853f / 3000.0f;
    circle.points.push_back({400.0f * std::cos(a), 400.0f * std::sin(a)});
  }
  g.paths.push_back(circle);
  const EncodedScene e = encodeScene(g, kPartBytes);
  ASSERT_GT(e.parts.size(), 1u);
  expectEveryPartFitsADatagram(e.parts);
  const SceneGeometry d = decodeAll(e.parts);
  ASSERT_GT(d.paths.size(), 1u);
  // Joined, the pieces give back every point in order and then the first again (the closing
  // segment of the loop).
  std::vector<ScenePoint> joined;
  for (std::size_t k = 0; k < d.paths.size(); ++k) {
    EXPECT_FALSE(d.paths[k].looped);
    ASSERT_GE(d.paths[k].points.size(), 2u);
    if (k > 0) {
      EXPECT_EQ(d.paths[k].points.front(), d.paths[k - 1].points.back());
    }
    joined.insert(joined.end(), d.paths[k].points.begin() + (k > 0 ? 1 : 0), d.paths[k].points.end());
  }
  ASSERT_EQ(joined.size(), circle.points.size() + 1);
  for (std::size_t i = 0; i < circle.points.size(); ++i) expectNear(joined[i], circle.points[i]);
  expectNear(joined.back(), circle.points.front());
}

TEST(SceneCodec, NavPolygonsRoundTripAndOneTooBigForAPartIsLeftOutAndCounted) {
  SceneGeometry g;
  for (int i = 0; i < 1000; ++i) {
    const float x = static_cast<float>(i % 40) * 3.0f, y = static_cast<float>(i / 40) * 3.0f;
    g.navPolygons.push_back({{x, y}, {x + 3, y}, {x + 3, y + 3}, {x + 1.5f, y + 4}, {x, y + 3}});
  }
  std::vector<ScenePoint> huge;
  for (int i = 0; i < 2000; ++i) {
    const float a = static_cast<float>(i) * 6.2831853f / 2000.0f;
    huge.push_back({1000.0f * std::cos(a), 1000.0f * std::sin(a)});
  }
  g.navPolygons.push_back(huge);
  const EncodedScene e = encodeScene(g, kPartBytes);
  EXPECT_EQ(e.polygonsLeftOut, 1u);
  expectEveryPartFitsADatagram(e.parts);
  const SceneGeometry d = decodeAll(e.parts);
  ASSERT_EQ(d.navPolygons.size(), 1000u);
  for (std::size_t i = 0; i < d.navPolygons.size(); ++i) {
    ASSERT_EQ(d.navPolygons[i].size(), 5u);
    for (std::size_t k = 0; k < 5; ++k) expectNear(d.navPolygons[i][k], g.navPolygons[i][k]);
  }
}

TEST(SceneCodec, MalformedPartsAreRefusedWithoutChangingWhatIsHeld) {
  const EncodedScene e = encodeScene(smallScene(), kPartBytes);
  ASSERT_EQ(e.parts.size(), 1u);
  SceneGeometry held = decodeAll(e.parts);
  const SceneGeometry before = held;
  auto refused = [&](Scene s) {
    const std::string error = decodeScenePart(s, held);
    EXPECT_NE(error, "");
    EXPECT_EQ(held, before);
  };
  Scene s = e.parts[0];
  s.set_part(1);  // of 1
  refused(s);
  s = e.parts[0];
  s.set_part_count(0);
  refused(s);
  s = e.parts[0];
  s.add_obstacle_x(5);
  refused(s);
  s = e.parts[0];
  s.add_wall_x(1);
  s.add_wall_y(1);  // half a wall
  refused(s);
  s = e.parts[0];
  s.set_path_points(0, 1000);
  refused(s);
  s = e.parts[0];
  s.add_nav_points(3);
  refused(s);
  s = e.parts[0];
  s.set_nav_x(0, (1 << 30) + 5);  // past the coordinate range
  refused(s);
  s = e.parts[0];
  s.set_obstacle_radius(0, 0xffffffffu);
  refused(s);
}

TEST(SceneCodec, RandomPartsNeverCrash) {
  std::mt19937 rng(3);
  SceneGeometry out;
  int accepted = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string bytes(rng() % 200, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    Scene s;
    if (!s.ParseFromString(bytes)) continue;
    accepted += decodeScenePart(s, out).empty() ? 1 : 0;
  }
  SUCCEED() << accepted << " random parts decoded";
}

}  // namespace
}  // namespace steerd::wire
