#include "record/replay.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <memory>
#include <unordered_map>

#include "net/game_session.h"
#include "net/server_metrics.h"
#include "net/server_tick.h"
#include "record/recorded_event.h"
#include "record/recorded_scenario.h"
#include "record/recording_file.h"

namespace steerd::record {

namespace {

// The session's network, played back: each tick's recorded events, and nowhere to send.
class ReplayTransport final : public net::SessionTransport {
 public:
  std::vector<net::NetEvent> next;
  void takeEvents(std::vector<net::NetEvent>& out) override {
    out.clear();
    out.swap(next);
  }
  void send(std::vector<net::OutDatagram>& batch) override { batch.clear(); }
  void publishTick(std::uint32_t, std::int64_t, double) override {}
  void setScene(const std::vector<wire::Scene>&) override {}
  bool debugAllowed() const override { return false; }
};

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

ReplayResult replayRecording(const ReplayOptions& options) {
  ReplayResult result;
  std::string error;
  auto reader = RecordingReader::open(options.path, error);
  if (!reader) return unreadable(result, error);
  Frame frame;
  if (reader->next(frame) != RecordingReader::Status::kFrame || !frame.has_header())
    return unreadable(result,
                      options.path + ": no header frame" +
                          (reader->problem().empty() ? std::string{} : " (" + reader->problem() + ")"));
  const Header header = frame.header();
  if (!(header.tick_rate() > 0.0 && header.tick_rate() <= 1000.0))
    return unreadable(result,
                      fmt::format("{}: header tick rate {} is not usable", options.path, header.tick_rate()));
  RecordedScenario scenario{header.scenario_name(), header.scenario_text(), header.builtin_scenario()};
  ScenarioOptions scenarioOptions(header.seed(), options.threads, static_cast<std::size_t>(header.agents()),
                                  options.navCacheDir);
  ScenarioLoad load = loadRecordedScenario(scenario, scenarioOptions);
  if (!load.world) {
    std::string why = "the recorded scenario " + header.scenario_name() + " does not load";
    if (!load.errors.empty()) why += ": " + load.errors.front();
    return unreadable(result, why);
  }
  World& world = *load.world;
  if (world.tick() != header.start_tick())
    return unreadable(result, fmt::format("recording starts at tick {}; a replay can only start at {}",
                                          header.start_tick(), world.tick()));

  net::SessionConfig config;
  config.tickRate = header.tick_rate();
  config.sendRate = header.send_rate() > 0.0 ? header.send_rate() : config.sendRate;
  config.controller.maxAgents = static_cast<std::size_t>(header.max_agents());
  config.playerInput =
      header.player_intents() ? net::PlayerInputMode::kIntent : net::PlayerInputMode::kPosition;
  net::ServerMetrics metrics;
  ReplayTransport transport;
  net::GameSession session(world, transport, metrics, config);
  net::ServerTick tick(world, session, transport, config.tickRate);

  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t lastHash = world.stateHash();
  for (;;) {
    const RecordingReader::Status status = reader->next(frame);
    if (status == RecordingReader::Status::kDamaged) {
      result.outcome = ReplayResult::Outcome::kDamaged;
      result.details.push_back(reader->problem());
      result.summary =
          fmt::format("replay: damaged recording after tick {}: {}", world.tick(), reader->problem());
      return result;
    }
    if (status != RecordingReader::Status::kFrame) {  // ends without its End frame
      result.cutShort = true;
      if (status == RecordingReader::Status::kCutShort) result.details.push_back(reader->problem());
      break;
    }
    if (frame.has_end()) {
      if (frame.end().ticks() != result.ticks || frame.end().state_hash() != lastHash) {
        result.outcome = ReplayResult::Outcome::kDamaged;
        result.summary = fmt::format(
            "replay: the End frame says {} ticks ending at {:016x}; the file has {} ending at {:016x}",
            frame.end().ticks(), frame.end().state_hash(), result.ticks, lastHash);
        return result;
      }
      break;
    }
    if (!frame.has_tick()) {
      result.outcome = ReplayResult::Outcome::kDamaged;
      result.summary =
          fmt::format("replay: frame {} after tick {} is not a tick", reader->frames(), world.tick());
      return result;
    }
    const Tick& t = frame.tick();
    if (!t.reload_text().empty()) {
      ScenarioLoad reload =
          loadScenarioText(t.reload_text(), header.scenario_name() + " (reloaded)", scenarioOptions, false);
      std::string problem = reload.errors.empty() ? std::string{} : reload.errors.front();
      if (problem.empty()) problem = world.replaceArchetypes(std::move(reload.archetypes));
      if (!problem.empty()) {
        result.outcome = ReplayResult::Outcome::kDiffers;
        result.differingTick = world.tick() + 1;
        result.details.push_back("the reload recorded before this tick does not apply: " + problem);
      }
    }
    if (result.outcome != ReplayResult::Outcome::kDiffers) {
      for (const Event& e : t.events()) {
        std::optional<net::NetEvent> event = fromRecord(e);
        if (!event) {
          result.outcome = ReplayResult::Outcome::kDamaged;
          result.summary = fmt::format("replay: an event of unknown kind {} before tick {}",
                                       static_cast<int>(e.kind()), t.tick());
          return result;
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
        transport.next.push_back(std::move(*event));
      }
      // Simulated time: the tick's own, so nothing depends on how fast the replay runs.
      tick.run(static_cast<std::int64_t>(static_cast<double>(world.tick() + 1) * 1e9 / config.tickRate));
      lastHash = world.stateHash();
      if (world.tick() != t.tick()) {
        result.outcome = ReplayResult::Outcome::kDiffers;
        result.differingTick = t.tick();
        result.details.push_back(fmt::format("the recording's frame is for tick {}, the replay is at tick {}",
                                             t.tick(), world.tick()));
      } else if (lastHash != t.state_hash()) {
        result.outcome = ReplayResult::Outcome::kDiffers;
        result.differingTick = t.tick();
        result.details = differences(world, t);
        result.details.insert(
            result.details.begin(),
            fmt::format("state hash {:016x} recorded, {:016x} replayed", t.state_hash(), lastHash));
      }
    }
    if (result.outcome == ReplayResult::Outcome::kDiffers) {
      result.summary = fmt::format("replay: tick {} differs from the recording ({} ticks before it equal)",
                                   result.differingTick, result.ticks);
      return result;
    }
    ++result.ticks;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  result.outcome = ReplayResult::Outcome::kEqual;
  result.summary = fmt::format(
      "replay ok: {} ticks ({:.1f} s of play at {} Hz; {} joins, {} leaves, {} inputs, {} control packets), "
      "every "
      "state hash equal, final {:016x}{}; replayed in {:.2f} s",
      result.ticks, static_cast<double>(result.ticks) / config.tickRate, config.tickRate, result.joins,
      result.leaves, result.inputs, result.controls, lastHash,
      result.cutShort ? " (the recording has no End frame: cut short, e.g. a killed server)" : "", seconds);
  return result;
}

}  // namespace steerd::record
