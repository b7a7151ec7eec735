#include "record/replay.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

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
  // Players, each on its own.
  std::string players;
  std::unordered_map<std::uint32_t, std::uint32_t> replayedPlayers;
  for (const auto& [id, h] : d.external) replayedPlayers[id] = static_cast<std::uint32_t>(h);
  for (const std::uint64_t packed : recorded.player_hashes()) {
    const auto id = static_cast<std::uint32_t>(packed >> 32);
    const auto it = replayedPlayers.find(id);
    if (it == replayedPlayers.end()) {
      players += (players.empty() ? "" : ", ") + std::to_string(id) + " (gone in the replay)";
    } else if (it->second != static_cast<std::uint32_t>(packed)) {
      players += (players.empty() ? "" : ", ") + std::to_string(id);
    }
  }
  if (!players.empty()) out.push_back("players that differ: " + players);
  // Blocks are compared over the recorded index count: with another count the split differs, and
  // every block may.
  if (d.indexCount != recorded.index_count()) {
    out.push_back(
        fmt::format("agent indices in use: {} recorded, {} replayed", recorded.index_count(), d.indexCount));
    return out;
  }
  std::string agents;
  std::size_t named = 0, differing = 0;
  for (std::size_t b = 0; b < d.blocks.size(); ++b) {
    if (static_cast<std::uint32_t>(d.blocks[b]) == recorded.block_hashes(static_cast<int>(b))) continue;
    ++differing;
    for (std::uint32_t index = 0; index < d.indexCount; ++index) {
      if (StateDigest::blockOf(index, d.blocks.size(), d.indexCount) != b) continue;
      const AgentColumns& a = world.agents();
      for (std::size_t s = 0; s < a.size(); ++s) {  // the live agent at this index, if any
        if (agentIndex(a.id[s]) != index) continue;
        if (named < 16)
          agents += (named == 0 ? "" : ", ") + std::to_string(a.id[s]) + " (" +
                    world.archetypes()[a.archetype[s]].name + ")";
        ++named;
      }
    }
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

void ReplayTransport::takeEvents(std::vector<net::NetEvent>& out) {
  out.clear();
  out.swap(next);
  if (live_ == nullptr) return;
  live_->takeEvents(liveEvents_);
  for (net::NetEvent& e : liveEvents_) {
    // A watcher changes nothing in the world: no body, no commands, no moves. Its id is moved out
    // of the recorded clients' range.
    if (e.kind == net::NetEvent::Kind::kInput || e.kind == net::NetEvent::Kind::kControl) continue;
    e.clientId |= kLiveClientBit;
    if (e.kind == net::NetEvent::Kind::kJoin) {
      e.noBody = true;
      e.controlRole = false;
    }
    out.push_back(std::move(e));
  }
}

void ReplayTransport::send(std::vector<net::OutDatagram>& batch) {
  if (live_ != nullptr) {
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
  if (live_ != nullptr) live_->publishTick(tick, steadyNs, tickRate);
}
void ReplayTransport::setScene(const std::vector<wire::Scene>& parts) {
  if (live_ != nullptr) live_->setScene(parts);
}
bool ReplayTransport::debugAllowed() const { return live_ != nullptr && live_->debugAllowed(); }

std::unique_ptr<Replayer> Replayer::open(const ReplayOptions& options, net::SessionTransport* live,
                                         ReplayResult& result) {
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
  if (!(header.tick_rate() > 0.0 && header.tick_rate() <= 1000.0)) {
    result = unreadable(
        result, fmt::format("{}: header tick rate {} is not usable", options.path, header.tick_rate()));
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
  config.controller.maxAgents = static_cast<std::size_t>(header.max_agents());
  config.playerInput =
      header.player_intents() ? net::PlayerInputMode::kIntent : net::PlayerInputMode::kPosition;
  config.interestRadius = options.interestRadius;
  r->session_ = std::make_unique<net::GameSession>(*r->world_, r->transport_, r->metrics_, config);
  r->tick_ = std::make_unique<net::ServerTick>(*r->world_, *r->session_, r->transport_, config.tickRate);
  r->lastHash_ = r->world_->stateHash();
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

bool Replayer::next(std::int64_t steadyNs) {
  if (done_) return false;
  done_ = true;  // until this tick is played and found equal
  ReplayResult& result = result_;
  World& world = *world_;
  Frame frame;
  const RecordingReader::Status status = reader_->next(frame);
  if (status == RecordingReader::Status::kDamaged) {
    result.details.push_back(reader_->problem());
    return finish(ReplayResult::Outcome::kDamaged, fmt::format("replay: damaged recording after tick {}: {}",
                                                               world.tick(), reader_->problem()));
  }
  if (status != RecordingReader::Status::kFrame) {  // ends without its End frame
    result.cutShort = true;
    if (status == RecordingReader::Status::kCutShort) result.details.push_back(reader_->problem());
    return finish(ReplayResult::Outcome::kEqual, {});
  }
  if (frame.has_end()) {
    if (frame.end().ticks() != result.ticks || frame.end().state_hash() != lastHash_) {
      return finish(
          ReplayResult::Outcome::kDamaged,
          fmt::format(
              "replay: the End frame says {} ticks ending at {:016x}; the file has {} ending at {:016x}",
              frame.end().ticks(), frame.end().state_hash(), result.ticks, lastHash_));
    }
    return finish(ReplayResult::Outcome::kEqual, {});
  }
  if (!frame.has_tick()) {
    return finish(ReplayResult::Outcome::kDamaged, fmt::format("replay: frame {} after tick {} is not a tick",
                                                               reader_->frames(), world.tick()));
  }
  const Tick& t = frame.tick();
  const auto differs = [&](std::uint64_t tick) {
    result.differingTick = tick;
    return finish(ReplayResult::Outcome::kDiffers,
                  fmt::format("replay: tick {} differs from the recording ({} ticks before it equal)", tick,
                              result.ticks));
  };
  if (!t.reload_text().empty()) {
    ScenarioLoad reload =
        loadScenarioText(t.reload_text(), header_.scenario_name() + " (reloaded)", scenarioOptions_, false);
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
      return finish(ReplayResult::Outcome::kDamaged,
                    fmt::format("replay: an event of unknown kind {} before tick {}",
                                static_cast<int>(e.kind()), t.tick()));
    }
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
  tick_->run(steadyNs);
  lastHash_ = world.stateHash();
  if (world.tick() != t.tick()) {
    result.details.push_back(fmt::format("the recording's frame is for tick {}, the replay is at tick {}",
                                         t.tick(), world.tick()));
    return differs(t.tick());
  }
  if (lastHash_ != t.state_hash()) {
    result.details = differences(world, t);
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
