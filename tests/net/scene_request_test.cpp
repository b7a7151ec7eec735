// The static scene over real UDP (tests/net/udp_harness.h): a connected client gets every part
// it asks for; anyone else gets nothing, and nobody gets more than the per-client rate.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "proto/scene_codec.h"
#include "udp_harness.h"

namespace steerd::net {
namespace {

// A 200 m field with 2,000 walls and 300 obstacles: many parts.
ServerSetup busyScene() {
  ServerSetup setup;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> coord(5.0f, 195.0f);
  for (int i = 0; i < 2000; ++i) {
    setup.geometry.walls.push_back(steer::makeWall({coord(rng), coord(rng)}, {coord(rng), coord(rng)}));
  }
  for (int i = 0; i < 300; ++i) setup.geometry.obstacles.push_back({{coord(rng), coord(rng)}, 1.0f});
  setup.geometry.paths.push_back({{{10, 10}, {190, 10}, {190, 190}}, true});
  setup.geometry.navPolygons.push_back({{0, 0}, {10, 0}, {10, 10}});
  return setup;
}

void requestParts(RawClient& c, const std::vector<std::uint32_t>& parts) {
  wire::Packet p;
  for (std::uint32_t part : parts) p.mutable_scene_request()->add_parts(part);
  c.send(p);
}

// Every Scene datagram pending on the client's socket, keyed by part (duplicates counted apart).
struct Received {
  std::map<std::uint32_t, wire::Scene> parts;
  std::size_t datagrams = 0;
};
void drainScenes(RawClient& c, Received& into) {
  wire::Decoded d;
  std::size_t n = 0;
  while (c.receive(d, &n)) {
    EXPECT_LE(n, wire::kMaxDatagramBytes);
    if (d.drop != wire::DropReason::kNone || !d.packet.has_scene()) continue;
    ++into.datagrams;
    into.parts[d.packet.scene().part()] = d.packet.scene();
  }
}

TEST(SceneRequest, AConnectedClientGetsEveryPartAndTheyAddUpToTheWorldsGeometry) {
  Server s(busyScene());
  RawClient c(s.endpoint->port());
  ASSERT_TRUE(c.connect(s).has_value());
  requestParts(c, {0});
  Received got;
  ASSERT_TRUE(s.stepUntil([&] {
    drainScenes(c, got);
    return got.parts.count(0) == 1;
  }));
  const std::uint32_t count = got.parts[0].part_count();
  ASSERT_GT(count, 10u);
  ASSERT_LE(count, 32u);  // the whole scene within one burst of the rate limit
  // The rest, at most 16 a request, as the client library asks.
  std::vector<std::uint32_t> batch;
  for (std::uint32_t p = 1; p < count; ++p) {
    batch.push_back(p);
    if (batch.size() == 16 || p + 1 == count) {
      requestParts(c, batch);
      batch.clear();
    }
  }
  ASSERT_TRUE(s.stepUntil([&] {
    drainScenes(c, got);
    return got.parts.size() == count;
  }));
  wire::SceneGeometry scene;
  for (const auto& [index, part] : got.parts) {
    EXPECT_EQ(part.part_count(), count);
    ASSERT_EQ(wire::decodeScenePart(part, scene), "") << "part " << index;
  }
  const StaticGeometry& g = s.world->geometry();
  EXPECT_EQ(scene.walls.size(), g.walls.size());
  EXPECT_EQ(scene.obstacles.size(), g.obstacles.size());
  ASSERT_EQ(scene.paths.size(), 1u);
  EXPECT_TRUE(scene.paths[0].looped);
  ASSERT_EQ(scene.navPolygons.size(), 1u);
  // Parts come in world order: the first wall of the first part with walls is the world's first.
  ASSERT_FALSE(scene.walls.empty());
  EXPECT_NEAR(scene.walls[0].from.x, g.walls[0].from.x, 0.01f);
  EXPECT_NEAR(scene.walls[0].to.y, g.walls[0].to.y, 0.01f);
  EXPECT_EQ(s.metrics.sceneParts.load(), count);
  EXPECT_EQ(s.drops(wire::DropReason::kRateLimited), 0u);
}

TEST(SceneRequest, ARequestFromAnAddressThatIsNotConnectedIsDroppedAndCounted) {
  Server s(busyScene());
  RawClient stranger(s.endpoint->port());
  requestParts(stranger, {0, 1, 2, 3});
  ASSERT_TRUE(s.stepUntil([&] { return s.drops(wire::DropReason::kUnknownClient) == 1; }));
  for (int i = 0; i < 20; ++i) s.step();
  Received got;
  drainScenes(stranger, got);
  EXPECT_EQ(got.datagrams, 0u);
  EXPECT_EQ(s.metrics.sceneParts.load(), 0u);
}

// The rate itself (the burst, then kScenePartsPerSecond, to the part) is pinned on made-up time:
// ProtocolTime.SceneTakesItsBurstThenItsRate (protocol_time_test.cpp).

TEST(SceneRequest, ARequestForTooManyPartsIsMalformed) {
  Server s(busyScene());
  RawClient c(s.endpoint->port());
  ASSERT_TRUE(c.connect(s).has_value());
  requestParts(c, std::vector<std::uint32_t>(NetEndpoint::kMaxScenePartsPerRequest + 1, 0));
  ASSERT_TRUE(s.stepUntil([&] { return s.drops(wire::DropReason::kBadInput) == 1; }));
  EXPECT_EQ(s.metrics.sceneParts.load(), 0u);
  // Parts past the end are skipped, not an error.
  requestParts(c, {0, 9999});
  ASSERT_TRUE(s.stepUntil([&] { return s.metrics.sceneParts.load() == 1; }));
}

TEST(SceneRequest, AcceptCarriesTheInterestRadius) {
  ServerSetup setup;
  setup.session.interestRadius = 42.5f;
  Server s(setup);
  RawClient c(s.endpoint->port());
  const auto a = c.connect(s);
  ASSERT_TRUE(a && a->has_accept());
  EXPECT_FLOAT_EQ(a->accept().interest_radius(), 42.5f);
}

}  // namespace
}  // namespace steerd::net
