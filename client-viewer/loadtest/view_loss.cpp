#include "loadtest/view_loss.h"

#include <algorithm>
#include <cmath>

namespace steerd::loadtest {

namespace {

struct Position {
  double x = 0, y = 0;
};

// Where the entity is predicted at `tick`, as both sides of the protocol predict it: position plus
// velocity (1/16 position unit per tick) times the ticks since its state was taken.
Position predict(const wire::EntityState& e, std::uint32_t tick) {
  const double ticks = static_cast<double>(tick) - static_cast<double>(e.tick);
  const double metresPerTickUnit = 1.0 / (16.0 * static_cast<double>(wire::kPositionUnitsPerMetre));
  return {static_cast<double>(wire::positionMetres(e.x)) + e.vx * metresPerTickUnit * ticks,
          static_cast<double>(wire::positionMetres(e.y)) + e.vy * metresPerTickUnit * ticks};
}

double distance2(Position a, Position b) { return (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y); }

}  // namespace

ViewLossTracker::ViewLossTracker(ViewLossConfig config) : config_(config) {}

void ViewLossTracker::observe(const wire::SnapshotRecord& record, std::uint32_t self,
                              std::int64_t playerArchetype, std::vector<double>& gapsMs) {
  const double tickRate = config_.tickRate > 0 ? config_.tickRate : 30.0;
  // Those gone before: back (lost), or given up on (vanished).
  const double comeBackTicks = config_.comeBackSeconds * tickRate;
  std::erase_if(gone_, [&](const Gone& g) {
    const double since = static_cast<double>(record.tick) - static_cast<double>(g.lastSeenTick);
    if (record.find(g.id) != nullptr) {
      ++counts_.lost;
      if (g.joining) ++counts_.lostJoining;
      gapsMs.push_back(since / tickRate * 1000.0);
      return true;
    }
    if (since > comeBackTicks) {
      ++counts_.vanished;
      if (g.joining) ++counts_.vanishedJoining;
      return true;
    }
    return false;
  });

  // Newly gone: in the previous record, not in this one, and well inside the area both times.
  const double maxGapTicks = config_.maxGapSeconds * tickRate;
  const wire::EntityState* meBefore = nullptr;
  const wire::EntityState* meNow = record.find(self);
  if (havePrevious_) {
    const auto it = std::lower_bound(previous_.begin(), previous_.end(), self,
                                     [](const wire::EntityState& e, std::uint32_t id) { return e.id < id; });
    if (it != previous_.end() && it->id == self) meBefore = &*it;
  }
  if (havePrevious_ && meBefore != nullptr && meNow != nullptr && record.tick > previousTick_ &&
      static_cast<double>(record.tick - previousTick_) <= maxGapTicks) {
    const bool everywhere = config_.interestRadius <= 0.0f;
    const double limit = static_cast<double>(config_.inside) * static_cast<double>(config_.interestRadius);
    const double limit2 = limit * limit;
    const Position centreBefore = predict(*meBefore, previousTick_);
    const Position centreNow = predict(*meNow, record.tick);
    std::size_t j = 0;
    const auto& now = record.entities;
    const bool joining = static_cast<double>(previousTick_) - static_cast<double>(firstTick_) <
                         config_.joiningSeconds * tickRate;
    for (const wire::EntityState& e : previous_) {
      while (j < now.size() && now[j].id < e.id) ++j;
      if (j < now.size() && now[j].id == e.id) continue;  // still there
      if (e.id == self || static_cast<std::int64_t>(e.archetype) == playerArchetype) continue;
      if (!everywhere) {
        // A state too old to predict from (carried for long) says little about where it is now.
        if (static_cast<double>(record.tick) - static_cast<double>(e.tick) > maxGapTicks) continue;
        if (distance2(predict(e, previousTick_), centreBefore) >= limit2) continue;
        if (distance2(predict(e, record.tick), centreNow) >= limit2) continue;
      }
      gone_.push_back({e.id, previousTick_, joining});
    }
  }

  if (!havePrevious_) firstTick_ = record.tick;
  previous_.assign(record.entities.begin(), record.entities.end());
  previousTick_ = record.tick;
  havePrevious_ = true;
}

}  // namespace steerd::loadtest
