#include "client/snapshot_assembler.h"

#include <algorithm>
#include <cmath>

namespace steerd::client {

namespace {

auto byTick() {
  return [](const wire::SnapshotRecord& r, std::uint32_t t) { return r.tick < t; };
}

}  // namespace

SnapshotAssembler::SnapshotAssembler(std::size_t baselineRing)
    : ringSize_(std::max<std::size_t>(baselineRing, 1)) {}

const wire::SnapshotRecord* SnapshotAssembler::record(std::uint32_t tick) const {
  auto it = std::lower_bound(ring_.begin(), ring_.end(), tick, byTick());
  return it != ring_.end() && it->tick == tick ? &*it : nullptr;
}

std::uint32_t SnapshotAssembler::staleBefore() const {
  return ring_.size() >= ringSize_ && !ring_.empty() ? ring_.front().tick : 0;
}

SnapshotAssembler::Admission SnapshotAssembler::admit(const SnapshotPartHeader& part) {
  if (part.partCount == 0 || part.partCount > kMaxParts || part.part >= part.partCount || part.tick == 0) {
    ++counters_.malformed;
    return Admission::kRefused;
  }
  // A served replay's seek starts a new epoch: what an earlier one sent is of another timeline.
  if (part.epoch < epoch_) {
    ++counters_.otherEpoch;
    return Admission::kRefused;
  }
  if (part.epoch == epoch_) return Admission::kAdmitted;
  startEpoch(part.epoch);
  return Admission::kAdmittedNewEpoch;
}

void SnapshotAssembler::startEpoch(std::uint32_t epoch) {
  epoch_ = epoch;
  ring_.clear();
  pending_.clear();
  newestComplete_ = 0;
}

SnapshotAssembler::Outcome SnapshotAssembler::add(const SnapshotPartHeader& part, const wire::Snapshot* full,
                                                  TimePoint now, double tickRate) {
  Outcome outcome;
  // Ticks left waiting too long go before anything else (not after a partial part is added: the
  // outcome points into its tick's parts until the next call).
  prunePending();
  const std::uint32_t tick = part.tick;
  if (record(tick) != nullptr) {
    ++counters_.duplicate;
    return outcome;
  }
  if (tick < staleBefore()) {
    ++counters_.stale;
    return outcome;
  }
  auto pit = pending_.find(tick);
  if (pit != pending_.end()) {
    if (pit->second.partCount != part.partCount) {
      ++counters_.malformed;
      return outcome;
    }
    if (pit->second.have[part.part]) {
      ++counters_.duplicate;
      return outcome;
    }
  }
  // Light parts are refused for a missing baseline too: the client acknowledges only ticks whose
  // parts all came against a baseline it holds, in either mode.
  const wire::SnapshotRecord* baseline = nullptr;
  if (part.baselineTick != 0) {
    baseline = record(part.baselineTick);
    if (baseline == nullptr) {
      ++counters_.baselineMissing;
      return outcome;
    }
  }
  wire::SnapshotRecord decoded;
  decoded.tick = tick;
  if (full != nullptr) {
    outcome.error = wire::decodeSnapshotPart(*full, baseline, decoded);
    if (!outcome.error.empty()) {
      ++counters_.malformed;
      return outcome;
    }
  }
  ++counters_.parts;

  if (pit == pending_.end()) {
    Pending fresh;
    fresh.partCount = part.partCount;
    fresh.have.assign(fresh.partCount, false);
    fresh.parts.resize(fresh.partCount);
    pit = pending_.emplace(tick, std::move(fresh)).first;
  }
  Pending& pend = pit->second;
  pend.have[part.part] = true;
  ++pend.received;
  if (pend.received < pend.partCount) {
    pend.parts[part.part] = std::move(decoded);
    outcome.kind = Outcome::kPartial;
    outcome.record = &pend.parts[part.part];
    return outcome;
  }
  pend.parts[part.part] = std::move(decoded);

  // Every part is in: the parts' id ranges are disjoint and ascending, so their outputs in part
  // order concatenate into the whole record.
  wire::SnapshotRecord whole;
  whole.tick = tick;
  for (wire::SnapshotRecord& r : pend.parts) {
    if (!whole.entities.empty() && !r.entities.empty() && r.entities.front().id <= whole.entities.back().id) {
      ++counters_.malformed;
      outcome.error = "snapshot parts overlap";
      pending_.erase(pit);
      return outcome;
    }
    whole.entities.insert(whole.entities.end(), r.entities.begin(), r.entities.end());
  }
  pending_.erase(pit);
  outcome.record = &complete(std::move(whole), now, tickRate);
  outcome.kind = Outcome::kComplete;
  prunePending();
  return outcome;
}

const wire::SnapshotRecord& SnapshotAssembler::complete(wire::SnapshotRecord whole, TimePoint now,
                                                        double tickRate) {
  const std::uint32_t tick = whole.tick;
  ++counters_.complete;
  if (tick > newestComplete_) {
    if (newestComplete_ != 0 && tickRate > 0.0) {
      // RFC 3550 interarrival jitter, with the server's ticks as the send timestamps.
      const double d = std::chrono::duration<double>(now - lastArrival_).count() -
                       static_cast<double>(tick - newestComplete_) / tickRate;
      jitterMs_ += (std::abs(d) * 1000.0 - jitterMs_) / 16.0;
    }
    newestComplete_ = tick;
    lastArrival_ = now;
  }
  auto it = ring_.insert(std::lower_bound(ring_.begin(), ring_.end(), tick, byTick()), std::move(whole));
  // The ring drops its oldest, never the one just put in unless it is the oldest of a full ring.
  while (ring_.size() > ringSize_) {
    if (it == ring_.begin()) {
      // Older than everything held: kept for this call's outcome only.
      dropped_ = std::move(*it);
      ring_.pop_front();
      return dropped_;
    }
    ring_.pop_front();
  }
  return *it;
}

void SnapshotAssembler::prunePending() {
  const std::uint32_t stale = staleBefore();
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (it->first < stale || pending_.size() > kMaxPendingTicks) {
      ++counters_.abandoned;
      it = pending_.erase(it);
    } else {
      break;  // ascending by tick: the rest are newer
    }
  }
}

}  // namespace steerd::client
