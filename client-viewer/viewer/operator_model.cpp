#include "viewer/operator_model.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iterator>
#include <utility>
#include <vector>

#include "proto/control_commands.h"
#include "viewer/palette.h"

namespace steerd::viewer {

namespace {

// Agents are "#344", or "boid #344" when the archetype is known.
std::string agentName(const std::string& archetype, std::uint32_t id) {
  std::string name = archetype;
  if (!name.empty()) name += ' ';
  name += '#';
  name += std::to_string(id);
  return name;
}

std::string pointText(float x, float y) {
  char text[64];
  std::snprintf(text, sizeof text, "(%.1f, %.1f)", x, y);
  return text;
}

std::string pointText(const control::Point& p) { return pointText(p.x(), p.y()); }

// The echo of one of our own spawns or despawns: the server emits the event while applying the
// command, so it reaches us just before the result (the same tick, a few messages at most apart).
bool echoes(const OperatorLine& event, control::EventKind kind, std::uint32_t agent) {
  return event.kind == OperatorLine::Kind::kEvent && event.event == kind && event.agent == agent;
}

constexpr std::size_t kEchoLookBack = 8;  // lines searched for an echo

}  // namespace

std::vector<std::string> spawnableArchetypes(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const std::string& n : names) {
    if (!palette::isPlayerArchetype(n)) out.push_back(n);
  }
  return out;
}

std::string eventKindLabel(control::EventKind kind) {
  std::string name = control::EventKind_IsValid(kind) ? control::EventKind_Name(kind) : std::string();
  if (name.rfind("EVENT_", 0) == 0) name.erase(0, 6);
  for (char& c : name) c = c == '_' ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name.empty() || name == "unspecified" ? "unknown" : name;
}

std::string describeResult(const control::Command* command, const control::CommandResult& r) {
  if (r.status() != control::STATUS_OK) return "error: " + (r.error().empty() ? "refused" : r.error());
  if (command == nullptr) return "ok: command " + std::to_string(r.sequence());
  switch (command->kind_case()) {
    case control::Command::kSpawn:
      return "spawned " + agentName(command->spawn().archetype(), r.agent()) + " at " +
             pointText(command->spawn().position());
    case control::Command::kDespawn:
      return "despawned " + agentName("", r.agent());
    case control::Command::kMoveTo:
      return agentName("", r.agent()) + " moving to " + pointText(command->move_to().position()) +
             (command->move_to().release_on_arrival() ? ", then its own way" : "");
    case control::Command::kSubscribe: {
      const auto& kinds = command->subscribe().kinds();
      if (kinds.empty()) return "listening for every event";
      std::string text = "listening for ";
      for (int i = 0; i < kinds.size(); ++i) {
        if (i > 0) text += ", ";
        text += eventKindLabel(static_cast<control::EventKind>(kinds[i]));
      }
      return text + " events";
    }
    default:
      return "ok: " + agentName("", r.agent());
  }
}

std::string describeEvent(const control::Event& e) {
  const std::string who = agentName(e.archetype(), e.agent());
  switch (e.kind()) {
    case control::EVENT_SPAWNED:
      return who + " spawned at " + pointText(e.position());
    case control::EVENT_DESPAWNED:
      return who + " despawned";
    case control::EVENT_STATE_CHANGED:
      return who + ": " + (e.from().empty() ? "?" : e.from()) + " -> " + (e.to().empty() ? "?" : e.to());
    case control::EVENT_ARRIVED:
      return who + " arrived at " + pointText(e.position());
    case control::EVENT_TARGET_LOST:
      return who + " lost its target " + agentName("", e.other());
    case control::EVENT_SIGHTED:
      return who + " sees someone" + (e.sense().empty() ? "" : " (" + e.sense() + ")");
    case control::EVENT_LOST_SIGHT:
      return who + " lost sight" + (e.sense().empty() ? "" : " (" + e.sense() + ")");
    case control::EVENT_CAUGHT:
      return who + " caught " + agentName("", e.other());
    case control::EVENT_PATH_FAILED:
      return who + " found no path to its goal";
    case control::EVENT_OVERFLOW:
      return "missed " + std::to_string(e.count()) + " events (the server's rate limit)";
    default:
      return eventKindLabel(e.kind()) + " event about " + who;
  }
}

OperatorModel::OperatorModel(Sender send) : send_(std::move(send)) {}

void OperatorModel::connected(bool controlAllowed, const std::vector<std::string>& archetypes) {
  const std::string previous = archetypeName();
  pending_.clear();
  spawned_.reset();
  despawned_.clear();
  enabled_ = controlAllowed;
  archetypes_ = spawnableArchetypes(archetypes);
  archetype_ = archetypes_.empty() ? -1 : 0;
  if (!previous.empty()) selectArchetype(previous);
  if (!enabled_) mode_ = ClickMode::kSelect;
  if (enabled_) subscribe();
}

void OperatorModel::setArchetype(int index) {
  if (index >= 0 && static_cast<std::size_t>(index) < archetypes_.size()) archetype_ = index;
}

bool OperatorModel::selectArchetype(const std::string& name) {
  const auto it = std::find(archetypes_.begin(), archetypes_.end(), name);
  if (it == archetypes_.end()) return false;
  archetype_ = static_cast<int>(it - archetypes_.begin());
  return true;
}

const std::string& OperatorModel::archetypeName() const {
  static const std::string kNone;
  return archetype_ >= 0 && static_cast<std::size_t>(archetype_) < archetypes_.size()
             ? archetypes_[archetype_]
             : kNone;
}

void OperatorModel::setAllEvents(bool all) {
  if (all == allEvents_) return;
  allEvents_ = all;
  if (enabled_) subscribe();
}

bool OperatorModel::click(Point at, std::optional<std::uint32_t> selected, ClickMode mode) {
  if (!enabled_) return false;
  switch (mode) {
    case ClickMode::kSpawn:
      if (archetypeName().empty()) {
        add({OperatorLine::Kind::kError, "error: the server offers no archetype to spawn"});
      } else {
        spawn(archetypeName(), at);
      }
      return true;
    case ClickMode::kMoveTo:
      if (!selected) {
        add({OperatorLine::Kind::kError, "error: no agent selected to send (select one first)"});
      } else {
        moveTo(*selected, at);
      }
      return true;
    case ClickMode::kSelect:
      break;
  }
  return false;
}

void OperatorModel::spawn(const std::string& archetype, Point at) {
  send(control::spawnAt(archetype, at.x, at.y));
}

void OperatorModel::despawn(std::uint32_t agent) { send(control::despawnAgent(agent)); }

void OperatorModel::moveTo(std::uint32_t agent, Point to) {
  send(control::moveTo(agent, to.x, to.y, /*radius=*/0.0f, releaseOnArrival_));
}

void OperatorModel::subscribe() {
  // No kinds: every kind.
  const std::vector<control::EventKind> kinds =
      allEvents_ ? std::vector<control::EventKind>{}
                 : std::vector<control::EventKind>(std::begin(kQuietKinds), std::end(kQuietKinds));
  send(control::subscribeTo(kinds));
}

void OperatorModel::send(control::Command command) {
  if (!enabled_) {
    add({OperatorLine::Kind::kError, "error: the server does not grant this viewer control"});
    return;
  }
  const std::uint32_t sequence = send_ ? send_(command) : 0;
  if (sequence == 0) {
    add({OperatorLine::Kind::kError, "error: not sent (not connected, or too many commands waiting)"});
    return;
  }
  pending_[sequence] = std::move(command);
}

void OperatorModel::receive(const wire::ControlMessage& m) {
  if (m.has_result()) {
    const control::CommandResult& r = m.result();
    const auto it = pending_.find(r.sequence());
    const control::Command* command = it != pending_.end() ? &it->second : nullptr;
    OperatorLine line;
    line.kind = r.status() == control::STATUS_OK ? OperatorLine::Kind::kResult : OperatorLine::Kind::kError;
    line.text = describeResult(command, r);
    line.agent = r.agent();
    if (line.kind == OperatorLine::Kind::kResult && command != nullptr) {
      // Our own spawn or despawn: its result says it all, so its event's line goes.
      control::EventKind echo = control::EVENT_UNSPECIFIED;
      if (command->has_spawn()) {
        echo = control::EVENT_SPAWNED;
        spawned_ = r.agent();
      } else if (command->has_despawn()) {
        echo = control::EVENT_DESPAWNED;
        despawned_.push_back(r.agent());
      }
      if (echo != control::EVENT_UNSPECIFIED) {
        const std::size_t from = lines_.size() > kEchoLookBack ? lines_.size() - kEchoLookBack : 0;
        for (std::size_t i = lines_.size(); i-- > from;) {
          if (echoes(lines_[i], echo, r.agent())) {
            lines_.erase(lines_.begin() + static_cast<std::ptrdiff_t>(i));
            break;
          }
        }
      }
    }
    if (it != pending_.end()) pending_.erase(it);
    add(std::move(line));
    return;
  }
  if (m.has_event()) {
    const control::Event& e = m.event();
    OperatorLine line;
    line.kind = OperatorLine::Kind::kEvent;
    line.text = describeEvent(e);
    line.agent = e.agent();
    line.event = e.kind();
    add(std::move(line));
  }
}

void OperatorModel::add(OperatorLine line) {
  if (line.kind == OperatorLine::Kind::kError) ++errors_;
  lines_.push_back(std::move(line));
  while (lines_.size() > kMaxLines) lines_.pop_front();
}

std::optional<std::uint32_t> OperatorModel::takeSpawned() { return std::exchange(spawned_, std::nullopt); }

std::vector<std::uint32_t> OperatorModel::takeDespawned() { return std::exchange(despawned_, {}); }

}  // namespace steerd::viewer
