// Client-side prediction (client-viewer/client/prediction.h): inputs applied at once, the server's
// state taken when it comes, the rest replayed, corrections eased out.
#include "client/prediction.h"

#include <gtest/gtest.h>

namespace steerd::client {
namespace {

steer::BodyLimits limits() {
  steer::BodyLimits l;
  l.radius = 0.5f;
  l.maxSpeed = 6.0f;
  l.maxForce = 40.0f;
  l.maxTurnRate = -1.0f;
  return l;
}

movement::CollisionScene scene() {
  return movement::CollisionScene(0, 0, 100, 100, {{{30, 20}, 3.0f}}, {{{40, 0}, {40, 100}}});
}

constexpr float kDt = 1.0f / 30.0f;

TEST(PlayerPrediction, WhenTheServerAgreesNothingIsCorrected) {
  PlayerPrediction p(limits(), scene());
  p.reconcile(0, {{20, 20}, {}}, 0.0);  // the first report starts it
  // The server, running the same model behind by a few inputs.
  movement::PlayerState server{{20, 20}, {}};
  const movement::CollisionScene serverScene = scene();
  for (std::uint32_t seq = 1; seq <= 120; ++seq) {
    p.applyInput(seq, {1.0f, 0.2f}, kDt);
    if (seq > 5) {
      server = movement::stepPlayer(server, {{1.0f, 0.2f}, kDt}, limits(), serverScene);
      const auto error = p.reconcile(seq - 5, server, seq * kDt);
      ASSERT_TRUE(error.has_value());
      EXPECT_EQ(*error, 0.0f) << seq;
    }
  }
  EXPECT_EQ(p.corrections(), 0u);
  EXPECT_EQ(p.pending(), 5u);
  EXPECT_LE(p.state().position.x, 39.5f + 1e-4f) << "the wall holds the prediction too";
}

TEST(PlayerPrediction, AServerThatDisagreesMovesItAndTheJumpEasesOut) {
  PlayerPrediction p(limits(), scene());
  p.reconcile(0, {{20, 50}, {}}, 0.0);
  for (std::uint32_t seq = 1; seq <= 10; ++seq) p.applyInput(seq, {0.0f, 1.0f}, kDt);
  const movement::Vec2 predicted = p.state().position;
  // The server had the player pushed 1 m west (an NPC, a wall the client did not have).
  movement::PlayerState server{{19, 50}, {}};
  for (int k = 0; k < 4; ++k) server = movement::stepPlayer(server, {{0.0f, 1.0f}, kDt}, limits(), scene());
  const auto error = p.reconcile(4, server, 1.0);
  ASSERT_TRUE(error.has_value());
  EXPECT_GT(*error, 0.9f);
  EXPECT_EQ(p.corrections(), 1u);
  EXPECT_NEAR(p.state().position.x, 19.0f, 1e-3f) << "replayed from the server's state";
  EXPECT_NEAR(p.state().position.y, predicted.y, 1e-3f);
  // Drawn where it was at the moment of the correction, then eased to the new prediction.
  EXPECT_NEAR(p.renderPosition(1.0).x, predicted.x, 1e-3f);
  EXPECT_NEAR(p.renderPosition(1.0 + 10 * PlayerPrediction::kSmoothingSeconds).x, 19.0f, 1e-3f);
  // An older report changes nothing.
  EXPECT_FALSE(p.reconcile(2, server, 2.0).has_value());
  EXPECT_EQ(p.corrections(), 1u);
}

TEST(PlayerPrediction, InputsKeptAreBounded) {
  PlayerPrediction p(limits(), scene());
  p.reconcile(0, {{20, 50}, {}}, 0.0);
  for (std::uint32_t seq = 1; seq <= 1000; ++seq) p.applyInput(seq, {0.0f, 0.1f}, kDt);
  EXPECT_EQ(p.pending(), PlayerPrediction::kMaxPending);
}

}  // namespace
}  // namespace steerd::client
