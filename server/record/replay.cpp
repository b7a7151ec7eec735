#include "record/replay.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <unordered_map>

#include "record/recorded_event.h"
#include "record/recorded_scenario.h"

namespace steerd::record {

namespace {

// Which parts and which agents differ between the replayed world and a recorded tick.
std::vector<std::string> differences(const World& world, const Tick& recorded) {
  std::vector<std::string> out;
  const StateDigest d = world.stateDigest(static_cast<std::size_t>(recorded.block_hashes_size()));
  if (world.agentCount() != recorded.agent_count())
    out.push_back(
        fmt::format("agents: {} recorded, {} replayed", recorded.agent_count(), world.agentCount()));
  std::string parts;
  for (std::size_t p = 0; p < kStatePartCount && p < static_cast<std::size_t>(recorded.part_hashes_size());
       ++p) {
    if (static_cast<std::uint32_t>(d.parts[p]) != recorded.part_hashes(static_cast<int>(p)))
      parts += (parts.empty() ? "" : ", ") + std::string(statePartName(static_cast<StatePart>(p)));
  }
  if (!parts.empty()) out.push_back("parts that differ: " + parts);
  // Players, each on its own; the first 16 named (a crafted tick may list half a million).
  std::string players;
  std::size_t playersDiffering = 0;
  std::unordered_map<std::uint32_t, std::uint32_t> replayedPlayers;
  for (const auto& [id, h] : d.external) replayedPlayers[id] = static_cast<std::uint32_t>(h);
  for (const std::uint64_t packed : recorded.player_hashes()) {
    const auto id = static_cast<std::uint32_t>(packed >> 32);
    const auto it = replayedPlayers.find(id);
    const bool gone = it == replayedPlayers.end();
    if (!gone && it->second == static_cast<std::uint32_t>(packed)) continue;
    if (++playersDiffering <= 16)
      players += (players.empty() ? "" : ", ") + std::to_string(id) + (gone ? " (gone in the replay)" : "");
  }
  if (playersDiffering > 16) players += fmt::format(" and {} more", playersDiffering - 16);
  if (!players.empty()) out.push_back("players that differ: " + players);
  // Blocks are compared over the recorded index count: with another count the split differs, and
  // every block may.
  if (d.indexCount != recorded.index_count()) {
    out.push_back(
        fmt::format("agent indices in use: {} recorded, {} replayed", recorded.index_count(), d.indexCount));
    return out;
  }
  std::vector<bool> blockDiffers(d.blocks.size(), false);
  std::size_t differing = 0;
  for (std::size_t b = 0; b < d.blocks.size(); ++b) {
    blockDiffers[b] = static_cast<std::uint32_t>(d.blocks[b]) != recorded.block_hashes(static_cast<int>(b));
    differing += blockDiffers[b] ? 1 : 0;
  }
  // The agents in those blocks, in id order (one pass over the indices).
  std::string agents;
  std::size_t named = 0;
  const AgentColumns& a = world.agents();
  for (std::uint32_t index = 0; differing > 0 && index < d.indexCount; ++index) {
    if (!blockDiffers[StateDigest::blockOf(index, d.blocks.size(), d.indexCount)]) continue;
    const std::uint32_t s = world.slotOfIndex(index);
    if (s == World::kNoSlot) continue;
    if (named < 16)
      agents += (named == 0 ? "" : ", ") + std::to_string(a.id[s]) + " (" +
                world.archetypes()[a.archetype[s]].name + ")";
    ++named;
  }
  if (differing > 0) {
    out.push_back(fmt::format("agents that differ: {} of {} blocks of agent indices{}{}", differing,
                              d.blocks.size(), agents.empty() ? std::string{} : ", holding agents " + agents,
                              named > 16 ? fmt::format(" and {} more", named - 16) : std::string{}));
  }
  return out;
}

ReplayResult unreadable(ReplayResult r, std::string why) {
  r.outcome = ReplayResult::Outcome::kUnreadable;
  r.summary = "replay: " + why;
  r.details.push_back(std::move(why));
  return r;
}

}  // namespace

ReplayTransport::ReplayTransport(net::SessionTransport* live) : live_(live) {}

void ReplayTransport::pullLive() {
  if (live_ == nullptr) return;
  live_->takeEvents(scratch_);
  for (net::NetEvent& e : scratch_) {
    // A watcher changes nothing in the world: no body, no commands, no moves. Its id is moved out
    // of the recorded clients' range.
    if (e.kind == net::NetEvent::Kind::kControl) continue;
    if (e.kind == net::NetEvent::Kind::kReplayControl) {
      controls_.push_back(std::move(e));
      continue;
    }
    if (e.kind == net::NetEvent::Kind::kInput) e.input.clear_inputs();  // its snapshot ack, no moves
    if (e.kind == net::NetEvent::Kind::kJoin) {
      e.noBody = true;
      e.controlRole = false;
      watchers_.push_back(e.clientId);
    }
    if (e.kind == net::NetEvent::Kind::kLeave)
      watchers_.erase(std::remove(watchers_.begin(), watchers_.end(), e.clientId), watchers_.end());
    e.clientId |= kLiveClientBit;
    liveEvents_.push_back(std::move(e));
  }
  scratch_.clear();
}

void ReplayTransport::takeEvents(std::vector<net::NetEvent>& out) {
  out.clear();
  out.swap(next);
  pullLive();
  // Muted (a seek playing ahead), the watchers' joins, leaves and acks wait: a join's Accept
  // would go nowhere.
  if (muted_) return;
  for (net::NetEvent& e : liveEvents_) out.push_back(std::move(e));
  liveEvents_.clear();
}

void ReplayTransport::takeControls(std::vector<net::NetEvent>& out) {
  pullLive();
  for (net::NetEvent& e : controls_) out.push_back(std::move(e));
  controls_.clear();
}

void ReplayTransport::rejoin(const std::vector<std::uint32_t>& watchers) {
  for (const std::uint32_t id : watchers) {
    watchers_.push_back(id);
    net::NetEvent e;
    e.kind = net::NetEvent::Kind::kJoin;
    e.clientId = id | kLiveClientBit;
    e.noBody = true;
    liveEvents_.push_back(std::move(e));
  }
}

void ReplayTransport::send(std::vector<net::OutDatagram>& batch) {
  if (live_ != nullptr && !muted_) {
    liveOut_.clear();
    for (net::OutDatagram& d : batch) {
      if ((d.clientId & kLiveClientBit) == 0) continue;  // to a recorded client: nowhere
      d.clientId &= ~kLiveClientBit;
      liveOut_.push_back(std::move(d));
    }
    live_->send(liveOut_);
  }
  batch.clear();
}

void ReplayTransport::publishTick(std::uint32_t tick, std::int64_t steadyNs, double tickRate) {
  if (live_ != nullptr) live_->publishTick(tick, steadyNs, tickRate * rateScale_);
}
void ReplayTransport::setScene(const std::vector<wire::Scene>& parts) {
  if (live_ != nullptr) live_->setScene(parts);
}
bool ReplayTransport::debugAllowed() const { return live_ != nullptr && live_->debugAllowed(); }

std::unique_ptr<Replayer> Replayer::open(const ReplayOptions& options, net::SessionTransport* live,
                                         ReplayResult& result, net::ServerMetrics* metrics) {
  std::unique_ptr<Replayer> r(new Replayer(live));
  std::string error;
  r->reader_ = RecordingReader::open(options.path, error);
  if (!r->reader_) {
    result = unreadable(result, error);
    return nullptr;
  }
  Frame frame;
  if (r->reader_->next(frame) != RecordingReader::Status::kFrame || !frame.has_header()) {
    result = unreadable(
        result, options.path + ": no header frame" +
                    (r->reader_->problem().empty() ? std::string{} : " (" + r->reader_->problem() + ")"));
    return nullptr;
  }
  r->header_ = frame.header();
  const Header& header = r->header_;
  // The header is checked as the command line would be: it shapes the world.
  const auto builtins = builtinScenarioNames();
  std::string bad;
  if (!(header.tick_rate() >= 1.0 && header.tick_rate() <= 1000.0)) {
    bad = fmt::format("tick rate {} (1 to 1000)", header.tick_rate());
  } else if (!(header.send_rate() >= 0.0 && header.send_rate() <= header.tick_rate())) {
    bad = fmt::format("send rate {} (0 to the tick rate)", header.send_rate());
  } else if (header.agents() > 4'000'000) {
    bad = fmt::format("agents {} (at most 4,000,000)", header.agents());
  } else if (header.max_agents() < 1 || header.max_agents() > 4'000'000) {
    bad = fmt::format("max agents {} (1 to 4,000,000)", header.max_agents());
  } else if (header.max_clients() > kMaxClientsLimit) {
    bad = fmt::format("max clients {} (0 to {})", header.max_clients(), kMaxClientsLimit);
  } else if (!header.builtin_scenario().empty() &&
             std::find(builtins.begin(), builtins.end(), header.builtin_scenario()) == builtins.end()) {
    bad = "built-in scenario '" + header.builtin_scenario() + "', which this build does not have";
  } else if (header.builtin_scenario().empty() && header.scenario_text().empty()) {
    bad = "scenario: none";
  }
  if (!bad.empty()) {
    result = unreadable(result, options.path + ": the header's " + bad + " is not usable");
    return nullptr;
  }
  RecordedScenario scenario{header.scenario_name(), header.scenario_text(), header.builtin_scenario()};
  r->scenarioOptions_ = ScenarioOptions(header.seed(), options.threads,
                                        static_cast<std::size_t>(header.agents()), options.navCacheDir);
  ScenarioLoad load = loadRecordedScenario(scenario, r->scenarioOptions_);
  if (!load.world) {
    std::string why = "the recorded scenario " + header.scenario_name() + " does not load";
    if (!load.errors.empty()) why += ": " + load.errors.front();
    result = unreadable(result, why);
    return nullptr;
  }
  r->world_ = std::move(load.world);
  if (r->world_->tick() != header.start_tick()) {
    result = unreadable(result, fmt::format("recording starts at tick {}; a replay can only start at {}",
                                            header.start_tick(), r->world_->tick()));
    return nullptr;
  }
  net::SessionConfig config;
  config.tickRate = header.tick_rate();
  config.sendRate = header.send_rate() > 0.0 ? header.send_rate() : config.sendRate;
  if (options.snapshotEveryTick) config.sendRate = config.tickRate;
  // A headless replay's snapshots would go nowhere (and snapshots never change the world): none
  // are built, so a recorded client costs no view of the world (tens of bytes per agent each).
  if (live == nullptr) config.sendRate = 0.0;
  config.controller.maxAgents = static_cast<std::size_t>(header.max_agents());
  config.playerInput =
      header.player_intents() ? net::PlayerInputMode::kIntent : net::PlayerInputMode::kPosition;
  config.interestRadius = options.interestRadius;
  config.clientKbps = options.clientKbps;
  r->session_ = std::make_unique<net::GameSession>(*r->world_, r->transport_,
                                                   metrics != nullptr ? *metrics : r->ownMetrics_, config);
  r->tick_ = std::make_unique<net::ServerTick>(*r->world_, *r->session_, r->transport_, config.tickRate);
  r->tick_->setObserver(r.get());
  r->lastHash_ = r->world_->stateHash();
  r->path_ = options.path;
  r->maxClients_ = options.maxClients;
  r->headerMaxClients_ = header.max_clients();
  r->result_.outcome = ReplayResult::Outcome::kEqual;  // so far
  r->started_ = std::chrono::steady_clock::now();
  return r;
}

bool Replayer::finish(ReplayResult::Outcome outcome, std::string summary) {
  result_.outcome = outcome;
  if (!summary.empty()) {
    result_.summary = std::move(summary);
    return false;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  const double rate = header_.tick_rate();
  result_.summary = fmt::format(
      "replay ok: {} ticks ({:.1f} s of play at {} Hz; {} joins, {} leaves, {} inputs, {} control packets), "
      "every "
      "state hash equal, final {:016x}{}; replayed in {:.2f} s",
      result_.ticks, static_cast<double>(result_.ticks) / rate, rate, result_.joins, result_.leaves,
      result_.inputs, result_.controls, lastHash_,
      result_.cutShort ? " (the recording has no End frame: cut short, e.g. a killed server)" : "", seconds);
  return false;
}

bool Replayer::damaged(std::string what) {
  return finish(ReplayResult::Outcome::kDamaged,
                fmt::format("replay: damaged recording after tick {}: {}", world_->tick(), what));
}

bool Replayer::refused(std::uint64_t tick, std::string what) {
  return finish(ReplayResult::Outcome::kRefused,
                fmt::format("replay: {}: refused at tick {}: {}", path_, tick, what));
}

std::string Replayer::tooManyClients(std::uint32_t id) const {
  const std::size_t n = recordedClients_.size();
  if (headerMaxClients_ > 0 && n > headerMaxClients_) {
    return fmt::format(
        "client {} joins, making {} clients connected at once, more than the {} its server admitted (the "
        "header's max_clients): not what a server writes",
        id, n, headerMaxClients_);
  }
  if (n <= maxClients_) return {};
  return fmt::format(
      "client {} joins, making {} clients connected at once, more than --max-clients {} admits (each "
      "client costs the replay memory); if the file is trusted, replay it with {}",
      id, n, maxClients_,
      headerMaxClients_ > 0
          ? fmt::format("--max-clients {} (its server's)", headerMaxClients_)
          : fmt::format("a larger --max-clients (at most {}; the file does not say its server's)",
                        kMaxClientsLimit));
}

void Replayer::afterStep(const World& world, const std::vector<net::NetEvent>&) {
  lastHash_ = world.stateHash();
  if (checking_ != nullptr && world.tick() == checking_->tick() && lastHash_ != checking_->state_hash())
    differences_ = differences(world, *checking_);
}

bool Replayer::next(std::int64_t steadyNs) {
  if (done_) return false;
  done_ = true;  // until this tick is played and found equal
  ReplayResult& result = result_;
  World& world = *world_;
  Frame frame;
  const RecordingReader::Status status = reader_->next(frame);
  if (status == RecordingReader::Status::kDamaged) {
    result.details.push_back(reader_->problem());
    return damaged(reader_->problem());
  }
  if (status != RecordingReader::Status::kFrame) {  // ends without its End frame
    result.cutShort = true;
    if (status == RecordingReader::Status::kCutShort) result.details.push_back(reader_->problem());
    return finish(ReplayResult::Outcome::kEqual, {});
  }
  if (frame.has_end()) {
    if (frame.end().ticks() != result.ticks || frame.end().state_hash() != lastHash_) {
      return damaged(
          fmt::format("the End frame says {} ticks ending at {:016x}; the file has {} ending at {:016x}",
                      frame.end().ticks(), frame.end().state_hash(), result.ticks, lastHash_));
    }
    return finish(ReplayResult::Outcome::kEqual, {});
  }
  if (!frame.has_tick()) return damaged(fmt::format("frame {} is not a tick", reader_->frames()));
  if (frame.tick().events_size() > kMaxEventsPerTick) {
    return damaged(fmt::format("tick {} holds {} events (at most {})", frame.tick().tick(),
                               frame.tick().events_size(), kMaxEventsPerTick));
  }
  if (frame.tick().reload_text_size() > kMaxReloadsPerTick) {
    return damaged(fmt::format("tick {} holds {} reloads (at most {})", frame.tick().tick(),
                               frame.tick().reload_text_size(), kMaxReloadsPerTick));
  }
  const Tick& t = frame.tick();
  // One frame per tick, in order: a tick that jumps is not what a server writes.
  if (t.tick() != world.tick() + 1) {
    return damaged(fmt::format("frame {} is for tick {}, but the replay's next tick is {}", reader_->frames(),
                               t.tick(), world.tick() + 1));
  }
  const auto differs = [&](std::uint64_t tick) {
    result.differingTick = tick;
    return finish(ReplayResult::Outcome::kDiffers,
                  fmt::format("replay: tick {} differs from the recording ({} ticks before it equal)", tick,
                              result.ticks));
  };
  for (const std::string& text : t.reload_text()) {
    ScenarioLoad reload =
        loadScenarioText(text, header_.scenario_name() + " (reloaded)", scenarioOptions_, false);
    std::string problem = reload.errors.empty() ? std::string{} : reload.errors.front();
    if (problem.empty()) problem = world.replaceArchetypes(std::move(reload.archetypes));
    if (!problem.empty()) {
      result.details.push_back("the reload recorded before this tick does not apply: " + problem);
      return differs(world.tick() + 1);
    }
  }
  for (const Event& e : t.events()) {
    std::optional<net::NetEvent> event = fromRecord(e);
    if (!event) {
      return damaged(
          fmt::format("an event of unknown kind {} before tick {}", static_cast<int>(e.kind()), t.tick()));
    }
    // Client ids as a server hands them out: below the watchers' range, joined once, then gone.
    const std::uint32_t id = event->clientId;
    if ((id & ReplayTransport::kLiveClientBit) != 0)
      return damaged(fmt::format("client id {} before tick {} is out of range", id, t.tick()));
    if (event->kind == net::NetEvent::Kind::kJoin) {
      if (!recordedClients_.insert(id).second)
        return damaged(fmt::format("client {} joins twice before tick {}", id, t.tick()));
      if (std::string why = tooManyClients(id); !why.empty()) return refused(t.tick(), std::move(why));
    }
    if (event->kind == net::NetEvent::Kind::kLeave) recordedClients_.erase(id);
    switch (event->kind) {
      case net::NetEvent::Kind::kJoin:
        ++result.joins;
        break;
      case net::NetEvent::Kind::kLeave:
        ++result.leaves;
        break;
      case net::NetEvent::Kind::kControl:
        ++result.controls;
        break;
      default:
        ++result.inputs;
        break;
    }
    transport_.next.push_back(std::move(*event));
  }
  checking_ = &t;
  differences_.clear();
  tick_->run(steadyNs);  // afterStep hashes the world where the recorder did
  checking_ = nullptr;
  if (world.tick() != t.tick()) {
    result.details.push_back(fmt::format("the recording's frame is for tick {}, the replay is at tick {}",
                                         t.tick(), world.tick()));
    return differs(t.tick());
  }
  if (lastHash_ != t.state_hash()) {
    result.details = std::move(differences_);
    result.details.insert(result.details.begin(), fmt::format("state hash {:016x} recorded, {:016x} replayed",
                                                              t.state_hash(), lastHash_));
    return differs(t.tick());
  }
  ++result.ticks;
  done_ = false;
  return true;
}

ReplayResult replayRecording(const ReplayOptions& options) {
  ReplayResult result;
  auto replayer = Replayer::open(options, nullptr, result);
  if (!replayer) return result;
  // Simulated time: the tick's own, so nothing depends on how fast the replay runs.
  const double rate = replayer->tickRate();
  while (replayer->next(
      static_cast<std::int64_t>(static_cast<double>(replayer->world().tick() + 1) * 1e9 / rate))) {
  }
  return replayer->result();
}

}  // namespace steerd::record
