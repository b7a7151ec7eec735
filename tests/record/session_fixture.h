// What the record and replay tests share: a session on the default scenario with players joining,
// moving and leaving and a control client spawning and commanding an NPC, recorded as the server
// records it (SessionRecorder on the ServerTick); and transports that feed or collect datagrams.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "net/game_session.h"
#include "net/server_tick.h"
#include "record/recorded_scenario.h"
#include "record/session_recorder.h"

namespace steerd::record {

inline std::string tempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("steerd_replay_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

class FeedTransport final : public net::SessionTransport {
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

inline net::NetEvent join(std::uint32_t client, bool control = false) {
  net::NetEvent e;
  e.kind = net::NetEvent::Kind::kJoin;
  e.clientId = client;
  e.controlRole = control;
  e.noBody = control;
  return e;
}
inline net::NetEvent leave(std::uint32_t client) {
  net::NetEvent e;
  e.kind = net::NetEvent::Kind::kLeave;
  e.clientId = client;
  e.reason = wire::DISCONNECT_CLIENT_LEFT;
  return e;
}
inline net::NetEvent intent(std::uint32_t client, std::uint32_t sequence, float mx, float my) {
  net::NetEvent e;
  e.kind = net::NetEvent::Kind::kInput;
  e.clientId = client;
  wire::PlayerInput* in = e.input.add_inputs();
  in->set_sequence(sequence);
  in->set_move_x(mx);
  in->set_move_y(my);
  in->set_dt(1.0f / 30.0f);
  return e;
}
inline net::NetEvent control(std::uint32_t client, std::uint32_t packet,
                             std::vector<control::Command> commands) {
  net::NetEvent e;
  e.kind = net::NetEvent::Kind::kControl;
  e.clientId = client;
  e.control.set_packet(packet);
  for (auto& c : commands) *e.control.add_commands() = std::move(c);
  return e;
}

// What each tick's network hands over: two players join, walk figures and one leaves; a control
// client spawns a wolf and sends it somewhere.
inline std::vector<net::NetEvent> script(std::uint64_t tick, const World& world) {
  std::vector<net::NetEvent> events;
  if (tick == 1) events = {join(1), join(2, true)};
  if (tick == 20) events.push_back(join(3));
  if (tick >= 2 && tick < 150) {
    const float a = static_cast<float>(tick) * 0.05f;
    events.push_back(intent(1, static_cast<std::uint32_t>(tick - 1), std::cos(a), std::sin(2 * a)));
  }
  if (tick >= 21 && tick < 90)
    events.push_back(intent(3, static_cast<std::uint32_t>(tick - 20), -1.0f, 0.3f));
  if (tick == 90) events.push_back(leave(3));
  if (tick == 30) {
    // A goal that arrives and lets go: the controller changes the world after the tick (its
    // afterTick), where a replay must not look for it.
    control::Command move;
    move.set_sequence(2);
    const AgentColumns& a = world.agents();
    move.mutable_move_to()->set_agent(a.id[0]);
    move.mutable_move_to()->mutable_position()->set_x(a.px[0] + 2.0f);
    move.mutable_move_to()->mutable_position()->set_y(a.py[0]);
    move.mutable_move_to()->set_radius(1.0f);
    move.mutable_move_to()->set_release_on_arrival(true);
    events.push_back(control(2, 1, {move}));
  }
  if (tick == 10) {
    control::Command spawn;
    spawn.set_sequence(1);
    spawn.mutable_spawn()->set_archetype(world.archetypes().front().name);
    spawn.mutable_spawn()->mutable_position()->set_x(100);
    spawn.mutable_spawn()->mutable_position()->set_y(100);
    events.push_back(control(2, 0, {spawn}));
  }
  return events;
}

struct Recorded {
  std::string path;
  std::uint64_t hash = 0;
};

// The default scenario's text with every archetype's top speed changed (a designer's live edit).
inline std::string withSpeed(const std::string& text, const char* speed) {
  std::string out = text;
  for (std::size_t at = out.find("max_speed: "); at != std::string::npos;
       at = out.find("max_speed: ", at + 1)) {
    const std::size_t end = out.find(' ', at + 11);
    out.replace(at + 11, end - (at + 11), speed);
  }
  return out;
}

// A recording's header for a session of `scenario` at `seed` run with `config`, as the server
// writes it.
inline Header headerFor(const RecordedScenario& scenario, std::uint64_t seed,
                        const net::SessionConfig& config) {
  Header header;
  header.set_scenario_name(scenario.name);
  header.set_scenario_text(scenario.text);
  header.set_seed(seed);
  header.set_tick_rate(config.tickRate);
  header.set_player_intents(config.playerInput == net::PlayerInputMode::kIntent);
  header.set_max_agents(config.controller.maxAgents);
  header.set_send_rate(config.sendRate);
  return header;
}

inline Recorded recordSession(const std::string& name, std::uint64_t ticks,
                              net::PlayerInputMode mode = net::PlayerInputMode::kIntent) {
  Recorded r{tempPath(name), 0};
  RecordedScenario scenario;
  std::string error;
  EXPECT_TRUE(readScenario("default", scenario, error)) << error;
  ScenarioLoad load = loadRecordedScenario(scenario, ScenarioOptions(5, 2, 0));
  EXPECT_TRUE(load.world);
  World& world = *load.world;
  net::SessionConfig config;
  config.playerInput = mode;
  auto recorder = SessionRecorder::start(r.path, headerFor(scenario, 5, config), error);
  EXPECT_TRUE(recorder) << error;
  net::ServerMetrics metrics;
  FeedTransport transport;
  net::GameSession session(world, transport, metrics, config);
  net::ServerTick tick(world, session, transport, config.tickRate);
  tick.setObserver(recorder.get());
  for (std::uint64_t t = 1; t <= ticks; ++t) {
    transport.next = script(t, world);
    if (mode == net::PlayerInputMode::kPosition) {
      for (net::NetEvent& e : transport.next) {  // the same walk, as positions
        if (e.kind != net::NetEvent::Kind::kInput) continue;
        wire::PlayerInput& in = *e.input.mutable_inputs(0);
        in.set_x(100.0f + in.move_x() * static_cast<float>(t) * 0.1f);
        in.set_y(100.0f + in.move_y() * static_cast<float>(t) * 0.1f);
      }
    }
    if (t == 60) {
      // Two live reloads between two ticks (SIGHUP twice): both are kept, in order.
      for (const char* speed : {"3", "9"}) {
        const std::string text = withSpeed(scenario.text, speed);
        ScenarioLoad reload = loadScenarioText(text, "default", ScenarioOptions(5, 2, 0), false);
        EXPECT_TRUE(reload.errors.empty());
        EXPECT_EQ(world.replaceArchetypes(std::move(reload.archetypes)), "");
        recorder->reloaded(text);
      }
    }
    tick.run(static_cast<std::int64_t>(t) * 33'333'333);
  }
  EXPECT_TRUE(recorder->finish()) << recorder->error();
  EXPECT_EQ(recorder->ticks(), ticks);
  r.hash = world.stateHash();
  return r;
}

class CollectingTransport final : public net::SessionTransport {
 public:
  std::vector<net::NetEvent> events;
  std::vector<net::OutDatagram> sent;
  void takeEvents(std::vector<net::NetEvent>& out) override {
    out.clear();
    out.swap(events);
  }
  void send(std::vector<net::OutDatagram>& batch) override {
    for (auto& d : batch) sent.push_back(std::move(d));
    batch.clear();
  }
  void publishTick(std::uint32_t, std::int64_t, double) override {}
  void setScene(const std::vector<wire::Scene>&) override {}
  bool debugAllowed() const override { return true; }
};

}  // namespace steerd::record
