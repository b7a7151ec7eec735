#include "director/match.h"

#include <algorithm>
#include <cmath>

namespace steerd::director {

namespace {

constexpr float kTwoPi = 6.2831853f;
constexpr float kChaseArrival = 3.0f;  // m: near enough to where the player was

}  // namespace

Match::Match(MatchConfig config, WorldBounds bounds, Send send)
    : config_(std::move(config)), bounds_(bounds), send_(std::move(send)) {}

std::size_t Match::waveAgents() const {
  std::size_t n = 0;
  for (const auto& [player, wave] : waves_) n += wave.size();
  return n;
}

void Match::send(control::Command c, Purpose purpose, std::uint32_t player) {
  const std::uint32_t seq = send_(std::move(c));
  if (seq != 0) pending_[seq] = {purpose, player};
}

// `count` NPCs on a circle round (x, y), kept a few metres inside the bounds. A spot inside an
// obstacle comes back as an error result, and that NPC is simply not there.
void Match::spawnRing(float x, float y, int count, Purpose purpose, std::uint32_t player) {
  constexpr float kInset = 3.0f;
  for (int k = 0; k < count; ++k) {
    const float a = kTwoPi * static_cast<float>(k) / static_cast<float>(std::max(count, 1));
    control::Command c;
    control::Spawn* s = c.mutable_spawn();
    s->set_archetype(config_.archetype);
    s->mutable_position()->set_x(
        std::clamp(x + config_.ring * std::cos(a), bounds_.minX + kInset, bounds_.maxX - kInset));
    s->mutable_position()->set_y(
        std::clamp(y + config_.ring * std::sin(a), bounds_.minY + kInset, bounds_.maxY - kInset));
    s->add_tags(purpose == Purpose::kWave ? "wave" : "opening");
    send(std::move(c), purpose, player);
  }
}

void Match::start(double now) {
  control::Command sub;
  sub.mutable_subscribe();  // every kind, every archetype
  send(std::move(sub), Purpose::kOther);
  spawnRing((bounds_.minX + bounds_.maxX) * 0.5f, (bounds_.minY + bounds_.maxY) * 0.5f, config_.opening,
            Purpose::kOpening, 0);
  nextChase_ = now + config_.chaseSeconds;
}

void Match::onMessage(const wire::ControlMessage& m) {
  if (m.has_result()) {
    onResult(m.result());
  } else if (m.has_event()) {
    onEvent(m.event());
  }
}

void Match::onResult(const control::CommandResult& r) {
  const auto it = pending_.find(r.sequence());
  if (it == pending_.end()) return;
  const Pending p = it->second;
  pending_.erase(it);
  if (r.status() != control::STATUS_OK) {
    ++errors_;
    return;
  }
  switch (p.purpose) {
    case Purpose::kOpening:
      opening_.push_back(r.agent());
      break;
    case Purpose::kWave:
      if (const auto w = waves_.find(p.player); w != waves_.end()) w->second.push_back(r.agent());
      break;
    case Purpose::kChase: {
      // The player's position now is its wave's next destination.
      const auto w = waves_.find(p.player);
      if (w == waves_.end() || !r.has_info()) break;
      for (const std::uint32_t npc : w->second) {
        control::Command c;
        control::MoveTo* m = c.mutable_move_to();
        m->set_agent(npc);
        *m->mutable_position() = r.info().position();
        m->set_radius(kChaseArrival);
        m->set_release_on_arrival(true);  // its own behaviours take over there
        send(std::move(c), Purpose::kOther);
      }
      break;
    }
    case Purpose::kOther:
      break;
  }
}

void Match::onEvent(const control::Event& e) {
  if (e.archetype() != "player") return;
  if (e.kind() == control::EVENT_SPAWNED && waves_.count(e.agent()) == 0) {
    waves_[e.agent()];
    spawnRing(e.position().x(), e.position().y(), config_.wave, Purpose::kWave, e.agent());
  } else if (e.kind() == control::EVENT_DESPAWNED) {
    const auto w = waves_.find(e.agent());
    if (w == waves_.end()) return;
    for (const std::uint32_t npc : w->second) {
      control::Command c;
      c.mutable_despawn()->set_agent(npc);
      send(std::move(c), Purpose::kOther);
    }
    waves_.erase(w);
  }
}

void Match::update(double now) {
  if (now < nextChase_) return;
  nextChase_ = now + config_.chaseSeconds;
  for (const auto& [player, wave] : waves_) {
    if (wave.empty()) continue;
    control::Command c;
    c.mutable_query()->set_agent(player);
    send(std::move(c), Purpose::kChase, player);
  }
}

}  // namespace steerd::director
