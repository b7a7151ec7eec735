#include "net/game_session.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

#include "movement/wire_collision.h"
#include "net/wire_scene.h"
#include "world/scenarios.h"

namespace steerd::net {

namespace {

// The waypoint a scenario names where new players appear (docs/SCENARIOS.md).
constexpr const char* kPlayerStartWaypoint = "player_start";

}  // namespace

GameSession::GameSession(World& world, SessionTransport& endpoint, ServerMetrics& metrics,
                         const SessionConfig& config)
    : world_(world),
      endpoint_(endpoint),
      metrics_(metrics),
      config_(config),
      controller_(world, config.controller) {
  const std::int32_t p = world.archetypeIndex(kPlayerArchetypeName);
  playerArchetype_ = static_cast<ArchetypeIndex>(std::max(p, 0));
  limits_.bounds = world.geometry().bounds;
  limits_.maxSpeed = world.archetypes()[playerArchetype_].limits.maxSpeed;
  // The static scene is encoded once and answered by the network thread; what changes on top of
  // it (doors, live obstacles) goes as SceneChanges (followScene).
  const wire::EncodedScene scene = wire::encodeScene(wireSceneOf(world), wire::kMaxScenePartBytes);
  if (scene.polygonsLeftOut > 0) {
    spdlog::error("{} navmesh polygon(s) too big for a datagram: clients will not draw them",
                  scene.polygonsLeftOut);
  }
  spdlog::debug("static scene: {} part(s) for clients", scene.parts.size());
  endpoint_.setScene(scene.parts);
  // Players collide with the scene as clients decode it (1/64 m), not the file's exact values:
  // a client predicting its player with the same model then gets the same floats.
  for (const wire::Scene& part : scene.parts) {
    if (const std::string error = wire::decodeScenePart(part, staticScene_); !error.empty())
      spdlog::error("static scene part {} does not decode: {}", part.part(), error);
  }
  sceneLog_.doorOpen = doorStatesOf(world);
  const Bounds& b = world.geometry().bounds;
  collision_ = movement::collisionSceneOf(wire::currentScene(staticScene_, {sceneLog_.doorOpen, {}}), b.minX,
                                          b.minY, b.maxX, b.maxY);
  followScene();
  if (config.snapshotThreads > 0) stage_ = std::make_unique<SnapshotStage>(config.snapshotThreads);
}

GameSession::~GameSession() { waitForSnapshots(); }

void GameSession::waitForSnapshots() {
  if (stage_ != nullptr) stage_->wait();
}

void GameSession::beforeTick() {
  endpoint_.takeEvents(events_);
  if (!held_.empty()) {  // what serveHeld kept back comes first: it arrived first
    for (NetEvent& e : events_) held_.push_back(std::move(e));
    events_.swap(held_);
    held_.clear();
  }
  // Position mode: this tick's time is there to spend before its inputs (intent mode adds it as
  // it applies the inputs, after the tick's joins).
  if (config_.playerInput == PlayerInputMode::kPosition) accrueBanks();
  for (NetEvent& e : events_) {
    switch (e.kind) {
      case NetEvent::Kind::kJoin:
        join(e);
        break;
      case NetEvent::Kind::kLeave:
        leave(e.clientId);
        break;
      case NetEvent::Kind::kInput:
        input(e.clientId, e.input);
        break;
      case NetEvent::Kind::kDebugSelect:
        debugSelect(e.clientId, e.debug);
        break;
      case NetEvent::Kind::kReplayControl:
        break;  // a served replay's transport takes these before the session sees them
      case NetEvent::Kind::kControl:
        onControl(e.clientId, e.control);
        break;
    }
  }
  if (config_.playerInput == PlayerInputMode::kIntent) applyIntents();
  // Commands held back for want of room for their results go in now that acks made room, in join
  // order; then every command taken this tick is applied, in the order taken.
  for (const auto& [id, player] : order_) {
    if (player->link) takeCommands(id, *player);
  }
  // As far as the control budget goes: the rest wait for later ticks (docs/CONTROL.md, "Budget").
  controller_.applyPending();
  metrics_.commandsDeferred.fetch_add(controller_.lastBoundary().deferred, std::memory_order_relaxed);
  metrics_.commandsQueueFull.fetch_add(controller_.lastBoundary().refused, std::memory_order_relaxed);
}

void GameSession::setSnapshotEpoch(std::uint32_t epoch) {
  waitForSnapshots();
  epoch_ = epoch;
  for (auto& [id, p] : clients_) {
    p.pendingAck = 0;
    p.view->forgetBaselines();
  }
}

void GameSession::onControl(std::uint32_t clientId, const wire::Control& packet) {
  auto it = clients_.find(clientId);
  if (it == clients_.end() || !it->second.link) return;  // left in the same batch
  it->second.link->receive(packet, now());
  takeCommands(clientId, it->second);
}

// In arrival order: each Control packet's commands are queued as it is handled.
void GameSession::takeCommands(std::uint32_t, Player& p) {
  control::Command c;
  while (p.link->nextCommand(c)) controller_.submit(p.subscriber, std::move(c));
}

void GameSession::flushControl() {
  const double t = now();
  for (const auto& [id, player] : order_) {
    if (player->link) player->link->flush(t, out_, metrics_);
  }
  if (!out_.empty()) endpoint_.send(out_);
}

void GameSession::join(const NetEvent& e) {
  const std::uint32_t clientId = e.clientId;
  if (clients_.count(clientId) != 0) {
    // The network never sends one; a replayed file might: a second body and a freed control link
    // under a live subscriber would follow.
    spdlog::warn("client {} joined twice: the second join is ignored", clientId);
    return;
  }
  // A new player appears at the free spot (not in a rock or a building) nearest the scenario's
  // waypoint `player_start`, or the middle of the world without one, until its first input says
  // where it is. (The middle of the doorway scenario is its door.) A client without a body (a
  // game's logic, an observer) gets none.
  const Bounds& b = limits_.bounds;
  steer::Vec2 start{(b.minX + b.maxX) * 0.5f, (b.minY + b.maxY) * 0.5f};
  for (const NamedPoint& w : world_.geometry().waypoints) {
    if (w.name == kPlayerStartWaypoint) {
      start = w.position;
      break;
    }
  }
  const float radius = world_.archetypes()[playerArchetype_].limits.radius;
  AgentId body = kNoBody;
  if (!e.noBody) {
    body = world_.spawnExternal(playerArchetype_, freeSpotNear(world_.geometry(), start, radius + 0.5f));
    controller_.noteSpawned(body);
  }
  Player& player = clients_
                       .emplace(clientId, Player{body, std::make_unique<ClientView>(clientId, body),
                                                 DebugWatch(config_.tickRate)})
                       .first->second;
  // The golden ratio's fraction spreads the phases evenly whatever the ids.
  const double phase = static_cast<double>(clientId) * 0.6180339887498949;
  player.sendCredit = phase - std::floor(phase);
  order_.push_back({clientId, &player});
  if (e.controlRole) {
    player.link = std::make_unique<ControlLink>(clientId, config_.controlLimits);
    ControlLink* link = player.link.get();
    player.subscriber = controller_.addSubscriber(
        {.onEvent = [this, link](const control::Event& ev) { link->event(ev, metrics_); },
         .onResult = [this, link](const control::CommandResult& r) { link->result(r, metrics_); }});
  }

  wire::Packet p;
  auto* a = p.mutable_accept();
  a->set_client_id(clientId);
  a->set_player_entity(body);
  a->set_tick_rate(static_cast<float>(config_.tickRate));
  a->set_send_rate(static_cast<float>(config_.sendRate));
  a->set_min_x(b.minX);
  a->set_min_y(b.minY);
  a->set_max_x(b.maxX);
  a->set_max_y(b.maxY);
  a->set_server_tick(static_cast<std::uint32_t>(world_.tick()));
  a->set_player_max_speed(limits_.maxSpeed);
  a->set_interest_radius(config_.interestRadius);
  a->set_debug_allowed(endpoint_.debugAllowed());
  a->set_control_allowed(e.controlRole);
  a->set_public_key(e.publicKey);
  if (!e.acceptProof.empty()) a->set_key_proof(e.acceptProof);
  const steer::BodyLimits& pl = world_.archetypes()[playerArchetype_].limits;
  wire::PlayerLimits* limits = a->mutable_player_limits();
  limits->set_radius(pl.radius);
  limits->set_mass(pl.mass);
  limits->set_max_speed(pl.maxSpeed);
  limits->set_max_force(pl.maxForce);
  limits->set_max_turn_rate(pl.maxTurnRate);
  a->set_player_intents(config_.playerInput == PlayerInputMode::kIntent);
  for (const auto& arch : world_.archetypes()) a->add_archetypes(arch.name);
  OutDatagram d{clientId, {}};
  if (wire::encodeDatagram({wire::Packet::kAccept, 0, 0, 0}, p, d.bytes)) {
    out_.push_back(std::move(d));
  } else {
    spdlog::error("Accept for client {} does not fit a datagram ({} archetypes)", clientId,
                  world_.archetypes().size());
  }
  endpoint_.send(out_);
}

void GameSession::leave(std::uint32_t clientId) {
  auto it = clients_.find(clientId);
  if (it == clients_.end()) return;
  const AgentId body = it->second.body;
  if (body != kNoBody && world_.isAlive(body)) {
    world_.despawn(body);
    controller_.noteDespawned(body, kPlayerArchetypeName);
  }
  // Commands it sent that were taken are still applied this tick; their results go nowhere.
  if (it->second.subscriber != 0) controller_.removeSubscriber(it->second.subscriber);
  if (roundInFlight()) retired_.push_back(std::move(it->second.view));  // the round still writes it
  clients_.erase(it);
  std::erase_if(order_, [&](const Joined& j) { return j.id == clientId; });
}

void GameSession::input(std::uint32_t clientId, const wire::Input& in) {
  auto it = clients_.find(clientId);
  if (it == clients_.end()) return;  // left in the same batch
  Player& p = it->second;
  if (in.ack_snapshot() != 0 && in.ack_epoch() == epoch_) acknowledge(p, in.ack_snapshot());
  // Inputs arrive newest first, with a few earlier ones repeated: apply the newest unseen one.
  if (in.inputs_size() == 0) return;
  if (p.body == kNoBody) {
    metrics_.drop(wire::DropReason::kBadInput);  // no body to move
    return;
  }
  const wire::PlayerInput& newest = in.inputs(0);
  for (const auto& i : in.inputs()) {
    if (i.sequence() > newest.sequence()) {
      metrics_.drop(wire::DropReason::kBadInput);  // not newest first: malformed
      return;
    }
  }
  if (config_.playerInput == PlayerInputMode::kIntent) {
    intentInput(p, in);
  } else {
    positionInput(p, in);
  }
}

// Every input the client has not had applied goes in the queue (each once, whichever datagram
// brought it); applyIntents steps the body with them in sequence order.
void GameSession::intentInput(Player& p, const wire::Input& in) {
  for (const auto& i : in.inputs()) {
    const bool finite = std::isfinite(i.move_x()) && std::isfinite(i.move_y()) && std::isfinite(i.dt());
    if (!finite || !(i.dt() > 0.0f) || i.dt() > kMaxIntentDt) {
      metrics_.drop(wire::DropReason::kBadInput);  // the whole Input: a client that sends this is broken
      return;
    }
  }
  bool anyNew = false;
  for (const auto& i : in.inputs()) {
    if (p.anyInput && i.sequence() <= p.lastSequence) continue;  // applied already
    if (p.pending.count(i.sequence())) continue;                 // queued already
    if (p.pending.size() >= kMaxPendingIntents) {
      // More inputs than time lets it spend (a speed hack, or a flood): not queued.
      metrics_.drop(wire::DropReason::kRateLimited);
      return;
    }
    p.pending.emplace(i.sequence(), i);
    anyNew = true;
  }
  if (!anyNew) metrics_.drop(wire::DropReason::kStaleInput);
}

// Time passes for every client alike; what it does not spend now it may spend a little later
// (inputs come in bursts), never more than kMaxBankSeconds ahead. However many inputs a client
// sends, its body goes no farther than max speed allows over the time that passed, plus that.
void GameSession::accrueBanks() {
  const double tickSeconds = 1.0 / config_.tickRate;
  for (const auto& [id, player] : order_) {
    player->bank = std::min(player->bank + tickSeconds, tickSeconds + kMaxBankSeconds);
  }
}

void GameSession::applyIntents() {
  accrueBanks();
  const steer::BodyLimits& limits = world_.archetypes()[playerArchetype_].limits;
  for (const auto& [id, player] : order_) {
    Player& p = *player;
    const AgentId body = p.body;
    if (body == kNoBody || !world_.isAlive(body)) continue;
    while (!p.pending.empty()) {
      const auto next = p.pending.begin();
      if (p.anyInput && next->first != p.lastSequence + 1) {
        // One is missing (lost on the way): wait a little for the resend in a later Input.
        if (p.gapSinceTick == 0) p.gapSinceTick = world_.tick() + 1;
        if (world_.tick() + 1 - p.gapSinceTick < kIntentGapWaitTicks) break;
        // A gap counts what could have been lost, at most a queue's worth: a sequence jumped by
        // a billion is a client's claim, not a billion lost inputs.
        const std::uint64_t gap = next->first - p.lastSequence - 1;
        metrics_.inputsSkipped.fetch_add(std::min<std::uint64_t>(gap, kMaxPendingIntents),
                                         std::memory_order_relaxed);
      }
      const double dt = next->second.dt();
      if (dt > p.bank + 1e-4) break;  // ahead of real time (past float rounding): it waits
      const std::uint32_t slot = world_.slotOf(body);
      const AgentColumns& a = world_.agents();
      const movement::PlayerState moved = movement::stepPlayer(
          {{a.px[slot], a.py[slot]}, {a.vx[slot], a.vy[slot]}},
          {{next->second.move_x(), next->second.move_y()}, next->second.dt()}, limits, collision_);
      world_.setExternalState(body, moved.position, moved.velocity);
      p.bank -= dt;
      p.anyInput = true;
      p.lastSequence = next->first;
      p.lastInputTick = world_.tick();
      p.gapSinceTick = 0;
      p.pending.erase(next);
      metrics_.inputsApplied.fetch_add(1, std::memory_order_relaxed);
    }
  }
}

// The newest input says where the player is; the server checks it can be there: in bounds, within
// reach of where it was (the bank: max speed over the time that passed, however many inputs say
// so), and with the scene as intent mode has it (movement::moveBlocked).
void GameSession::positionInput(Player& p, const wire::Input& in) {
  const wire::PlayerInput& newest = in.inputs(0);
  if (p.anyInput && newest.sequence() <= p.lastSequence) {
    // Overtaken by a later Input on the way (or sent twice): nothing new in it. Not a replay,
    // which the seal refuses before this (a reordering link makes many of these).
    metrics_.drop(wire::DropReason::kStaleInput);
    return;
  }
  const AgentId body = p.body;
  const AgentColumns& a = world_.agents();
  const std::uint32_t slot = world_.slotOf(body);
  const steer::Vec2 last{a.px[slot], a.py[slot]};
  // First input: a teleport to any free spot in bounds (the client chose where to start).
  const float reach =
      p.anyInput ? static_cast<float>(p.bank) * limits_.maxSpeed : std::numeric_limits<float>::infinity();
  const ValidatedInput v = validateInput(newest, last, reach, limits_);
  if (v.verdict == InputVerdict::kRejected) {
    metrics_.drop(wire::DropReason::kBadInput);
    return;
  }
  if (v.overReach) metrics_.inputsOverReach.fetch_add(1, std::memory_order_relaxed);
  // Through a wall or a rock, or into one: refused, the body stays where it was (clamping it to
  // the scene's edge would need a second model of the scene; the next input tries again from here).
  const float radius = world_.archetypes()[playerArchetype_].limits.radius;
  if (movement::moveBlocked(p.anyInput ? last : v.position, v.position, radius, collision_)) {
    metrics_.inputsBlocked.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  if (v.verdict == InputVerdict::kClamped) metrics_.inputsClamped.fetch_add(1, std::memory_order_relaxed);
  metrics_.inputsApplied.fetch_add(1, std::memory_order_relaxed);
  world_.setExternalState(body, v.position, v.velocity);
  // A move spends its length at max speed; the first one (a teleport) leaves a full bank.
  const double full = 1.0 / config_.tickRate + kMaxBankSeconds;
  const double spent = limits_.maxSpeed > 0.0f ? steer::distance(last, v.position) / limits_.maxSpeed : 0.0;
  p.bank = p.anyInput ? std::max(p.bank - spent, 0.0) : full;
  p.anyInput = true;
  p.lastSequence = newest.sequence();
  p.lastInputTick = world_.tick();
}

namespace {

// DebugSelect.states_area: a finite centre and a positive radius (clamped to 10 km), else none.
std::optional<DebugWatch::Area> statesAreaOf(const wire::DebugSelect& select) {
  if (!select.has_states_area()) return std::nullopt;
  const wire::DebugArea& a = select.states_area();
  if (!std::isfinite(a.x()) || !std::isfinite(a.y()) || !std::isfinite(a.radius()) || a.radius() <= 0) {
    return std::nullopt;
  }
  return DebugWatch::Area{a.x(), a.y(), std::min(a.radius(), 10000.0f)};
}

}  // namespace

void GameSession::debugSelect(std::uint32_t clientId, const wire::DebugSelect& select) {
  auto it = clients_.find(clientId);
  if (it == clients_.end()) return;
  if (select.stop()) {
    it->second.debug.stop();
  } else {
    it->second.debug.select(select.agent_id(), world_.tick());
  }
  // After stop or select: either refreshes the watch's expiry, so a hover alone keeps it alive.
  it->second.debug.hover(
      select.has_hover_agent() ? std::optional<AgentId>(select.hover_agent()) : std::nullopt, world_.tick());
  it->second.debug.statesArea(statesAreaOf(select), world_.tick());
}

void GameSession::sendDebugInfo() {
  wire::Packet p;
  for (const auto& [id, player] : order_) {
    std::optional<wire::DebugInfo> info = player->debug.afterTick(world_);
    if (!info) continue;
    *p.mutable_debug_info() = std::move(*info);
    OutDatagram d{id, {}};
    // Long state names can overflow a datagram: the farthest agents' states go first (a quarter
    // of those left at a time), then the oldest transitions, then the senses (the last first),
    // then the forces.
    auto* body = p.mutable_debug_info();
    while (!wire::encodeDatagram({wire::Packet::kDebugInfo, 0, 0, 0}, p, d.bytes)) {
      if (body->has_states() && body->states().agent_id_size() > 0) {
        trimStates(*body->mutable_states());
      } else if (body->has_states() && body->states().names_size() > 0) {
        body->mutable_states()->clear_names();
      } else if (body->transitions_size() > 0) {
        body->mutable_transitions()->erase(body->mutable_transitions()->begin());
      } else if (body->senses_size() > 0) {
        body->mutable_senses()->RemoveLast();
      } else if (body->behaviours_size() > 0) {
        body->clear_behaviours();
      } else {
        spdlog::error("DebugInfo for agent {} does not fit a datagram", body->agent_id());
        break;
      }
    }
    if (d.bytes.empty()) continue;
    metrics_.debugInfos.fetch_add(1, std::memory_order_relaxed);
    metrics_.debugBytes.fetch_add(d.bytes.size(), std::memory_order_relaxed);
    out_.push_back(std::move(d));
  }
  if (!out_.empty()) endpoint_.send(out_);
}

void GameSession::followScene() {
  const auto version = static_cast<std::uint32_t>(world_.sceneVersion());
  if (version == sceneLog_.version) return;
  // A served replay that seeks back starts its world again: so does the log.
  if (version < sceneLog_.version) sceneLog_ = wire::SceneChangeLog{};
  wire::recordScene(sceneLog_, version, doorStatesOf(world_), sceneObstaclesOf(world_));
  endpoint_.setSceneChanges(std::make_shared<const wire::SceneChangeLog>(sceneLog_));
  wire::SceneLive live{sceneLog_.doorOpen, {}};
  live.obstacles.reserve(sceneLog_.obstacles.size());
  for (const auto& e : sceneLog_.obstacles) live.obstacles.push_back(e.obstacle);
  const Bounds& b = world_.geometry().bounds;
  collision_ =
      movement::collisionSceneOf(wire::currentScene(staticScene_, live), b.minX, b.minY, b.maxX, b.maxY);
}

void GameSession::afterTick() {
  followScene();
  controller_.afterTick();
  flushControl();
  sendDebugInfo();
  const double perTick = config_.sendRate / config_.tickRate;
  for (const auto& [id, player] : order_) {
    // At most two snapshots' worth: a client kept waiting by a busy round gets one, not a burst.
    player->sendCredit = std::min(player->sendCredit + perTick, 2.0);
  }
  if (roundInFlight()) {
    metrics_.snapshotRoundsDeferred.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  sendDueSnapshots();
}

void GameSession::setRoundDoneHandler(std::function<void()> handler) {
  waitForSnapshots();
  roundDone_ = std::move(handler);
}

void GameSession::sendDueSnapshots() {
  // A round of this tick went out already: its clients have this picture, the rest wait for the
  // next tick's.
  if (static_cast<std::uint32_t>(world_.tick()) == lastRoundTick_) return;
  const auto due = [](std::uint32_t, const Player& p) { return p.sendCredit >= 1.0; };
  if (std::none_of(order_.begin(), order_.end(), [&](const Joined& j) { return due(j.id, *j.player); }))
    return;
  if (!sendSnapshots(due, false, true)) return;
  for (const RoundClient& c : round_) c.player->sendCredit = std::min(c.player->sendCredit - 1.0, 1.0);
}

void GameSession::serveHeld(const std::function<bool(std::uint32_t)>& wantsSnapshot) {
  endpoint_.takeEvents(events_);
  for (NetEvent& e : events_) {
    bool bodyless = e.kind != NetEvent::Kind::kJoin || e.noBody;
    if (e.kind == NetEvent::Kind::kLeave) {
      const auto it = clients_.find(e.clientId);
      bodyless = it == clients_.end() || it->second.body == kNoBody;
    }
    const bool moves = e.kind == NetEvent::Kind::kInput && e.input.inputs_size() > 0;
    // What would change the world is the next tick's, and so is all after it (kept in order).
    if (!held_.empty() || !bodyless || moves || e.kind == NetEvent::Kind::kControl) {
      held_.push_back(std::move(e));
      continue;
    }
    switch (e.kind) {
      case NetEvent::Kind::kJoin:
        join(e);
        break;
      case NetEvent::Kind::kLeave:
        leave(e.clientId);  // a bodyless client's: nothing in the world
        break;
      case NetEvent::Kind::kInput:
        input(e.clientId, e.input);  // its snapshot ack
        break;
      case NetEvent::Kind::kDebugSelect:
        debugSelect(e.clientId, e.debug);
        if (auto it = clients_.find(e.clientId); it != clients_.end()) it->second.debug.sendNext();
        break;
      default:
        break;
    }
  }
  events_.clear();
  sendDebugInfo();
  const auto tick = static_cast<std::uint32_t>(world_.tick());
  // The picture stands still, so its snapshot must be whole: no byte budget (a later snapshot
  // of the same tick would be a duplicate to the client, never the rest of it).
  sendSnapshots(
      [&](std::uint32_t id, const Player& p) { return p.view->ackedTick() != tick && wantsSnapshot(id); },
      true, false);
}

void GameSession::acknowledge(Player& p, std::uint32_t tick) {
  if (roundInFlight()) {
    p.pendingAck = std::max(p.pendingAck, tick);  // taken before the next round starts
  } else {
    p.view->acknowledge(tick);
  }
}

bool GameSession::sendSnapshots(const std::function<bool(std::uint32_t, const Player&)>& due, bool unbudgeted,
                                bool inBackground) {
  if (inBackground && roundInFlight()) return false;
  waitForSnapshots();
  // The round before is done: the views are the simulation thread's again until this one starts.
  retired_.clear();
  for (auto& [id, p] : clients_) {
    if (p.pendingAck == 0) continue;
    p.view->acknowledge(p.pendingAck);
    p.pendingAck = 0;
  }
  const auto tick = static_cast<std::uint32_t>(world_.tick());
  roundInterest_ = InterestConfig{};
  roundInterest_.radius = config_.interestRadius;
  roundInterest_.budgetBytes =
      unbudgeted ? kUnbudgetedBytes
                 : static_cast<std::size_t>(config_.clientKbps * 1000.0 / 8.0 / config_.sendRate);
  const bool intents = config_.playerInput == PlayerInputMode::kIntent;
  if (intents) roundInterest_.partReserve = kOwnPlayerBytes;
  if (epoch_ != 0) roundInterest_.partReserve += kEpochBytes;
  roundInterest_.epoch = epoch_;
  if (sceneLog_.version != 0) roundInterest_.partReserve += kSceneVersionBytes;
  roundInterest_.sceneVersion = sceneLog_.version;
  round_.clear();
  for (const auto& [id, player] : order_) {
    Player& p = *player;
    if (due && !due(id, p)) continue;
    RoundClient c{id, &p, p.view.get(), viewCentreOf(world_, p.body), std::nullopt};
    if (intents && p.body != kNoBody && world_.isAlive(p.body)) {
      // The client's own body, exact, with the last input applied: what it reconciles against.
      const std::uint32_t slot = world_.slotOf(p.body);
      const AgentColumns& a = world_.agents();
      wire::OwnPlayer own;
      own.set_last_input(p.anyInput ? p.lastSequence : 0);
      own.set_x(a.px[slot]);
      own.set_y(a.py[slot]);
      own.set_vx(a.vx[slot]);
      own.set_vy(a.vy[slot]);
      c.own = std::move(own);
    }
    round_.push_back(std::move(c));
  }
  if (round_.empty()) return true;
  lastRoundTick_ = tick;
  heights_.update(world_);
  wireStatesOf(world_, wireStates_, &heights_);
  frame_ = ViewFrame{wireStates_, world_.indexCapacity(), tick, nullptr, heights_.active()};
  if (stage_ == nullptr) {
    buildRound([this](std::size_t count, std::size_t chunk, const SnapshotStage::Body& body) {
      world_.parallelFor(count, chunk, body);
    });
  } else if (inBackground) {
    stage_->start([this](const SnapshotStage::ParallelFor& parallelFor) { buildRound(parallelFor); });
  } else {
    stage_->runHere([this](const SnapshotStage::ParallelFor& parallelFor) { buildRound(parallelFor); });
  }
  return true;
}

// Reads only the round's frozen data and writes only its clients' views: safe beside a tick.
void GameSession::buildRound(const SnapshotStage::ParallelFor& parallelFor) {
  const auto start = std::chrono::steady_clock::now();
  // The interest grid reads only the frozen states: built here, off the tick too.
  if (roundInterest_.radius > 0.0f) {
    interestGrid_.build(wireStates_, roundInterest_.radius);
    frame_.grid = &interestGrid_;
  }
  // Clients are independent: each chunk builds and encodes its clients' snapshots; the datagrams
  // are queued in join order (chunkBuilt below).
  perClient_.resize(round_.size());
  constexpr std::size_t kClientsPerChunk = 4;
  const std::size_t chunks = (round_.size() + kClientsPerChunk - 1) / kClientsPerChunk;
  if (partsOfChunk_.size() < chunks) partsOfChunk_.resize(chunks);
  chunkBuilt_.assign(chunks, 0);
  chunksSent_ = 0;
  // A round of a thousand clients takes several ticks on a busy box: its first clients' datagrams
  // leave as soon as they are built (in join order), so the network thread and the clients get
  // a steady stream instead of one burst at the end, and an early client's picture is not held
  // back by the round's last.
  const auto chunkBuilt = [&](std::size_t chunk) {
    std::lock_guard lock(sendMutex_);
    chunkBuilt_[chunk] = 1;
    while (chunksSent_ < chunks && chunkBuilt_[chunksSent_] != 0) {
      const std::size_t begin = chunksSent_ * kClientsPerChunk;
      const std::size_t end = std::min(begin + kClientsPerChunk, round_.size());
      for (std::size_t k = begin; k < end; ++k) {
        for (auto& d : perClient_[k]) roundOut_.push_back(std::move(d));
      }
      ++chunksSent_;
    }
    endpoint_.send(roundOut_);
  };
  parallelFor(round_.size(), kClientsPerChunk, [&](std::size_t begin, std::size_t end) {
    const std::size_t chunk = begin / kClientsPerChunk;
    std::vector<wire::Snapshot>& parts = partsOfChunk_[chunk];
    for (std::size_t k = begin; k < end; ++k) {
      const RoundClient& c = round_[k];
      std::vector<OutDatagram>& mine = perClient_[k];
      mine.clear();
      SnapshotStats stats;
      // The own body and the epoch go in before the parts are measured: their sizes stay cached.
      c.view->build(frame_, c.centre, roundInterest_, stats, parts, c.own ? &*c.own : nullptr);
      for (const wire::Snapshot& part : parts) {
        OutDatagram d{c.id, {}};
        if (!wire::encodeSnapshotDatagram({wire::Packet::kSnapshot, 0, 0, 0}, part, d.bytes)) {
          spdlog::error("snapshot part for client {} over {} bytes: not sent", c.id, wire::kMaxDatagramBytes);
          continue;
        }
        metrics_.snapshotParts.fetch_add(1, std::memory_order_relaxed);
        metrics_.snapshotBytes.fetch_add(d.bytes.size(), std::memory_order_relaxed);
        mine.push_back(std::move(d));
      }
      metrics_.snapshotsSent.fetch_add(1, std::memory_order_relaxed);
      metrics_.snapshotEntities.fetch_add(stats.entitiesSent, std::memory_order_relaxed);
    }
    chunkBuilt(chunk);
  });
  metrics_.snapshotSeconds.observe(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  if (roundDone_) roundDone_();
}

}  // namespace steerd::net
