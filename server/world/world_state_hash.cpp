// The world's state hash and digest (World::stateHash, stateDigest, visitState): every field that
// carries into the next tick, as exact bits, in index order. Kept apart from the tick so what the
// hash covers is read in one place.
#include <algorithm>
#include <cstring>

#include <xxhash.h>

#include "world/world.h"

namespace steerd {

namespace {

// XXH3 fed in large chunks: a stream's hash does not depend on how it is cut, and one update per
// few hundred bytes costs far less than one per field.
class BufferedXxh3 {
 public:
  BufferedXxh3() : state_(XXH3_createState()) { XXH3_64bits_reset(state_); }
  ~BufferedXxh3() { XXH3_freeState(state_); }
  BufferedXxh3(const BufferedXxh3&) = delete;
  BufferedXxh3& operator=(const BufferedXxh3&) = delete;
  void add(const void* bytes, std::size_t size) {
    if (used_ + size > sizeof buffer_) flush();
    if (size > sizeof buffer_) {
      XXH3_64bits_update(state_, bytes, size);
      return;
    }
    std::memcpy(buffer_ + used_, bytes, size);
    used_ += size;
  }
  std::uint64_t digest() {
    flush();
    return XXH3_64bits_digest(state_);
  }

 private:
  void flush() {
    if (used_ > 0) XXH3_64bits_update(state_, buffer_, used_);
    used_ = 0;
  }
  XXH3_state_t* state_;
  unsigned char buffer_[1024];
  std::size_t used_ = 0;
};

// A piece's own hash for the digest's sums: a multiply-xorshift over its 8-byte words, seeded with
// where the piece belongs. Not for the whole state (XXH3 is), only to say which part or block.
std::uint64_t pieceHash(const void* bytes, std::size_t size, std::uint64_t seed) {
  std::uint64_t h = (seed + 1) * 0x9e3779b97f4a7c15ull;
  const auto* p = static_cast<const unsigned char*>(bytes);
  for (std::size_t i = 0; i < size; i += 8) {
    std::uint64_t w = 0;
    std::memcpy(&w, p + i, std::min<std::size_t>(8, size - i));
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 29);
}

}  // namespace

void World::visitState(const StateSink& sink) const { visitStateWith(sink); }

template <class Sink>
void World::visitStateWith(Sink&& sink) const {
  static_assert(sizeof(HeadingHistory) == kMaxHeadingSamples * sizeof(steer::Vec2) + 2 * sizeof(std::size_t),
                "a heading history is hashed as bytes: it must have no padding");
  // Exact bits of every field that carries into the next tick, in index order (a fresh world's id
  // order): a stronger promise than a quantised hash, and what "bit-identical for any thread
  // count" means.
  sink(kWorldIndex, StatePart::kTick, &tick_, sizeof tick_);
  const AgentColumns& a = current_;
  for (std::uint32_t index = 0; index < slotOfId_.size(); ++index) {
    const std::uint32_t s = slotOfId_[index];
    if (s == kNoSlot) continue;
    const AgentId id = a.id[s];
    // Orders are ascending by holder id.
    const std::vector<HeldOrder>& orders = actions_.fetchOrders();
    const auto order = std::lower_bound(orders.begin(), orders.end(), id,
                                        [](const HeldOrder& h, AgentId holder) { return h.holder < holder; });
    if (order != orders.end() && order->holder == id) {
      // The fetch order it holds (none: nothing hashed, as before orders existed).
      const std::uint32_t o[5] = {order->stray, order->group, order->giver, order->entry, order->giveUpTicks};
      sink(index, StatePart::kFetchOrder, o, sizeof o);
      sink(index, StatePart::kFetchOrder, &order->doneWithin, sizeof order->doneWithin);
      sink(index, StatePart::kFetchOrder, &order->givenTick, sizeof order->givenTick);
    }
    const float f[8] = {
        a.px[s], a.py[s], a.vx[s], a.vy[s], a.hx[s], a.hy[s], a.memory(s).wanderX, a.memory(s).wanderY};
    const std::int32_t i[4] = {a.memory(s).pathIndex, a.memory(s).targetId,
                               static_cast<std::int32_t>(a.archetype[s]), a.memory(s).brainState};
    sink(index, StatePart::kPosition, &f[0], 2 * sizeof(float));
    sink(index, StatePart::kVelocity, &f[2], 2 * sizeof(float));
    sink(index, StatePart::kHeading, &f[4], 2 * sizeof(float));
    // Its rotation, for an archetype that faces by itself or moves kinematically (no other has
    // one: nothing hashed).
    if (archetypes_[a.archetype[s]].faces || archetypes_[a.archetype[s]].kinematic)
      sink(index, StatePart::kHeading, &a.memory(s).rotation, sizeof a.memory(s).rotation);
    // Its last headings, for an archetype that smooths by K-average (hashed as bytes: the ring's
    // unused entries stay zero, and the static_assert at the top rules out padding).
    if (archetypes_[a.archetype[s]].headingSamples > 0 && index < headingHistory_.size())
      sink(index, StatePart::kHeading, &headingHistory_[index], sizeof(HeadingHistory));
    sink(index, StatePart::kWander, &f[6], 2 * sizeof(float));
    sink(index, StatePart::kPath, &i[0], sizeof i[0]);
    sink(index, StatePart::kTarget, &i[1], sizeof i[1]);
    sink(index, StatePart::kArchetype, &i[2], sizeof i[2]);
    sink(index, StatePart::kBrainState, &i[3], sizeof i[3]);
    if (archetypes_[a.archetype[s]].brain) {
      // What a brain carries to its next think: stats, sightings, when its state began.
      const BrainMemory& m = actions_.brainMemory(index);
      sink(index, StatePart::kBrainMemory, &m.enteredTick, sizeof m.enteredTick);
      sink(index, StatePart::kBrainMemory, &m.lastThinkTick, sizeof m.lastThinkTick);
      sink(index, StatePart::kBrainMemory, m.stats.data(), sizeof m.stats);
      sink(index, StatePart::kBrainMemory, m.lastSeen.data(), sizeof m.lastSeen);
    }
    if (const Directive& d = actions_.directive(index); d.kind != DirectiveKind::kNone) {
      // A control API goal (none: nothing hashed, as before goals existed).
      const float g[5] = {d.point.x, d.point.y, d.offset.x, d.offset.y, d.radius};
      const std::uint32_t k[4] = {
          static_cast<std::uint32_t>(d.kind), d.target, static_cast<std::uint32_t>(d.path),
          static_cast<std::uint32_t>(d.releaseOnArrival) | static_cast<std::uint32_t>(d.arrived) << 1};
      sink(index, StatePart::kGoal, g, sizeof g);
      sink(index, StatePart::kGoal, k, sizeof k);
    }
    if (const AgentMarks* marks = actions_.marksRecord(index); marks && (marks->tags | marks->signals) != 0)
      sink(index, StatePart::kMarks, marks, sizeof *marks);
    if (navigation_ && index < navigation_->agentCount()) {
      // Where it is going and how far along its corridor.
      const NavAgent& n = navigation_->agent(index);
      const float g[2] = {n.goal.x, n.goal.y};
      const std::uint32_t k[4] = {
          n.corner, static_cast<std::uint32_t>(n.corners.size()), n.goalsReached ^ (n.goalDraws << 16),
          static_cast<std::uint32_t>(n.waiting) | static_cast<std::uint32_t>(n.hasGoal) << 1};
      sink(index, StatePart::kNavigation, g, sizeof g);
      sink(index, StatePart::kNavigation, k, sizeof k);
    }
  }
  for (const PassedOver& p : actions_.passedOver()) {  // who may not be sent after whom, until when
    const std::uint32_t ids[2] = {p.holder, p.stray};
    sink(kWorldIndex, StatePart::kPassedOver, ids, sizeof ids);
    sink(kWorldIndex, StatePart::kPassedOver, &p.untilTick, sizeof p.untilTick);
  }
  // Doors and obstacles changed at run time (none in a world without them: its hash is as before).
  for (const Door& d : changes_.doors) {
    const std::uint8_t open = d.open ? 1 : 0;
    sink(kWorldIndex, StatePart::kWorldChanges, &open, sizeof open);
  }
  for (const LiveObstacle& o : changes_.obstacles) {
    const float f[5] = {o.shape.center.x, o.shape.center.y, o.shape.angleDeg, o.along, o.speed};
    sink(kWorldIndex, StatePart::kWorldChanges, &o.id, sizeof o.id);
    sink(kWorldIndex, StatePart::kWorldChanges, f, sizeof f);
    const std::uint8_t carve = o.carve ? 1 : 0;
    sink(kWorldIndex, StatePart::kWorldChanges, &carve, sizeof carve);
  }
  if (!changes_.schedule.empty())
    sink(kWorldIndex, StatePart::kWorldChanges, &changes_.scheduleNext, sizeof changes_.scheduleNext);
}

std::uint64_t World::stateHash() const {
  // One stream over every piece: the same bytes in the same order, however they are cut.
  BufferedXxh3 stream;
  visitStateWith(
      [&stream](std::uint32_t, StatePart, const void* bytes, std::size_t size) { stream.add(bytes, size); });
  return stream.digest();
}

StateDigest World::stateDigest(std::size_t blocks) const {
  StateDigest d;
  d.indexCount = static_cast<std::uint32_t>(slotOfId_.size());
  d.blocks.assign(blocks, 0);
  std::vector<std::uint64_t> perIndex(externalCount_ > 0 ? d.indexCount : 0, 0);
  BufferedXxh3 stream;
  visitStateWith([&](std::uint32_t index, StatePart part, const void* bytes, std::size_t size) {
    stream.add(bytes, size);
    // Each piece hashed on its own, seeded with where it belongs, and summed: a part's or a
    // block's sum changes when any of its pieces does.
    const auto p = static_cast<std::size_t>(part);
    const std::uint64_t h = pieceHash(bytes, size, (static_cast<std::uint64_t>(index) << 8) | p);
    d.parts[p] += h;
    if (index == kWorldIndex) return;
    if (blocks > 0) d.blocks[StateDigest::blockOf(index, blocks, d.indexCount)] += h;
    if (!perIndex.empty()) perIndex[index] += h;
  });
  d.whole = stream.digest();
  for (std::uint32_t index = 0; index < perIndex.size(); ++index) {
    const std::uint32_t s = slotOfId_[index];
    if (s != kNoSlot && (current_.memory(s).flags & kAgentExternal) != 0)
      d.external.emplace_back(current_.id[s], perIndex[index]);
  }
  return d;
}

}  // namespace steerd
