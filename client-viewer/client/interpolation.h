// The interpolation buffer: the last few snapshots, decoded to metres and radians, sampled at a
// render tick that trails the server's estimated tick by the interpolation delay.
//
// Sampling at tick r:
//   - between two snapshots a <= r < b: each entity of a that is also in b is interpolated (linear
//     in position, shortest arc in heading); an entity only in a is shown as of a (it is leaving);
//     an entity only in b is not shown before b's tick (it is entering).
//   - past the newest snapshot n: entities are extrapolated from the two newest snapshots with
//     their velocity for at most `maxExtrapolationTicks`, then held where that left them.
//   - before the oldest snapshot: the oldest is shown as it is.
//
// Snapshots whose parts did not all arrive are kept as incomplete: an entity missing from one is
// unknown there, not gone, so interpolation looks past incomplete snapshots to the nearest one
// that holds the entity (or that is complete, which settles that the entity was not there).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace steerd::client {

struct EntityView {
  std::uint32_t id = 0;
  std::uint32_t archetype = 0;
  float x = 0.0f, y = 0.0f;  // m
  float heading = 0.0f;      // radians, (-pi, pi], counter-clockwise from +x
  float z = 0.0f;            // height, m: the ground under it on a level with heights (0 when flat)

  bool operator==(const EntityView&) const = default;
};

enum class SampleKind : std::uint8_t {
  kEmpty,         // no snapshot yet: no entities
  kBehind,        // render tick before the oldest snapshot: the oldest shown as it is
  kInterpolated,  // render tick within the buffer
  kExtrapolated,  // past the newest snapshot, within the extrapolation bound
  kStalled,       // past the newest snapshot and the bound: held
};
const char* sampleKindName(SampleKind kind);

// How an entity moves where it is drawn: from the two snapshots it is drawn between (or the last
// two it was in, when extrapolated), per tick. What an animation reads (speed, turning).
struct EntityMotion {
  float vx = 0.0f, vy = 0.0f;  // m per tick
  float turnRate = 0.0f;       // radians per tick, counter-clockwise
};

struct Sample {
  SampleKind kind = SampleKind::kEmpty;
  double renderTick = 0.0;
  std::uint32_t fromTick = 0;        // the snapshot at or before the render tick (the newest when past it)
  std::uint32_t toTick = 0;          // the one after it (interpolating), else fromTick
  double aheadTicks = 0.0;           // how far past the newest snapshot the render tick is (0 if not)
  std::vector<EntityView> entities;  // sorted by id
  std::vector<EntityMotion> motion;  // entities[i]'s; zero where only one snapshot holds it
};

class InterpolationBuffer {
 public:
  struct Options {
    std::size_t capacity = 32;           // snapshots kept; the oldest are dropped
    double maxExtrapolationTicks = 7.5;  // 0.25 s at 30 Hz
  };

  InterpolationBuffer() : InterpolationBuffer(Options{}) {}
  explicit InterpolationBuffer(const Options& options);

  void setMaxExtrapolationTicks(double ticks);
  double maxExtrapolationTicks() const { return options_.maxExtrapolationTicks; }

  // Adds entities (any order; ids unique) of snapshot `tick`. With `complete`, they are the whole
  // snapshot and replace whatever the tick held; otherwise they are merged into the tick's entry
  // (replacing entities with the same id). A tick older than every held one is ignored once the
  // buffer is full. Returns false when ignored.
  bool push(std::uint32_t tick, std::span<const EntityView> entities, bool complete);

  // Every entity at `renderTick`, into `out` (its vector is reused).
  void sample(double renderTick, Sample& out) const;

  std::size_t depth() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  std::uint32_t oldestTick() const { return entries_.empty() ? 0 : entries_.front().tick; }
  std::uint32_t newestTick() const { return entries_.empty() ? 0 : entries_.back().tick; }
  // Snapshots strictly newer than `renderTick`: how much the buffer holds ahead of rendering.
  std::size_t depthAhead(double renderTick) const;
  void clear() { entries_.clear(); }

 private:
  struct Entry {
    std::uint32_t tick = 0;
    bool complete = false;
    std::vector<EntityView> entities;  // sorted by id
  };

  static const EntityView* find(const Entry& e, std::uint32_t id);
  // The nearest entry at or before (after) index `from` holding `id`, looking past incomplete
  // entries only; -1 when none.
  std::ptrdiff_t findBackward(std::ptrdiff_t from, std::uint32_t id) const;
  std::ptrdiff_t findForward(std::ptrdiff_t from, std::uint32_t id) const;
  void sampleEntities(double renderTick, Sample& out) const;
  void interpolate(std::size_t a, double renderTick, Sample& out) const;
  void extrapolate(double renderTick, Sample& out) const;

  Options options_;
  std::vector<Entry> entries_;  // ascending by tick
};

// Shortest-arc helpers, exposed for the tests.
float wrapAngle(double radians);  // into (-pi, pi]
float lerpAngle(float from, float to, double t);

}  // namespace steerd::client
