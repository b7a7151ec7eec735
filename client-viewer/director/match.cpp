#include "director/match.h"

#include <algorithm>
#include <cmath>

#include "proto/control_commands.h"

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
    const float atX =
        std::clamp(x + config_.ring * std::cos(a), bounds_.minX + kInset, bounds_.maxX - kInset);
    const float atY =
        std::clamp(y + config_.ring * std::sin(a), bounds_.minY + kInset, bounds_.maxY - kInset);
    send(control::spawnAt(config_.archetype, atX, atY, {purpose == Purpose::kWave ? "wave" : "opening"}),
         purpose, player);
  }
}

void Match::start(double now) {
  send(control::subscribeTo(), Purpose::kOther);  // every kind, every archetype
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
      const control::Point& at = r.info().position();
      for (const std::uint32_t npc : w->second) {
        // Released on arrival: its own behaviours take over there.
        send(control::moveTo(npc, at.x(), at.y(), kChaseArrival, /*releaseOnArrival=*/true), Purpose::kOther);
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
    for (const std::uint32_t npc : w->second) send(control::despawnAgent(npc), Purpose::kOther);
    waves_.erase(w);
  }
}

void Match::update(double now) {
  if (now < nextChase_) return;
  nextChase_ = now + config_.chaseSeconds;
  for (const auto& [player, wave] : waves_) {
    if (wave.empty()) continue;
    send(control::queryAgent(player), Purpose::kChase, player);
  }
}

}  // namespace steerd::director
