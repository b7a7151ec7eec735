#include "movement/player_motion.h"

#include <cmath>
#include <limits>

#include "steering/locomotion.h"
#include "steering/velocity_matching.h"

namespace steerd::movement {

namespace {

using steer::dot;
using steer::isFinite;
using steer::length;
using steer::lengthSq;

// Takes away the part of `v` that points into a surface with outward normal `n` (unit).
Vec2 slide(Vec2 v, Vec2 n) {
  const float into = dot(v, n);
  return into < 0.0f ? v - n * into : v;
}

// Whether segment [a, b] crosses segment [c, d] (touching at an end counts).
bool segmentsCross(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const float d1 = steer::cross(b - a, c - a), d2 = steer::cross(b - a, d - a);
  const float d3 = steer::cross(d - c, a - c), d4 = steer::cross(d - c, b - c);
  return ((d1 > 0.0f) != (d2 > 0.0f) || d1 == 0.0f || d2 == 0.0f) &&
         ((d3 > 0.0f) != (d4 > 0.0f) || d3 == 0.0f || d4 == 0.0f) && !(d1 == 0.0f && d2 == 0.0f);
}

// Whether moving the body's centre from `from` to `to` goes through a wall or into an obstacle
// (its centre inside the obstacle's own circle, whatever the body's radius).
bool crossesShape(Vec2 from, Vec2 to, const CollisionScene& scene, std::vector<std::uint32_t>& scratch) {
  bool crosses = false;
  scene.near(
      from, steer::distance(from, to), scratch,
      [&](std::uint32_t i) {
        const Circle& c = scene.obstacles()[i];
        if (lengthSq(c.centre - nearestOnSegment(c.centre, from, to)) < c.radius * c.radius) crosses = true;
      },
      [&](std::uint32_t j) {
        const Segment& w = scene.walls()[j];
        if (segmentsCross(from, to, w.from, w.to)) crosses = true;
      });
  return crosses;
}

}  // namespace

CollisionScene::CollisionScene(float minX, float minY, float maxX, float maxY, std::vector<Circle> obstacles,
                               std::vector<Segment> walls)
    : minX_(minX),
      minY_(minY),
      maxX_(maxX),
      maxY_(maxY),
      bounded_(minX < maxX && minY < maxY),
      obstacles_(std::move(obstacles)),
      walls_(std::move(walls)) {
  bucket();
}

void CollisionScene::bucket() {
  columns_ = rows_ = 0;
  if (!bounded_ || (obstacles_.empty() && walls_.empty())) return;
  // Cells of at least 8 m, at most kMaxCellsPerSide a side; shapes outside the bounds land in the
  // edge cells (lookups clamp the same way).
  const float side = std::max(maxX_ - minX_, maxY_ - minY_);
  cell_ = std::max(8.0f, side / static_cast<float>(kMaxCellsPerSide));
  originX_ = minX_;
  originY_ = minY_;
  columns_ = std::max(1, static_cast<int>(std::ceil((maxX_ - minX_) / cell_)));
  rows_ = std::max(1, static_cast<int>(std::ceil((maxY_ - minY_) / cell_)));
  const auto cellCount = static_cast<std::size_t>(columns_) * static_cast<std::size_t>(rows_);
  auto clampCell = [](float v, int n) {
    if (!(v >= 0.0f)) return 0;
    return v >= static_cast<float>(n - 1) ? n - 1 : static_cast<int>(v);
  };
  // Each shape's box of cells, for a count pass and a fill pass.
  auto forCells = [&](float lx, float ly, float hx, float hy, auto&& f) {
    const int x0 = clampCell((lx - originX_) / cell_, columns_),
              x1 = clampCell((hx - originX_) / cell_, columns_);
    const int y0 = clampCell((ly - originY_) / cell_, rows_), y1 = clampCell((hy - originY_) / cell_, rows_);
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x)
        f(static_cast<std::size_t>(y) * static_cast<std::size_t>(columns_) + static_cast<std::size_t>(x));
  };
  auto eachShape = [&](auto&& f) {
    for (std::uint32_t i = 0; i < obstacles_.size(); ++i) {
      const Circle& c = obstacles_[i];
      forCells(c.centre.x - c.radius, c.centre.y - c.radius, c.centre.x + c.radius, c.centre.y + c.radius,
               [&](std::size_t cell) { f(cell, i); });
    }
    for (std::uint32_t j = 0; j < walls_.size(); ++j) {
      const Segment& w = walls_[j];
      forCells(std::min(w.from.x, w.to.x), std::min(w.from.y, w.to.y), std::max(w.from.x, w.to.x),
               std::max(w.from.y, w.to.y), [&](std::size_t cell) { f(cell, kWallBit | j); });
    }
  };
  cellStart_.assign(cellCount + 1, 0);
  eachShape([&](std::size_t cell, std::uint32_t) { ++cellStart_[cell + 1]; });
  for (std::size_t c = 0; c < cellCount; ++c) cellStart_[c + 1] += cellStart_[c];
  entries_.assign(cellStart_[cellCount], 0);
  std::vector<std::uint32_t> fill(cellStart_.begin(), cellStart_.end() - 1);
  eachShape([&](std::size_t cell, std::uint32_t e) { entries_[fill[cell]++] = e; });
}

Vec2 clampedMove(Vec2 move) {
  if (!isFinite(move)) return {};
  const float len2 = lengthSq(move);
  return len2 > 1.0f ? move / std::sqrt(len2) : move;
}

namespace {

// resolveContacts and isClear with the caller's scratch: stepPlayer calls them every substep of
// every player's every input, so they allocate nothing there.
PlayerState resolveContactsWith(PlayerState s, float radius, const CollisionScene& scene,
                                std::vector<std::uint32_t>& scratch) {
  const float r = std::max(radius, 0.0f);
  for (int pass = 0; pass < kCollisionPasses; ++pass) {
    bool touched = false;
    scene.near(
        s.position, r, scratch,
        [&](std::uint32_t i) {
          const Circle& c = scene.obstacles()[i];
          const float reach = c.radius + r;
          const Vec2 d = s.position - c.centre;
          const float d2 = lengthSq(d);
          if (!(d2 < reach * reach)) return;
          const float dist = std::sqrt(d2);
          // At the very centre there is no way out: +x, so both ends agree.
          const Vec2 n = dist > steer::kEpsilon ? d / dist : Vec2{1.0f, 0.0f};
          s.position = c.centre + n * reach;
          s.velocity = slide(s.velocity, n);
          touched = true;
        },
        [&](std::uint32_t j) {
          const Segment& w = scene.walls()[j];
          const Vec2 q = nearestOnSegment(s.position, w.from, w.to);
          const Vec2 d = s.position - q;
          const float d2 = lengthSq(d);
          if (!(d2 < r * r)) return;
          const float dist = std::sqrt(d2);
          // On the wall's line: out by its left-hand normal (a wall has no inside to prefer).
          Vec2 n = dist > steer::kEpsilon ? d / dist
                                          : steer::perp(steer::normalizedOr(w.to - w.from, {1.0f, 0.0f}));
          s.position = q + n * r;
          s.velocity = slide(s.velocity, n);
          touched = true;
        });
    if (scene.minX() < scene.maxX() && scene.minY() < scene.maxY()) {
      auto clampAxis = [&](float& p, float& v, float lo, float hi) {
        if (lo > hi) lo = hi = (lo + hi) * 0.5f;  // a world narrower than the body: its middle
        if (p < lo) {
          p = lo;
          v = std::max(v, 0.0f);
          touched = true;
        } else if (p > hi) {
          p = hi;
          v = std::min(v, 0.0f);
          touched = true;
        }
      };
      clampAxis(s.position.x, s.velocity.x, scene.minX() + r, scene.maxX() - r);
      clampAxis(s.position.y, s.velocity.y, scene.minY() + r, scene.maxY() - r);
    }
    if (!touched) break;
  }
  return s;
}

bool isClearWith(Vec2 position, float radius, const CollisionScene& scene,
                 std::vector<std::uint32_t>& scratch) {
  const float r = std::max(radius, 0.0f);
  constexpr float kSlack = 1e-4f;  // what a push-out leaves to float rounding
  bool clear = true;
  scene.near(
      position, r, scratch,
      [&](std::uint32_t i) {
        const Circle& c = scene.obstacles()[i];
        const float reach = c.radius + r - kSlack;
        if (reach > 0.0f && lengthSq(position - c.centre) < reach * reach) clear = false;
      },
      [&](std::uint32_t j) {
        const Segment& w = scene.walls()[j];
        const float reach = r - kSlack;
        if (reach > 0.0f && lengthSq(position - nearestOnSegment(position, w.from, w.to)) < reach * reach)
          clear = false;
      });
  return clear;
}

bool moveBlockedWith(Vec2 from, Vec2 to, float radius, const CollisionScene& scene,
                     std::vector<std::uint32_t>& scratch) {
  return !isClearWith(to, radius, scene, scratch) || crossesShape(from, to, scene, scratch);
}

}  // namespace

PlayerState resolveContacts(PlayerState state, float radius, const CollisionScene& scene) {
  std::vector<std::uint32_t> scratch;
  return resolveContactsWith(state, radius, scene, scratch);
}

bool isClear(Vec2 position, float radius, const CollisionScene& scene) {
  std::vector<std::uint32_t> scratch;
  return isClearWith(position, radius, scene, scratch);
}

bool moveBlocked(Vec2 from, Vec2 to, float radius, const CollisionScene& scene) {
  std::vector<std::uint32_t> scratch;
  return moveBlockedWith(from, to, radius, scene, scratch);
}

PlayerState stepPlayer(const PlayerState& state, const PlayerIntent& intent, const steer::BodyLimits& limits,
                       const CollisionScene& scene) {
  if (!(intent.dt > 0.0f) || !isFinite(intent.dt) || !isFinite(state.position) || !isFinite(state.velocity))
    return state;
  const Vec2 move = clampedMove(intent.move);
  const float maxSpeed = isFinite(limits.maxSpeed) ? std::max(limits.maxSpeed, 0.0f) : 0.0f;
  // Substeps: none longer than kMaxSubstepSeconds, and none moving the body more than half its
  // radius (so it meets a thin wall before it is past it); at most 64.
  float count = std::ceil(intent.dt / kMaxSubstepSeconds);
  if (limits.radius > 0.0f) count = std::max(count, std::ceil(maxSpeed * intent.dt / (0.5f * limits.radius)));
  const int substeps = static_cast<int>(std::clamp(count, 1.0f, 64.0f));
  const float dt = intent.dt / static_cast<float>(substeps);
  const steer::DynamicStep step = steer::DynamicStep::of(limits, dt);
  steer::Body body;
  body.limits = limits;
  PlayerState s = state;
  std::vector<std::uint32_t> scratch;
  for (int k = 0; k < substeps; ++k) {
    body.position = s.position;
    body.velocity = s.velocity;
    // Velocity matching (STEERING.md): the force that takes v to the velocity asked for, within
    // kPlayerTimeToTarget, as fast as maxForce allows.
    const Vec2 force = steer::velocityMatch(body, move * maxSpeed, {kPlayerTimeToTarget}).linear;
    const steer::Body next = steer::integrateDynamicStep(body, force, step);
    const PlayerState resolved =
        resolveContactsWith({next.position, next.velocity}, limits.radius, scene, scratch);
    // A gap narrower than the body (a rock beside a wall): the pushes cannot all be met, or one of
    // them pushes the body through the wall. Then the substep is not taken: the body stops where
    // it was clear.
    const bool blocked = moveBlockedWith(s.position, resolved.position, limits.radius, scene, scratch);
    if (blocked && isClearWith(s.position, limits.radius, scene, scratch)) {
      s.velocity = {};
    } else {
      s = resolved;
    }
  }
  return s;
}

}  // namespace steerd::movement
