#include "proto/snapshot_codec.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "proto/packet.h"
#include "proto/varint_size.h"

namespace steerd::wire {

namespace {

constexpr std::int32_t kPositionLimit = 1 << 30;
constexpr std::uint32_t kIdMax = std::numeric_limits<std::uint32_t>::max();

// Integer prediction both sides make: where an entity will be `ticks` after its state, at its
// last velocity. Rounded to nearest by adding half before the (arithmetic) shift.
std::int32_t predict(std::int32_t p, std::int32_t v, std::uint32_t ticks) {
  const std::int64_t moved = (static_cast<std::int64_t>(v) * ticks + kVelocityFraction / 2) >> 4;
  return static_cast<std::int32_t>(std::clamp<std::int64_t>(p + moved, -kPositionLimit, kPositionLimit));
}

std::int16_t velocityBetween(std::int32_t from, std::int32_t to, std::uint32_t ticks) {
  if (ticks == 0) return 0;
  const std::int64_t d = static_cast<std::int64_t>(to) - from;
  std::int64_t v;
  // Nearly every step is short: then a 32-bit division (cheaper) gives the same quotient.
  if (d > -(1 << 26) && d < (1 << 26) && ticks < (1u << 31)) {
    v = static_cast<std::int32_t>(d) * kVelocityFraction / static_cast<std::int32_t>(ticks);
  } else {
    v = d * kVelocityFraction / static_cast<std::int64_t>(ticks);
  }
  return static_cast<std::int16_t>(std::clamp<std::int64_t>(v, -kVelocityLimit, kVelocityLimit));
}

int headingDelta(std::uint32_t to, std::uint32_t from) {
  int d = static_cast<int>((to - from) & 255u);
  return d >= 128 ? d - 256 : d;
}

// Heading predicted at its last turn rate (a turning body keeps turning).
std::uint32_t predictHeading(std::uint32_t heading, std::int32_t turn, std::uint32_t ticks) {
  const std::int64_t turned = (static_cast<std::int64_t>(turn) * ticks + kVelocityFraction / 2) >> 4;
  return static_cast<std::uint32_t>((static_cast<std::int64_t>(heading) + turned) & 255);
}

// How an entity the client holds moved to the values just sent: the rates its next prediction
// uses.
struct Motion {
  std::int16_t vx, vy, turn;
};

inline Motion motionBetween(const EntityState& from, std::int32_t x, std::int32_t y, std::uint32_t heading,
                            std::uint32_t tick) {
  const std::uint32_t ticks = tick - from.tick;
  // |delta| <= 128 steps: the rate fits 16 bits.
  const auto turn =
      static_cast<std::int16_t>(ticks == 0 ? 0
                                           : headingDelta(heading & 255u, from.heading) * kVelocityFraction /
                                                 static_cast<std::int32_t>(ticks));
  return {velocityBetween(from.x, x, ticks), velocityBetween(from.y, y, ticks), turn};
}

// Appends the next state of `from` to `out`, built as an aggregate (clang 14 has no parenthesised aggregate
// init; the encoder's next record and the decoder's output take the same rates).
inline void appendAdvanced(std::vector<EntityState>& out, const EntityState& from, std::int32_t x,
                           std::int32_t y, std::uint32_t heading, std::int16_t z, std::uint32_t tick) {
  const Motion m = motionBetween(from, x, y, heading, tick);
  out.push_back(EntityState{from.id, from.archetype, z, x, y, m.vx, m.vy, static_cast<std::uint8_t>(heading),
                            m.turn, tick});
}

// Residual word, by its low tag bits:
//   ...0  tiny:   2 bits per value, -2..1    (7 bits: one varint byte)
//   ..01  small:  4 bits per value, -8..7    (14 bits: two bytes)
//   .011  medium: 6 bits per value, -32..31  (21 bits: three bytes)
//   0111  escaped: the word is 7 and the values follow in `escaped`
constexpr std::uint32_t kEscapeWord = 7;

std::uint32_t packResidual(std::int32_t dx, std::int32_t dy, std::int32_t dh) {
  auto in = [&](int lo, int hi) {
    return dx >= lo && dx <= hi && dy >= lo && dy <= hi && dh >= lo && dh <= hi;
  };
  if (in(-2, 1)) {
    return static_cast<std::uint32_t>((dx + 2) | (dy + 2) << 2 | (dh + 2) << 4) << 1;
  }
  if (in(-8, 7)) {
    return 1u | static_cast<std::uint32_t>((dx + 8) | (dy + 8) << 4 | (dh + 8) << 8) << 2;
  }
  if (in(-32, 31)) {
    return 3u | static_cast<std::uint32_t>((dx + 32) | (dy + 32) << 6 | (dh + 32) << 12) << 3;
  }
  return kEscapeWord;
}

// One item of the merged walk over baseline and content, in id order.
struct Item {
  std::uint32_t id;
  const EntityState* base;  // in the baseline, or null
  const EntityState* now;   // to send now, or null
  bool removed;
};

class PartBuilder {
 public:
  PartBuilder(const SnapshotContent& c, const SnapshotRecord* baseline, std::size_t maxPartBytes)
      : content_(c),
        baseline_(baseline),
        // A column has at most one value per item, and each value costs at least a byte of the
        // part: reserved up front, adding seldom reallocates (a reused part has the room already).
        reserveUpdated_(static_cast<int>(std::min(c.updated.size(), maxPartBytes))),
        reserveRemoved_(static_cast<int>(std::min(c.removed.size(), maxPartBytes))) {}

  // Starts filling `part` (cleared; the storage of its columns is kept).
  void start(Snapshot& part, std::uint32_t idLo) {
    part_ = &part;
    part.Clear();
    part.set_tick(content_.tick);
    part.set_baseline_tick(baseline_ ? baseline_->tick : 0);
    part.set_id_lo(idLo);
    part.mutable_residual()->Reserve(reserveUpdated_);
    part.mutable_new_id()->Reserve(reserveUpdated_);
    part.mutable_new_archetype()->Reserve(reserveUpdated_);
    part.mutable_new_x()->Reserve(reserveUpdated_);
    part.mutable_new_y()->Reserve(reserveUpdated_);
    part.mutable_new_heading()->Reserve(reserveUpdated_);
    part.mutable_removed()->Reserve(reserveRemoved_);
    bits_ = part.mutable_kept();  // filled in place; cleared by finish() when every entity is kept
    baseCount_ = 0;
    allKept_ = true;
    prevRemoved_ = idLo;
    prevNew_ = idLo;
    prevNewX_ = prevNewY_ = 0;
    prevNewZ_ = 0;
    estimate_ = 64;  // fixed fields, field tags and length prefixes
  }

  // Adds one item; returns the bytes it is estimated to cost.
  std::size_t add(const Item& it, std::vector<EntityState>& record) {
    std::size_t cost = 0;
    if (it.base != nullptr) {
      const bool kept = it.now != nullptr;
      if (baseCount_ % 8 == 0) bits_->push_back(0);
      if (kept) bits_->back() |= static_cast<char>(1u << (baseCount_ % 8));
      allKept_ = allKept_ && kept;
      ++baseCount_;
      cost += baseCount_ % 8 == 1 ? 1 : 0;
      if (kept) {
        const EntityState& b = *it.base;
        const std::uint32_t ticks = content_.tick - b.tick;
        const std::int32_t dx = it.now->x - predict(b.x, b.vx, ticks);
        const std::int32_t dy = it.now->y - predict(b.y, b.vy, ticks);
        const std::int32_t dh = headingDelta(it.now->heading, predictHeading(b.heading, b.turn, ticks));
        const std::uint32_t word = packResidual(dx, dy, dh);
        part_->add_residual(word);
        cost += varintBytes(word);
        if (word == kEscapeWord) {
          part_->add_escaped(dx);
          part_->add_escaped(dy);
          part_->add_escaped(dh);
          cost += zigzagBytes(dx) + zigzagBytes(dy) + zigzagBytes(dh);
        }
        // Heights change slowly (a slope at walking pace: a unit or two a snapshot), so the
        // baseline's height is the prediction; a flat world sends none and keeps its 0.
        std::int16_t z = b.z;
        if (content_.heights) {
          const std::int32_t dz = it.now->z - b.z;
          part_->add_height(dz);
          cost += zigzagBytes(dz);
          z = it.now->z;
        }
        appendAdvanced(record, b, it.now->x, it.now->y, it.now->heading, z, content_.tick);
      } else if (it.removed) {
        part_->add_removed(it.id - prevRemoved_);
        cost += varintBytes(it.id - prevRemoved_);
        prevRemoved_ = it.id;
      } else {
        record.push_back(*it.base);  // carried unchanged
      }
    } else if (it.now != nullptr) {
      const EntityState& n = *it.now;
      part_->add_new_id(n.id - prevNew_);
      part_->add_new_archetype(n.archetype);
      part_->add_new_x(n.x - prevNewX_);
      part_->add_new_y(n.y - prevNewY_);
      part_->add_new_heading(n.heading & 255u);
      cost += varintBytes(n.id - prevNew_) + varintBytes(n.archetype) + zigzagBytes(n.x - prevNewX_) +
              zigzagBytes(n.y - prevNewY_) + varintBytes(n.heading & 255u);
      prevNew_ = n.id;
      prevNewX_ = n.x;
      prevNewY_ = n.y;
      std::int16_t z = 0;
      if (content_.heights) {
        part_->add_new_height(n.z - prevNewZ_);
        cost += zigzagBytes(n.z - prevNewZ_);
        prevNewZ_ = n.z;
        z = n.z;
      }
      record.push_back(EntityState{n.id, n.archetype, z, n.x, n.y, std::int16_t{0}, std::int16_t{0},
                                   n.heading, std::int16_t{0}, content_.tick});
    }
    estimate_ += cost;
    return cost;
  }

  std::size_t estimate() const { return estimate_; }

  void finish(std::uint32_t idHi) {
    part_->set_id_hi(idHi);
    part_->set_all_kept(allKept_);
    if (allKept_) bits_->clear();
  }

 private:
  const SnapshotContent& content_;
  const SnapshotRecord* baseline_;
  const int reserveUpdated_, reserveRemoved_;
  Snapshot* part_ = nullptr;
  std::string* bits_ = nullptr;  // part_'s kept bitmask
  std::size_t baseCount_ = 0;
  bool allKept_ = true;
  std::uint32_t prevRemoved_ = 0, prevNew_ = 0;
  std::int32_t prevNewX_ = 0, prevNewY_ = 0, prevNewZ_ = 0;
  std::size_t estimate_ = 0;
};

// The merged walk over baseline and content, in id order, one item at a time (a snapshot has a
// few thousand: not worth a vector each).
class MergedItems {
 public:
  MergedItems(const SnapshotContent& c, const SnapshotRecord* baseline)
      : base_(baseline ? std::span<const EntityState>(baseline->entities) : std::span<const EntityState>()),
        now_(c.updated),
        removed_(c.removed) {}

  std::size_t count() const { return base_.size() + now_.size(); }  // at most
  bool done() const { return i_ >= base_.size() && j_ >= now_.size(); }
  Item next() {
    const std::uint32_t bid = i_ < base_.size() ? base_[i_].id : kIdMax;
    const std::uint32_t uid = j_ < now_.size() ? now_[j_].id : kIdMax;
    const bool takeBase = i_ < base_.size() && (j_ >= now_.size() || bid <= uid);
    const bool takeNow = j_ < now_.size() && (i_ >= base_.size() || uid <= bid);
    Item it{takeBase ? bid : uid, takeBase ? &base_[i_] : nullptr, takeNow ? &now_[j_] : nullptr, false};
    if (takeBase && !takeNow) {
      while (r_ < removed_.size() && removed_[r_] < bid) ++r_;
      it.removed = r_ < removed_.size() && removed_[r_] == bid;
    }
    i_ += takeBase ? 1 : 0;
    j_ += takeNow ? 1 : 0;
    return it;
  }

 private:
  std::span<const EntityState> base_, now_;
  std::span<const std::uint32_t> removed_;
  std::size_t i_ = 0, j_ = 0, r_ = 0;
};

}  // namespace

const EntityState* SnapshotRecord::find(std::uint32_t id) const {
  auto it = std::lower_bound(entities.begin(), entities.end(), id,
                             [](const EntityState& e, std::uint32_t v) { return e.id < v; });
  return it != entities.end() && it->id == id ? &*it : nullptr;
}

std::int32_t quantizePosition(float metres) {
  if (!std::isfinite(metres)) return 0;
  const float u = std::round(metres * kPositionUnitsPerMetre);
  return static_cast<std::int32_t>(
      std::clamp(u, -static_cast<float>(kPositionLimit), static_cast<float>(kPositionLimit)));
}

std::uint32_t quantizeHeading(float hx, float hy) {
  if (!std::isfinite(hx) || !std::isfinite(hy) || (hx == 0.0f && hy == 0.0f)) return 0;
  const double turns =
      std::atan2(static_cast<double>(hy), static_cast<double>(hx)) / (2.0 * 3.14159265358979323846);
  return static_cast<std::uint32_t>(static_cast<std::int64_t>(std::lround(turns * kHeadingSteps)) & 255);
}

std::int16_t quantizeHeight(float metres) {
  if (!std::isfinite(metres)) return 0;
  return static_cast<std::int16_t>(
      std::clamp(std::round(metres * kHeightUnitsPerMetre), -32767.0f, 32767.0f));
}

float headingRadians(std::uint32_t heading) {
  return static_cast<float>((heading & 255u) * (2.0 * 3.14159265358979323846 / kHeadingSteps));
}

std::size_t partBodyBytes(const Snapshot& part) {
  // Packet wrapper: field 7's tag (1 byte) and the length varint.
  const std::size_t n = part.ByteSizeLong();
  return 1 + varintBytes(n) + n;
}

void encodeSnapshot(const SnapshotContent& content, const SnapshotRecord* baseline, std::size_t maxPartBytes,
                    SnapshotRecord& record, std::vector<Snapshot>& parts) {
  MergedItems items(content, baseline);
  record.tick = content.tick;
  record.entities.clear();
  record.entities.reserve(items.count());

  std::size_t count = 0;  // parts filled; those of `parts` past it are reused, or dropped at the end
  const auto nextPart = [&]() -> Snapshot& {
    if (count == parts.size()) parts.emplace_back();
    return parts[count++];
  };
  PartBuilder builder(content, baseline, maxPartBytes);
  std::uint32_t idLo = 0;
  builder.start(nextPart(), idLo);
  // Worst case for one item: an escaped residual or a new entity with 5-byte varints.
  const std::size_t worstItem = 32;
  const std::size_t budget = maxPartBytes > worstItem + 80 ? maxPartBytes - worstItem - 16 : 64;
  while (!items.done()) {
    const Item item = items.next();
    builder.add(item, record.entities);
    if (!items.done() && builder.estimate() >= budget) {
      builder.finish(item.id);
      idLo = item.id + 1;
      builder.start(nextPart(), idLo);
    }
  }
  builder.finish(kIdMax);
  parts.resize(count);
  const auto partCount = static_cast<std::uint32_t>(count);
  for (std::uint32_t p = 0; p < partCount; ++p) {
    parts[p].set_part(p);
    parts[p].set_part_count(partCount);
  }
}

std::vector<Snapshot> encodeSnapshot(const SnapshotContent& content, const SnapshotRecord* baseline,
                                     std::size_t maxPartBytes, SnapshotRecord& record) {
  std::vector<Snapshot> parts;
  encodeSnapshot(content, baseline, maxPartBytes, record, parts);
  return parts;
}

namespace {

// Decoding helpers return the first error's message, or null: a literal each, so a valid part
// (every part, nearly) builds no string until decodeSnapshotPart's own return.

// The checks that need no entity: the part's place in its snapshot, its ticks against the
// baseline, and that its columns are of matching lengths.
const char* partHeaderError(const Snapshot& part, const SnapshotRecord* baseline) {
  if (part.part_count() == 0 || part.part() >= part.part_count()) return "part index out of range";
  if (part.id_lo() > part.id_hi()) return "id range reversed";
  if (part.tick() == 0) return "snapshot tick 0";
  if ((part.baseline_tick() == 0) != (baseline == nullptr)) return "baseline mismatch";
  if (baseline != nullptr && baseline->tick != part.baseline_tick()) return "baseline mismatch";
  if (baseline != nullptr && part.baseline_tick() >= part.tick())
    return "baseline not older than the snapshot";
  if (part.new_archetype_size() != part.new_id_size() || part.new_x_size() != part.new_id_size() ||
      part.new_y_size() != part.new_id_size() || part.new_heading_size() != part.new_id_size()) {
    return "new-entity columns of different lengths";
  }
  // Heights are all there or all left out (a flat world), for the kept and for the new.
  if (part.new_height_size() != 0 && part.new_height_size() != part.new_id_size())
    return "new-entity columns of different lengths";
  if (part.height_size() > 0 && part.height_size() != part.residual_size())
    return "heights for some kept entities only";
  return nullptr;
}

// Where the baseline walk is in the part's columns of kept entities.
struct KeptColumns {
  int residual = 0, escaped = 0;
};

struct Residual {
  std::int32_t dx, dy, dh;
};

// packResidual's inverse; an escaped word's three values are read from `part.escaped`.
inline const char* unpackResidual(std::uint32_t w, const Snapshot& part, KeptColumns& at, Residual& r) {
  if ((w & 1u) == 0) {
    if (w >= 128) return "bad residual word";
    r = {static_cast<std::int32_t>((w >> 1) & 3) - 2, static_cast<std::int32_t>((w >> 3) & 3) - 2,
         static_cast<std::int32_t>((w >> 5) & 3) - 2};
  } else if ((w & 3u) == 1) {
    if (w >= (1u << 14)) return "bad residual word";
    r = {static_cast<std::int32_t>((w >> 2) & 15) - 8, static_cast<std::int32_t>((w >> 6) & 15) - 8,
         static_cast<std::int32_t>((w >> 10) & 15) - 8};
  } else if ((w & 7u) == 3) {
    if (w >= (1u << 21)) return "bad residual word";
    r = {static_cast<std::int32_t>((w >> 3) & 63) - 32, static_cast<std::int32_t>((w >> 9) & 63) - 32,
         static_cast<std::int32_t>((w >> 15) & 63) - 32};
  } else if (w == kEscapeWord) {
    if (at.escaped + 3 > part.escaped_size()) return "escaped residuals missing";
    r.dx = part.escaped(at.escaped++);
    r.dy = part.escaped(at.escaped++);
    r.dh = part.escaped(at.escaped++);
    if (std::abs(static_cast<std::int64_t>(r.dx)) > 2 * std::int64_t{kPositionLimit} ||
        std::abs(static_cast<std::int64_t>(r.dy)) > 2 * std::int64_t{kPositionLimit}) {
      return "escaped residual out of range";
    }
  } else {
    return "bad residual word";
  }
  return nullptr;
}

// A kept entity's next state: its prediction from `b` plus the part's next residual (and height
// change), appended to `out`. `alsoRemoved`: the part removes it too (an error, reported after
// the residual's own, as the checks have always been ordered).
inline const char* decodeKept(const Snapshot& part, const EntityState& b, bool alsoRemoved, bool keptHeights,
                              KeptColumns& at, std::vector<EntityState>& out) {
  if (at.residual >= part.residual_size()) return "fewer residuals than kept entities";
  Residual r;
  if (const char* error = unpackResidual(part.residual(at.residual++), part, at, r)) return error;
  const std::uint32_t ticks = part.tick() - b.tick;
  const std::int64_t x = std::int64_t{predict(b.x, b.vx, ticks)} + r.dx;
  const std::int64_t y = std::int64_t{predict(b.y, b.vy, ticks)} + r.dy;
  if (std::abs(x) > kPositionLimit || std::abs(y) > kPositionLimit) return "position out of range";
  if (alsoRemoved) return "removed entity also updated";
  const std::uint32_t heading =
      static_cast<std::uint32_t>(static_cast<std::int64_t>(predictHeading(b.heading, b.turn, ticks)) + r.dh) &
      255u;
  std::int64_t z = b.z;  // 64 bits: a hostile change near INT32_MAX must not overflow
  if (keptHeights) {
    z += part.height(at.residual - 1);
    if (std::abs(z) > 32767) return "height out of range";
  }
  appendAdvanced(out, b, static_cast<std::int32_t>(x), static_cast<std::int32_t>(y), heading,
                 static_cast<std::int16_t>(z), part.tick());
  return nullptr;
}

// The part's removed ids (delta-coded from id_lo), read one ahead of the baseline walk.
class RemovedIds {
 public:
  explicit RemovedIds(const Snapshot& part) : part_(part), prev_(part.id_lo()) {}

  // Reads the next removed id, if any; false when it lies past the part's id range.
  bool advance() {
    if (index_ < part_.removed_size()) {
      const std::uint64_t id = std::uint64_t{prev_} + part_.removed(index_++);
      if (id > part_.id_hi()) return false;
      next_ = prev_ = static_cast<std::uint32_t>(id);
      pending_ = true;
    } else {
      pending_ = false;
    }
    return true;
  }
  bool pending() const { return pending_; }  // a removed id not yet matched to the baseline
  std::uint32_t next() const { return next_; }

 private:
  const Snapshot& part_;
  int index_ = 0;
  std::uint32_t prev_;
  std::uint32_t next_ = kIdMax;
  bool pending_ = false;
};

// The baseline's entities in the part's id range as the part leaves them: kept ones moved,
// others carried unchanged, removed ones dropped. Appended to `fromBase`, in id order.
const char* decodeFromBaseline(const Snapshot& part, const SnapshotRecord& baseline,
                               std::vector<EntityState>& fromBase) {
  const auto lo = std::lower_bound(baseline.entities.begin(), baseline.entities.end(), part.id_lo(),
                                   [](const EntityState& e, std::uint32_t v) { return e.id < v; });
  const auto hi = std::upper_bound(baseline.entities.begin(), baseline.entities.end(), part.id_hi(),
                                   [](std::uint32_t v, const EntityState& e) { return v < e.id; });
  const std::size_t inRange = static_cast<std::size_t>(hi - lo);
  if (!part.all_kept() && part.kept().size() != (inRange + 7) / 8) return "kept bitmask of the wrong length";
  const bool keptHeights = part.height_size() > 0;
  KeptColumns at;
  RemovedIds removed(part);
  if (!removed.advance()) return "removed id out of range";
  for (std::size_t i = 0; i < inRange; ++i) {
    const EntityState& b = lo[static_cast<std::ptrdiff_t>(i)];
    const bool kept = part.all_kept() || ((static_cast<unsigned char>(part.kept()[i / 8]) >> (i % 8)) & 1u);
    const bool removedNow = removed.pending() && removed.next() == b.id;
    if (kept) {
      if (const char* error = decodeKept(part, b, removedNow, keptHeights, at, fromBase)) return error;
    } else if (removedNow) {
      if (!removed.advance()) return "removed id out of range";
    } else {
      if (removed.pending() && removed.next() < b.id) return "removed id not in the baseline";
      fromBase.push_back(b);
    }
  }
  if (removed.pending()) return "removed id not in the baseline";
  if (at.residual != part.residual_size()) return "more residuals than kept entities";
  if (at.escaped != part.escaped_size()) return "more escaped values than escape words";
  return nullptr;
}

// The part's new entities (delta-coded ids, positions and heights), appended to `fresh` in id
// order; none may be in the baseline already.
const char* decodeNewEntities(const Snapshot& part, const SnapshotRecord* baseline,
                              std::vector<EntityState>& fresh) {
  const std::size_t news = static_cast<std::size_t>(part.new_id_size());
  fresh.reserve(news);
  std::uint64_t prevId = part.id_lo();
  std::int64_t px = 0, py = 0, pz = 0;
  const bool newHeights = part.new_height_size() > 0;
  for (std::size_t k = 0; k < news; ++k) {
    const int i = static_cast<int>(k);
    const std::uint64_t id = prevId + part.new_id(i);
    if (id > part.id_hi() || (k > 0 && part.new_id(i) == 0)) return "new ids out of range or not ascending";
    px += part.new_x(i);
    py += part.new_y(i);
    if (std::abs(px) > kPositionLimit || std::abs(py) > kPositionLimit) return "position out of range";
    if (part.new_heading(i) > 255) return "heading out of range";
    if (newHeights) {
      pz += part.new_height(i);
      if (std::abs(pz) > 32767) return "height out of range";
    }
    if (part.new_archetype(i) > std::numeric_limits<std::uint16_t>::max()) return "archetype out of range";
    EntityState s;
    s.id = static_cast<std::uint32_t>(id);
    s.archetype = static_cast<std::uint16_t>(part.new_archetype(i));
    s.x = static_cast<std::int32_t>(px);
    s.y = static_cast<std::int32_t>(py);
    s.heading = static_cast<std::uint8_t>(part.new_heading(i));
    s.z = static_cast<std::int16_t>(pz);
    s.tick = part.tick();
    if (baseline != nullptr && baseline->find(s.id) != nullptr) return "new entity already in the baseline";
    fresh.push_back(s);
    prevId = id;
  }
  return nullptr;
}

// The part's entities, from the baseline and new, merged in id order after those of the parts
// decoded before it (whose ids must all be lower).
const char* appendInIdOrder(const std::vector<EntityState>& fromBase, const std::vector<EntityState>& fresh,
                            SnapshotRecord& out) {
  std::vector<EntityState> merged;
  merged.reserve(fromBase.size() + fresh.size());
  std::merge(fromBase.begin(), fromBase.end(), fresh.begin(), fresh.end(), std::back_inserter(merged),
             [](const EntityState& a, const EntityState& b) { return a.id < b.id; });
  if (!out.entities.empty() && !merged.empty() && merged.front().id <= out.entities.back().id) {
    return "part overlaps entities already decoded";
  }
  out.entities.insert(out.entities.end(), merged.begin(), merged.end());
  return nullptr;
}

}  // namespace

std::string decodeSnapshotPart(const Snapshot& part, const SnapshotRecord* baseline, SnapshotRecord& out) {
  if (const char* error = partHeaderError(part, baseline)) return error;
  std::vector<EntityState> fromBase;
  if (baseline != nullptr) {
    if (const char* error = decodeFromBaseline(part, *baseline, fromBase)) return error;
  } else if (part.residual_size() > 0 || part.removed_size() > 0 || part.escaped_size() > 0 ||
             !part.kept().empty()) {
    return "updates without a baseline";
  }
  std::vector<EntityState> fresh;
  if (const char* error = decodeNewEntities(part, baseline, fresh)) return error;
  out.tick = part.tick();  // set before the overlap check, as a failed part always has
  if (const char* error = appendInIdOrder(fromBase, fresh, out)) return error;
  return {};
}

}  // namespace steerd::wire
