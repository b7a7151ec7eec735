// A player's movement from its inputs, the one model both ends run: the server to move the body it
// owns, the client library to predict it (issue 18). Pure and deterministic: the same state,
// intent, limits and scene give the same bits on both sides of one build (-ffp-contract=off; the
// only library maths are sqrt and, once per step, the turn limit's cos and sin).
//
// One step: the intent asks for a velocity (move direction x max speed); the body gets there
// through the dynamic point mass of every agent (steering/locomotion.h), driven by velocity
// matching (steering/velocity_matching.h: (desired - v) / kPlayerTimeToTarget, truncated to
// maxForce; the speed to maxSpeed, the turn rate limited), then is pushed out of
// what it overlaps (circles, wall segments, the world's bounds) and loses the part of its
// velocity that pointed into it, so it slides along walls instead of sticking or trembling.
// A step longer than kMaxSubstepSeconds is cut into substeps, so a fast body cannot pass through a
// thin wall.
//
// NPCs are not in the model: they yield to players (the world's contact pass pushes them), so a
// client can predict its own body from the static scene it has, exactly.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "steering/body.h"
#include "steering/vec2.h"

namespace steerd::movement {

using steer::Vec2;

struct Circle {
  Vec2 centre;
  float radius = 0.0f;
};

struct Segment {
  Vec2 from, to;
};

// The static shapes a player collides with, bucketed in a uniform grid for the lookups.
class CollisionScene {
 public:
  CollisionScene() = default;
  // Bounds must have min < max (else the scene has no bounds: nothing is clamped).
  CollisionScene(float minX, float minY, float maxX, float maxY, std::vector<Circle> obstacles,
                 std::vector<Segment> walls);

  float minX() const { return minX_; }
  float minY() const { return minY_; }
  float maxX() const { return maxX_; }
  float maxY() const { return maxY_; }
  const std::vector<Circle>& obstacles() const { return obstacles_; }
  const std::vector<Segment>& walls() const { return walls_; }

  // Calls circle(i) and wall(i) for every shape whose bucket touches the box of `p` +- `reach`,
  // each once, circles then walls in ascending index order (deterministic). `scratch` is the
  // caller's (so one scene serves many threads).
  template <class C, class W>
  void near(Vec2 p, float reach, std::vector<std::uint32_t>& scratch, C&& circle, W&& wall) const;

 private:
  void bucket();
  float minX_ = 0, minY_ = 0, maxX_ = 0, maxY_ = 0;
  bool bounded_ = false;
  std::vector<Circle> obstacles_;
  std::vector<Segment> walls_;
  // Grid over the bounds (or the shapes' extent): per cell, obstacle and wall indices.
  float cell_ = 8.0f, originX_ = 0, originY_ = 0;
  int columns_ = 0, rows_ = 0;
  std::vector<std::uint32_t> cellStart_;  // columns_ * rows_ + 1 offsets into entries_
  std::vector<std::uint32_t> entries_;    // obstacle i as i, wall j as kWallBit | j

 public:
  static constexpr std::uint32_t kWallBit = 0x80000000u;
  static constexpr int kMaxCellsPerSide = 4096;
};

struct PlayerState {
  Vec2 position;
  Vec2 velocity;
};

// What a client asks for in one input step: a direction to move in (length <= 1: its length is
// the share of max speed) for `dt` seconds.
struct PlayerIntent {
  Vec2 move;
  float dt = 0.0f;
};

// How soon the body's velocity closes on the one asked for (Millington's velocity matching), as
// fast as the archetype's maxForce allows: 0.1 s makes a player responsive.
inline constexpr float kPlayerTimeToTarget = 0.1f;
// Steps longer than this are cut into equal substeps (a body at 10 m/s moves 0.5 m at most in one).
inline constexpr float kMaxSubstepSeconds = 0.05f;
// Passes of the push-out per substep: a body in a corner of two shapes needs a second.
inline constexpr int kCollisionPasses = 3;

// The intent's move, made safe: non-finite -> zero, longer than 1 -> unit length.
Vec2 clampedMove(Vec2 move);

// One input step. `limits` are the player archetype's (radius, mass, maxSpeed, maxForce,
// maxTurnRate). A non-finite or non-positive dt is no step (the state as it was); the caller
// bounds dt (the server's time budget per client).
PlayerState stepPlayer(const PlayerState& state, const PlayerIntent& intent, const steer::BodyLimits& limits,
                       const CollisionScene& scene);

// Pushes a body of `radius` at `position` out of every shape and the bounds (kCollisionPasses
// passes), removing the part of `velocity` that points into what it touched. Also what a
// teleport-free spawn point check uses: a position that comes back unchanged is free.
PlayerState resolveContacts(PlayerState state, float radius, const CollisionScene& scene);
// Whether a body of `radius` at `position` overlaps no shape (beyond float rounding) and is inside
// the bounds' reach of the shapes. A substep whose push-out leaves the body overlapping (a gap
// narrower than the body) is not taken: the body stops clear.
bool isClear(Vec2 position, float radius, const CollisionScene& scene);
// Whether the scene blocks a body of `radius` going from `from` to `to` in one move: it would end
// overlapping a shape (not isClear), or its centre's path crosses a wall or enters an obstacle.
// The one test of what keeps a player out of the scene: stepPlayer does not take a blocked substep
// (its substeps are too short to reach an obstacle's inside, so that part never decides there),
// and the server refuses a blocked position-mode input, whose moves can be longer.
bool moveBlocked(Vec2 from, Vec2 to, float radius, const CollisionScene& scene);

// --- implementation of the template ------------------------------------------------------------

template <class C, class W>
void CollisionScene::near(Vec2 p, float reach, std::vector<std::uint32_t>& found, C&& circle,
                          W&& wall) const {
  if (columns_ == 0) {
    for (std::uint32_t i = 0; i < obstacles_.size(); ++i) circle(i);
    for (std::uint32_t j = 0; j < walls_.size(); ++j) wall(j);
    return;
  }
  auto clampCell = [](float v, int n) {
    if (!(v >= 0.0f)) return 0;
    return v >= static_cast<float>(n - 1) ? n - 1 : static_cast<int>(v);
  };
  const int x0 = clampCell((p.x - reach - originX_) / cell_, columns_);
  const int x1 = clampCell((p.x + reach - originX_) / cell_, columns_);
  const int y0 = clampCell((p.y - reach - originY_) / cell_, rows_);
  const int y1 = clampCell((p.y + reach - originY_) / cell_, rows_);
  found.clear();
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const std::size_t c =
          static_cast<std::size_t>(y) * static_cast<std::size_t>(columns_) + static_cast<std::size_t>(x);
      for (std::uint32_t k = cellStart_[c]; k < cellStart_[c + 1]; ++k) found.push_back(entries_[k]);
    }
  }
  // A shape in several cells is found once; ascending order keeps the pushes deterministic.
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  for (const std::uint32_t e : found) {
    if (e & kWallBit) {
      wall(e & ~kWallBit);
    } else {
      circle(e);
    }
  }
}

}  // namespace steerd::movement
