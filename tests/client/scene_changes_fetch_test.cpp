// The client's side of the scene's changes on simulated time: it asks while a snapshot's version
// differs from its own, follows the pages, ignores late answers and asks again after a loss.
#include "client/scene_changes_fetch.h"

#include <gtest/gtest.h>

#include "recording_outbox.h"

namespace steerd::client {
namespace {

using namespace std::chrono_literals;
using test::RecordingOutbox;

wire::SceneObstacle circle(std::uint32_t id, float x) {
  return wire::quantizedObstacle(id, 0, {x, 1}, 1, {}, 0);
}

TEST(SceneChangesFetch, AsksOnlyWhileBehindAndFollowsEveryPage) {
  const TimePoint t0 = test::simulatedStart();
  SceneChangesFetch fetch(0.25s);
  RecordingOutbox out;
  fetch.update(t0, out);
  EXPECT_TRUE(out.packets.empty()) << "version 0 is the static scene: nothing to ask";

  wire::SceneChangeLog log;
  std::vector<wire::SceneObstacle> many;
  for (std::uint32_t id = 1; id <= 600; ++id) many.push_back(circle(id, static_cast<float>(id)));
  wire::recordScene(log, 3, {false}, many);
  fetch.onSnapshotVersion(3);
  TimePoint t = t0;
  for (int guard = 0; guard < 100 && fetch.version() != 3; ++guard) {
    out.clear();
    fetch.update(t, out);
    ASSERT_EQ(out.packets.size(), 1u);
    const wire::SceneChangesRequest& r = out.packets[0].scene_changes_request();
    EXPECT_EQ(r.have(), 0u);
    EXPECT_EQ(fetch.onPage(
                  wire::encodeSceneChanges(log, r.have(), r.after_obstacle(), wire::kMaxScenePartBytes), t),
              "");
    t += 1ms;
  }
  EXPECT_EQ(fetch.version(), 3u);
  EXPECT_GT(fetch.counters().pages, 2u) << "600 obstacles take several pages";
  EXPECT_EQ(fetch.live().obstacles, many);
  EXPECT_EQ(fetch.live().doorOpen, std::vector<bool>{false});
  out.clear();
  fetch.update(t + 1s, out);
  EXPECT_TRUE(out.packets.empty()) << "caught up: nothing more to ask";
}

TEST(SceneChangesFetch, ALostAnswerIsAskedForAgainAndALateOneIsIgnored) {
  const TimePoint t0 = test::simulatedStart();
  SceneChangesFetch fetch(0.25s);
  RecordingOutbox out;
  wire::SceneChangeLog log;
  wire::recordScene(log, 1, {}, {circle(1, 5)});
  fetch.onSnapshotVersion(1);
  fetch.update(t0, out);
  fetch.update(t0 + 100ms, out);
  EXPECT_EQ(out.packets.size(), 1u) << "one request until the retry interval passes";
  fetch.update(t0 + 250ms, out);
  EXPECT_EQ(out.packets.size(), 2u) << "the answer was lost: asked again";
  // The answer to the first arrives, then a late second copy: the copy is for a version it no
  // longer holds, and is ignored.
  const wire::SceneChanges page = wire::encodeSceneChanges(log, 0, 0, wire::kMaxScenePartBytes);
  EXPECT_EQ(fetch.onPage(page, t0 + 260ms), "");
  EXPECT_EQ(fetch.version(), 1u);
  EXPECT_EQ(fetch.onPage(page, t0 + 270ms), "");
  EXPECT_EQ(fetch.counters().stale, 1u);
  EXPECT_EQ(fetch.counters().pages, 1u);
  // A malformed page for the request at hand is refused and counted; what is held stays.
  wire::recordScene(log, 2, {}, {circle(1, 6)});
  fetch.onSnapshotVersion(2);
  wire::SceneChanges bad = wire::encodeSceneChanges(log, 1, 0, wire::kMaxScenePartBytes);
  bad.add_obstacle_flags(0);
  EXPECT_NE(fetch.onPage(bad, t0 + 280ms), "");
  EXPECT_EQ(fetch.counters().malformed, 1u);
  EXPECT_EQ(fetch.version(), 1u);
  EXPECT_EQ(fetch.live().obstacles, std::vector<wire::SceneObstacle>{circle(1, 5)});
  // A served replay's seek: the world starts again, and so does what the client holds.
  fetch.reset();
  EXPECT_EQ(fetch.version(), 0u);
  EXPECT_TRUE(fetch.live().obstacles.empty());
}

}  // namespace
}  // namespace steerd::client
