#include "net/client_view.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>

#include "proto/packet.h"

namespace steerd::net {

wire::EntityState entityStateOf(const World& world, std::uint32_t slot, const AgentHeights* heights) {
  const AgentColumns& a = world.agents();
  wire::EntityState s;
  s.id = a.id[slot];
  s.archetype = a.archetype[slot];
  s.x = wire::quantizePosition(a.px[slot]);
  s.y = wire::quantizePosition(a.py[slot]);
  s.heading = static_cast<std::uint8_t>(wire::quantizeHeading(a.hx[slot], a.hy[slot]));
  if (heights != nullptr && heights->active()) s.z = wire::quantizeHeight(heights->of(s.id));
  return s;
}

void wireStatesOf(const World& world, std::vector<wire::EntityState>& out, const AgentHeights* heights) {
  const std::size_t n = world.agents().size();
  out.resize(n);
  for (std::uint32_t s = 0; s < n; ++s) out[s] = entityStateOf(world, s, heights);
  std::sort(out.begin(), out.end(),
            [](const wire::EntityState& x, const wire::EntityState& y) { return x.id < y.id; });
}

ViewCentre viewCentreOf(const World& world, AgentId player) {
  if (!world.isAlive(player)) return {};
  const std::uint32_t slot = world.slotOf(player);
  return {true, world.agents().px[slot], world.agents().py[slot]};
}

void ClientView::acknowledge(std::uint32_t tick) {
  if (tick <= acked_) return;
  for (const auto& r : sent_) {
    if (r.tick != tick) continue;
    acked_ = tick;
    // Acks only move forward, so the records before this one can never be a baseline again:
    // a client whose acks arrive keeps a few records (its round trip's worth), not kHistory of
    // them (each holds every entity the client has: 1,344 at 28 bytes on the default scenario).
    while (sent_.front().tick != tick) {
      retire(std::move(sent_.front()));
      sent_.pop_front();
    }
    return;
  }
}

const wire::SnapshotRecord* ClientView::baseline() const {
  for (const auto& r : sent_) {
    if (r.tick == acked_) return &r;
  }
  return nullptr;
}

void ClientView::chooseByPriority(std::size_t budget, std::size_t& used) {
  const std::uint8_t* const inBaseline = inBaseline_.data();  // locals, not reloaded after each store
  const auto costOf = [&](std::uint64_t key) -> std::size_t { return inBaseline[indexOfKey(key)] ? 2 : 10; };
  // A key's bucket: its top 12 bits past the sign (0 for every priority: the player's key is
  // handled first): the float's exponent and three bits of mantissa, an eighth of an octave.
  constexpr int kShift = 52;
  const auto bucketOf = [](std::uint64_t key) { return static_cast<std::size_t>(key >> kShift); };
  // All zero between calls (each call clears the range it used): no 32 KB to clear a snapshot.
  bucketEnd_.resize(kPriorityBuckets, 0);
  bucketCost_.resize(kPriorityBuckets, 0);
  std::uint32_t* const bucketEnd = bucketEnd_.data();
  std::uint32_t* const bucketCost = bucketCost_.data();
  std::size_t lo = kPriorityBuckets, hi = 0;
  for (const std::uint64_t key : keys_) {
    if (isPlayerKey(key)) {
      chosen_.push_back(indexOfKey(key));  // always goes, first
      used += costOf(key);
      continue;
    }
    const std::size_t b = bucketOf(key);
    ++bucketEnd[b];
    bucketCost[b] += static_cast<std::uint32_t>(costOf(key));
    lo = std::min(lo, b);
    hi = std::max(hi, b);
  }
  if (lo > hi) return;
  // Highest bucket first: counts become where each bucket ends, then the keys are put there.
  std::uint32_t end = 0;
  for (std::size_t b = hi + 1; b-- > lo;) {
    end += bucketEnd_[b];
    bucketEnd_[b] = end - bucketEnd_[b];  // its start, for now
  }
  byBucket_.resize(end);
  std::uint64_t* const byBucket = byBucket_.data();
  for (const std::uint64_t key : keys_) {
    if (!isPlayerKey(key)) byBucket[bucketEnd[bucketOf(key)]++] = key;
  }
  // Greedy in priority order: a bucket whose whole cost fits goes as it is; the one where the
  // budget runs out (and any after it, while two bytes are left) is sorted and taken key by key.
  std::uint32_t begin = 0;
  for (std::size_t b = hi + 1; b-- > lo && used + 2 <= budget;) {
    const auto first = byBucket_.begin() + begin, last = byBucket_.begin() + bucketEnd_[b];
    begin = bucketEnd_[b];
    if (used + bucketCost_[b] <= budget) {
      for (auto k = first; k != last; ++k) chosen_.push_back(~static_cast<std::uint32_t>(*k));
      used += bucketCost_[b];
      continue;
    }
    std::sort(first, last, std::greater<>());
    for (auto k = first; k != last; ++k) {
      const std::size_t c = costOf(*k);
      if (used + c > budget) continue;
      used += c;
      chosen_.push_back(~static_cast<std::uint32_t>(*k));
    }
  }
  std::fill(bucketEnd_.begin() + static_cast<std::ptrdiff_t>(lo),
            bucketEnd_.begin() + static_cast<std::ptrdiff_t>(hi) + 1, 0u);
  std::fill(bucketCost_.begin() + static_cast<std::ptrdiff_t>(lo),
            bucketCost_.begin() + static_cast<std::ptrdiff_t>(hi) + 1, 0u);
}

namespace {

// The share of the byte budget the estimate aims at: a little under the cap, so the estimate
// rarely overshoots and the snapshot is encoded once (each extra encoding costs as much as the
// first).
constexpr double kBudgetAim = 0.95;

// Area of interest: everything within the radius of the player, gathered into `inRadius`, or the
// whole world, read in place. `frame.states` is in id order, so the candidates are too.
std::span<const wire::EntityState> candidatesOf(const ViewFrame& frame, ViewCentre centre,
                                                const InterestConfig& interest,
                                                std::vector<std::uint64_t>& marks,
                                                std::vector<wire::EntityState>& inRadius) {
  inRadius.clear();
  if (!(interest.radius > 0 && centre.hasPlayer)) return frame.states;
  if (frame.grid != nullptr) {
    frame.grid->gather(frame.states, centre.x, centre.y, interest.radius, marks, inRadius);
  } else {
    InterestGrid::scan(frame.states, centre.x, centre.y, interest.radius, inRadius);
  }
  return inRadius;
}

// One walk over the candidates and the baseline (each sorted by id): which candidates the
// baseline holds, and which of its entities left the area of interest (or the world).
void compareWithBaseline(std::span<const wire::EntityState> candidates, const wire::SnapshotRecord* base,
                         std::vector<std::uint8_t>& inBaseline, std::vector<std::uint32_t>& removed) {
  const auto n = static_cast<std::uint32_t>(candidates.size());
  inBaseline.assign(n, 0);
  removed.clear();
  if (base == nullptr) return;
  const std::span<const wire::EntityState> held = base->entities;  // a local: not reloaded a step
  std::size_t j = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    while (j < held.size() && held[j].id < candidates[i].id) removed.push_back(held[j++].id);
    if (j < held.size() && held[j].id == candidates[i].id) {
      inBaseline[i] = 1;
      ++j;
    }
  }
  for (; j < held.size(); ++j) removed.push_back(held[j].id);
}

// Each candidate's priority gain this snapshot: nearer ones gain faster. The squared distances
// are gathered from the states in a loop of their own, so that the one with the square root and
// the divisions reads an array and vectorises (the same operations on each value: the same floats).
void priorityGainsOf(std::span<const wire::EntityState> candidates, float cx, float cy,
                     std::vector<float>& gains) {
  const auto n = static_cast<std::uint32_t>(candidates.size());
  gains.resize(n);
  float* const gain = gains.data();
  for (std::uint32_t i = 0; i < n; ++i) {
    const float dx = wire::positionMetres(candidates[i].x) - cx,
                dy = wire::positionMetres(candidates[i].y) - cy;
    gain[i] = dx * dx + dy * dy;
  }
  for (std::uint32_t i = 0; i < n; ++i) gain[i] = 1.0f + 10.0f / (1.0f + std::sqrt(gain[i]) / 10.0f);
}

// Priority accumulator: every candidate gains priority (`gains`) each snapshot it waits; the
// highest go first and start again from zero. The player's own body always goes. By agent index:
// as long as the most agents alive at once (a departed agent's index comes back to a newcomer,
// who starts from the priority it left). `keys` gets each candidate's priority key (`keyOf`),
// read once its priority has grown.
template <class KeyOf>
void accumulatePriority(std::span<const wire::EntityState> candidates, const std::vector<float>& gains,
                        AgentId player, std::vector<float>& priority, std::vector<std::uint64_t>& keys,
                        const KeyOf& keyOf) {
  const auto n = static_cast<std::uint32_t>(candidates.size());
  const float* const gain = gains.data();
  keys.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t id = candidates[i].id;
    priority[agentIndex(id)] += id == player ? 1e9f : gain[i];
    keys[i] = keyOf(i);
  }
}

// What was sent starts again from zero priority.
void resetPriorityOf(std::span<const wire::EntityState> sent, std::vector<float>& priority) {
  for (const auto& e : sent) {
    if (agentIndex(e.id) < priority.size()) priority[agentIndex(e.id)] = 0.0f;
  }
}

// A record for the next snapshot, with the storage of one that fell out of the history when there
// is one (no allocation a snapshot once records come and go).
wire::SnapshotRecord reusedRecord(std::vector<wire::SnapshotRecord>& spares) {
  if (spares.empty()) return {};
  wire::SnapshotRecord record = std::move(spares.back());
  spares.pop_back();
  return record;
}

// Bytes actually sent over bytes estimated, smoothed over snapshots: what corrects the next
// estimate.
double smoothedCostScale(double costScale, std::size_t actual, std::size_t estimated) {
  const double ratio = static_cast<double>(actual) / static_cast<double>(std::max<std::size_t>(estimated, 1));
  return std::clamp(0.8 * costScale + 0.2 * ratio, 0.25, 8.0);
}

// The candidates an encoding takes, in id order: the first `count` of `chosen` and the player's
// own body wherever it is in `chosen`. Their indices are marked, then one walk (candidates are in
// id order) copies every candidate into `out` and keeps the marked ones (no branch to mispredict).
std::span<const wire::EntityState> chosenInIdOrder(std::span<const wire::EntityState> candidates,
                                                   std::span<const std::uint32_t> chosen, std::size_t count,
                                                   AgentId player, std::vector<std::uint8_t>& marked,
                                                   std::vector<wire::EntityState>& out) {
  const auto n = static_cast<std::uint32_t>(candidates.size());
  const std::size_t take = std::min(count, chosen.size());
  marked.assign(n, 0);
  std::uint8_t* const selected = marked.data();
  for (std::size_t k = 0; k < take; ++k) selected[chosen[k]] = 1;
  for (std::size_t k = take; k < chosen.size(); ++k) {
    if (candidates[chosen[k]].id == player) selected[chosen[k]] = 1;
  }
  if (out.size() < n) out.resize(n);
  wire::EntityState* const kept = out.data();
  std::size_t m = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    kept[m] = candidates[i];
    m += selected[i];
  }
  return {kept, m};
}

// Encodes `content` against `base` into `parts`, with the player's own body (`own`) in part 0
// and the epoch in every part; `record` becomes what the client will hold. Returns the bytes of
// the parts' datagrams.
std::size_t encodeParts(const wire::SnapshotContent& content, const wire::SnapshotRecord* base,
                        const InterestConfig& interest, const wire::OwnPlayer* own,
                        wire::SnapshotRecord& record, std::vector<wire::Snapshot>& parts) {
  record.tick = 0;
  record.entities.clear();
  // Packet wrapper: one tag byte and a two-byte length.
  wire::encodeSnapshot(content, base, wire::kMaxBodyBytes - 3 - interest.partReserve, record, parts);
  if (own != nullptr && !parts.empty()) *parts.front().mutable_own() = *own;
  for (auto& part : parts) {
    part.set_epoch(interest.epoch);  // 0 is left out
    part.set_scene_version(interest.sceneVersion);
  }
  std::size_t bytes = 0;
  for (const auto& part : parts) bytes += wire::kHeaderBytes + wire::partBodyBytes(part);
  return bytes;
}

// How many of the choice (`chosenCount`, in priority order) fit `budgetBytes` when the whole of it
// came to `actual` bytes: a guess in proportion to the excess first (usually enough, and taken
// when it fits); when it does not, bisection below it, a few encodings at most. 0 at worst (only
// the player's own body goes). `encodeFirst(k)` encodes the first k and returns the bytes.
template <class EncodeFirst>
std::size_t longestPrefixThatFits(std::size_t chosenCount, std::size_t actual, std::size_t budgetBytes,
                                  EncodeFirst&& encodeFirst) {
  std::size_t fits = 0, over = chosenCount;  // encodeFirst(fits) is assumed to fit
  const auto guess = static_cast<std::size_t>(static_cast<double>(chosenCount) * kBudgetAim *
                                              static_cast<double>(budgetBytes) / static_cast<double>(actual));
  const std::size_t bytes = guess < over ? encodeFirst(guess) : actual;
  if (guess < over && bytes <= budgetBytes) return guess;
  over = std::min(over, guess);
  for (int step = 0; step < 4 && over - fits > 1; ++step) {
    const std::size_t mid = fits + (over - fits) / 2;
    (encodeFirst(mid) <= budgetBytes ? fits : over) = mid;
  }
  return fits;
}

}  // namespace

void ClientView::build(const ViewFrame& frame, ViewCentre centre, const InterestConfig& interest,
                       SnapshotStats& stats, std::vector<wire::Snapshot>& parts, const wire::OwnPlayer* own) {
  const wire::SnapshotRecord* base = baseline();
  const std::span<const wire::EntityState> candidates =
      candidatesOf(frame, centre, interest, marks_, candidates_);
  const auto n = static_cast<std::uint32_t>(candidates.size());
  compareWithBaseline(candidates, base, inBaseline_, removed_);

  // Budget: about two bytes for an entity the baseline holds, ten for a new one, plus the fixed
  // part (headers, and a bit per baseline entity for "updated or carried"). The estimate is
  // corrected by how far off it was on the last snapshots (`costScale_`), so what is sent stays
  // near the budget whatever the residuals cost.
  auto cost = [&](std::uint32_t i) -> std::size_t { return inBaseline_[i] ? 2 : 10; };
  const std::size_t fixed = 64 + (base != nullptr ? base->entities.size() / 8 : 0);
  const auto budget =
      static_cast<std::size_t>(kBudgetAim * static_cast<double>(interest.budgetBytes) / costScale_);
  std::size_t total = fixed;
  for (std::uint32_t i = 0; i < n; ++i) total += cost(i);
  if (priority_.size() < frame.indexCapacity) priority_.resize(frame.indexCapacity, 0.0f);
  // Priority order as one integer per candidate, larger first: the player's own body, then the
  // highest accumulated priority (a non-negative float, whose bits order as integers), then the
  // lowest id (candidates are in id order, so the lowest index).
  const auto keyOf = [&](std::uint32_t i) -> std::uint64_t {
    if (candidates[i].id == player_) return kPlayerKeyHigh | ~i;
    return std::uint64_t{std::bit_cast<std::uint32_t>(priority_[agentIndex(candidates[i].id)])} << 32 | (~i);
  };
  keys_.clear();
  chosen_.clear();
  std::size_t used = fixed;
  const bool everythingFits = total <= budget;
  if (everythingFits) {
    // Everything fits: all of it goes, in id order, and nobody's priority grows.
    for (std::uint32_t i = 0; i < n; ++i) chosen_.push_back(i);
    used = total;
  } else {
    priorityGainsOf(candidates, centre.x, centre.y, gain_);
    accumulatePriority(candidates, gain_, player_, priority_, keys_, keyOf);
    chooseByPriority(budget, used);
  }
  wire::SnapshotRecord record = reusedRecord(spares_);
  std::size_t encodedCount = 0, encodedBytes = 0;  // the last encoding's
  std::span<const wire::EntityState> updated;      // the last encoding's entities
  // The first `count` of chosen_ (and the player's own body) encoded; returns the bytes.
  const auto encodeFirst = [&](std::size_t count) {
    ++encodings_;
    // When every candidate goes, they are read in place.
    updated = everythingFits && count >= chosen_.size()
                  ? candidates
                  : chosenInIdOrder(candidates, chosen_, count, player_, selected_, updated_);
    encodedBytes =
        encodeParts({frame.tick, updated, removed_, frame.heights}, base, interest, own, record, parts);
    encodedCount = count;
    return encodedBytes;
  };
  // The budget is a cap on every snapshot, not an average: when the encoding comes out over it
  // (the estimate runs behind a change in what the residuals cost), the longest prefix of the
  // choice, in priority order, that fits is found by bisection (a few encodings, only then);
  // at worst only the player's own body goes. Removals always go (a few bytes each).
  std::size_t actual = encodeFirst(chosen_.size());
  if (actual > interest.budgetBytes && !chosen_.empty()) {
    // The choice is in id order (everything was going) or by priority bucket: the prefixes
    // below are taken in exact priority order.
    keys_.clear();
    for (const std::uint32_t i : chosen_) keys_.push_back(keyOf(i));
    std::sort(keys_.begin(), keys_.end(), std::greater<>());
    for (std::size_t k = 0; k < keys_.size(); ++k) chosen_[k] = indexOfKey(keys_[k]);
    const std::size_t fits = longestPrefixThatFits(chosen_.size(), actual, interest.budgetBytes, encodeFirst);
    actual = encodedCount == fits ? encodedBytes : encodeFirst(fits);
    used = fixed;
    for (std::size_t k = 0; k < fits; ++k) used += cost(chosen_[k]);
  }
  ++snapshotsBuilt_;
  if (actual > interest.budgetBytes) ++snapshotsOverBudget_;
  resetPriorityOf(updated, priority_);
  stats.entitiesWaiting = n - updated.size();
  costScale_ = smoothedCostScale(costScale_, actual, used);
  stats.entitiesSent = updated.size();
  sent_.push_back(std::move(record));
  while (sent_.size() > kHistory) {
    retire(std::move(sent_.front()));
    sent_.pop_front();
  }
  if (acked_ != 0 && baseline() == nullptr) acked_ = 0;  // fell out of the history: next one is whole
}

}  // namespace steerd::net
