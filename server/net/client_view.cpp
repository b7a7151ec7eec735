#include "net/client_view.h"

#include <algorithm>
#include <cmath>

#include "proto/packet.h"

namespace steerd::net {

wire::EntityState entityStateOf(const World& world, std::uint32_t slot) {
  const AgentColumns& a = world.agents();
  wire::EntityState s;
  s.id = a.id[slot];
  s.archetype = a.archetype[slot];
  s.x = wire::quantizePosition(a.px[slot]);
  s.y = wire::quantizePosition(a.py[slot]);
  s.heading = wire::quantizeHeading(a.hx[slot], a.hy[slot]);
  return s;
}

void wireStatesOf(const World& world, std::vector<wire::EntityState>& out) {
  const std::size_t n = world.agents().size();
  out.resize(n);
  for (std::uint32_t s = 0; s < n; ++s) out[s] = entityStateOf(world, s);
  std::sort(out.begin(), out.end(),
            [](const wire::EntityState& x, const wire::EntityState& y) { return x.id < y.id; });
}

void ClientView::acknowledge(std::uint32_t tick) {
  if (tick <= acked_) return;
  for (const auto& r : sent_) {
    if (r.tick == tick) {
      acked_ = tick;
      return;
    }
  }
}

const wire::SnapshotRecord* ClientView::baseline() const {
  for (const auto& r : sent_) {
    if (r.tick == acked_) return &r;
  }
  return nullptr;
}

std::vector<wire::Snapshot> ClientView::build(const World& world, std::span<const wire::EntityState> states,
                                              std::uint32_t tick, const InterestConfig& interest,
                                              SnapshotStats& stats) {
  const AgentColumns& a = world.agents();
  const wire::SnapshotRecord* base = baseline();

  // Area of interest: everything within the radius of the player (or the whole world).
  // `states` is in id order, so the candidates are too.
  candidates_.clear();
  const bool hasPlayer = world.isAlive(player_);
  const float cx = hasPlayer ? a.px[world.slotOf(player_)] : 0.0f;
  const float cy = hasPlayer ? a.py[world.slotOf(player_)] : 0.0f;
  if (interest.radius > 0 && hasPlayer) {
    const float r2 = interest.radius * interest.radius;
    for (const wire::EntityState& e : states) {
      const float dx = wire::positionMetres(e.x) - cx, dy = wire::positionMetres(e.y) - cy;
      if (dx * dx + dy * dy <= r2) candidates_.push_back(e);
    }
  } else {
    candidates_.assign(states.begin(), states.end());
  }
  // Which candidates the baseline holds: one walk over both (each sorted by id).
  inBaseline_.assign(candidates_.size(), 0);
  if (base != nullptr) {
    std::size_t j = 0;
    for (std::size_t i = 0; i < candidates_.size(); ++i) {
      while (j < base->entities.size() && base->entities[j].id < candidates_[i].id) ++j;
      inBaseline_[i] = j < base->entities.size() && base->entities[j].id == candidates_[i].id;
    }
  }

  // Budget: about two bytes for an entity the baseline holds, ten for a new one, plus the fixed
  // part (headers, and a bit per baseline entity for "updated or carried"). The estimate is
  // corrected by how far off it was on the last snapshots (`costScale_`), so what is sent stays
  // near the budget whatever the residuals cost.
  auto cost = [&](std::size_t i) -> std::size_t { return inBaseline_[i] ? 2 : 10; };
  const std::size_t fixed = 64 + (base != nullptr ? base->entities.size() / 8 : 0);
  const auto budget = static_cast<std::size_t>(static_cast<double>(interest.budgetBytes) / costScale_);
  std::size_t total = fixed;
  for (std::size_t i = 0; i < candidates_.size(); ++i) total += cost(i);
  updated_.clear();
  std::size_t used = total;
  if (total <= budget) {
    updated_ = candidates_;
    stats.entitiesWaiting = 0;
  } else {
    // Priority accumulator: every candidate gains priority each snapshot it waits, nearer ones
    // faster; the highest go first and start again from zero. The player's own body always goes.
    // By agent index: as long as the most agents alive at once (a departed agent's index comes
    // back to a newcomer, who starts from the priority it left).
    if (priority_.size() < world.indexCapacity()) priority_.resize(world.indexCapacity(), 0.0f);
    order_.clear();
    for (std::uint32_t i = 0; i < candidates_.size(); ++i) {
      const auto& e = candidates_[i];
      const float dx = wire::positionMetres(e.x) - cx, dy = wire::positionMetres(e.y) - cy;
      const float d = std::sqrt(dx * dx + dy * dy);
      priority_[agentIndex(e.id)] += e.id == player_ ? 1e9f : 1.0f + 10.0f / (1.0f + d / 10.0f);
      order_.push_back(i);
    }
    // Every entity costs at least two bytes, so no more than budget / 2 can go: find those first
    // (linear), and sort only them.
    const auto higher = [&](std::uint32_t x, std::uint32_t y) {
      const float px = priority_[agentIndex(candidates_[x].id)],
                  py = priority_[agentIndex(candidates_[y].id)];
      return px != py ? px > py : candidates_[x].id < candidates_[y].id;
    };
    const std::size_t most = std::min(order_.size(), budget / 2);
    std::nth_element(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(most), order_.end(),
                     higher);
    order_.resize(most);
    std::sort(order_.begin(), order_.end(), higher);
    used = fixed;
    for (std::uint32_t i : order_) {
      const std::size_t c = cost(i);
      if (used + c > budget) continue;
      used += c;
      updated_.push_back(candidates_[i]);
      priority_[agentIndex(candidates_[i].id)] = 0.0f;
    }
    stats.entitiesWaiting = candidates_.size() - updated_.size();
    std::sort(updated_.begin(), updated_.end(),
              [](const wire::EntityState& x, const wire::EntityState& y) { return x.id < y.id; });
  }

  // The baseline's entities that left the area of interest (or the world).
  removed_.clear();
  if (base != nullptr) {
    std::size_t j = 0;
    for (const auto& b : base->entities) {
      while (j < candidates_.size() && candidates_[j].id < b.id) ++j;
      if (j >= candidates_.size() || candidates_[j].id != b.id) removed_.push_back(b.id);
    }
  }

  wire::SnapshotRecord record;
  const wire::SnapshotContent content{tick, updated_, removed_};
  // Packet wrapper: one tag byte and a two-byte length.
  std::vector<wire::Snapshot> parts =
      wire::encodeSnapshot(content, base, wire::kMaxBodyBytes - 3 - interest.partReserve, record);
  std::size_t actual = 0;
  for (const auto& part : parts) actual += wire::kHeaderBytes + wire::partBodyBytes(part);
  const double ratio = static_cast<double>(actual) / static_cast<double>(std::max<std::size_t>(used, 1));
  costScale_ = std::clamp(0.8 * costScale_ + 0.2 * ratio, 0.25, 8.0);
  stats.entitiesSent = updated_.size();
  sent_.push_back(std::move(record));
  while (sent_.size() > kHistory) sent_.pop_front();
  if (acked_ != 0 && baseline() == nullptr) acked_ = 0;  // fell out of the history: next one is whole
  return parts;
}

}  // namespace steerd::net
