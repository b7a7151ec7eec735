// The operator panel's logic, without SDL or ImGui (operator_panel.cpp draws it): when the server
// grants this client the control role (ServerInfo::controlAllowed, steerd --allow-control), clicks
// and buttons become control::Commands (spawn an archetype at a point, despawn an agent, send one
// to a point), and the results and events the control channel brings back (docs/CONTROL.md)
// become one line each for the panel's log ("spawned boid #344 at (120.0, 80.0)",
// "error: spawn.position: inside an obstacle", "boid #344 arrived at (60.2, 41.0)").
//
// Commands go out through a Sender (Client::sendCommand in the viewer, a fake in the tests),
// which returns the command's sequence (0: not sent); results are matched to their commands by
// that sequence.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "proto/control.pb.h"
#include "proto/wire.pb.h"
#include "viewer/geometry.h"

namespace steerd::viewer {

// What a left click on the world does while the panel is shown.
enum class ClickMode : std::uint8_t {
  kSelect,  // the viewer's usual: select an NPC, or walk the player
  kSpawn,   // spawn the chosen archetype there
  kMoveTo,  // send the selected agent there
};

struct OperatorLine {
  enum class Kind : std::uint8_t {
    kResult,  // a command of ours went through
    kError,   // a command of ours was refused (or could not be sent)
    kEvent,   // something happened in the world
  };
  Kind kind = Kind::kEvent;
  std::string text;
  std::uint32_t agent = 0;  // the agent it is about (0 for none: the subscription, an overflow)
  control::EventKind event = control::EVENT_UNSPECIFIED;  // kEvent: which
};

// The archetypes an operator may spawn: Accept's names in its order, players' bodies left out.
std::vector<std::string> spawnableArchetypes(const std::vector<std::string>& names);

// "spawned", "state changed", "path failed", ... (EVENT_PATH_FAILED -> "path failed").
std::string eventKindLabel(control::EventKind kind);

// The log line for the result of `command` (the command it answers; null when not known):
// "error: <the server's reason>" when refused, else what happened ("spawned boid #344 at
// (120.0, 80.0)", "despawned #344", "#344 moving to (60.0, 40.0)").
std::string describeResult(const control::Command* command, const control::CommandResult& result);

// The log line for an event: "boid #345 spawned at (12.0, 40.5)", "guard #12: patrol -> chase",
// "wolf #5 caught #20", "missed 120 events (the server's rate limit)".
std::string describeEvent(const control::Event& event);

class OperatorModel {
 public:
  using Sender = std::function<std::uint32_t(control::Command)>;
  static constexpr std::size_t kMaxLines = 64;  // the log keeps this many, dropping the oldest
  // What the panel listens to by default: what follows from an operator's commands, and the rare
  // events worth a line. allEvents() adds brain state changes and sightings (busy in a big world).
  static constexpr control::EventKind kQuietKinds[] = {
      control::EVENT_SPAWNED,     control::EVENT_DESPAWNED,   control::EVENT_ARRIVED,
      control::EVENT_TARGET_LOST, control::EVENT_PATH_FAILED, control::EVENT_CAUGHT,
  };

  explicit OperatorModel(Sender send);

  // A new connection (its sequences start again): forgets commands in flight, keeps the log.
  // With the control role, the panel is enabled and subscribes to its events; without it,
  // disabled (the viewer hides the panel).
  void connected(bool controlAllowed, const std::vector<std::string>& archetypes);
  bool enabled() const { return enabled_; }

  // The spawn archetype: an index into archetypes() (-1 when there is none to choose).
  const std::vector<std::string>& archetypes() const { return archetypes_; }
  int archetype() const { return archetype_; }
  void setArchetype(int index);
  bool selectArchetype(const std::string& name);  // false (and no change) when not offered
  const std::string& archetypeName() const;       // empty when none

  ClickMode mode() const { return mode_; }
  void setMode(ClickMode mode) { mode_ = mode; }
  // MoveTo.release_on_arrival: the agent's own behaviours take over once it is there.
  bool releaseOnArrival() const { return releaseOnArrival_; }
  void setReleaseOnArrival(bool release) { releaseOnArrival_ = release; }
  // Every event kind (true) or kQuietKinds (false); a change subscribes again.
  bool allEvents() const { return allEvents_; }
  void setAllEvents(bool all);

  // A left click on the world at `at` (metres), `selected` being the viewer's selection: spawns
  // or sends per mode(). False in kSelect mode (or disabled): the click is the viewer's as usual.
  bool click(Point at, std::optional<std::uint32_t> selected) { return click(at, selected, mode_); }
  // The same in `mode` whatever mode() is (--operator-send's scripted click).
  bool click(Point at, std::optional<std::uint32_t> selected, ClickMode mode);
  void spawn(const std::string& archetype, Point at);
  void despawn(std::uint32_t agent);
  void moveTo(std::uint32_t agent, Point to);

  // One message from Client::takeControlMessages.
  void receive(const wire::ControlMessage& message);

  const std::deque<OperatorLine>& lines() const { return lines_; }  // oldest first
  std::size_t pending() const { return pending_.size(); }           // sent, result not in yet
  std::size_t errors() const { return errors_; }                    // error lines so far
  // The agent the newest successful spawn made, once (the viewer selects it).
  std::optional<std::uint32_t> takeSpawned();
  // The agents our despawns removed since the last call (the viewer drops them from the selection).
  std::vector<std::uint32_t> takeDespawned();

 private:
  void send(control::Command command);
  void subscribe();
  void add(OperatorLine line);

  Sender send_;
  bool enabled_ = false;
  std::vector<std::string> archetypes_;
  int archetype_ = -1;
  ClickMode mode_ = ClickMode::kSelect;
  bool releaseOnArrival_ = false;
  bool allEvents_ = false;
  std::map<std::uint32_t, control::Command> pending_;  // by sequence
  std::deque<OperatorLine> lines_;
  std::size_t errors_ = 0;
  std::optional<std::uint32_t> spawned_;
  std::vector<std::uint32_t> despawned_;
};

}  // namespace steerd::viewer
