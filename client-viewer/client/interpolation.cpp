#include "client/interpolation.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

namespace steerd::client {

namespace {

bool byId(const EntityView& a, const EntityView& b) { return a.id < b.id; }

EntityView lerpEntity(const EntityView& a, const EntityView& b, double t) {
  EntityView e = b;
  e.x = static_cast<float>(a.x + (static_cast<double>(b.x) - a.x) * t);
  e.y = static_cast<float>(a.y + (static_cast<double>(b.y) - a.y) * t);
  e.z = static_cast<float>(a.z + (static_cast<double>(b.z) - a.z) * t);
  e.heading = lerpAngle(a.heading, b.heading, t);
  return e;
}

}  // namespace

const char* sampleKindName(SampleKind kind) {
  switch (kind) {
    case SampleKind::kEmpty:
      return "empty";
    case SampleKind::kBehind:
      return "behind";
    case SampleKind::kInterpolated:
      return "interpolated";
    case SampleKind::kExtrapolated:
      return "extrapolated";
    case SampleKind::kStalled:
      return "stalled";
  }
  return "unknown";
}

float wrapAngle(double radians) {
  if (!std::isfinite(radians)) return 0.0f;
  // The common cases without remainder(), which is slow; the results are the same bits (one turn
  // off, the subtraction is exact).
  constexpr double kPi = std::numbers::pi;
  if (radians > -kPi && radians <= kPi) return static_cast<float>(radians);
  if (radians > kPi && radians <= 2.0 * kPi) return static_cast<float>(radians - 2.0 * kPi);
  if (radians < -kPi && radians > -2.0 * kPi) return static_cast<float>(radians + 2.0 * kPi);
  double r = std::remainder(radians, 2.0 * std::numbers::pi);  // [-pi, pi]
  if (r <= -std::numbers::pi) r += 2.0 * std::numbers::pi;
  return static_cast<float>(r);
}

float lerpAngle(float from, float to, double t) {
  const double d = wrapAngle(static_cast<double>(to) - from);
  return wrapAngle(from + d * t);
}

InterpolationBuffer::InterpolationBuffer(const Options& options) : options_(options) {
  options_.capacity = std::max<std::size_t>(options_.capacity, 2);
  setMaxExtrapolationTicks(options.maxExtrapolationTicks);
}

void InterpolationBuffer::setMaxExtrapolationTicks(double ticks) {
  options_.maxExtrapolationTicks = std::isfinite(ticks) ? std::max(ticks, 0.0) : 0.0;
}

bool InterpolationBuffer::push(std::uint32_t tick, std::span<const EntityView> entities, bool complete) {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), tick,
                             [](const Entry& e, std::uint32_t t) { return e.tick < t; });
  if (it == entries_.end() || it->tick != tick) {
    if (entries_.size() >= options_.capacity && it == entries_.begin()) return false;  // older than all
    it = entries_.insert(it, Entry{tick, false, {}});
    if (entries_.size() > options_.capacity) {
      entries_.erase(entries_.begin());
      it = std::lower_bound(entries_.begin(), entries_.end(), tick,
                            [](const Entry& e, std::uint32_t t) { return e.tick < t; });
    }
  } else if (it->complete && !complete) {
    return false;  // a late part of a snapshot already held whole
  }

  std::vector<EntityView> incoming(entities.begin(), entities.end());
  if (!std::is_sorted(incoming.begin(), incoming.end(), byId)) {  // the client's are sorted already
    std::stable_sort(incoming.begin(), incoming.end(), byId);
  }
  // Ids are unique in a snapshot; keep the last of any repeat anyway.
  auto last = std::unique(incoming.rbegin(), incoming.rend(),
                          [](const EntityView& a, const EntityView& b) { return a.id == b.id; });
  incoming.erase(incoming.begin(), last.base());

  if (complete || it->entities.empty()) {
    it->entities = std::move(incoming);
  } else {
    std::vector<EntityView> merged;
    merged.reserve(it->entities.size() + incoming.size());
    auto a = it->entities.begin();
    auto b = incoming.begin();
    while (a != it->entities.end() || b != incoming.end()) {
      if (b == incoming.end() || (a != it->entities.end() && a->id < b->id)) {
        merged.push_back(*a++);
      } else {
        if (a != it->entities.end() && a->id == b->id) ++a;  // replaced
        merged.push_back(*b++);
      }
    }
    it->entities = std::move(merged);
  }
  it->complete = it->complete || complete;
  return true;
}

const EntityView* InterpolationBuffer::find(const Entry& e, std::uint32_t id) {
  auto it = std::lower_bound(e.entities.begin(), e.entities.end(), id,
                             [](const EntityView& v, std::uint32_t i) { return v.id < i; });
  return it != e.entities.end() && it->id == id ? &*it : nullptr;
}

std::ptrdiff_t InterpolationBuffer::findBackward(std::ptrdiff_t from, std::uint32_t id) const {
  for (std::ptrdiff_t j = from; j >= 0; --j) {
    const Entry& e = entries_[static_cast<std::size_t>(j)];
    if (find(e, id) != nullptr) return j;
    if (e.complete) return -1;
  }
  return -1;
}

std::ptrdiff_t InterpolationBuffer::findForward(std::ptrdiff_t from, std::uint32_t id) const {
  for (auto j = static_cast<std::size_t>(std::max<std::ptrdiff_t>(from, 0)); j < entries_.size(); ++j) {
    if (find(entries_[j], id) != nullptr) return static_cast<std::ptrdiff_t>(j);
    if (entries_[j].complete) return -1;
  }
  return -1;
}

std::size_t InterpolationBuffer::depthAhead(double renderTick) const {
  return static_cast<std::size_t>(
      std::count_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.tick > renderTick; }));
}

namespace {

EntityMotion motionBetween(const EntityView& a, const EntityView& b, double ticks) {
  if (!(ticks > 0.0)) return {};
  return {static_cast<float>((static_cast<double>(b.x) - a.x) / ticks),
          static_cast<float>((static_cast<double>(b.y) - a.y) / ticks),
          static_cast<float>(wrapAngle(static_cast<double>(b.heading) - a.heading) / ticks)};
}

}  // namespace

void InterpolationBuffer::sample(double renderTick, Sample& out) const {
  sampleEntities(renderTick, out);
  out.motion.resize(out.entities.size());  // the paths that draw one snapshot as it is: no motion
}

void InterpolationBuffer::sampleEntities(double renderTick, Sample& out) const {
  out.entities.clear();
  out.motion.clear();
  out.renderTick = renderTick;
  out.aheadTicks = 0.0;
  if (entries_.empty()) {
    out.kind = SampleKind::kEmpty;
    out.fromTick = out.toTick = 0;
    return;
  }
  if (!(renderTick >= entries_.front().tick)) {  // also a NaN render tick
    out.kind = SampleKind::kBehind;
    out.fromTick = out.toTick = entries_.front().tick;
    out.entities = entries_.front().entities;
    return;
  }
  // The last entry at or before the render tick.
  auto it = std::upper_bound(entries_.begin(), entries_.end(), renderTick,
                             [](double r, const Entry& e) { return r < e.tick; });
  const auto a = static_cast<std::size_t>(it - entries_.begin()) - 1;
  if (a + 1 < entries_.size()) {
    interpolate(a, renderTick, out);
  } else if (renderTick == entries_[a].tick && entries_[a].complete) {
    out.kind = SampleKind::kInterpolated;
    out.fromTick = out.toTick = entries_[a].tick;
    out.entities = entries_[a].entities;
  } else {
    extrapolate(renderTick, out);
  }
}

void InterpolationBuffer::interpolate(std::size_t ai, double renderTick, Sample& out) const {
  const Entry& A = entries_[ai];
  const Entry& B = entries_[ai + 1];
  out.kind = SampleKind::kInterpolated;
  out.fromTick = A.tick;
  out.toTick = B.tick;
  auto at = [&](std::size_t i, std::size_t j) {
    const double from = entries_[i].tick;
    return (renderTick - from) / (static_cast<double>(entries_[j].tick) - from);
  };
  const double t = at(ai, ai + 1);
  auto a = A.entities.begin();
  auto b = B.entities.begin();
  out.entities.reserve(std::max(A.entities.size(), B.entities.size()));
  while (a != A.entities.end() || b != B.entities.end()) {
    if (b == B.entities.end() || (a != A.entities.end() && a->id < b->id)) {
      // Only in A: leaving, unless B is incomplete and a later snapshot still holds it.
      const std::ptrdiff_t j = B.complete ? -1 : findForward(static_cast<std::ptrdiff_t>(ai) + 2, a->id);
      if (j < 0) {
        out.entities.push_back(*a);
        out.motion.emplace_back();
      } else {
        const auto jj = static_cast<std::size_t>(j);
        const EntityView& later = *find(entries_[jj], a->id);
        out.entities.push_back(lerpEntity(*a, later, at(ai, jj)));
        out.motion.push_back(motionBetween(*a, later, static_cast<double>(entries_[jj].tick) - A.tick));
      }
      ++a;
    } else if (a == A.entities.end() || b->id < a->id) {
      // Only in B: entering, unless A is incomplete and an earlier snapshot holds it.
      const std::ptrdiff_t p = A.complete ? -1 : findBackward(static_cast<std::ptrdiff_t>(ai) - 1, b->id);
      if (p >= 0) {
        const auto pp = static_cast<std::size_t>(p);
        const EntityView& earlier = *find(entries_[pp], b->id);
        out.entities.push_back(lerpEntity(earlier, *b, at(pp, ai + 1)));
        out.motion.push_back(motionBetween(earlier, *b, static_cast<double>(B.tick) - entries_[pp].tick));
      }
      ++b;
    } else {
      out.entities.push_back(lerpEntity(*a, *b, t));
      out.motion.push_back(motionBetween(*a, *b, static_cast<double>(B.tick) - A.tick));
      ++a;
      ++b;
    }
  }
}

void InterpolationBuffer::extrapolate(double renderTick, Sample& out) const {
  const std::size_t n = entries_.size() - 1;
  const double ahead = renderTick - entries_[n].tick;
  out.kind = ahead <= 0.0                              ? SampleKind::kInterpolated
             : ahead <= options_.maxExtrapolationTicks ? SampleKind::kExtrapolated
                                                       : SampleKind::kStalled;
  out.fromTick = out.toTick = entries_[n].tick;
  out.aheadTicks = ahead;

  // The entities to show: those of the newest snapshot, and when it is incomplete, those of the
  // snapshots before it down to (and including) the newest complete one, each from its newest.
  std::vector<std::pair<std::uint32_t, std::size_t>> latest;  // (id, entry)
  std::size_t k = n;
  for (;;) {
    for (const EntityView& e : entries_[k].entities) latest.emplace_back(e.id, k);
    if (entries_[k].complete || k == 0) break;
    --k;
  }
  if (k != n) {
    std::stable_sort(latest.begin(), latest.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });  // newest first per id
    latest.erase(std::unique(latest.begin(), latest.end(),
                             [](const auto& x, const auto& y) { return x.first == y.first; }),
                 latest.end());
  }

  out.entities.reserve(latest.size());
  for (const auto& [id, li] : latest) {
    const Entry& L = entries_[li];
    const EntityView& e = *find(L, id);
    const std::ptrdiff_t p = findBackward(static_cast<std::ptrdiff_t>(li) - 1, id);
    if (p < 0) {
      out.entities.push_back(e);  // no earlier position: no velocity, held
      out.motion.emplace_back();
      continue;
    }
    const Entry& P = entries_[static_cast<std::size_t>(p)];
    const EntityView& prev = *find(P, id);
    const double span = static_cast<double>(L.tick) - P.tick;
    const double used = std::clamp(renderTick - L.tick, 0.0, options_.maxExtrapolationTicks);
    EntityView x = e;
    x.x = static_cast<float>(e.x + (static_cast<double>(e.x) - prev.x) / span * used);
    x.y = static_cast<float>(e.y + (static_cast<double>(e.y) - prev.y) / span * used);
    x.z = static_cast<float>(e.z + (static_cast<double>(e.z) - prev.z) / span * used);
    x.heading = wrapAngle(e.heading + wrapAngle(static_cast<double>(e.heading) - prev.heading) / span * used);
    out.entities.push_back(x);
    // Moving while extrapolated; held (past the bound) it stands.
    out.motion.push_back(out.kind == SampleKind::kStalled ? EntityMotion{} : motionBetween(prev, e, span));
  }
}

}  // namespace steerd::client
